"""Noncentral t and F survival functions (ipsoeval.special.noncentral) and the
Brent root finder of ipsoeval.stats.power, against outside references:
Boost's noncentral tails as scipy ships them (``scipy.special._ufuncs._nct_sf``
and ``_ncf_sf``, what scipy.stats.nct.sf and ncf.sf call), mpmath at 30 digits
where Boost is wrong (its lower tails of the noncentral t lose all digits, and
a few of its F tails with 10^5 denominator degrees of freedom are off by
3e-12), and scipy.optimize.brentq.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ipsoeval.special import noncentral
from ipsoeval.stats import power

ufuncs = pytest.importorskip("scipy.special._ufuncs")
mp = pytest.importorskip("mpmath")

REL = 1e-12


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b else abs(a)


def mp_nct_sf(t: float, df: float, nc: float) -> float:
    """P(T > t) = E[Φc(tS − δ)], S = sqrt(χ²_ν/ν), by mpmath's tanh-sinh
    quadrature in y = log s, split finely around the peak (found on a grid)."""
    with mp.workdps(30):
        T, DF, NC = mp.mpf(t), mp.mpf(df), mp.mpf(nc)
        z = DF / 2
        c = mp.log(2) + z * mp.log(z) - mp.loggamma(z)

        def logg(y):
            return (c + DF * y - DF * mp.exp(2 * y) / 2
                    + mp.log(mp.erfc((T * mp.exp(y) - NC) / mp.sqrt(2)) / 2))
        ys = [k / 8 for k in range(-8 * 60, 8 * 6)]
        y0 = max(ys, key=lambda y: float(logg(mp.mpf(y))))
        w = min(0.05, 0.5 / math.sqrt(2 * df))
        pts = sorted({-400.0, -100.0, -40.0, -10.0, 6.0, *(y0 + j * w for j in range(-80, 81))})
        return float(mp.quad(lambda y: mp.exp(logg(y)), [mp.mpf(p) for p in pts if -400 <= p <= 6]))


def mp_ncf_sf(x: float, d1: float, d2: float, nc: float) -> float:
    """Σ_j Pois(j; λ/2)·I_z(ν₂/2, ν₁/2 + j), z = ν₂/(ν₂ + ν₁x), in mpmath."""
    with mp.workdps(30):
        x, d1, d2, nc = map(mp.mpf, (x, d1, d2, nc))
        z, mu = d2 / (d2 + d1 * x), nc / 2
        total, j = mp.mpf(0), 0
        while True:
            w = mp.exp(-mu + j * mp.log(mu) - mp.loggamma(j + 1))
            term = w * mp.betainc(d2 / 2, d1 / 2 + j, 0, z, regularized=True)
            total += term
            if j > mu + 10 and term < total * mp.mpf(10) ** -25:
                return float(total)
            j += 1


# --- noncentral t ---------------------------------------------------------------

T_GRID = list(itertools.product(
    [-30.0, -5.0, -1.0, -0.1, 0.1, 0.5, 1.0, 2.0, 4.0, 10.0, 100.0, 1000.0],   # t
    [1.0, 1.5, 3.0, 10.0, 49.0, 1000.0, 1e5],                                  # df
    [0.0, 0.5, 3.0, 8.0, 20.0, 60.0, -1.0, -8.0]))                             # nc

# where Boost and we part by more than 1e-12, mpmath decides (a fixed sample:
# Boost's lower tails at t > 0, nc < 0 and far upper tails at df 1e5)
T_DISPUTED = [(2.0, 3.0, -8.0), (1000.0, 49.0, -1.0), (4.0, 1e5, 0.5), (2.01, 49.0, -3.0),
              (10.0, 1.5, -8.0), (-30.0, 1e5, -60.0), (1.0, 1.0, -8.0), (4.0, 1000.0, -1.0)]


def test_nct_sf_is_boost_or_mpmath_over_the_grid():
    disputed = []
    for t, df, nc in T_GRID:
        ours = noncentral.nct_sf(t, df, nc)
        assert 0.0 <= ours <= 1.0
        boost = float(ufuncs._nct_sf(t, df, nc))
        if max(ours, boost) < 1e-300:
            continue
        if not _rel(ours, boost) <= REL:
            disputed.append((t, df, nc))
            # Boost's failures are its lower tails: there, the value is below
            # P(Z > −nc) (T > t > 0 needs Z > −nc) and Boost's is not
            assert (t > 0 and nc < 0 and ours <= 0.5 * math.erfc(-nc / math.sqrt(2))
                    ) or (df >= 1000 and _rel(ours, boost) < 1e-9), (t, df, nc, ours, boost)
    assert len(disputed) < len(T_GRID) // 5


@pytest.mark.parametrize("t, df, nc", T_DISPUTED)
def test_nct_sf_is_mpmath_where_boost_fails(t, df, nc):
    assert _rel(noncentral.nct_sf(t, df, nc), mp_nct_sf(t, df, nc)) <= REL


@pytest.mark.parametrize("t, df, nc", [(2.0, 10.0, 1.0), (1.5, 1.0, 0.0), (636.6, 1.0, 1000.0),
                                       (-1.0, 1.0, -1.0), (-50.0, 10.0, -60.0), (100.0, 2.0, 0.5),
                                       (-3.0, 1.0, -10.0), (2.0, 1e5, 3.0)])
def test_nct_sf_is_mpmath(t, df, nc):
    assert _rel(noncentral.nct_sf(t, df, nc), mp_nct_sf(t, df, nc)) <= REL


def test_nct_sf_special_values():
    from scipy import special
    for t, df in itertools.product([-3.0, -0.5, 0.5, 2.0, 40.0], [1.0, 2.5, 30.0]):
        # central: Student's t tail
        assert _rel(noncentral.nct_sf(t, df, 0.0), float(special.stdtr(df, -t))) <= REL
    assert noncentral.nct_sf(0.0, 5.0, 1.3) == pytest.approx(special.ndtr(1.3), rel=1e-15)
    assert noncentral.nct_sf(1.0, math.inf, 2.0) == pytest.approx(special.ndtr(1.0), rel=1e-15)
    assert noncentral.nct_sf(math.inf, 3.0, 1.0) == 0.0
    assert noncentral.nct_sf(-math.inf, 3.0, 1.0) == 1.0
    assert math.isnan(noncentral.nct_sf(1.0, 0.0, 1.0))
    assert math.isnan(noncentral.nct_sf(math.nan, 3.0, 1.0))


@settings(max_examples=40, deadline=None)
@given(t=st.floats(0.05, 50.0), df=st.floats(1.0, 1e4), nc=st.floats(0.0, 40.0))
@example(t=7.0, df=13.0, nc=1.5675588550414684e-86)       # Boost 1.07e-11 off Student's t
@example(t=8.974367323798127, df=9.0, nc=6.487140663620633e-242)
def test_nct_sf_upper_tails_are_boost(t, df, nc):
    # t > 0, nc >= 0: the region where Boost's series has positive terms only;
    # where Boost is off (near nc = 0 by up to 1.1e-11), mpmath decides
    ours, boost = noncentral.nct_sf(t, df, nc), float(ufuncs._nct_sf(t, df, nc))
    if boost >= 1e-300 and not _rel(ours, boost) <= 1e-11:
        assert _rel(ours, mp_nct_sf(t, df, nc)) <= 1e-11, (t, df, nc, ours, boost)


# --- noncentral F ---------------------------------------------------------------

F_GRID = list(itertools.product(
    [0.01, 0.3, 1.0, 2.0, 5.0, 20.0, 100.0, 1e4],      # x
    [1.0, 2.0, 5.0, 50.0, 1e3, 1e5],                    # dfn
    [1.0, 5.0, 100.0, 1e3, 1e5],                        # dfd
    [0.5, 5.0, 20.0, 60.0, 200.0]))                     # nc

F_DISPUTED = [(100.0, 2.0, 1e5, 0.5), (100.0, 2.0, 1e5, 60.0), (2.0, 50.0, 1e5, 0.5),
              (100.0, 50.0, 1e3, 60.0)]


def test_ncf_sf_is_boost_or_mpmath_over_the_grid():
    disputed = set()
    for x, d1, d2, nc in F_GRID:
        ours = noncentral.ncf_sf(x, d1, d2, nc)
        assert 0.0 <= ours <= 1.0
        boost = float(ufuncs._ncf_sf(x, d1, d2, nc))
        if max(ours, boost) >= 1e-300 and not _rel(ours, boost) <= REL:
            disputed.add((x, d1, d2, nc))
    assert disputed <= set(F_DISPUTED) | {(100.0, 2.0, 1e5, v) for v in (5.0, 20.0)} | \
        {(2.0, 50.0, 1e5, 1.0)}, sorted(disputed)


@pytest.mark.parametrize("x, d1, d2, nc", F_DISPUTED + [
    (0.3, 10.0, 100.0, 20.0), (1.0, 10.0, 1000.0, 60.0), (1e4, 1e3, 100.0, 200.0),
    (1e4, 5.0, 100.0, 5.0), (20.0, 1.0, 1e5, 0.5), (2.0, 20.0, 1e5, 360.0)])
def test_ncf_sf_is_mpmath(x, d1, d2, nc):
    assert _rel(noncentral.ncf_sf(x, d1, d2, nc), mp_ncf_sf(x, d1, d2, nc)) <= REL


def test_ncf_sf_special_values():
    from scipy import special
    for x, d1, d2 in itertools.product([0.2, 1.0, 7.0], [1.0, 4.0], [3.0, 60.0]):
        assert _rel(noncentral.ncf_sf(x, d1, d2, 0.0), float(special.fdtrc(d1, d2, x))) <= REL
    assert noncentral.ncf_sf(0.0, 2.0, 3.0, 1.0) == 1.0
    assert noncentral.ncf_sf(math.inf, 2.0, 3.0, 1.0) == 0.0
    assert math.isnan(noncentral.ncf_sf(1.0, 2.0, 3.0, -1.0))


@settings(max_examples=150, deadline=None)
@given(x=st.floats(0.01, 100.0), d1=st.floats(1.0, 200.0), d2=st.floats(1.0, 1e4),
       nc=st.one_of(st.just(0.0), st.floats(1e-6, 100.0)))   # Boost: 1 − I at nc = 5e-324
# Boost's far tail is off (its series stops early: 0.66 relative at 1.9e-235);
# where it and we part, mpmath decides
@example(x=20.006556857748794, d1=134.45590732168904, d2=3069.5644831847508,
         nc=15.198592450718342)                    # 5.7e-300: Boost 4.6e-300
@example(x=62.411959520965624, d1=32.79276818555596, d2=3734.980479860992,
         nc=58.91877631186942)                     # 1.9e-235: Boost 3.1e-235
def test_ncf_sf_is_boost(x, d1, d2, nc):
    ours, boost = noncentral.ncf_sf(x, d1, d2, nc), float(ufuncs._ncf_sf(x, d1, d2, nc))
    if nc == 0.0:
        from scipy import special
        boost = float(special.fdtrc(d1, d2, x))     # Boost's _ncf_sf is wrong at nc = 0
    if boost >= 1e-300 and _rel(ours, boost) > 1e-11:
        exact = mp_ncf_sf(x, d1, d2, nc)
        assert _rel(ours, exact) <= _written(exact), (x, d1, d2, nc, ours, exact, boost)


def _written(value: float) -> float:
    """The module's written accuracy: 1e-12 relative, and below 1e-100
    |ln v|·4e-16 (a value exp(E) with |E| > 230 inherits E's rounding)."""
    return max(REL, 4e-16 * abs(math.log(value))) if 0.0 < value < 1.0 else REL


# --- Brent's method -------------------------------------------------------------

@pytest.mark.parametrize("f, a, b", [
    (math.cos, 0.0, 3.0), (lambda x: x ** 3 - 2 * x - 5, 2.0, 3.0),
    (lambda x: math.exp(x) - 1e-3, -20.0, 5.0), (lambda x: x * x - 2.0, 0.0, 2.0),
    (lambda x: math.atan(x - 0.3), -1e3, 1e4), (lambda x: x, -1.0, 1.0)])
def test_brentq_is_scipys_to_the_tolerance(f, a, b):
    optimize = pytest.importorskip("scipy.optimize")
    for xtol, rtol in [(2e-12, 8.9e-16), (1e-14, 1e-12), (1e-6, 1e-6)]:
        ours = power.brentq(f, a, b, xtol=xtol, rtol=rtol)
        ref = optimize.brentq(f, a, b, xtol=xtol, rtol=rtol)
        assert abs(ours - ref) <= 2 * (xtol + rtol * abs(ref))


def test_brentq_refuses_a_bad_bracket():
    with pytest.raises(ValueError):
        power.brentq(math.cos, 0.0, 1.0)


@pytest.mark.parametrize("n, var, alpha, target, m", [
    (2, 0.01, 0.05, 0.8, None), (50, 0.01, 0.05, 0.8, None), (3000, 0.2, 0.01, 0.9, None),
    (10, 0.05, 0.001, 0.5, None), (25, 0.01, 0.05, 0.8, 5), (100, 0.03, 0.01, 0.9, 12),
    (2, 0.1, 0.2, 0.5, 3)])
def test_inversions_are_scipys_brentq(n, var, alpha, target, m):
    """The detectable effects agree with scipy.optimize.brentq run on the same
    power function and bracket, to the tolerance the inversion asks for."""
    optimize = pytest.importorskip("scipy.optimize")
    if m is None:
        f = lambda d: power.t_power(n, d, var, alpha)      # noqa: E731
        ours = power.t_detectable(n, var, alpha, target)
    else:
        f = lambda d: power.anova_power(n, m, d, var, alpha)  # noqa: E731
        ours = power.anova_detectable(n, m, var, alpha, target)
    hi = 1e-6
    while f(hi) < target:
        hi *= 2.0
    ref = optimize.brentq(lambda d: f(d) - target, 0.0, hi, xtol=1e-14, rtol=1e-12)
    assert abs(ours - ref) <= 2 * (1e-14 + 1e-12 * ref)
    assert f(ours) == pytest.approx(target, abs=1e-9)


# --- the two-sided power of the t-test as one noncentral F tail ---------------

def _t_power_parts(n, delta, var, alpha):
    df = n - 1.0
    nc = math.sqrt(n) * delta / math.sqrt(2.0 * var)
    crit = power._t_ppf(1.0 - alpha / 2.0, df)
    return df, nc, crit


@pytest.mark.parametrize("n", [2, 3, 5, 12, 50, 121, 400, 3000, 100_000])
@pytest.mark.parametrize("nc_target", [1e-8, 1e-3, 0.4, 1.5, 2.8, 4.0, 8.0, 20.0, 28.0])
@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.2])
def test_t_power_is_both_noncentral_t_tails(n, nc_target, alpha):
    """P(|T'| >= c) computed as the noncentral F(1, df, nc²) tail at c² is the
    sum of the two noncentral t tails (each checked against Boost and mpmath
    above) and Boost's own F tail (mpmath where Boost fails) to 1e-12, on both sides of the
    noncentrality (nc² = 800) where t_power switches to the two t integrals.
    (The F series is the more accurate of the two: at df 1, nc 29, t 12.7
    nct_sf is 4e-12 off mpmath, the F tail 4e-14.)"""
    var = 0.02
    delta = nc_target * math.sqrt(2.0 * var) / math.sqrt(n)
    df, nc, crit = _t_power_parts(n, delta, var, alpha)
    ours = power.t_power(n, delta, var, alpha)
    both_tails = noncentral.nct_sf(crit, df, nc) + noncentral.nct_sf(crit, df, -nc)
    assert _rel(ours, both_tails) <= REL
    ref = float(ufuncs._ncf_sf(1.0, df, nc * nc, crit * crit))
    if not _rel(ours, ref) <= REL:
        # Boost's F tail is 1 at some small nc² (1e-6 with df 1): mpmath decides
        ref = mp_ncf_sf(crit * crit, 1.0, df, nc * nc)
    assert _rel(ours, ref) <= REL


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5000), st.floats(1e-4, 28.0), st.sampled_from([0.001, 0.01, 0.05, 0.1]))
@example(n=2, nc_target=16.75, alpha=0.1)
def test_t_power_is_both_noncentral_t_tails_anywhere(n, nc_target, alpha):
    var = 0.05
    delta = nc_target * math.sqrt(2.0 * var) / math.sqrt(n)
    df, nc, crit = _t_power_parts(n, delta, var, alpha)
    both_tails = noncentral.nct_sf(crit, df, nc) + noncentral.nct_sf(crit, df, -nc)
    ours = power.t_power(n, delta, var, alpha)
    if not _rel(ours, both_tails) <= REL:
        # nct_sf's written accuracy is 1e-11 (3e-12 off at df 1, nc 16.75, t 6.31,
        # where the F series is 1.4e-14 off): mpmath decides, at t_power's 1e-12
        assert _rel(ours, both_tails) <= 1e-11
        assert _rel(ours, mp_ncf_sf(crit * crit, 1.0, df, nc * nc)) <= REL


def test_t_power_takes_the_f_series_below_the_switch(monkeypatch):
    """Up to nc² = 800 no noncentral t integral is evaluated (the F series is
    several times cheaper there); beyond, the two t tails are."""
    calls = []
    real = noncentral.nct_sf
    monkeypatch.setattr(noncentral, "nct_sf", lambda *a: calls.append(a) or real(*a))
    var = 0.02
    for n in (2, 10, 50, 500):
        for nc in (0.5, 3.0, 28.0):
            power.t_power(n, nc * math.sqrt(2.0 * var) / math.sqrt(n), var)
    assert calls == []
    delta = 29.0 * math.sqrt(2.0 * var) / math.sqrt(50)
    p = power.t_power(50, delta, var)
    assert len(calls) == 2
    df, nc, crit = _t_power_parts(50, delta, var, 0.05)
    assert p == noncentral.nct_sf(crit, df, nc) + noncentral.nct_sf(crit, df, -nc)


def test_critical_values_are_computed_once_per_df(monkeypatch):
    """The inversions ask for one critical value per (alpha, df), however many
    powers they evaluate."""
    from ipsoeval.special import dist
    calls = []
    real_t, real_f = dist.np_stdtrit, dist.np_fdtri
    monkeypatch.setattr(dist, "np_stdtrit", lambda *a: calls.append(a) or real_t(*a))
    monkeypatch.setattr(dist, "np_fdtri", lambda *a: calls.append(a) or real_f(*a))
    power._t_ppf.cache_clear()
    power._f_ppf.cache_clear()
    power.t_detectable(37, 0.02, 0.05, 0.8)
    power.anova_detectable(37, 4, 0.02, 0.05, 0.8)
    assert sorted(calls) == sorted([(36.0, 0.975), (3.0, 144.0, 0.95)])
