"""Vectorised average ranks along the last axis, with tie-group sizes.

Used by the rank-based tests (signed-rank, rank-sum, Kruskal–Wallis,
Friedman).  Works on any (..., n) float array without NaN.
"""

from __future__ import annotations

import numpy as np


def average_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """1-based average ranks of ``x`` along its last axis.

    Values equal under the tie rule (:data:`TIE_ULPS`) share a rank.
    Returns ``(ranks, tie_term)`` where ``ranks`` has the shape of ``x`` and
    ``tie_term`` (shape ``x.shape[:-1]``) is Σ (t³ − t) over the tie groups of
    each row, t being a group's size.
    """
    x = np.asarray(x, dtype=np.float64)
    shape = x.shape
    n = shape[-1]
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    if n == 0 or rows == 0:
        return np.zeros(shape), np.zeros(shape[:-1])
    flat = x.reshape(rows, n)
    flat = snap_ties(flat, tie_tolerance(flat))       # float-noise ties (rule below)
    order = np.argsort(flat, axis=1, kind="stable")
    s = np.take_along_axis(flat, order, axis=1)
    # a new tie group starts at column 0 and wherever the sorted value changes
    new = np.ones((rows, n), dtype=bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    newf = new.ravel()
    starts = np.flatnonzero(newf)                      # flat index of group starts
    sizes = np.diff(np.append(starts, rows * n))       # group sizes
    pos_in_row = starts % n                            # 0-based start position
    avg = pos_in_row + (sizes + 1) / 2.0               # 1-based average rank
    gid = np.cumsum(newf) - 1
    sorted_ranks = avg[gid].reshape(rows, n)
    ranks = np.empty((rows, n))
    np.put_along_axis(ranks, order, sorted_ranks, axis=1)
    t = sizes.astype(np.float64)
    tie = np.bincount(starts // n, weights=t ** 3 - t, minlength=rows)
    return ranks.reshape(shape), tie.reshape(shape[:-1])


# Tie rule of every rank-based test (and of the zeros of the signed-rank and
# sign tests): measure values are rationals computed in floating point, so a
# difference such as 0.3 - 0.2 carries noise of a few ulps of the OPERANDS'
# magnitude.  Two values are equal when they differ by at most
# TIE_ULPS * eps * scale, scale being the largest magnitude of the row's
# inputs (a difference is zero under the same rule).  Genuinely distinct
# measure values differ by far more (at least 1/N! for the measures here).
TIE_ULPS = 64


def tie_tolerance(*arrays: np.ndarray) -> np.ndarray:
    """Per-row tolerance TIE_ULPS * eps * max |x| over the rows of ``arrays``
    (each (rows, n)); 0 for rows of zeros."""
    mags = [np.max(np.abs(np.asarray(a, dtype=np.float64)), axis=-1, initial=0.0)
            for a in arrays]
    return TIE_ULPS * np.finfo(np.float64).eps * np.maximum.reduce(mags)


def snap_ties(x: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """``x`` (rows, n) with values within ``tol`` (per row) of their sorted
    neighbour replaced by one representative (the smallest of the chain), so
    float noise cannot split a tie.  Values within ``tol`` of 0 become 0."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return x.copy()
    tol = np.asarray(tol, dtype=np.float64).reshape(-1, 1)
    x = np.where(np.abs(x) <= tol, 0.0, x)
    order = np.argsort(x, axis=-1, kind="stable")
    s = np.take_along_axis(x, order, axis=-1)
    n = s.shape[-1]
    start = np.ones(s.shape, dtype=bool)
    start[:, 1:] = (s[:, 1:] - s[:, :-1]) > tol
    # a chain through 0 is represented by 0 itself
    idx = np.where(start, np.arange(n), 0)
    idx = np.maximum.accumulate(idx, axis=-1)
    rep = np.take_along_axis(s, idx, axis=-1)
    is_zero = s == 0.0
    zero_group = np.zeros(s.shape, dtype=bool)
    # group id per element; groups containing an exact zero snap to 0
    gid = np.cumsum(start, axis=-1)
    for r in np.flatnonzero(is_zero.any(axis=-1)):
        # a lookup table, not np.isin/np.unique, which import numpy.ma (~10 ms)
        hit = np.zeros(int(gid[r][-1]) + 1, dtype=bool)
        hit[gid[r][is_zero[r]]] = True
        zero_group[r] = hit[gid[r]]
    rep = np.where(zero_group, 0.0, rep)
    out = np.empty_like(x)
    np.put_along_axis(out, order, rep, axis=-1)
    return out


def snapped_difference(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """d = B - A with zeros and equal magnitudes decided by the tie rule:
    |d| is snapped (so +x and -x tie), then the sign is restored."""
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    d = B - A
    tol = tie_tolerance(A, B)
    mag = snap_ties(np.abs(d), tol)
    return np.sign(d) * mag
