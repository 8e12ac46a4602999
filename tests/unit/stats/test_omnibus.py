"""The one- and two-way ANOVA F tests (one code path, two error terms)
against scipy and a brute-force two-way decomposition."""

import numpy as np
import pytest
from scipy import stats

from ipsoeval.stats.omnibus import anova_oneway, anova_twoway


@pytest.mark.parametrize("seed", range(5))
def test_oneway_matches_scipy_f_oneway(seed):
    X = np.random.default_rng(seed).random((4, 15))
    r = anova_oneway(X)
    ref = stats.f_oneway(*X)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert r.df == (3.0, 4 * 14.0)


@pytest.mark.parametrize("seed", range(5))
def test_twoway_matches_brute_force(seed):
    X = np.random.default_rng(seed).random((3, 12))
    k, n = X.shape
    grand = X.mean()
    ss_runs = sum(n * (X[i].mean() - grand) ** 2 for i in range(k))
    ss_topics = sum(k * (X[:, j].mean() - grand) ** 2 for j in range(n))
    ss_total = ((X - grand) ** 2).sum()
    d1, d2 = k - 1, (k - 1) * (n - 1)
    F = (ss_runs / d1) / ((ss_total - ss_runs - ss_topics) / d2)
    r = anova_twoway(X)
    assert r.statistic == pytest.approx(F, rel=1e-10)
    assert r.pvalue == pytest.approx(stats.f.sf(F, d1, d2), rel=1e-9)
    assert r.df == (2.0, 22.0)


def test_incomplete_topics_dropped_and_none_left_is_nan():
    X = np.random.default_rng(9).random((3, 8))
    X[1, 2] = np.nan
    assert anova_oneway(X).statistic == anova_oneway(np.delete(X, 2, axis=1)).statistic
    assert anova_twoway(X).statistic == anova_twoway(np.delete(X, 2, axis=1)).statistic
    X[:, :] = np.nan
    for f in (anova_oneway, anova_twoway):
        r = f(X)
        assert np.isnan(r.statistic) and np.isnan(r.pvalue)
