"""Correlation of two rankings of the same items, given as scores (higher = ranked higher).

- :func:`kendall_tau_b` -- Kendall's τ_b (ties in either ranking corrected;
  ``scipy.stats.kendalltau``'s default);
- :func:`tau_ap` -- AP correlation τ_AP of Yilmaz, Aslam and Robertson (SIGIR
  2008) of a ranking against a reference ranking, and :func:`tau_ap_symmetric`,
  the mean of both directions;
- :func:`rbo` -- rank-biased overlap RBO_ext of Webber, Moffat and Zobel (TOIS
  2010, Eq. 32) of two full rankings of the same items.

Ties.  Values equal up to float noise (the stats tie rule,
:func:`ipsoeval.stats._rank.snap_ties`) are ties.  τ_b corrects for them as
scipy does.  τ_AP and RBO are defined on rankings without ties; with ties both
are the *expected* value over uniformly random orderings of every tie group,
drawn independently in the two rankings (closed forms below, no sampling).
Without ties that is the paper's value; when only the evaluated ranking has
ties, τ_AP equals Urbano and Marrero's τ_AP,a (ICTIR 2017), whose "accuracy"
scenario it generalises to a reference with ties.
"""

from __future__ import annotations

import math

import numpy as np


def _snap(x) -> np.ndarray:
    from ipsoeval.stats._rank import snap_ties, tie_tolerance
    x = np.asarray(x, dtype=np.float64)
    if x.size < 2:
        return x.copy()
    return snap_ties(x[None, :], tie_tolerance(x[None, :]))[0]


def _pair(x, y) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    if x.shape != y.shape:
        raise ValueError(f"rankings of different lengths ({x.size} and {y.size})")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("a ranking score is NaN")
    return _snap(x), _snap(y)


def kendall_tau_b(x, y, *, snap: bool = True) -> float:
    """Kendall's tau-b (ties in either ranking corrected), NaN when undefined
    (fewer than two items with values in both, or one ranking all tied).
    NaN values are left out pairwise.  ``snap=False``: ties are exact
    equality and the value is rounded as ``scipy.stats.kendalltau`` rounds it
    (the same number, without importing scipy.stats)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    n = len(x)
    if n < 2:
        return float("nan")
    if snap:
        # equal measure values computed along different float paths (AP's
        # 0.2233560090702948 and 0.22335600907029476) are ties: the stats tie rule
        x, y = _snap(x), _snap(y)
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    iu = np.triu_indices(n, 1)
    dx, dy = dx[iu], dy[iu]
    s = float((dx * dy).sum())
    tx = float(np.count_nonzero(dx))
    ty = float(np.count_nonzero(dy))
    if tx == 0 or ty == 0:
        return float("nan")
    if snap:
        return s / math.sqrt(tx * ty)
    # scipy: (concordant - discordant) / sqrt(pairs untied in x) / sqrt(... in y),
    # clipped to [-1, 1]
    return min(1.0, max(-1.0, s / math.sqrt(tx) / math.sqrt(ty)))


def _groups(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item: the first (1-based) position of its tie group when ranked by
    x descending, and the size of the group."""
    above = (x[None, :] > x[:, None]).sum(axis=1)
    size = (x[None, :] == x[:, None]).sum(axis=1)
    return above + 1, size


def tau_ap(reference, other) -> float:
    """τ_AP of the ranking by ``other`` against the ranking by ``reference``
    (Yilmaz et al. 2008: the reference is the "true" ranking)::

        τ_AP = 2/(N−1) · Σ_{i=2..N} C(i)/(i−1) − 1

    where i runs over the positions of the ranking by ``other`` and C(i) counts
    the items above position i that the reference also ranks above the item
    at i.  With ties: the expectation over random orderings of the tie groups
    (module docstring); a pair tied in the reference is ordered either way
    with probability 1/2.  NaN for fewer than two items."""
    x, y = _pair(reference, other)
    n = x.size
    if n < 2:
        return float("nan")
    # c[j, i]: probability that the reference ranks j above i
    c = (x[:, None] > x[None, :]) + 0.5 * (x[:, None] == x[None, :])
    start, size = _groups(y)
    higher = y[:, None] > y[None, :]                 # higher[j, i]: j above i's group
    mates = (y[:, None] == y[None, :]) & ~np.eye(n, dtype=bool)
    above = (c * higher).sum(axis=0)                  # A_i
    mate_sum = (c * mates).sum(axis=0)
    total = 0.0
    for i in range(n):
        g = int(size[i])
        m = mate_sum[i] / (g - 1) if g > 1 else 0.0
        acc = 0.0
        for k in range(g):                            # i at position start + k, k mates above
            pos = int(start[i]) + k
            if pos >= 2:
                acc += (above[i] + k * m) / (pos - 1)
        total += acc / g
    return 2.0 / (n - 1) * total - 1.0


def tau_ap_symmetric(x, y) -> float:
    """The mean of τ_AP(y against x) and τ_AP(x against y) (Yilmaz et al.
    2008, §3, for two rankings with no true one)."""
    return 0.5 * (tau_ap(x, y) + tau_ap(y, x))


def rbo(x, y, p: float = 0.9) -> float:
    """RBO_ext (Webber et al. 2010, Eq. 32) of the rankings by ``x`` and by
    ``y`` of the same N items, evaluated at depth k = N::

        RBO = X_N/N · p^N + (1−p)/p · Σ_{d=1..N} X_d/d · p^d

    X_d being the overlap of the two top-d sets (X_N = N: the rankings hold
    the same items, so the extrapolation term is p^N and the value is exact).
    With ties: X_d is its expectation over random orderings of the tie groups,
    Σ_items P(item in x's top d) · P(item in y's top d).  NaN for no items."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"RBO's p must lie strictly between 0 and 1 (found {p})")
    x, y = _pair(x, y)
    n = x.size
    if n == 0:
        return float("nan")
    d = np.arange(1, n + 1, dtype=np.float64)

    def in_top(v):                                   # (items, depths)
        start, size = _groups(v)
        return np.clip(d[None, :] - start[:, None] + 1, 0, size[:, None]) / size[:, None]

    X = (in_top(x) * in_top(y)).sum(axis=0)
    w = p ** d
    return float(X[-1] / n * p ** n + (1.0 - p) / p * float((X / d * w).sum()))


def competition_ranks(x) -> np.ndarray:
    """1-based ranks, highest value first; tied values (the stats tie rule)
    share the best rank of their group (1, 2, 2, 4)."""
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    if x.size == 0:
        return np.zeros(0, dtype=np.int64)
    start, _ = _groups(_snap(x))
    return start.astype(np.int64)
