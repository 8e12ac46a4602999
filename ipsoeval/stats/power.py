"""Topic set size design (Sakai 2016, "Topic set size design", IRJ 19(3)).

Three designs, each from one variance estimate σ² of a measure's per-topic
scores, with exact distributions (noncentral t and F) where Sakai's
Excel tools use normal approximations (their n may therefore be 1 lower or
higher than ours near the boundary):

- **paired t-test** (:func:`t_power`, :func:`t_topics`): the per-topic
  differences of two systems have variance σ_t² = 2σ² (σ² the residual
  variance of the two-way ANOVA without replication: under the additive model
  score = topic + system + error the topic effect cancels in a difference and
  two independent errors remain).  With effect size Δ_t = δ/σ_t and n topics
  the two-sided test at α has power
  P(|T'| ≥ t_{1−α/2}(n−1)), T' ~ noncentral t(n−1, √n·Δ_t)
  (= statsmodels' ``TTestPower`` with ``effect_size=δ/σ_t``), computed as
  P(F' ≥ t²_{1−α/2}(n−1)), F' ~ noncentral F(1, n−1, n·Δ_t²) (T'² is F').
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

import functools
import math

import numpy as np

from ipsoeval.errors import IpsoevalError
from ipsoeval.special import dist, noncentral

# The distributions: the central quantiles from ipsoeval.special.dist (t.ppf(q,
# df) = stdtrit(df, q), f.ppf(q, d1, d2) = fdtri(d1, d2, q)), the noncentral
# tails from ipsoeval.special.noncentral; scipy only for a large noncentral F
# (_NCF_SERIES_MAX).


# The critical values depend on (α, df) only: the root finders in _invert and
# the curve ask for the same few again and again, so they are kept.
@functools.lru_cache(maxsize=4096)
def _t_ppf(q: float, df: float) -> float:
    return float(dist.np_stdtrit(df, q))


@functools.lru_cache(maxsize=4096)
def _f_ppf(q: float, d1: float, d2: float) -> float:
    return float(dist.np_fdtri(d1, d2, q))


def _nct_sf(x: float, df: float, nc: float) -> float:
    return noncentral.nct_sf(x, df, nc)


# Above this noncentrality the Poisson series of noncentral.ncf_sf, whose
# length grows as nc/2 (0.03 s of CPU a call at nc 5,000, 0.15 s at 20,000,
# 27 s at 1.3e6; a search for a topic count makes some tens of calls), costs
# more than importing scipy.stats once (~1 s) and calling its ncf.sf (Boost's
# series, ~0.1 ms).  Below it the series serves, and power's small-study call
# stays free of scipy's import: 0.44 s of CPU with the series against 1.50 s
# with scipy.stats.ncf.sf (0.73 s with scipy.special's private tail) on the
# bench's small-study case, whose target is 0.5 s.
_NCF_SERIES_MAX = 10_000.0


def _ncf_sf(x: float, d1: float, d2: float, nc: float) -> float:
    if not nc > _NCF_SERIES_MAX:
        return noncentral.ncf_sf(x, d1, d2, nc)
    from scipy.stats import ncf
    with np.errstate(all="ignore"):
        p = float(ncf.sf(x, d1, d2, nc))
    if math.isnan(p) and not any(math.isnan(v) for v in (x, d1, d2, nc)):
        # Boost reports a series that failed as NaN: said, not passed on as a power
        raise IpsoevalError(f"the noncentral F tail P(F' > {x!r}; {d1!r}, {d2!r}, {nc!r}) "
                            "could not be computed")
    return p


def brentq(f, a: float, b: float, xtol: float = 2e-12, rtol: float = 8.9e-16,
           maxiter: int = 100) -> float:
    """A zero of f in [a, b] (f(a), f(b) of opposite signs, else ValueError)
    by Brent's method (R. P. Brent, *Algorithms for Minimization without
    Derivatives*, 1973, ch. 4, procedure *zero*): inverse quadratic or secant
    steps kept inside the bracket, bisection whenever they would not shrink
    it fast enough.  Stops when the bracket's half-width is at most
    (xtol + rtol·|x|)/2, the tolerance of scipy.optimize.brentq."""
    fa, fb = f(a), f(b)
    if math.isnan(fa) or math.isnan(fb) or fa * fb > 0.0:
        raise ValueError("f(a) and f(b) must have opposite signs")
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    c, fc = a, fa
    d = e = b - a
    for _ in range(maxiter):
        if (fb > 0.0) == (fc > 0.0):
            # the zero lies between a and b: c takes a's place
            c, fc = a, fa
            d = e = b - a
        if abs(fc) < abs(fb):
            # b is the best estimate so far
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol = 0.5 * (xtol + rtol * abs(b))
        m = 0.5 * (c - b)
        if abs(m) <= tol or fb == 0.0:
            return b
        if abs(e) < tol or abs(fa) <= abs(fb):
            d = e = m                           # bisection
        else:
            s = fb / fa
            if a == c:                          # secant
                p, q = 2.0 * m * s, 1.0 - s
            else:                               # inverse quadratic interpolation
                q, r = fa / fc, fb / fc
                p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0))
                q = (q - 1.0) * (r - 1.0) * (s - 1.0)
            if p > 0.0:
                q = -q
            else:
                p = -p
            if 2.0 * p < 3.0 * m * q - abs(tol * q) and p < abs(0.5 * e * q):
                e, d = d, p / q                 # the interpolation is accepted
            else:
                d = e = m
        a, fa = b, fb
        b += d if abs(d) > tol else (tol if m > 0.0 else -tol)
        fb = f(b)
        if math.isnan(fb):
            raise ValueError("f is NaN inside the bracket")
    return b


MAX_TOPICS = 10_000_000

# t_power uses the noncentral F series up to this noncentrality nc^2, the two
# noncentral t integrals beyond (the series' length grows as nc^2/2).
_NCF_MAX_LAMBDA = 800.0


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
    # P(T' >= c) + P(T' <= -c) = P(T'^2 >= c^2), and T'^2 ~ noncentral F(1, df,
    # nc^2) (Johnson, Kotz & Balakrishnan vol. 2, ch. 31: the square of a
    # noncentral t); ncf_sf's series has positive terms only and costs about
    # nc^2/2 + a few terms, several times less than the two nct_sf integrals
    # while nc^2/2 stays below some hundreds (the cost of the integrals does not
    # grow with nc).  Both forms agree to ~1e-15 (tests/cli/test_power.py).
    if nc * nc <= _NCF_MAX_LAMBDA:
        return float(_ncf_sf(crit * crit, 1.0, df, nc * nc))
    # the lower tail P(T' <= -crit; nc) as P(T' >= crit; -nc)
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
    try:
        return brentq(lambda d: f(d) - target, 0.0, hi, xtol=1e-14, rtol=1e-12)
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
