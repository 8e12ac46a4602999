"""The score-level measures of Breuer et al. (SIGIR 2020) as repro_eval 0.5.0
computes them, and bootstrap intervals beside them.

Per measure, with per-topic scores ``ob``/``oa`` (original baseline and
advanced runs) and ``rb``/``ra`` (reproduced ones):

- RMSE = sqrt(mean((o - r)^2)) over the topics, for each run;
- nRMSE = RMSE / sqrt(mean(max(o, 1 - o)^2)): the RMSE over the largest
  one a reproduced run could reach, for a measure in [0, 1];
- ER (effect ratio) = mean(ra - rb) / mean(oa - ob);
- Delta RI = RI - RI', RI = (mean(oa) - mean(ob)) / mean(ob) and RI' the
  same of the reproduced runs;
- the t test of each run, original against reproduced: paired
  (reproducibility: the same topics; scipy's ``ttest_rel``) or Student's
  unpaired test with a pooled variance (replicability; ``ttest_ind``),
  two-sided; when the original and reproduced scores are identical the
  p-value is 1 (repro_eval's rule; the statistic is 0/0).

The bootstrap resamples topics: one draw of topics for the four runs when the
topics are the same (paired), one for the original runs and another for the
reproduced ones otherwise.  Intervals are BCa (Efron & Tibshirani 1993,
§14.3), the acceleration from the jackknife (the two samples' influence
values pooled when the topics differ), expanded for the number of topics
(:func:`expanded_z`; the smaller collection's when they differ).
"""

from __future__ import annotations

import math

import numpy as np


def rmse(o: np.ndarray, r: np.ndarray) -> float:
    d = np.asarray(o, float) - np.asarray(r, float)
    return math.sqrt(float(np.sum(d * d)) / len(d)) if len(d) else math.nan


def nrmse(o: np.ndarray, r: np.ndarray) -> float:
    o = np.asarray(o, float)
    worst = np.maximum(o, 1.0 - o)
    top = math.sqrt(float(np.sum(worst * worst)) / len(o)) if len(o) else math.nan
    e = rmse(o, r)
    return e / top if top else math.nan


def _div(a: float, b: float) -> float:
    """a / b as numpy divides float64 (inf or NaN for b = 0), quietly."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def er(ob, oa, rb, ra) -> float:
    return _div(np.mean(np.asarray(ra, float) - np.asarray(rb, float)),
                np.mean(np.asarray(oa, float) - np.asarray(ob, float)))


def ri(b, a) -> float:
    mb = np.mean(np.asarray(b, float))
    return _div(np.mean(np.asarray(a, float)) - mb, mb)


def dri(ob, oa, rb, ra) -> float:
    return float(ri(ob, oa) - ri(rb, ra))


def ttest(o, r, paired: bool):
    """(statistic, degrees of freedom, two-sided p-value) of the t test of
    original against reproduced scores; p = 1 when they are identical."""
    import warnings

    from scipy import stats
    o = np.asarray(o, float)
    r = np.asarray(r, float)
    if len(o) == len(r) and np.array_equal(o, r):
        return math.nan, float(len(o) - 1), 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.ttest_rel(o, r) if paired else stats.ttest_ind(o, r)
    df = float(len(o) - 1) if paired else float(len(o) + len(r) - 2)
    return float(res.statistic), df, float(res.pvalue)


# --------------------------------------------------------------- bootstrap

STATS = ("er", "dri", "diff_baseline", "diff_advanced", "effect_orig")


def _statistics(mob, moa, mrb, mra, mdo, mdr):
    """ER, Delta RI and the two differences of means from the (trial) means;
    ``mdo``/``mdr`` the means of the per-topic differences."""
    with np.errstate(divide="ignore", invalid="ignore"):
        e = mdr / mdo
        d = (moa - mob) / mob - (mra - mrb) / mrb
    return np.stack([e, d, mob - mrb, moa - mra, np.broadcast_to(mdo, np.shape(e))], axis=-1)


def _point(ob, oa, rb, ra):
    m = [np.mean(x) for x in (ob, oa, rb, ra)]
    return _statistics(*(np.float64(v) for v in m), np.mean(oa - ob), np.mean(ra - rb))


def _jackknife(ob, oa, rb, ra, paired: bool) -> np.ndarray:
    """Jackknife values (n, 4) of the four statistics, leaving one topic out
    (of both samples' topics in turn when they are not paired): (n, 5)."""
    def loo(x):
        n = len(x)
        return (x.sum() - x) / (n - 1)

    if paired:
        n = len(ob)
        return _statistics(loo(ob), loo(oa), loo(rb), loo(ra), loo(oa - ob), loo(ra - rb)) \
            if n > 1 else np.zeros((0, len(STATS)))
    out = []
    if len(ob) > 1:
        k = len(ob)
        out.append(_statistics(loo(ob), loo(oa), np.full(k, rb.mean()), np.full(k, ra.mean()),
                               loo(oa - ob), np.full(k, (ra - rb).mean())))
    if len(rb) > 1:
        k = len(rb)
        out.append(_statistics(np.full(k, ob.mean()), np.full(k, oa.mean()), loo(rb), loo(ra),
                               np.full(k, (oa - ob).mean()), loo(ra - rb)))
    return np.concatenate(out) if out else np.zeros((0, len(STATS)))


def _acceleration(jack: np.ndarray, groups) -> np.ndarray:
    """BCa acceleration from jackknife values, the influence values of each
    sample taken about that sample's own jackknife mean."""
    num = np.zeros(jack.shape[1])
    den = np.zeros(jack.shape[1])
    for lo, hi in groups:
        j = jack[lo:hi]
        if not len(j):
            continue
        with np.errstate(invalid="ignore"):
            u = j.mean(axis=0) - j
        num += (u ** 3).sum(axis=0)
        den += (u ** 2).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / (6.0 * den ** 1.5)


def _trial_means(rng, x: np.ndarray, samples: int) -> np.ndarray:
    """Means (samples, k) of the columns of ``x`` (n, k) over resampled topics
    (the bootstrap command's resampling, drawing from ``rng``)."""
    from ipsoeval.analyses.bootstrap.resample import bootstrap_means
    return bootstrap_means([x.T], samples, seed=0, rng=rng)[0]


def bootstrap(ob, oa, rb, ra, *, paired: bool, samples: int, seed: int, alpha: float):
    """Point values (5,) and (1 - alpha) BCa intervals (low (5,), high (5,))
    of ER, Delta RI, mean(ob) - mean(rb), mean(oa) - mean(ra) and the
    original effect mean(oa - ob) (:data:`STATS`)."""
    return bootstrap_many([(ob, oa, rb, ra)], paired=paired, samples=samples, seed=seed,
                          alpha=alpha)[0]


def bootstrap_many(sets, *, paired: bool, samples: int, seed: int, alpha: float):
    """:func:`bootstrap` of several measures' (ob, oa, rb, ra) on the same
    topics: one draw of the topics serves them all (the draws each would
    make alone with ``seed``), so that the resampling is paid once."""
    from ipsoeval.special import dist

    sets = [tuple(np.asarray(v, float) for v in s) for s in sets]
    rng = np.random.default_rng(seed)
    if paired:
        cols = np.column_stack([c for ob, oa, rb, ra in sets
                                for c in (ob, oa, rb, ra, oa - ob, ra - rb)])
        t = _trial_means(rng, cols, samples)
        parts = [t[:, 6 * k:6 * k + 6] for k in range(len(sets))]
        trials = [_statistics(p[:, 0], p[:, 1], p[:, 2], p[:, 3], p[:, 4], p[:, 5])
                  for p in parts]
    else:
        to = _trial_means(rng, np.column_stack([c for ob, oa, rb, ra in sets
                                                for c in (ob, oa, oa - ob)]), samples)
        tr = _trial_means(rng, np.column_stack([c for ob, oa, rb, ra in sets
                                                for c in (rb, ra, ra - rb)]), samples)
        trials = [_statistics(to[:, 3 * k], to[:, 3 * k + 1], tr[:, 3 * k], tr[:, 3 * k + 1],
                              to[:, 3 * k + 2], tr[:, 3 * k + 2]) for k in range(len(sets))]
    out = []
    for (ob, oa, rb, ra), tri in zip(sets, trials):
        if paired:
            groups = [(0, len(ob))]
        else:
            k = len(ob) if len(ob) > 1 else 0
            groups = [(0, k), (k, k + (len(rb) if len(rb) > 1 else 0))]
        theta = _point(ob, oa, rb, ra)
        m = len(ob) if paired else min(len(ob), len(rb))
        low, high = bca(theta, tri, _acceleration(_jackknife(ob, oa, rb, ra, paired), groups),
                        alpha, dist, expand=m)
        out.append((theta, low, high))
    return out


def expanded_z(alpha: float, n: int, dist) -> float:
    """The normal quantile that stands for alpha/2 in an interval expanded
    for a small sample (Hesterberg 2015, "What teachers should know about the
    bootstrap", §5.2): sqrt(n / (n - 1)) t_{alpha/2, n-1}.  A bootstrap
    distribution is narrower than the statistic's by the plug-in variance's
    (n - 1)/n and the normal quantile's lightness against t; on 50 topics a
    plain 95% interval covers about 94%."""
    if n < 2:
        return float(dist.ndtri(alpha / 2))
    return float(math.sqrt(n / (n - 1.0)) * dist.stdtrit(n - 1.0, alpha / 2))


def bca(theta: np.ndarray, trials: np.ndarray, a: np.ndarray, alpha: float, dist,
        expand: int | None = None):
    """BCa interval ends of each column of ``trials`` (B, k) about ``theta``
    (k,): z0 from the share of trials below theta (ties count half), the
    quantiles linear between order statistics; ``expand``: the number of
    topics whose small-sample expansion (:func:`expanded_z`) widens the
    interval.  A statistic undefined in the data (NaN) or in a trial gives
    NaN ends."""
    from ipsoeval.analyses.bootstrap.resample import bca_levels, quantile_linear

    B = trials.shape[0]
    with np.errstate(invalid="ignore"):
        below = (trials < theta).sum(axis=0)
        at = (trials == theta).sum(axis=0)
    z0 = dist.np_ndtri((below + 0.5 * at) / B)
    za = dist.ndtri(alpha / 2) if expand is None else expanded_z(alpha, expand, dist)
    p1, p2 = bca_levels(z0, np.where(np.isfinite(a), a, 0.0), za)
    srt = np.sort(trials, axis=0)
    low = quantile_linear(srt, p1)
    high = quantile_linear(srt, p2)
    bad = np.isnan(trials).any(axis=0) | np.isnan(theta)
    const = (srt[0] == srt[-1]) & ~bad           # every trial the same: that value
    low = np.where(const, srt[0], np.where(bad, np.nan, low))
    high = np.where(const, srt[-1], np.where(bad, np.nan, high))
    return low, high
