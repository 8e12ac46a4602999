"""Prediction-powered inference of a mean (Angelopoulos, Bates, Fannjiang,
Jordan & Zrnic, *Science* 2023) and its power-tuned variant PPI++
(Angelopoulos, Duchi & Zrnic 2023, arXiv:2311.01453), declared once here.

Data: ``y`` the gold-standard values on the n labelled units, ``yhat`` the
predictions on the same units, ``yhat_u`` the predictions on the N unlabelled
units (a separate, independent sample of the same population).  With a
weight λ,

    estimate = λ · mean(yhat_u) + mean(y − λ · yhat)
    se²      = λ² · var(yhat_u) / N + var(y − λ · yhat) / n

(variances with divisor n or N, as ``ppi_py`` computes them), and the
1 − α interval is the normal one, ``estimate ± z(1 − α/2) · se``; the
p-value of "the mean is 0" comes from the same normal statistic.  λ = 1 is
the original PPI, λ = 0 the classical (labelled-only) estimate, and PPI++
uses the variance-minimising

    λ̂ = cov(y, yhat) / ((1 + n/N) · var(yhat ∪ yhat_u)),

the covariance over the n labelled units (divisor n), the variance over all
n + N predictions (divisor n + N − 1), clipped to [0, 1] -- ``ppi_py``'s
``_calc_lam_glm`` for the mean, which the tests check these numbers against.
When the predictions do not vary (or there is no unlabelled unit) λ̂ is 0:
the predictions can add nothing.

Every function works on the last axis, so many problems (runs, repetitions
of a simulation) are solved at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval.special import dist

__all__ = ["MeanCI", "lambda_hat", "ppi_mean", "classical_mean", "welch_t"]


@dataclass
class MeanCI:
    """Arrays (the shape of the inputs without their last axis): the point
    estimate, its standard error, the interval, the two-sided p-value of
    "the mean is 0" and the weight λ the predictions were given."""
    estimate: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p_value: np.ndarray
    lam: np.ndarray


# The normal and Student t tails are scipy.stats' own functions of them
# (norm.isf(q) = -ndtri(q), norm.sf(x) = ndtr(-x), t.sf(x, df) = stdtr(df, -x)),
# called without scipy.stats, whose import costs a second.

def _z(alpha: float) -> float:
    return -dist.ndtri(alpha / 2.0)


def _finish(est, se, alpha: float, lam) -> MeanCI:
    z = _z(alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.abs(est) / se
        p = 2.0 * dist.np_ndtr(-stat)
    p = np.where(se > 0, p, np.where(est == 0, 1.0, 0.0))
    p = np.where(np.isnan(se) | np.isnan(est), np.nan, p)
    return MeanCI(est, se, est - z * se, est + z * se, p, lam)


def lambda_hat(y, yhat, yhat_u) -> np.ndarray:
    """PPI++'s power-tuning weight for a mean, clipped to [0, 1] (0 when the
    predictions are constant or there is no unlabelled unit)."""
    y = np.asarray(y, dtype=np.float64)
    yhat = np.asarray(yhat, dtype=np.float64)
    yhat_u = np.asarray(yhat_u, dtype=np.float64)
    n, N = y.shape[-1], yhat_u.shape[-1]
    if n == 0 or N == 0:
        return np.zeros(y.shape[:-1])
    yc = y - y.mean(axis=-1, keepdims=True)
    hc = yhat - yhat.mean(axis=-1, keepdims=True)
    cov = (yc * hc).mean(axis=-1)
    allhat = np.concatenate([yhat, yhat_u], axis=-1)
    var = allhat.var(axis=-1, ddof=1) if n + N > 1 else np.zeros(y.shape[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = cov / ((1.0 + n / N) * var)
    lam = np.where(var > 0, lam, 0.0)
    return np.clip(lam, 0.0, 1.0)


def ppi_mean(y, yhat, yhat_u, alpha: float = 0.05, lam=None) -> MeanCI:
    """The prediction-powered estimate of the mean of ``y`` and its interval:
    PPI++ (λ̂) when ``lam`` is None, else the given λ (1: the original PPI).
    Fewer than 2 labelled units: the se and the interval are undefined (NaN)."""
    y = np.asarray(y, dtype=np.float64)
    yhat = np.asarray(yhat, dtype=np.float64)
    yhat_u = np.asarray(yhat_u, dtype=np.float64)
    if y.shape != yhat.shape or y.shape[:-1] != yhat_u.shape[:-1]:
        raise ValueError(f"ppi_mean: shapes {y.shape}, {yhat.shape}, {yhat_u.shape} do not fit")
    n, N = y.shape[-1], yhat_u.shape[-1]
    if lam is None:
        lam = lambda_hat(y, yhat, yhat_u)
    lam = np.broadcast_to(np.asarray(lam, dtype=np.float64), y.shape[:-1]).copy()
    if N == 0:                       # nothing unlabelled: the predictions add nothing
        lam = np.zeros_like(lam)
    lk = lam[..., None]
    rect = y - lk * yhat
    imputed = (lk * yhat_u).mean(axis=-1) if N else np.zeros(y.shape[:-1])
    est = imputed + rect.mean(axis=-1) if n else np.full(y.shape[:-1], np.nan)
    var_imp = (lk * yhat_u).var(axis=-1) / N if N else np.zeros(y.shape[:-1])
    se = np.sqrt(var_imp + rect.var(axis=-1) / n) if n >= 2 else np.full(y.shape[:-1], np.nan)
    return _finish(est, se, alpha, lam)


def classical_mean(y, alpha: float = 0.05) -> MeanCI:
    """The sample mean and its normal interval (``ppi_py.classical_mean_ci``:
    standard deviation with divisor n); undefined with fewer than 2 units."""
    y = np.asarray(y, dtype=np.float64)
    n = y.shape[-1]
    est = y.mean(axis=-1) if n else np.full(y.shape[:-1], np.nan)
    se = y.std(axis=-1) / np.sqrt(n) if n >= 2 else np.full(y.shape[:-1], np.nan)
    return _finish(est, se, alpha, np.zeros(y.shape[:-1]))


def welch_t(a, b):
    """Welch's unequal-variances t test of mean(a) = mean(b) on the last axis:
    (difference a − b, its standard error, two-sided p-value), variances with
    divisor n − 1 and the Welch–Satterthwaite degrees of freedom
    (``scipy.stats.ttest_ind(a, b, equal_var=False)``); NaN when a side has
    fewer than 2 units.  Zero standard error: p is 1 for equal means, else 0."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    na, nb = a.shape[-1], b.shape[-1]
    shape = a.shape[:-1]
    if na < 2 or nb < 2:
        nan = np.full(shape, np.nan)
        return nan, nan.copy(), nan.copy()
    d = a.mean(axis=-1) - b.mean(axis=-1)
    va, vb = a.var(axis=-1, ddof=1) / na, b.var(axis=-1, ddof=1) / nb
    se = np.sqrt(va + vb)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
        p = 2.0 * dist.np_stdtr(df, -(np.abs(d) / se))
    p = np.where(se > 0, p, np.where(d == 0, 1.0, 0.0))
    return d, se, p
