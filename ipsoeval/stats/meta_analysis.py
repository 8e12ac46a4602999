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
  restricted maximum likelihood (``reml``: the global maximum of the restricted
  likelihood on [0, inf), found by Fisher scoring from 0, from the
  DerSimonian-Laird value and from the best point of a grid);
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

from ipsoeval.special import dist

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
    if method == "reml":
        return _reml(y, v, k)
    t = zero.copy()
    active = (k > 1) & ((w * dev * dev).sum(axis=-1) > k - 1)
    for _ in range(MAXITER):
        if not active.any():
            break
        ok, w, yz, sw, mu = _sums(y, v, t)
        dev = np.where(ok, yz - mu[..., None], 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            # Newton on F(t) = sum w (y - mu)^2 - (k - 1), decreasing and convex:
            # from 0 it rises monotonically to the one root
            f = (w * dev * dev).sum(axis=-1) - (k - 1)
            step = f / (w * w * dev * dev).sum(axis=-1)
        step = np.where(active & np.isfinite(step), step, 0.0)
        new = np.maximum(t + step, 0.0)
        moved = np.abs(new - t)
        t = new
        active &= moved > TOL * (1.0 + t)
    return t


def restricted_loglik(y, v, tau2_value) -> np.ndarray:
    """The restricted log-likelihood of tau^2 (last axis; NaN y: absent), up
    to a constant: -(sum log(v + t) + log sum w + sum w (y - mu)^2) / 2."""
    y = np.asarray(y, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    t = np.asarray(tau2_value, dtype=np.float64)
    ok, w, yz, sw, mu = _sums(y, v, t)
    dev = np.where(ok, yz - mu[..., None], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(ok, np.log(np.where(ok, v, 1.0) + t[..., None]), 0.0).sum(axis=-1)
        return -0.5 * (logs + np.log(sw) + (w * dev * dev).sum(axis=-1))


def _reml_score(y, v, t):
    """The REML score S(t) (twice d loglik / d tau^2) and its derivative S'(t):
    with w = 1/(v + t), e = y - mu and c = sum w^2 e / sum w,
    S = sum w^2 e^2 - sum w + sum w^2 / sum w,
    S' = -2 sum w^3 e^2 + 2 c sum w^2 e + sum w^2 - 2 sum w^3 / sum w
    + (sum w^2 / sum w)^2."""
    ok, w, yz, sw, mu = _sums(y, v, t)
    e = np.where(ok, yz - mu[..., None], 0.0)
    w2 = w * w
    w3 = w2 * w
    with np.errstate(divide="ignore", invalid="ignore"):
        sw2 = w2.sum(axis=-1)
        r = sw2 / sw
        s = (w2 * e * e).sum(axis=-1) - sw + r
        c = (w2 * e).sum(axis=-1)
        d = (-2.0 * (w3 * e * e).sum(axis=-1) + 2.0 * c * c / sw + sw2
             - 2.0 * w3.sum(axis=-1) / sw + r * r)
    return s, d


GRID = 96               # log-spaced points of the restricted likelihood's first look


def _reml(y, v, k):
    """The REML tau^2: the global maximum of the restricted likelihood on
    [0, inf), the boundary included.  The likelihood need not be unimodal:
    0 can be a local maximum (a negative score there) with a higher one
    inside, where Fisher scoring started at 0 never leaves 0.  So the
    likelihood is first evaluated at 0 and on a log-spaced grid of (0, upper]
    (a ratio of 1.34 between points); the best point's neighbours bracket
    the maximum, where the score changes sign, and a safeguarded Newton
    iteration on the score (bisection whenever a step would leave the
    bracket) finds its root to the last bit.  The best of that root and 0
    wins.  Beyond ``upper`` = 8 R^2 + 2 max v (R the range of y) the
    likelihood only falls: there the weights differ by less than a factor
    rho = 1.5, so the score sum w^2 (y - mu)^2 - (sum_{i!=j} w_i w_j) / sum w
    is below k rho^2 a^2 R^2 - (k-1) a / rho (a the smallest weight, below
    1/t), which is negative once t > rho^3 R^2 k/(k-1) <= 6.75 R^2."""
    active = k > 1
    zero = np.zeros(y.shape[:-1])
    if not active.any():
        return zero
    ok = ~np.isnan(y)
    vz = np.where(ok, v, 0.0)
    with np.errstate(invalid="ignore"):
        hi = np.where(ok, y, -np.inf).max(axis=-1, initial=-np.inf)
        lo = np.where(ok, y, np.inf).min(axis=-1, initial=np.inf)
        span = np.where(active, hi - lo, 0.0)
        upper = 8.0 * span * span + 2.0 * vz.max(axis=-1, initial=0.0)
    upper = np.where(active & np.isfinite(upper) & (upper > 0), upper, 0.0)
    grid = [zero] + [upper * 10.0 ** e for e in np.linspace(-12.0, 0.0, GRID)]
    best_i = np.zeros(zero.shape, dtype=np.int64)
    best_ll = restricted_loglik(y, v, zero)
    for i, g in enumerate(grid[1:], 1):
        ll = restricted_loglik(y, v, g)
        better = ll > best_ll
        best_i = np.where(better, i, best_i)
        best_ll = np.where(better, ll, best_ll)
    G = np.stack(grid)                                   # (GRID + 1, ...)
    take = lambda i: np.take_along_axis(G, i[None], axis=0)[0]   # noqa: E731
    a = take(np.maximum(best_i - 1, 0))
    b = take(np.minimum(best_i + 1, GRID))
    x = take(best_i)
    sa, _ = _reml_score(y, v, a)
    sb, _ = _reml_score(y, v, b)
    # a bracket of the score's sign change around the best grid point; where
    # there is none (0 best with a negative score there) the answer is 0
    live = active & (sa > 0) & (sb < 0) & (upper > 0)
    for _ in range(MAXITER):
        if not live.any():
            break
        s, d = _reml_score(y, v, x)
        a = np.where(live & (s > 0), x, a)
        b = np.where(live & (s <= 0), x, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = x - s / d
        inside = (d < 0) & (newton > a) & (newton < b)
        new = np.where(inside, newton, 0.5 * (a + b))
        done = (np.abs(new - x) <= 4e-16 * np.abs(x)) | (s == 0) | \
            (b - a <= 4e-16 * np.abs(b))
        x = np.where(live, new, x)
        live &= ~done
    t = np.where(active & (sa > 0) & (sb < 0) & (upper > 0), x, zero)
    # the boundary is a candidate too, and wins a tie
    t = np.where(restricted_loglik(y, v, t) > restricted_loglik(y, v, zero), t, zero)
    return np.where(active, t, 0.0)


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
