"""Swap rate over random disjoint topic halves (Voorhees and Buckley, SIGIR 2002).

For each of S splits the topics are shuffled (``numpy.random.default_rng(seed)``,
one row of uniform keys per split, argsorted) and cut into two disjoint halves
of h = ⌊n/2⌋ topics (the first h and the next h; with an odd n one topic is
left out), or of h topics each when a set size is given (Voorhees and Buckley
vary it from 5 to 25 of 50 topics).  For every pair of runs (i < j) and every measure, d₁ and d₂ are
the differences of the runs' mean scores (j − i) on the two halves (means over
the topics where the score is defined).  A comparison with d₁ ≠ 0 falls in
bin k = ⌊|d₁| / w⌋ (bins of width w, 0.01 in the paper); it is a *swap* when
the second half orders the pair the other way, d₁ · d₂ < 0.  A tie on the
first half (d₁ = 0) orders nothing and is not counted; a tie on the second
half is not a swap.  The swap rate of a bin is swaps / comparisons.
"""

from __future__ import annotations

import numpy as np

CHUNK_CELLS = 4_000_000       # runs × splits × topics per chunk


def half_means(M: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(runs, splits) means of M (runs, topics) over the topic indices idx
    (splits, h), ignoring NaN (NaN when none is defined)."""
    sub = M[:, idx]                               # (runs, splits, h)
    ok = ~np.isnan(sub)
    cnt = ok.sum(axis=2)
    tot = np.where(ok, sub, 0.0).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, tot / np.maximum(cnt, 1), np.nan)


def splits(n: int, count: int, seed: int, chunk: int, h: int | None = None):
    """Yield (first, second) index arrays of shape (c, h) for ``count`` splits,
    ``chunk`` at a time, from one generator (same splits whatever the chunk);
    h topics per set (default n // 2)."""
    rng = np.random.default_rng(seed)
    h = n // 2 if h is None else h
    done = 0
    while done < count:
        c = min(chunk, count - done)
        perm = np.argsort(rng.random((c, n)), axis=1, kind="stable")
        yield perm[:, :h], perm[:, h:2 * h]
        done += c


def counts(matrices: dict[str, np.ndarray], count: int, seed: int, width: float,
           progress=None, set_size: int | None = None
           ) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    """Per measure: (comparisons per bin, swaps per bin, ties on the first half);
    ``set_size`` topics per set (default half of them)."""
    first = next(iter(matrices.values()))
    R, n = first.shape
    iu, ju = np.triu_indices(R, 1)
    out: dict[str, list] = {m: [np.zeros(0, np.int64), np.zeros(0, np.int64), 0]
                            for m in matrices}
    h = n // 2 if set_size is None else set_size
    chunk = max(1, min(CHUNK_CELLS // max(1, R * max(h, 1)), CHUNK_CELLS // max(1, iu.size)))
    done = 0
    for a, b in splits(n, count, seed, chunk, set_size):
        for m, M in matrices.items():
            A = half_means(M, a)
            B = half_means(M, b)
            d1 = (A[ju] - A[iu]).reshape(-1)          # (pairs × splits)
            d2 = (B[ju] - B[iu]).reshape(-1)
            keep = ~(np.isnan(d1) | np.isnan(d2))
            d1, d2 = d1[keep], d2[keep]
            tie = d1 == 0
            d1, d2 = d1[~tie], d2[~tie]
            k = np.floor(np.round(np.abs(d1) / width, 9)).astype(np.int64)
            swap = (d1 * d2) < 0
            nb = int(k.max()) + 1 if k.size else 0
            comp = np.bincount(k, minlength=nb)
            sw = np.bincount(k, weights=swap, minlength=nb).astype(np.int64)
            acc = out[m]
            size = max(acc[0].size, nb)
            acc[0] = np.pad(acc[0], (0, size - acc[0].size)) + np.pad(comp, (0, size - nb))
            acc[1] = np.pad(acc[1], (0, size - acc[1].size)) + np.pad(sw, (0, size - nb))
            acc[2] += int(tie.sum())
        done += a.shape[0]
        if progress is not None:
            progress(done, count)
    return {m: (v[0], v[1], v[2]) for m, v in out.items()}


def min_difference(comp: np.ndarray, swaps: np.ndarray, width: float,
                   limit: float) -> float | None:
    """Smallest bin edge k·w from which every bin with comparisons has a swap
    rate at most ``limit``; None when the last such bin exceeds it."""
    last_bad = -1
    for k in range(comp.size):
        if comp[k] and swaps[k] / comp[k] > limit:
            last_bad = k
    if last_bad == -1:
        return 0.0
    nonempty = np.flatnonzero(comp)
    if nonempty.size == 0 or last_bad >= nonempty[-1]:
        return None
    return float((last_bad + 1) * width)
