"""ipsoeval.stats.tests and corrections against scipy.stats (1e-10)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import given, settings
from hypothesis import strategies as hs

from ipsoeval.stats import corrections
from ipsoeval.stats import tests as st
from tests import reference

ALTS = ["two-sided", "less", "greater"]
TOL = 1e-10


def _same(x, y, tol=TOL):
    x = float(x)
    y = float(y)
    if np.isnan(x) or np.isnan(y):
        return np.isnan(x) and np.isnan(y)
    return abs(x - y) <= tol


def _samples(seed, n, kind):
    rng = np.random.default_rng(seed)
    if kind == "continuous":
        return rng.random(n), rng.random(n)
    if kind == "tied":          # graded values with many ties and zero diffs
        return rng.integers(0, 5, n) / 4.0, rng.integers(0, 5, n) / 4.0
    a = rng.random(n)           # "shifted": clear effect
    return a, a + 0.3 + 0.1 * rng.random(n)


CASES = [(seed, n, kind) for seed, n in enumerate([3, 6, 8, 9, 12, 13, 14, 25, 50, 51, 120])
         for kind in ("continuous", "tied", "shifted")]


@pytest.mark.parametrize("seed,n,kind", CASES)
@pytest.mark.parametrize("alt", ALTS)
def test_against_scipy(seed, n, kind, alt):
    a, b = _samples(seed, n, kind)
    r = st.paired_t(a, b, alt)
    s = ss.ttest_rel(b, a, alternative=alt)
    assert _same(r.pvalue, s.pvalue) and _same(r.statistic, s.statistic, 1e-8)

    r = st.wilcoxon(a, b, alt)
    s = ss.wilcoxon(b, a, alternative=alt)
    assert _same(r.pvalue, s.pvalue), (r.method, r.pvalue, s.pvalue)
    assert _same(r.statistic, s.statistic)

    d = b - a
    r = st.sign_test(a, b, alt)
    m = int((d != 0).sum())
    if m:
        s = ss.binomtest(int((d > 0).sum()), m, 0.5, alternative=alt)
        assert _same(r.pvalue, s.pvalue)
    else:
        assert float(r.pvalue) == 1.0

    r = st.ranksum(a, b, alt)
    s = ss.mannwhitneyu(b, a, alternative=alt)
    assert _same(r.pvalue, s.pvalue) and _same(r.statistic, s.statistic)


@pytest.mark.parametrize("n1,n2", [(3, 5), (8, 20), (5, 1), (9, 9), (12, 7)])
@pytest.mark.parametrize("alt", ALTS)
def test_ranksum_unequal_sizes(n1, n2, alt):
    rng = np.random.default_rng(n1 * 100 + n2)
    a, b = rng.random(n1), rng.random(n2) + 0.2
    r = st.ranksum(a, b, alt)
    s = ss.mannwhitneyu(b, a, alternative=alt)
    assert _same(r.pvalue, s.pvalue) and _same(r.statistic, s.statistic)


def test_vectorised_equals_rowwise():
    rng = np.random.default_rng(7)
    # rows mixing exact, permutation and asymptotic Wilcoxon branches
    a = rng.integers(0, 4, (3, 4, 12)) / 3.0
    b = rng.integers(0, 4, (3, 4, 12)) / 3.0
    a[0, 0] = rng.random(12)
    b[0, 0] = rng.random(12)
    a[1, 2, 3] = np.nan          # NaN pairs are omitted for that row only
    for f in (st.paired_t, st.wilcoxon, st.sign_test, st.ranksum):
        for alt in ALTS:
            res = f(a, b, alt)
            assert res.pvalue.shape == (3, 4)
            for i in range(3):
                for j in range(4):
                    ai, bi = a[i, j], b[i, j]
                    if f is not st.ranksum:
                        keep = ~(np.isnan(ai) | np.isnan(bi))
                        ai, bi = ai[keep], bi[keep]
                    else:
                        ai, bi = ai[~np.isnan(ai)], bi[~np.isnan(bi)]
                    one = f(ai, bi, alt)
                    assert _same(res.pvalue[i, j], one.pvalue)
                    assert _same(res.statistic[i, j], one.statistic)


def test_nan_rows_match_scipy_omit():
    rng = np.random.default_rng(3)
    a, b = rng.random(30), rng.random(30)
    a[[2, 9]] = np.nan
    keep = ~np.isnan(a)
    r = st.paired_t(a, b)
    assert int(r.n) == 28
    assert _same(r.pvalue, ss.ttest_rel(b[keep], a[keep]).pvalue)
    assert _same(st.wilcoxon(a, b).pvalue, ss.wilcoxon(b[keep], a[keep]).pvalue)


def test_identical_samples():
    a = np.linspace(0, 1, 20)
    assert np.isnan(st.paired_t(a, a).pvalue)          # 0/0: undefined, like scipy
    assert float(st.sign_test(a, a).pvalue) == 1.0
    assert int(st.sign_test(a, a).n) == 0
    assert int(st.wilcoxon(a, a).n) == 0
    assert float(st.wilcoxon(a[:10], a[:10]).pvalue) == 1.0   # scipy: exact enumeration
    assert float(st.ranksum(a, a).pvalue) == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, 4), hs.integers(0, 4)), min_size=2, max_size=40),
       hs.sampled_from(["t", "w", "s", "u"]))
def test_swap_and_direction(pairs, which):
    a = np.array([p[0] for p in pairs], float) / 4
    b = np.array([p[1] for p in pairs], float) / 4
    f = {"t": st.paired_t, "w": st.wilcoxon, "s": st.sign_test, "u": st.ranksum}[which]
    assert _same(f(a, b).pvalue, f(b, a).pvalue)
    assert _same(f(a, b, "less").pvalue, f(b, a, "greater").pvalue)


# ------------------------------------------------------------- corrections



@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.floats(0, 1), min_size=1, max_size=30))
def test_corrections(ps):
    p = np.array(ps)
    assert np.array_equal(corrections.adjust(p, "none"), p)
    bon = corrections.adjust(p, "bonferroni")
    assert np.allclose(bon, np.minimum(1, p * len(p)), rtol=0, atol=1e-15)
    holm = corrections.adjust(p, "holm")
    assert np.allclose(holm, reference.holm(ps), rtol=0, atol=1e-15)
    bh = corrections.adjust(p, "bh")
    assert np.allclose(bh, ss.false_discovery_control(p, method="bh"), rtol=0, atol=1e-12)
    for adj in (bon, holm, bh):
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)


def test_corrections_skip_nan():
    p = np.array([0.01, np.nan, 0.04])
    adj = corrections.adjust(p, "bonferroni")
    assert np.isnan(adj[1]) and adj[0] == pytest.approx(0.02) and adj[2] == pytest.approx(0.08)
    with pytest.raises(ValueError):
        corrections.adjust(p, "fdr")


def test_permissibility():
    from ipsoeval.stats import registry
    assert registry.permissible("ordinal", "sign")
    assert not registry.permissible("ordinal", "t")
    assert registry.permissible("ratio", "t") and registry.permissible("interval", "sign")
    assert registry.permissible(None, "sign") is None
