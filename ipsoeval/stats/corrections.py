"""Multiple-comparison corrections of p-values.

``adjust(pvalues, method)`` with method one of ``none``, ``bonferroni``,
``holm`` (Holm–Bonferroni step-down) or ``bh`` (Benjamini–Hochberg step-up
false discovery rate).  The family is every finite p-value of the input
(any shape, flattened); NaN p-values are not counted and stay NaN.
Adjusted p-values are capped at 1 and are never smaller than the raw ones.

:func:`adjust_list` does the arithmetic on a list of Python floats (no
numpy: sigtest's quick path calls it); :func:`adjust` is it on arrays.
"""

from __future__ import annotations

METHODS = ("none", "bonferroni", "holm", "bh")


def adjust_list(pvalues: list, method: str = "none") -> list:
    """:func:`adjust` of a list of floats (NaN: not in the family, stays NaN)."""
    if method not in METHODS:
        raise ValueError(f"correction must be one of {METHODS} (got {method!r})")
    out = [float(p) for p in pvalues]
    valid = [i for i, p in enumerate(out) if p == p]
    m = len(valid)
    if method == "none" or m == 0:
        return out
    pv = [out[i] for i in valid]
    if method == "bonferroni":
        adj = [min(1.0, p * m) for p in pv]
    else:
        order = sorted(range(m), key=pv.__getitem__)        # stable, as argsort's
        adj = [0.0] * m
        if method == "holm":
            run = None
            for r, i in enumerate(order):
                x = pv[i] * (m - r)                           # m, m-1, ..., 1
                run = x if run is None or x > run or x != x else run
                adj[i] = min(1.0, run)
        else:  # bh
            run = None
            for r in range(m - 1, -1, -1):
                i = order[r]
                x = pv[i] * m / (r + 1)
                run = x if run is None or x < run or x != x else run
                adj[i] = min(1.0, run)
    for i, p in zip(valid, adj):
        out[i] = p
    return out


def adjust(pvalues, method: str = "none"):
    """``pvalues`` (any shape) adjusted by ``method``: a float64 array."""
    import numpy as np

    p = np.asarray(pvalues, dtype=np.float64)
    return np.array(adjust_list(p.reshape(-1).tolist(), method),
                    dtype=np.float64).reshape(p.shape)
