"""Exact null distributions (integer counts) of rank statistics.

Counts are computed from their generating functions with Python integers, so
they are exact; callers divide by the total number of outcomes once.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=64)
def signed_rank_counts(n: int) -> np.ndarray:
    """Counts of W+ = 0..n(n+1)/2 over the 2^n sign patterns of ranks 1..n.

    Generating function Π_{i=1..n} (1 + q^i).  Returned as float64 cumulative
    sums are taken by the caller; values up to 2^n are exact in float64 for
    n ≤ 53.
    """
    size = n * (n + 1) // 2 + 1
    poly = [0] * size
    poly[0] = 1
    top = 0
    for i in range(1, n + 1):
        top += i
        for s in range(top, i - 1, -1):
            poly[s] += poly[s - i]
    return np.array(poly, dtype=np.float64)


@lru_cache(maxsize=64)
def rank_sum_counts(n1: int, n2: int) -> np.ndarray:
    """Counts of U = 0..n1*n2 (Mann–Whitney) over the C(n1+n2, n1) splits.

    Generating function: the Gaussian binomial coefficient
    [n1+n2 choose m]_q = Π_{i=1..m} (1 − q^{M+i}) / (1 − q^i), m = min, M = max.
    """
    m, big = min(n1, n2), max(n1, n2)
    size = m * big + 1
    poly = [0] * size
    poly[0] = 1
    for i in range(1, m + 1):
        # multiply by (1 - q^(big+i))
        k = big + i
        for s in range(size - 1, k - 1, -1):
            poly[s] -= poly[s - k]
        # divide by (1 - q^i): running sum with stride i
        for s in range(i, size):
            poly[s] += poly[s - i]
    return np.array([float(c) for c in poly], dtype=np.float64)
