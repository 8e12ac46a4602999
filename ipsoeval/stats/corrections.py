"""Multiple-comparison corrections of p-values.

``adjust(pvalues, method)`` with method one of ``none``, ``bonferroni``,
``holm`` (Holm–Bonferroni step-down) or ``bh`` (Benjamini–Hochberg step-up
false discovery rate).  The family is every finite p-value of the input
(any shape, flattened); NaN p-values are not counted and stay NaN.
Adjusted p-values are capped at 1 and are never smaller than the raw ones.
"""

from __future__ import annotations

import numpy as np

METHODS = ("none", "bonferroni", "holm", "bh")


def adjust(pvalues, method: str = "none") -> np.ndarray:
    if method not in METHODS:
        raise ValueError(f"correction must be one of {METHODS} (got {method!r})")
    p = np.asarray(pvalues, dtype=np.float64)
    out = p.copy()
    if method == "none":
        return out
    flat = out.reshape(-1)
    valid = np.flatnonzero(~np.isnan(flat))
    m = valid.size
    if m == 0:
        return out
    pv = flat[valid]
    if method == "bonferroni":
        adj = np.minimum(1.0, pv * m)
    elif method == "holm":
        order = np.argsort(pv, kind="stable")
        factors = m - np.arange(m)                       # m, m-1, ..., 1
        stepped = np.maximum.accumulate(pv[order] * factors)
        adj = np.empty(m)
        adj[order] = np.minimum(1.0, stepped)
    else:  # bh
        order = np.argsort(pv, kind="stable")
        ranks = np.arange(1, m + 1)
        scaled = pv[order] * m / ranks
        stepped = np.minimum.accumulate(scaled[::-1])[::-1]
        adj = np.empty(m)
        adj[order] = np.minimum(1.0, stepped)
    flat[valid] = adj
    return out
