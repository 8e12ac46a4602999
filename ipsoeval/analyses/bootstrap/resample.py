"""Topic bootstrap on per-topic score matrices (Craswell et al. 2021, §3.1–3.2).

Everything here works on plain float64 arrays of shape (runs, topics) — the
per-topic scores of one measure — and never re-scores a run: a trial is a
vector of topic *counts* (how often each topic was drawn), and the trial sums
of every run are one matrix product ``counts @ scores.T``.

Resampling follows ``scipy.stats.bootstrap`` exactly: trial ``b`` draws
``n`` topic indices with ``numpy.random.default_rng(seed).integers(0, n,
(trials, n))`` (row ``b`` of that matrix), drawn in batches of fixed size so
memory stays bounded; numpy's generator gives the same stream whatever the
batch size, so ``scipy.stats.bootstrap(..., rng=default_rng(seed))`` sees the
same resamples and must give the same intervals.

The trial sums are matrix products, whose last bits depend on the shape of
the product (BLAS kernels treat edge tiles and thread splits differently).
So every product has the same shape -- the last batch is padded with empty
trials -- and runs on one BLAS thread: trial ``b``'s mean is the same bytes
whatever the number of trials asked for, the machine's thread count or the
load.

Undefined scores (NaN, e.g. ESL without a relevant document) are left out
of a mean, as everywhere in ipsoeval: a trial mean is the mean over the drawn
topics where the score is defined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ipsoeval.special import dist
from ipsoeval.stats._blas import single_thread

# Trials drawn per batch: bounds memory to BATCH x topics counts (float64).
# Fixed, so results never depend on the machine.
BATCH = 256

# Two means closer than this (relative to the largest absolute per-topic
# score) are tied: it absorbs floating-point rounding of sums of permuted
# values (e.g. [1, .5] vs [.5, 1] on a resample).
TIE_RTOL = 1e-10

Progress = Callable[[int, int], None]


@dataclass
class MeasureInput:
    """One measure's per-topic scores (runs × topics), NaN = undefined (the
    input of bootstrap and leaderboard; here, not in :mod:`.report`, so that
    leaderboard does without bootstrap's analysis modules)."""

    name: str
    scores: np.ndarray
    higher_is_better: bool = True
    scale: str | None = None


def tie_tolerance(scores: np.ndarray) -> float:
    """Absolute tolerance under which two means count as equal."""
    finite = np.abs(scores[np.isfinite(scores)])
    scale = float(finite.max()) if finite.size else 0.0
    return TIE_RTOL * scale


def nanmean_rows(x: np.ndarray) -> np.ndarray:
    """Mean of each row over its defined (non-NaN) values; NaN if none: the
    one mean of every command (:func:`ipsoeval.mean.means`)."""
    from ipsoeval import mean as one_mean
    x = np.asarray(x, dtype=np.float64)
    if not x.ndim:
        x = x.reshape(1)
    lead = x.shape[:-1]
    rows = int(np.prod(lead)) if lead else 1
    got = one_mean.means(x.reshape(rows, x.shape[-1]), skip_nan=True)
    return np.asarray(got, dtype=np.float64).reshape(lead)


def resample_counts(rng: np.random.Generator, n: int, trials: int,
                    batch: int = BATCH):
    """Yield (start, counts) per batch; counts is float64 (batch, n): how many
    times each topic is drawn in each trial of the batch (rows past the last
    trial are empty trials, all zero, so every batch has the same shape).

    Trial ``b`` is row ``b`` of ``rng.integers(0, n, (trials, n))``.
    """
    for start in range(0, trials, batch):
        size = min(batch, trials - start)
        idx = rng.integers(0, n, (size, n))
        flat = idx + (np.arange(size, dtype=np.int64) * n)[:, None]
        counts = np.bincount(flat.ravel(), minlength=batch * n)   # padded: empty trials
        yield start, counts.reshape(batch, n).astype(np.float64)


def bootstrap_means(matrices: Sequence[np.ndarray], trials: int, seed: int,
                    progress: Progress | None = None,
                    batch: int = BATCH,
                    rng: np.random.Generator | None = None) -> list[np.ndarray]:
    """Trial means of every row of every matrix on the same resamples.

    ``matrices``: (rows_k, n) float64 arrays sharing the topic axis.
    Returns a list of (trials, rows_k) arrays: the mean of each row over the
    topics drawn in each trial (NaN scores left out; NaN if a trial drew no
    topic where the row is defined).
    """
    if not matrices:
        return []
    n = matrices[0].shape[1]
    if n == 0:
        raise ValueError("no topics to resample")
    rng = np.random.default_rng(seed) if rng is None else rng
    stacked = np.concatenate([np.asarray(m, dtype=np.float64) for m in matrices], axis=0)
    defined = ~np.isnan(stacked)
    values_t = np.where(defined, stacked, 0.0).T.copy()     # (n, rows)
    all_defined = bool(defined.all())
    defined_t = None if all_defined else defined.T.astype(np.float64)
    out = np.empty((trials, stacked.shape[0]))
    with single_thread():
        for start, w in resample_counts(rng, n, trials, batch):
            size = min(batch, trials - start)
            sums = (w @ values_t)[:size]         # one shape for every product
            if all_defined:
                out[start:start + size] = sums / n
            else:
                cnt = (w @ defined_t)[:size]
                with np.errstate(invalid="ignore", divide="ignore"):
                    out[start:start + size] = np.where(cnt > 0, sums / np.maximum(cnt, 1),
                                                       np.nan)
            if progress is not None:
                progress(start + size, trials)
    res = []
    pos = 0
    for m in matrices:
        res.append(out[:, pos:pos + m.shape[0]])
        pos += m.shape[0]
    return res


# ----------------------------------------------------------------- ranking

def rank_min(goodness: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """Competition ranks ("1224") along the last axis: higher is better,
    ties (within ``tol``) share the better rank; NaN ranks last."""
    g = np.where(np.isnan(goodness), -np.inf, goodness)
    # rank = 1 + number of others strictly better (by more than tol)
    better = g[..., None, :] > g[..., :, None] + tol
    # -inf + tol == -inf, so all-NaN entries tie with each other
    return 1 + better.sum(axis=-1)


@dataclass
class RankStability:
    """Rank distribution of R runs over B bootstrap trials."""

    means: np.ndarray            # (R,) mean on the full topic set
    leaderboard_rank: np.ndarray  # (R,) rank by full-set mean
    rank_counts: np.ndarray      # (R, R) int: trials in which run r had rank k+1
    trials: int

    @property
    def probabilities(self) -> np.ndarray:
        """(R, R): P(rank = k+1) for each run; rows sum to 1."""
        return self.rank_counts / float(self.trials)

    @property
    def expected_rank(self) -> np.ndarray:
        k = np.arange(1, self.rank_counts.shape[1] + 1, dtype=np.float64)
        return (self.rank_counts @ k) / float(self.trials)

    @property
    def p_first(self) -> np.ndarray:
        return self.rank_counts[:, 0] / float(self.trials)

    def rank_interval(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Equal-tailed rank interval with coverage >= ``level``.

        low = the largest rank k with P(rank < k) <= (1-level)/2,
        high = the smallest rank k with P(rank > k) <= (1-level)/2.
        """
        tail = (1.0 - level) / 2.0 * self.trials + 1e-9
        c = self.rank_counts
        below = np.cumsum(c, axis=1) - c          # trials with rank < k
        above = self.trials - np.cumsum(c, axis=1)  # trials with rank > k
        R = c.shape[1]
        ks = np.arange(1, R + 1)
        low = np.where(below <= tail, ks, 0).max(axis=1)
        high = np.where(above <= tail, ks, R + 1).min(axis=1)
        return low.astype(np.int64), high.astype(np.int64)


def rank_stability(scores: np.ndarray, trial_means: np.ndarray,
                   higher_is_better: bool = True,
                   tol: float | None = None) -> RankStability:
    """Rank runs by mean in each trial (``trial_means``: (B, R))."""
    scores = np.asarray(scores, dtype=np.float64)
    if tol is None:
        tol = tie_tolerance(scores)
    sign = 1.0 if higher_is_better else -1.0
    means = nanmean_rows(scores)
    lb = rank_min(sign * means, tol)
    B, R = trial_means.shape
    counts = np.zeros(R * R, dtype=np.int64)
    # chunks of trials keep the (chunk, R, R) comparison small
    step = max(1, (1 << 22) // max(R * R, 1))
    offs = np.arange(R)[None, :] * R
    for start in range(0, B, step):
        ranks = rank_min(sign * trial_means[start:start + step], tol)   # (b, R)
        counts += np.bincount((offs + (ranks - 1)).ravel(), minlength=R * R)
    counts = counts.reshape(R, R)
    return RankStability(means=means, leaderboard_rank=lb, rank_counts=counts, trials=B)


# ------------------------------------------------------ confidence intervals

def quantile_linear(sorted_b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Linear-interpolation quantiles (Hyndman & Fan type 7, numpy's
    default) of each column of ``sorted_b`` (B, R, sorted along axis 0) at
    per-column probabilities ``p`` (R,).  NaN where p is NaN."""
    B = sorted_b.shape[0]
    p = np.asarray(p, dtype=np.float64)
    ok = np.isfinite(p)
    h = np.where(ok, np.clip(p, 0.0, 1.0), 0.0) * (B - 1)
    lo = np.floor(h).astype(np.int64)
    hi = np.minimum(lo + 1, B - 1)
    frac = h - lo
    cols = np.arange(sorted_b.shape[1])
    a = sorted_b[lo, cols]
    b = sorted_b[hi, cols]
    with np.errstate(invalid="ignore"):
        q = a + (b - a) * frac
    # exact at the grid points (avoid inf - inf, keep a when frac == 0)
    q = np.where(frac == 0.0, a, q)
    return np.where(ok, q, np.nan)


def jackknife_acceleration(x: np.ndarray) -> np.ndarray:
    """BCa acceleration of the mean for each row of ``x`` (R, n).

    The jackknife values of a mean are (S − x_i)/(m − 1), so the influence
    values are x_i − mean and a = Σ d³ / (6 (Σ d²)^{3/2}) (Efron &
    Tibshirani 1993, eq. 14.15).  NaN scores have no influence.
    """
    x = np.asarray(x, dtype=np.float64)
    m = nanmean_rows(x)
    d = np.where(np.isnan(x), 0.0, x - m[:, None])
    num = (d ** 3).sum(axis=1)
    den = (d ** 2).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / (6.0 * den ** 1.5)


def bca_levels(z0: np.ndarray, a: np.ndarray, za: float) -> tuple[np.ndarray, np.ndarray]:
    """The quantile levels of a BCa interval's two ends (Efron & Tibshirani
    1993, eq. 14.10): bias correction ``z0``, acceleration ``a``, ``za`` the
    normal quantile standing for the lower tail."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n1 = z0 + za
        p1 = dist.np_ndtr(z0 + n1 / (1.0 - a * n1))
        n2 = z0 - za
        p2 = dist.np_ndtr(z0 + n2 / (1.0 - a * n2))
    return p1, p2


def bootstrap_ci(x: np.ndarray, trial_means: np.ndarray, level: float = 0.95,
                 method: str = "percentile", tol: float | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided bootstrap CI of the mean of each row of ``x`` (R, n) from
    its trial means (B, R), as ``scipy.stats.bootstrap`` computes it.

    method "percentile": quantiles (1±level)/2 of the trial means.
    method "bca": bias-corrected and accelerated (Efron & Tibshirani 1993,
    §14.3): z0 from the share of trial means below the full-sample mean
    (ties count half), acceleration from the jackknife.
    Rows whose scores are all equal get the degenerate interval [mean, mean].
    Undefined intervals (e.g. every trial mean on one side) are NaN.
    """
    x = np.asarray(x, dtype=np.float64)
    tm = np.asarray(trial_means, dtype=np.float64)
    B, R = tm.shape
    alpha = (1.0 - level) / 2.0
    srt = np.sort(tm, axis=0)           # NaN sort last
    theta = nanmean_rows(x)
    if method == "percentile":
        p1 = np.full(R, alpha)
        p2 = np.full(R, 1.0 - alpha)
    elif method == "bca":
        if tol is None:
            tol = tie_tolerance(x)
        below = (tm < theta[None, :] - tol).sum(axis=0)
        at_or_below = (tm <= theta[None, :] + tol).sum(axis=0)
        z0 = dist.np_ndtri((below + at_or_below) / (2.0 * B))
        p1, p2 = bca_levels(z0, jackknife_acceleration(x), dist.ndtri(alpha))
    else:
        raise ValueError(f"unknown CI method {method!r}")
    low = quantile_linear(srt, p1)
    high = quantile_linear(srt, p2)
    # an undefined trial mean makes the bootstrap distribution undefined
    bad = np.isnan(tm).any(axis=0)
    low = np.where(bad, np.nan, low)
    high = np.where(bad, np.nan, high)
    # constant rows: degenerate interval
    xd = np.where(np.isnan(x), theta[:, None], x)
    const = (np.nanmax(xd, axis=1, initial=-np.inf) == np.nanmin(xd, axis=1, initial=np.inf)) & ~np.isnan(theta)
    low = np.where(const, theta, low)
    high = np.where(const, theta, high)
    return low, high


def paired_differences(x: np.ndarray, base: int) -> np.ndarray:
    """Per-topic differences run − baseline (R, n); NaN where either is
    undefined.  Row ``base`` is all zeros where defined."""
    x = np.asarray(x, dtype=np.float64)
    return x - x[base][None, :]
