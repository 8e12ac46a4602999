"""Randomised Tukey HSD (Carterette 2012, "Multiple testing in statistical
analysis of systems-based information retrieval experiments", ACM TOIS 30(1);
Sakai 2018, *Laboratory Experiments in Information Retrieval*).

The null hypothesis: on every topic the k runs' scores are exchangeable.  A
sample permutes each topic's row of scores across the runs (independently per
topic), computes the k run means and records their range max − min.  All pairs
are compared with that one null distribution, so the family-wise error rate
over the k(k−1)/2 pairs is controlled::

    p(i, j) = (#{b : range_b ≥ |mean_i − mean_j|} + 1) / (B + 1)

(ipsoeval's Monte Carlo convention, docs/conventions.md §Statistics; Sakai
divides the count by B).

Random stream (counter based, so every sample can be computed on its own and
the result does not depend on the number of threads): with
``mix`` = splitmix64's output function and ``G`` = 0x9E3779B97F4A7C15,
``root = mix(seed + G)``, sample b's key is ``key_b = mix(root + (b + 1) G)``
and its c-th draw (c = 1, 2, ...) is ``mix(key_b + c G)`` (mod 2^64).  A
sample shuffles topic t = 0, 1, ... in order, each from the identity, with
Fisher–Yates: for i = k−1 down to 1, j = floor(draw · (i + 1) / 2^64), swap
positions i and j (k − 1 draws per topic; the bias of this bounded draw is
below (i + 1)/2^64).  Run j's sum adds the permuted scores in topic order;
the means are sum / n.  The compiled core (``_core.hsd_ranges``) and
:func:`ranges_numpy` implement the same stream and give the same bytes.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

GAMMA = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1
BLOCK = 32                 # samples per unit of work (and progress step), at least
_UNIT_WORK = 1 << 20       # topic x run cells per unit of work, at least: a unit of
#                            32 samples of 12 runs x 50 topics lasts ~0.1 ms, less
#                            than a thread hand-off (2 threads: twice the CPU of one)
_CHUNK = 1 << 20           # elements of a (samples, topics, runs) block in numpy

Progress = Callable[[int, int], None]


def _mix_int(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _below(r: np.ndarray, m: int) -> np.ndarray:
    """floor(r · m / 2^64) for m < 2^32 (exact, in 64-bit words)."""
    mm = np.uint64(m)
    hi = r >> np.uint64(32)
    lo = r & np.uint64(0xFFFFFFFF)
    return ((hi * mm + ((lo * mm) >> np.uint64(32))) >> np.uint64(32)).astype(np.int64)


def root_key(seed: int) -> int:
    return _mix_int((int(seed) & MASK) + GAMMA)


def ranges_numpy(Xt: np.ndarray, seed: int, first: int, count: int) -> np.ndarray:
    """Ranges of samples first .. first+count−1 in numpy (the compiled core's
    twin).  ``Xt``: (topics, runs) float64."""
    Xt = np.ascontiguousarray(Xt, dtype=np.float64)
    n, k = Xt.shape
    out = np.empty(count)
    root = np.uint64(root_key(seed))
    g = np.uint64(GAMMA)
    step_size = max(1, min(count, _CHUNK // max(n * k, 1)))
    t_idx = np.arange(n)[None, :, None]
    steps = np.arange(n, dtype=np.uint64) * np.uint64(k - 1)
    with np.errstate(over="ignore"):
        for s0 in range(0, count, step_size):
            size = min(step_size, count - s0)
            b = np.arange(first + s0, first + s0 + size, dtype=np.uint64)
            key = _mix(root + (b + np.uint64(1)) * g)
            perm = np.broadcast_to(np.arange(k, dtype=np.int64), (size, n, k)).copy()
            for step, i in enumerate(range(k - 1, 0, -1)):
                c = steps + np.uint64(step + 1)
                j = _below(_mix(key[:, None] + c[None, :] * g), i + 1)[..., None]
                pi = perm[:, :, i].copy()
                perm[:, :, i] = np.take_along_axis(perm, j, axis=2)[..., 0]
                np.put_along_axis(perm, j, pi[..., None], axis=2)
            vals = Xt[t_idx, perm]                           # (size, n, k)
            sums = np.zeros((size, k))
            for t in range(n):                               # topic order, as the core
                sums += vals[:, t, :]
            means = sums / n
            out[s0:s0 + size] = means.max(axis=1) - means.min(axis=1)
    return out


def _core():
    from ipsoeval.reading import core
    if not core.enabled():
        return None
    fn = getattr(core.CORE, "hsd_ranges", None)
    return fn


def compiled() -> bool:
    """Whether the compiled core computes the samples."""
    return _core() is not None


def ranges(X: np.ndarray, samples: int, seed: int, progress: Progress | None = None
           ) -> np.ndarray:
    """The range of the run means in each of ``samples`` within-topic
    permutations of ``X`` ((runs, topics) float64, no NaN, runs ≥ 2)."""
    from ipsoeval.parallel import parallel_map

    X = np.asarray(X, dtype=np.float64)
    k, n = X.shape
    Xt = np.ascontiguousarray(X.T)
    core = _core()
    size = block_size(n, k)
    blocks = [(s, min(size, samples - s)) for s in range(0, samples, size)]
    done = [0]

    def one(block):
        first, count = block
        if core is not None:
            out = np.empty(count)
            core(Xt, n, k, int(seed) & MASK, first, out)
        else:
            out = ranges_numpy(Xt, seed, first, count)
        return out

    parts = []
    if progress is not None:
        progress(0, samples)
    # parallel_map keeps order; progress is reported in order of completion
    # of the blocks handed back (on this thread)
    for part in _ordered(parallel_map, one, blocks):
        parts.append(part)
        done[0] += part.size
        if progress is not None:
            progress(done[0], samples)
    return np.concatenate(parts) if parts else np.empty(0)


def block_size(n: int, k: int) -> int:
    """Samples per unit of work for ``n`` topics x ``k`` runs: :data:`BLOCK`,
    or more when one sample is small work (each sample's draws depend on its
    index alone, so the blocks do not change the numbers)."""
    return max(BLOCK, -(-_UNIT_WORK // max(n * k, 1)))


def _ordered(pmap, fn, blocks, group: int = 64):
    """Results of ``fn`` over ``blocks`` in order, in groups (for progress)."""
    for g in range(0, len(blocks), group):
        yield from pmap(fn, blocks[g:g + group])


def pvalues(means: np.ndarray, null_ranges: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """(k, k) p-values: (#{range ≥ |mean_i − mean_j| − tol} + 1) / (B + 1);
    diagonal 1.  ``tol`` absorbs the rounding of sums of permuted scores."""
    means = np.asarray(means, dtype=np.float64)
    srt = np.sort(np.asarray(null_ranges, dtype=np.float64))
    B = srt.size
    d = np.abs(means[:, None] - means[None, :])
    count = B - np.searchsorted(srt, (d - tol).ravel(), side="left").reshape(d.shape)
    p = (count + 1.0) / (B + 1.0)
    np.fill_diagonal(p, 1.0)
    return p
