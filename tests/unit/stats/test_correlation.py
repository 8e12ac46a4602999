"""ipsoeval.stats.correlation against outside references: scipy.stats for the
coefficients and their p-values, the published worked examples for
Williams's t and Zou's interval, the textbook formula of Fisher's interval,
and the Type I error of Williams's test by simulation (slow)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ipsoeval.stats import correlation as c


def _cases():
    rng = np.random.default_rng(7)
    for n in (4, 5, 10, 37, 200):
        for rho in (0.0, 0.3, 0.9, -0.6):
            x = rng.normal(size=n)
            y = rho * x + math.sqrt(1 - rho * rho) * rng.normal(size=n)
            yield x, y
            yield np.round(x, 1), np.round(y, 1)       # ties


@pytest.mark.parametrize("x,y", list(_cases()))
def test_pearson_and_spearman_equal_scipy(x, y):
    n = x.size
    ref = stats.pearsonr(x, y)
    r = c.pearson(x, y)
    assert r == pytest.approx(ref.statistic, abs=1e-12)
    assert c.pearson_p(r, n) == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-12)
    ref = stats.spearmanr(x, y)
    rho = c.spearman(x, y)
    assert rho == pytest.approx(ref.statistic, abs=1e-12)
    assert c.spearman_p(rho, n) == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-12)


def test_rows_are_independent_cases():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 30))
    Y = rng.normal(size=(6, 30))
    for i in range(6):
        assert c.pearson(X, Y)[i] == pytest.approx(stats.pearsonr(X[i], Y[i]).statistic,
                                                   abs=1e-12)
        assert c.spearman(X, Y)[i] == pytest.approx(stats.spearmanr(X[i], Y[i]).statistic,
                                                    abs=1e-12)


def test_constant_input_is_nan():
    assert np.isnan(c.pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))


def test_fisher_interval_formula():
    # tanh(atanh(r) -+ z/sqrt(n-3)), z = 1.959963984540054
    r, n = 0.5, 28
    lo, hi = c.fisher_interval(r, n, 0.05)
    z = stats.norm.ppf(0.975)
    assert lo == pytest.approx(math.tanh(math.atanh(r) - z / 5), abs=1e-14)
    assert hi == pytest.approx(math.tanh(math.atanh(r) + z / 5), abs=1e-14)
    # Spearman: Bonett and Wright (2000), se^2 = (1 + rho^2/2)/(n - 3)
    lo, hi = c.fisher_interval(r, n, 0.05, "spearman")
    se = math.sqrt((1 + r * r / 2) / (n - 3))
    assert lo == pytest.approx(math.tanh(math.atanh(r) - z * se), abs=1e-14)
    assert hi == pytest.approx(math.tanh(math.atanh(r) + z * se), abs=1e-14)


def test_williams_t_steiger_example():
    # Steiger (1980), Psychological Bulletin 87(2), the example of Williams's
    # T2 (his eq. 7): N = 103, r12 = .5, r13 = .4, r23 = .1; as the psych
    # package's r.test(103, .4, .5, .1) reproduces it: t = 0.89 (sign as
    # r12 - r13 here), p = 0.37 on 100 df.
    t, df, p = c.williams_t(0.5, 0.4, 0.1, 103)
    assert df == 100
    assert round(float(t), 2) == 0.89
    assert round(float(p), 2) == 0.37
    # and the textbook formula, written out once more
    n, r12, r13, r23 = 103, 0.5, 0.4, 0.1
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rb = (r12 + r13) / 2
    ref = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)
                                  / (2 * (n - 1) / (n - 3) * det + rb ** 2 * (1 - r23) ** 3))
    assert t == pytest.approx(ref, rel=1e-14)
    assert p == pytest.approx(2 * stats.t.sf(ref, n - 3), rel=1e-12)


def test_williams_t_symmetric_and_zero():
    t1, _, p1 = c.williams_t(0.6, 0.2, 0.3, 50)
    t2, _, p2 = c.williams_t(0.2, 0.6, 0.3, 50)
    assert t1 == pytest.approx(-t2) and p1 == pytest.approx(p2)
    t, _, p = c.williams_t(0.4, 0.4, 1.0, 50)      # the same predictor twice
    assert t == 0 and p == 1


def test_zou_interval_example_2():
    # Zou (2007), Psychological Methods 12(4), Example 2 (two overlapping
    # correlations): r12 = .396, r13 = .179, r23 = .088, n = 66; the 95%
    # interval of rho12 - rho13 is (-.093, .517).
    lo, hi = c.zou_interval(0.396, 0.179, 0.088, 66)
    assert round(float(lo), 3) == -0.093
    assert round(float(hi), 3) == 0.517


def test_estimate_correlation_is_zou_eq():
    r12, r13, r23 = 0.396, 0.179, 0.088
    ref = ((r23 - 0.5 * r12 * r13) * (1 - r12 ** 2 - r13 ** 2 - r23 ** 2) + r23 ** 3) \
        / ((1 - r12 ** 2) * (1 - r13 ** 2))
    assert c.estimate_correlation(r12, r13, r23) == pytest.approx(ref, rel=1e-14)


@pytest.mark.slow
def test_williams_type_one_error_by_simulation():
    """10,000 null cases of 50 topics: a measure and two predictors drawn
    trivariate normal with the same correlation (0.4) of each predictor to
    the measure and 0.5 between the predictors; Williams's test at 0.05
    rejects in [0.04, 0.06] of them (Monte Carlo s.e. 0.0022).  Zou's
    interval excludes 0 at a similar rate."""
    rng = np.random.default_rng(20260101)
    cases, n = 10_000, 50
    cov = np.array([[1.0, 0.4, 0.4], [0.4, 1.0, 0.5], [0.4, 0.5, 1.0]])
    L = np.linalg.cholesky(cov)
    Z = rng.normal(size=(cases, n, 3)) @ L.T
    y, a, b = Z[..., 0], Z[..., 1], Z[..., 2]
    r1, r2, r12 = c.pearson(a, y), c.pearson(b, y), c.pearson(a, b)
    _, _, p = c.williams_t(r1, r2, r12, n)
    rate = float((p < 0.05).mean())
    assert 0.04 <= rate <= 0.06, rate
    lo, hi = c.zou_interval(r1, r2, r12, n)
    zrate = float(((lo > 0) | (hi < 0)).mean())
    assert 0.04 <= zrate <= 0.06, zrate


@pytest.mark.slow
def test_williams_on_ranks_type_one_error_by_simulation():
    """The same null cases for Spearman's rho, where qpp applies Williams's
    formula and Zou's interval (Bonett-Wright standard errors) to ranks, an
    approximation: at 50 topics both still reject in [0.04, 0.06] of 10,000
    cases (measured: 0.054 and 0.045)."""
    rng = np.random.default_rng(20260102)
    cases, n = 10_000, 50
    cov = np.array([[1.0, 0.4, 0.4], [0.4, 1.0, 0.5], [0.4, 0.5, 1.0]])
    Z = rng.normal(size=(cases, n, 3)) @ np.linalg.cholesky(cov).T
    y, a, b = Z[..., 0], Z[..., 1], Z[..., 2]
    r1, r2, r12 = c.spearman(a, y), c.spearman(b, y), c.spearman(a, b)
    _, _, p = c.williams_t(r1, r2, r12, n)
    assert 0.04 <= float((p < 0.05).mean()) <= 0.06
    lo, hi = c.zou_interval(r1, r2, r12, n, kind="spearman")
    assert 0.04 <= float(((lo > 0) | (hi < 0)).mean()) <= 0.06
