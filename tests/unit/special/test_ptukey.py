"""The studentized range's survival function (ipsoeval/special/ptukey.py)
against scipy.stats.studentized_range and an independent nested adaptive
quadrature, over k 2..100, df 1..5000 (integer and not) and inf, q over the
range: the module's written accuracy, 1e-11 absolute."""

import math

import numpy as np
import pytest

from ipsoeval.special import ptukey

ss = pytest.importorskip("scipy.stats")
integrate = pytest.importorskip("scipy.integrate")
special = pytest.importorskip("scipy.special")


def _quad_sf(q, k, df):
    """P(Q > q) = ∫ f_S(s) (1 - W(q s)) ds by nested adaptive quadrature."""
    def one_minus_w(w):
        f = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * \
            (special.ndtr(z) - special.ndtr(z - w)) ** (k - 1)               # noqa: E731
        opts = dict(epsabs=1e-17, epsrel=1e-13, limit=200)
        return 1 - k * (integrate.quad(f, -12, w / 2, **opts)[0]
                        + integrate.quad(f, w / 2, w + 12, **opts)[0])
    logc = math.log(2) + (df / 2) * math.log(df / 2) - math.lgamma(df / 2)
    g = lambda s: math.exp(logc + (df - 1) * math.log(s) - df * s * s / 2) * \
        one_minus_w(q * s) if s > 0 else 0.0                                  # noqa: E731
    c = min(16 / q, 50)
    return integrate.quad(g, 0, c, epsabs=1e-17, epsrel=1e-12, limit=200,
                          points=[c * 0.1, c * 0.3])[0]


def test_small_df_large_k():
    # a rule fixed on the chi quantiles missed the sliver s < 16/q: 0.063349
    p = float(ptukey.sf(np.array([64.54]), 100, 1.0)[0])
    assert p == pytest.approx(0.06193582828550959, abs=1e-11)       # _quad_sf
    assert p == pytest.approx(float(ss.studentized_range.sf(64.54, 100, 1)), abs=1e-11)


@pytest.mark.parametrize("q, k, df", [(300.0, 10, 5.0), (64.54, 100, 1.0), (3.0, 5, 45.0),
                                      (0.27, 2, 1.5), (40.0, 7, 2.0)])
def test_against_nested_quadrature(q, k, df):
    assert float(ptukey.sf(np.array([q]), k, df)[0]) == pytest.approx(_quad_sf(q, k, df),
                                                                         abs=1e-11, rel=1e-6)


@pytest.mark.parametrize("k", [2, 3, 7, 20, 100])
def test_against_scipy_over_df_and_q(k):
    rng = np.random.default_rng(k)
    for df in [1.0, 1.5, 2.0, 2.7, 3.0, 5.0, 13.0, 150.0, 1001.0, np.inf]:
        q = np.concatenate([rng.uniform(0, 8, 5), rng.uniform(8, 80, 2), [0.0]])
        got = ptukey.sf(q, k, df)
        ref = ss.studentized_range.sf(q, k, df)
        assert (np.abs(got - ref) < 1e-11).all(), (df, q, got, ref)
