"""Rank correlation between the system rankings two measures give.

- :func:`tau_ap` -- AP correlation τ_AP (Yilmaz, Aslam and Robertson, SIGIR
  2008): with the n systems ranked by ``x`` (highest first) and ``y`` as the
  reference,

      τ_AP = 2/(n−1) · Σ_{i=2..n} C(i)/(i−1) − 1,

  C(i) the number of systems ranked above position i by ``x`` that ``y`` also
  places above the system at position i.  It weighs errors near the top more
  than Kendall's τ; it is not symmetric (``tau_ap(x, y) != tau_ap(y, x)`` in
  general).  The paper defines it for rankings without ties: NaN when ``x`` or
  ``y`` has tied values, or fewer than two systems.

Kendall's τ_b is ``scipy.stats.kendalltau``'s.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["tau_ap"]


def tau_ap(x, y) -> float:
    """τ_AP of the ranking by ``x`` against the reference ranking by ``y`` (score
    arrays over the same systems, higher is better)."""
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    if x.shape != y.shape:
        raise ValueError(f"x and y differ in length ({x.size} vs {y.size})")
    n = x.size
    if n < 2 or np.isnan(x).any() or np.isnan(y).any():
        return math.nan
    if np.unique(x).size < n or np.unique(y).size < n:
        return math.nan
    order = np.argsort(-x, kind="stable")          # positions by x, best first
    yo = y[order]
    total = 0.0
    for i in range(1, n):                          # position i+1 in the paper's 1-based terms
        c = int((yo[:i] > yo[i]).sum())
        total += c / i
    return float(2.0 * total / (n - 1) - 1.0)
