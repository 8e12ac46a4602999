"""Vectorised average ranks along the last axis, with tie-group sizes.

Used by the rank-based tests (signed-rank, rank-sum, Kruskal–Wallis,
Friedman).  Works on any (..., n) float array without NaN.
"""

from __future__ import annotations

import numpy as np


def average_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """1-based average ranks of ``x`` along its last axis.

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
