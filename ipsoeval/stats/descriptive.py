"""Paired descriptive statistics, vectorised over leading axes.

For paired samples a, b of shape (..., n) — pairs with a NaN on either side
omitted — :func:`paired_summary` gives per row: n, mean of a, mean of b, the
mean difference d̄ (b − a), its t-based confidence interval
d̄ ± t_{1−(1−level)/2, n−1} · sd(d)/√n, the effect size d̄ / sd(d)
(sd with n − 1 denominator; undefined when sd = 0), and wins/ties/losses of b
against a.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval import mean as one_mean
from ipsoeval.special import dist
from ipsoeval.stats import paired


@dataclass
class PairedSummary:
    n: np.ndarray
    mean_a: np.ndarray
    mean_b: np.ndarray
    diff: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    effect_size: np.ndarray
    sd: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray


def paired_summary(a, b, level: float = 0.95) -> PairedSummary:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a, b = np.broadcast_arrays(a, b)
    ok = ~(np.isnan(a) | np.isnan(b))
    n = ok.sum(axis=-1)
    d = np.where(ok, b - a, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        nf = n.astype(np.float64)
        # the one mean of every command (ipsoeval.mean), over the paired topics
        diff_shape = n.shape
        rows = int(np.prod(diff_shape)) if diff_shape else 1
        width = a.shape[-1] if a.ndim else 1
        okf = ok.reshape(rows, width)
        mean_a = np.asarray(one_mean.means(a.reshape(rows, width), okf),
                            dtype=np.float64).reshape(diff_shape)
        mean_b = np.asarray(one_mean.means(b.reshape(rows, width), okf),
                            dtype=np.float64).reshape(diff_shape)
        diff = d.sum(axis=-1) / nf
        dev = np.where(ok, d - diff[..., None], 0.0)
        var = (dev * dev).sum(axis=-1) / (nf - 1.0)
        var = np.where(n >= 2, var, np.nan)
        sd = np.sqrt(var)
    # the interval and the effect size of each comparison: stats.paired's
    ci = [paired.t_interval(x, s, k, level)
          for x, s, k in zip(diff.reshape(-1).tolist(), sd.reshape(-1).tolist(),
                             np.asarray(n).reshape(-1).tolist())]
    ci_low, ci_high, effect = (np.array([c[i] for c in ci], dtype=np.float64).reshape(diff.shape)
                               for i in range(3))
    wins = ((d > 0) & ok).sum(axis=-1)
    losses = ((d < 0) & ok).sum(axis=-1)
    ties = n - wins - losses
    return PairedSummary(n, mean_a, mean_b, diff, ci_low, ci_high, effect, sd,
                         wins, ties, losses)


def mean_ci(x, level: float = 0.95):
    """Per row of ``x`` (..., n; no NaN): the mean, its t interval
    mean ± t_{1−(1−level)/2, n−1} · sd/√n (sd with n − 1 denominator; NaN for
    n < 2) as (mean, low, high) arrays."""
    x = np.asarray(x, dtype=np.float64)
    nf = float(x.shape[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        # the one mean of every command (ipsoeval.mean)
        lead = x.shape[:-1]
        rows = int(np.prod(lead)) if lead else 1
        mean = np.asarray(one_mean.means(x.reshape(rows, x.shape[-1])),
                          dtype=np.float64).reshape(lead)
        if x.shape[-1] < 2:
            half = np.full(mean.shape, np.nan)
        else:
            dev = x - mean[..., None]
            sd = np.sqrt((dev * dev).sum(axis=-1) / (nf - 1.0))
            half = dist.stdtrit(nf - 1.0, 0.5 + level / 2.0) * sd / np.sqrt(nf)
    return mean, mean - half, mean + half
