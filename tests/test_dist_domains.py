"""Wide domains (subnormals, p at the edges of (0, 1), results beyond the
largest float) for the functions whose edges broke: no exception, and a
value that is +inf, 0 or NaN where the true one is out of range, else within
the module's written accuracy."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as hs

from ipsoeval.stats import dist, ptukey

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
