"""Closed forms on binary relevance: P, R, RR, Success and RBP(p <= 1/2).

P and R take k + 1 values for k relevant documents (phi = k + 1), RR takes
N + 1 values (phi = N + 2 - i for the first relevant document at rank i),
Success two, and RBP with p <= 1/2 orders runs lexicographically (every one
of the 2^N runs has its own value, phi = 1 + the run read as a binary
number).  The run counts below and at a value are sums of binomials, so any
N is instant.
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.analyses.interval_map.common import BinomPrefix, MapSpec, PhiResult, ties_rank
from ipsoeval.errors import UsageError

FAMILIES = ("P", "R", "RR", "Success")   # and RBP with p <= 1/2


def closed_form(spec: MapSpec, rel: np.ndarray, caps: np.ndarray, ties: str) -> PhiResult:
    """phi of each row of ``rel`` (Q, N) booleans, with per-row caps K."""
    N = spec.N
    cum = BinomPrefix(N)          # lazy: the full prefix costs O(N^2) digits at large N
    phis, nv, nu = [], [], []
    for q in range(rel.shape[0]):
        r = rel[q]
        K = int(min(caps[q], N))
        k = int(r.sum())
        if spec.family == "P":
            K = N
        if spec.family in ("P", "R"):
            n_values, n_univ = K + 1, cum[K + 1]
            less, eq = cum[k], math.comb(N, k)
            unq = k + 1
        elif spec.family == "RR":
            n_values, n_univ = N + 1, 1 << N
            nz = np.flatnonzero(r)
            if len(nz) == 0:
                unq, less, eq = 1, 0, 1
            else:
                i = int(nz[0]) + 1
                unq = N + 2 - i
                less, eq = 1 << (N - i), 1 << (N - i)
        elif spec.family == "Success":
            n_values, n_univ = 2, 1 << N
            if k == 0:
                unq, less, eq = 1, 0, 1
            else:
                unq, less, eq = 2, 1, (1 << N) - 1
        elif spec.family == "RBP":   # p <= 1/2: lexicographic order
            n_values = n_univ = 1 << N
            unq = 1 + int("".join("1" if x else "0" for x in r) or "0", 2)
            less, eq = unq - 1, 1
        else:  # pragma: no cover - dispatch guards this
            raise UsageError(f"no closed form for {spec.family}")
        phis.append(unq if ties == "unq" else ties_rank(ties, less, eq))
        nv.append(n_values)
        nu.append(n_univ)
    return PhiResult(phis, nv, nu)


def closed_listing(spec: MapSpec, K: int):
    """Distinct values ascending and the number of runs at each, for P, R,
    RR and Success; R's runs have at most K relevant documents."""
    N = spec.N
    if spec.family == "P":
        return np.arange(N + 1) / N, np.array([math.comb(N, k) for k in range(N + 1)], dtype=object)
    if spec.family == "R":
        return np.arange(K + 1, dtype=float), np.array([math.comb(N, k) for k in range(K + 1)], dtype=object)
    if spec.family == "Success":
        return np.array([0.0, 1.0]), np.array([1, 2 ** N - 1], dtype=object)
    vals = np.array([0.0] + [1.0 / i for i in range(N, 0, -1)])
    mult = np.array([1] + [2 ** (N - i) for i in range(N, 0, -1)], dtype=object)
    return vals, mult
