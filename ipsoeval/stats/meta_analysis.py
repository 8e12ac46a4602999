"""Meta-analysis: per-study effects and their fixed- and random-effects pooling.

Studies here are test collections; an effect is a run's difference from a
baseline on one collection's topics.

Effects (:func:`effect`) from the paired per-topic differences d_1..d_n:

- ``md``  -- the mean difference, mean(d), with variance var(d)/n, var with
  ddof=1 (the squared standard error of the paired t test); needs n >= 2.
- ``smd`` -- the standardized mean difference of paired data, Hedges' g on
  d_z = mean(d)/sd(d) (sd with ddof=1): g = J d_z with the small-sample
  correction J = 1 - 3/(4(n-1) - 1), variance J^2 (1/n + d_z^2/(2n))
  (Borenstein et al. 2009, Introduction to Meta-Analysis, ch. 4, d for
  matched groups with r unknown, i.e. the standardized mean change on the
  differences; Hedges & Olkin 1985 for J); needs n >= 3 and sd(d) > 0.

Pooling (:func:`pool`) of effects y_i with variances v_i, i = 1..k:

- fixed effect: w_i = 1/v_i, mu = sum w y / sum w, se = 1/sqrt(sum w);
- Cochran's Q = sum w (y - mu_FE)^2 on k-1 df, I^2 = max(0, (Q-(k-1))/Q);
- tau^2 by DerSimonian-Laird (``dl``, truncated at 0), Paule-Mandel
  (``pm``: sum w*(y-mu*)^2 = k-1 with w* = 1/(v+tau^2); 0 when Q < k-1) or
  restricted maximum likelihood (``reml``, Fisher scoring, truncated at 0);
- random effects: w*_i = 1/(v_i + tau^2), mu, se = 1/sqrt(sum w*), normal
  CI, z = mu/se and its two-sided p;
- the prediction interval for the effect in a new collection (Higgins,
  Thompson & Spiegelhalter 2009, JRSS A 172(1)): mu -/+ t_{k-2, 1-alpha/2}
  sqrt(tau^2 + se^2); undefined for k < 3.

The other numbers are those of statsmodels' ``combine_effects`` (fixed
scale, normal intervals; it leaves I^2 and the DerSimonian-Laird tau^2
untruncated and has no prediction interval), which the tests check them
against.

Every function works on the last axis of arrays of any shape (a study left
out is NaN), so the bootstrap pools thousands of resamples at once.
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.stats import dist

EFFECTS = ("md", "smd")
METHODS = ("reml", "dl", "pm")
MIN_TOPICS = {"md": 2, "smd": 3}
TOL = 1e-13
FLAT = 1e-12           # differences closer than this (relative) count as equal
MAXITER = 500


def hedges_j(n):
    """The small-sample correction J = 1 - 3/(4(n-1) - 1) of Hedges' g."""
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 - 3.0 / (4.0 * (n - 1.0) - 1.0)


def effect(d, kind: str = "md") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Effect, variance and topic count of paired differences ``d`` along the
    last axis (NaN topics left out).  Too few topics: NaN effect/variance."""
    if kind not in EFFECTS:
        raise ValueError(f"effect must be one of {EFFECTS} (got {kind!r})")
    d = np.asarray(d, dtype=np.float64)
    ok = ~np.isnan(d)
    n = ok.sum(axis=-1).astype(np.float64)
    dz = np.where(ok, d, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = dz.sum(axis=-1) / n
        dev = np.where(ok, d - mean[..., None], 0.0)
        var = (dev * dev).sum(axis=-1) / (n - 1.0)
        # differences equal up to rounding (0.2 - 0.1 and 0.6 - 0.5) do not vary
        hi = np.where(ok, d, -np.inf).max(axis=-1, initial=-np.inf)
        lo = np.where(ok, d, np.inf).min(axis=-1, initial=np.inf)
        flat = (hi - lo) <= FLAT * np.maximum(1.0, np.maximum(np.abs(hi), np.abs(lo)))
        var = np.where(flat & (n > 1), 0.0, var)
        if kind == "md":
            y, v = mean, var / n
        else:
            dstd = mean / np.sqrt(var)
            j = hedges_j(n)
            y = j * dstd
            v = j * j * (1.0 / n + dstd * dstd / (2.0 * n))
    few = n < MIN_TOPICS[kind]
    if kind == "smd":          # no spread of the differences: no standardized effect
        few = few | ~(var > 0)
    y = np.where(few, np.nan, y)
    v = np.where(few, np.nan, v)
    return y, v, n


def _sums(y, v, tau2):
    """Weights and weighted mean of the present studies (NaN y: absent)."""
    ok = ~np.isnan(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(ok, 1.0 / (np.where(ok, v, 1.0) + tau2[..., None]), 0.0)
    yz = np.where(ok, y, 0.0)
    sw = w.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mu = (w * yz).sum(axis=-1) / sw
    return ok, w, yz, sw, mu


def tau2(y, v, method: str = "reml") -> np.ndarray:
    """Between-study variance tau^2 of effects ``y`` with variances ``v``
    (last axis; NaN y: absent).  Fewer than two studies: 0."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS} (got {method!r})")
    y = np.asarray(y, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    zero = np.zeros(y.shape[:-1])
    ok, w, yz, sw, mu = _sums(y, v, zero)
    k = ok.sum(axis=-1)
    dev = np.where(ok, yz - mu[..., None], 0.0)
    if method == "dl":
        q = (w * dev * dev).sum(axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            c = sw - (w * w).sum(axis=-1) / sw
            t = (q - (k - 1)) / c
        return np.where(k > 1, np.maximum(t, 0.0), 0.0)
    t = zero.copy()
    active = k > 1
    if method == "pm":
        q0 = (w * dev * dev).sum(axis=-1)
        active &= q0 > k - 1
    for _ in range(MAXITER):
        if not active.any():
            break
        ok, w, yz, sw, mu = _sums(y, v, t)
        dev = np.where(ok, yz - mu[..., None], 0.0)
        w2 = w * w
        with np.errstate(divide="ignore", invalid="ignore"):
            if method == "pm":
                # Newton on F(t) = sum w (y - mu)^2 - (k - 1), decreasing and convex
                f = (w * dev * dev).sum(axis=-1) - (k - 1)
                step = f / (w2 * dev * dev).sum(axis=-1)
            else:
                # REML Fisher scoring (Viechtbauer 2005, JEBS 30(3))
                sw2 = w2.sum(axis=-1)
                score = (w2 * dev * dev).sum(axis=-1) - sw + sw2 / sw
                info = sw2 - 2.0 * (w2 * w).sum(axis=-1) / sw + sw2 * sw2 / (sw * sw)
                step = score / info
        step = np.where(active & np.isfinite(step), step, 0.0)
        new = np.maximum(t + step, 0.0)
        moved = np.abs(new - t)
        t = new
        active &= moved > TOL * (1.0 + t)
    return t


def random_effects(y, v, tau2_value) -> tuple[np.ndarray, np.ndarray]:
    """Pooled mean and its standard error with weights 1/(v + tau^2)."""
    _, _, _, sw, mu = _sums(np.asarray(y, dtype=np.float64), np.asarray(v, dtype=np.float64),
                           np.asarray(tau2_value, dtype=np.float64))
    with np.errstate(divide="ignore"):
        return mu, 1.0 / np.sqrt(sw)


def _norm_p(z: float) -> float:
    return dist.erfc(abs(z) / math.sqrt(2.0)) if math.isfinite(z) else math.nan


def pool(y, v, method: str = "reml", alpha: float = 0.05) -> dict:
    """Fixed- and random-effects pooling of one set of studies (1-D arrays;
    NaN y: absent).  Keys: k, estimate, se, ci_low, ci_high, z, p_value,
    tau2, i2, q, q_df, q_p_value, pi_low, pi_high, fe_estimate, fe_se,
    fe_ci_low, fe_ci_high, fe_z, fe_p_value (NaN where undefined)."""
    y = np.asarray(y, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    keep = ~np.isnan(y)
    y, v = y[keep], v[keep]
    k = int(y.size)
    crit = dist.ndtri(1.0 - alpha / 2.0)
    out = {"k": k}
    if k == 0:
        return {**out, **{key: math.nan for key in _KEYS}}
    fe_mu, fe_se = (float(x) for x in random_effects(y, v, 0.0))
    w = 1.0 / v
    q = float((w * (y - fe_mu) ** 2).sum())
    df = k - 1
    t2 = float(tau2(y, v, method))
    mu, se = (float(x) for x in random_effects(y, v, t2))
    z = mu / se
    fe_z = fe_mu / fe_se
    if k >= 3:
        tq = dist.stdtrit(float(k - 2), 1.0 - alpha / 2.0)
        half = tq * math.sqrt(t2 + se * se)
        pi = (mu - half, mu + half)
    else:
        pi = (math.nan, math.nan)
    out.update(estimate=mu, se=se, ci_low=mu - crit * se, ci_high=mu + crit * se, z=z,
               p_value=_norm_p(z), tau2=t2,
               i2=max(0.0, (q - df) / q) if df > 0 and q > 0 else (0.0 if df > 0 else math.nan),
               q=q if df > 0 else math.nan, q_df=df,
               q_p_value=dist.chdtrc(float(df), float(q)) if df > 0 else math.nan,
               pi_low=pi[0], pi_high=pi[1], fe_estimate=fe_mu, fe_se=fe_se,
               fe_ci_low=fe_mu - crit * fe_se, fe_ci_high=fe_mu + crit * fe_se, fe_z=fe_z,
               fe_p_value=_norm_p(fe_z))
    return out


_KEYS = ("estimate", "se", "ci_low", "ci_high", "z", "p_value", "tau2", "i2", "q", "q_df",
         "q_p_value", "pi_low", "pi_high", "fe_estimate", "fe_se", "fe_ci_low", "fe_ci_high",
         "fe_z", "fe_p_value")
