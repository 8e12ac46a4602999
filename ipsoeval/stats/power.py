"""Topic set size design (Sakai 2016, "Topic set size design", IRJ 19(3)).

Three designs, each from one variance estimate σ² of a measure's per-topic
scores, with exact distributions (scipy's noncentral t and F) where Sakai's
Excel tools use normal approximations (their n may therefore be 1 lower or
higher than ours near the boundary):

- **paired t-test** (:func:`t_power`, :func:`t_topics`): the per-topic
  differences of two systems have variance σ_t² = 2σ² (σ² the residual
  variance of the two-way ANOVA without replication: under the additive model
  score = topic + system + error the topic effect cancels in a difference and
  two independent errors remain).  With effect size Δ_t = δ/σ_t and n topics
  the two-sided test at α has power
  P(|T'| ≥ t_{1−α/2}(n−1)), T' ~ noncentral t(n−1, √n·Δ_t)
  (= statsmodels' ``TTestPower`` with ``effect_size=δ/σ_t``).
- **one-way ANOVA over m systems** (:func:`anova_power`,
  :func:`anova_topics`): δ is the minimum detectable range (best − worst
  system mean); the least favourable configuration (two systems δ apart, the
  others midway) has Δ = δ²/(2σ²) and noncentrality λ = n·Δ; power
  P(F' ≥ F_{1−α}(m−1, m(n−1))), F' ~ noncentral F(m−1, m(n−1), λ)
  (= statsmodels' ``FTestAnovaPower`` with ``effect_size=sqrt(Δ/m)``,
  ``nobs=m·n``, ``k_groups=m``).
- **confidence interval** (:func:`ci_half_width`, :func:`ci_topics`): the
  100(1−α)% CI of a paired difference has half-width (margin of error)
  t_{1−α/2}(n−1)·sqrt(V_t/n); its expected value, with
  E[sqrt(V_t)] = σ_t·sqrt(2/(n−1))·Γ(n/2)/Γ((n−1)/2), must not exceed w.
  Sakai caps the whole width 2·E[MOE] at δ, that is w = δ/2.

Every ``*_topics`` function returns the smallest n ≥ 2 that meets the
requirement, or None when no n up to :data:`MAX_TOPICS` does.
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.stats import dist

# The distributions as scipy.stats computes them (t.ppf(q, df) is
# stdtrit(df, q), f.ppf(q, d1, d2) is fdtri(d1, d2, q); the noncentral tails
# are the ufuncs scipy.stats' nct.sf and ncf.sf call), without importing
# scipy.stats, which costs a second: the same numbers.

def _t_ppf(q: float, df: float) -> float:
    return dist.np_stdtrit(df, q)


def _f_ppf(q: float, d1: float, d2: float) -> float:
    return dist.np_fdtri(d1, d2, q)


def _nct_sf(x: float, df: float, nc: float) -> float:
    try:
        from scipy.special._ufuncs import _nct_sf
    except ImportError:                 # another scipy: its public route
        from scipy import stats
        return stats.nct.sf(x, df, nc)
    with np.errstate(over="ignore"):
        return np.clip(_nct_sf(x, df, nc), 0, 1)


def _ncf_sf(x: float, d1: float, d2: float, nc: float) -> float:
    try:
        from scipy.special._ufuncs import _ncf_sf
    except ImportError:
        from scipy import stats
        return stats.ncf.sf(x, d1, d2, nc)
    return _ncf_sf(x, d1, d2, nc)

MAX_TOPICS = 10_000_000


def residual_variance(X) -> tuple[float, int, int]:
    """(V_E, runs, topics) of the two-way ANOVA without replication on X (runs ×
    topics); topics with a missing value in any run are left out."""
    from ipsoeval.stats.omnibus import anova_twoway, complete
    C = complete(X)
    k, n = C.shape
    if k < 2 or n < 2:
        return math.nan, k, n
    res = anova_twoway(C)
    var = float(res.extra["mse"])
    # rounding leaves ~1e-33 where the runs differ by a constant on every topic
    if var <= 1e-24 * max(float(np.mean(C * C)), 1e-300):
        var = 0.0
    return var, k, n


def t_power(n, delta: float, variance: float, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test with n topics to detect a mean
    difference ``delta`` when the scores' residual variance is ``variance``."""
    n = float(n)
    if n < 2 or not variance > 0:
        return math.nan
    df = n - 1.0
    nc = math.sqrt(n) * abs(delta) / math.sqrt(2.0 * variance)
    crit = _t_ppf(1.0 - alpha / 2.0, df)
    # the lower tail P(T' <= -crit; nc) as P(T' >= crit; -nc): scipy's nct.cdf
    # returns NaN for some far lower tails (df 3, nc 8) where the sf form does not
    return float(_nct_sf(crit, df, nc) + _nct_sf(crit, df, -nc))


def anova_power(n, m: int, delta: float, variance: float, alpha: float = 0.05) -> float:
    """Power of one-way ANOVA over ``m`` systems with n topics each to detect a
    range ``delta`` between the best and the worst system mean."""
    n = float(n)
    if n < 2 or m < 2 or not variance > 0:
        return math.nan
    d1, d2 = m - 1.0, m * (n - 1.0)
    lam = n * delta * delta / (2.0 * variance)
    crit = _f_ppf(1.0 - alpha, d1, d2)
    return float(_ncf_sf(crit, d1, d2, lam))


def ci_half_width(n, variance: float, alpha: float = 0.05) -> float:
    """Expected half-width (margin of error) of the 100(1−α)% CI of a paired
    difference of means over n topics."""
    n = float(n)
    if n < 2 or not variance >= 0:
        return math.nan
    sd_t = math.sqrt(2.0 * variance)
    e_sd = sd_t * math.sqrt(2.0 / (n - 1.0)) * math.exp(
        dist.gammaln(n / 2.0) - dist.gammaln((n - 1.0) / 2.0))
    return float(_t_ppf(1.0 - alpha / 2.0, n - 1.0) * e_sd / math.sqrt(n))


def _smallest(ok) -> int | None:
    """Smallest integer n ≥ 2 with ok(n) (ok monotone: false then true)."""
    if ok(2):
        return 2
    hi = 4
    while not ok(hi):
        if hi >= MAX_TOPICS:
            return None
        hi = min(hi * 2, MAX_TOPICS)
    lo = hi // 2          # not ok(lo)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def t_topics(delta: float, variance: float, alpha: float = 0.05,
             power: float = 0.8) -> int | None:
    if not (variance > 0 and delta > 0):
        return None
    return _smallest(lambda n: t_power(n, delta, variance, alpha) >= power)


def anova_topics(m: int, delta: float, variance: float, alpha: float = 0.05,
                 power: float = 0.8) -> int | None:
    if not (variance > 0 and delta > 0) or m < 2:
        return None
    return _smallest(lambda n: anova_power(n, m, delta, variance, alpha) >= power)


def ci_topics(width: float, variance: float, alpha: float = 0.05) -> int | None:
    """Smallest n whose expected CI half-width is at most ``width``."""
    if not width > 0 or not variance >= 0:
        return None
    return _smallest(lambda n: ci_half_width(n, variance, alpha) <= width)


def _invert(f, target: float) -> float:
    """δ > 0 with f(δ) = target, f increasing from f(0) = α-ish to 1."""
    hi = 1e-6
    while True:
        v = f(hi)
        if math.isnan(v) or hi > 1e12:
            return math.nan
        if v >= target:
            break
        hi *= 2.0
    from scipy import optimize  # here: only the inversions need it
    try:
        return float(optimize.brentq(lambda d: f(d) - target, 0.0, hi, xtol=1e-14,
                                     rtol=1e-12))
    except ValueError:          # NaN inside the bracket
        return math.nan


def t_detectable(n: int, variance: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Minimal difference the paired t-test detects with ``power`` at n topics."""
    if n < 2 or not variance > 0:
        return math.nan
    return _invert(lambda d: t_power(n, d, variance, alpha), power)


def anova_detectable(n: int, m: int, variance: float, alpha: float = 0.05,
                     power: float = 0.8) -> float:
    """Minimal range one-way ANOVA over m systems detects with ``power`` at n topics."""
    if n < 2 or m < 2 or not variance > 0:
        return math.nan
    return _invert(lambda d: anova_power(n, m, d, variance, alpha), power)
