"""The sigtest analysis (ipsoeval/analyses/sigtest/report.py) and the resampling /
omnibus statistics behind it; tests/cli/test_sigtest.py runs the command.

References: scipy.stats (f_oneway, kruskal, friedmanchisquare, tukey_hsd,
studentized_range, ttest_rel's confidence interval, permutation_test), a
least-squares fit for the two-way ANOVA, and full enumeration written here
for the exact randomization test."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import given, settings
from hypothesis import strategies as hs

from ipsoeval.analyses import sigtest
from ipsoeval.errors import UsageError
from ipsoeval.special import ptukey
from ipsoeval.stats import descriptive, omnibus, registry
from ipsoeval.stats import tests as st

ALTS = ["two-sided", "less", "greater"]


# ------------------------------------------------------- randomization test

def _enumerate_p(a, b, alternative):
    d = np.asarray(b, float) - np.asarray(a, float)
    obs = d.sum()
    tol = 1e-9 * np.abs(d).sum()
    hits = 0
    total = 0
    for signs in itertools.product((1.0, -1.0), repeat=len(d)):
        t = float(np.dot(signs, d))
        total += 1
        if alternative == "two-sided":
            hits += abs(t) >= abs(obs) - tol
        elif alternative == "greater":
            hits += t >= obs - tol
        else:
            hits += t <= obs + tol
    return hits / total


@pytest.mark.parametrize("alt", ALTS)
def test_randomization_exact_by_enumeration(alt):
    a = [0.2, 0.5, 0.1, 0.4, 0.3, 0.6, 0.0, 0.25]
    b = [0.3, 0.5, 0.4, 0.45, 0.2, 0.9, 0.1, 0.25]
    r = st.randomization(a, b, n_resamples=1000, alternative=alt)
    assert r.method == "exact"
    assert float(r.pvalue) == pytest.approx(_enumerate_p(a, b, alt), abs=1e-15)
    assert float(r.statistic) == pytest.approx(np.mean(np.subtract(b, a)))


def test_randomization_exact_matches_scipy_permutation_test():
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 5, 11) / 4, rng.integers(0, 5, 11) / 4
    for alt in ALTS:
        r = st.randomization(a, b, alternative=alt)
        s = ss.permutation_test((b - a,), np.mean, permutation_type="samples",
                                alternative=alt, n_resamples=10 ** 6)
        assert float(r.pvalue) == pytest.approx(s.pvalue, abs=1e-12)


def test_randomization_monte_carlo(monkeypatch):
    rng = np.random.default_rng(9)
    a = rng.random((4, 40))
    b = a + np.array([0.0, 0.02, 0.1, -0.3])[:, None] + 0.05 * rng.standard_normal((4, 40))
    r1 = st.randomization(a, b, n_resamples=2000, seed=7)
    assert set(r1.method.ravel()) == {"monte-carlo"}
    # (count + 1) / (B + 1), deterministic, and independent of batching
    assert np.allclose(r1.pvalue, (r1.extra["count"] + 1) / 2001.0)
    monkeypatch.setattr(st, "_SAMPLE_BLOCK", 64)
    r2 = st.randomization(a, b, n_resamples=2000, seed=7)
    assert np.array_equal(r1.pvalue, r2.pvalue)
    r3 = st.randomization(a[2:3], b[2:3], n_resamples=2000, seed=7)   # other rows absent
    assert r3.pvalue[0] == r1.pvalue[2]
    assert not np.array_equal(st.randomization(a, b, n_resamples=2000, seed=8).pvalue, r1.pvalue)
    assert r1.pvalue[3] == 1 / 2001.0
    # close to the exact-in-distribution t-test p for a clear mid-size effect
    exact_like = st.randomization(a, b, n_resamples=20000, seed=1).pvalue
    assert abs(exact_like[1] - ss.ttest_rel(b[1], a[1]).pvalue) < 0.05


def test_bootstrap_shift(monkeypatch):
    rng = np.random.default_rng(4)
    a = rng.random((3, 30))
    b = a + np.array([0.0, 0.05, -0.4])[:, None] + 0.1 * rng.standard_normal((3, 30))
    r = st.bootstrap_shift(a, b, n_resamples=3000, seed=3)
    assert np.allclose(r.pvalue, (r.extra["count"] + 1) / 3001.0)
    assert r.pvalue[2] == 1 / 3001.0
    monkeypatch.setattr(st, "_SAMPLE_BLOCK", 100)
    assert np.array_equal(st.bootstrap_shift(a, b, n_resamples=3000, seed=3).pvalue, r.pvalue)
    # brute force for one row with the same resamples drawn one by one
    d = b[1] - a[1]
    shifted = d - d.mean()
    rng2 = np.random.default_rng(3)
    idx = rng2.integers(0, 30, size=(3000, 30), dtype=np.int64)
    means = shifted[idx].mean(axis=1)
    count = int((np.abs(means) >= abs(d.mean()) - 1e-12).sum())
    assert r.extra["count"][1] == count


# ------------------------------------------------------------ omnibus tests

def _matrix(seed, k=5, n=12):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 6, (k, n)) / 5.0 + np.arange(k)[:, None] * 0.06


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_omnibus_against_scipy(seed):
    X = _matrix(seed)
    assert omnibus.anova_oneway(X).pvalue == pytest.approx(ss.f_oneway(*X).pvalue, abs=1e-12)
    assert omnibus.kruskal(X).pvalue == pytest.approx(ss.kruskal(*X).pvalue, abs=1e-12)
    assert omnibus.friedman(X).pvalue == pytest.approx(
        ss.friedmanchisquare(*X).pvalue, abs=1e-12)
    tk = omnibus.tukey_hsd(X, "anova")
    assert np.abs(tk.pvalue - ss.tukey_hsd(*X).pvalue).max() < 1e-10


def test_two_way_anova_against_least_squares():
    X = _matrix(7, k=4, n=9)
    k, n = X.shape
    y = X.ravel()
    runs = np.repeat(np.arange(k), n)
    topics = np.tile(np.arange(n), k)

    def rss(cols):
        Z = np.column_stack([np.ones_like(y)] + cols)
        beta, *_ = np.linalg.lstsq(Z, y, rcond=None)
        return ((y - Z @ beta) ** 2).sum()

    R = [(runs == i).astype(float) for i in range(1, k)]
    T = [(topics == j).astype(float) for j in range(1, n)]
    full, reduced = rss(R + T), rss(T)
    F = ((reduced - full) / (k - 1)) / (full / ((k - 1) * (n - 1)))
    res = omnibus.anova_twoway(X)
    assert res.statistic == pytest.approx(F, rel=1e-10)
    assert res.pvalue == pytest.approx(ss.f.sf(F, k - 1, (k - 1) * (n - 1)), abs=1e-12)
    tk = omnibus.tukey_hsd(X, "anova2", res)
    mse = full / ((k - 1) * (n - 1))
    q = abs(X[1].mean() - X[3].mean()) / np.sqrt(mse / n)
    assert tk.pvalue[1, 3] == pytest.approx(
        ss.studentized_range.sf(q, k, (k - 1) * (n - 1)), abs=1e-10)


@pytest.mark.parametrize("k,df", [(3, 2), (5, 45), (13, 600), (40, 400), (8, np.inf)])
def test_ptukey_against_scipy(k, df):
    q = np.array([0.3, 1.5, 3.0, 4.2, 6.5])
    assert np.abs(ptukey.sf(q, k, df) - ss.studentized_range.sf(q, k, df)).max() < 1e-10


def test_paired_summary_ci_and_effect_size():
    rng = np.random.default_rng(11)
    a, b = rng.random(25), rng.random(25) + 0.1
    s = descriptive.paired_summary(a, b)
    ci = ss.ttest_rel(b, a).confidence_interval(0.95)
    assert float(s.ci_low) == pytest.approx(ci.low, abs=1e-12)
    assert float(s.ci_high) == pytest.approx(ci.high, abs=1e-12)
    d = b - a
    assert float(s.effect_size) == pytest.approx(d.mean() / d.std(ddof=1))
    assert int(s.wins) + int(s.ties) + int(s.losses) == 25


# --------------------------------------------------------------- analysis

def _run(M, names=None, **kw):
    names = names or [f"r{i}" for i in range(M.shape[0])]
    opts = sigtest.Options(**kw)
    return sigtest.run(names, {"AP": M}, {"AP": "ordinal"}, opts)


def _by(records, test, a=None, b=None):
    return [r for r in records if r["test"] == test and (a is None or r["run_a"] == a)
            and (b is None or r["run_b"] == b)]


def test_columns_and_permissibility():
    rng = np.random.default_rng(0)
    M = rng.random((3, 20))
    out = _run(M, tests=list(sigtest.TESTS), samples=500)
    rs = out.table()
    assert rs.columns == sigtest.COLUMNS
    for rec in rs.records:
        assert list(rec) == rs.columns or set(rec) == set(rs.columns)
        assert rec["permissible"] == (registry.requirement(rec["test"]) == "ordinal")
    omni = [r for r in rs.records if r["run_a"] == "*"]
    assert {r["test"] for r in omni} == set(sigtest.OMNIBUS) and all(r["run_b"] == "*" for r in omni)
    # baseline mode: 2 pairs x 10 tests + 4 omnibus rows
    assert len(rs.records) == 2 * 10 + 4


def test_identical_runs_not_significant():
    rng = np.random.default_rng(1)
    v = rng.random(30)
    M = np.vstack([v, v, v + 0.0])
    out = _run(M, tests=["t", "wilcoxon", "sign", "ranksum", "randomization", "bootstrap",
                         "anova", "friedman"], samples=300)
    for rec in out.table().records:
        assert rec["significant"] is False
        assert rec["p_value"] is None or rec["p_value"] == pytest.approx(1.0)
        if rec["run_a"] != "*":
            assert rec["diff"] == 0.0
    assert any("undefined" in w for w in out.warnings)       # the reason is given


@settings(max_examples=25, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, 6), hs.integers(0, 6)), min_size=3, max_size=25),
       hs.sampled_from(["t", "wilcoxon", "sign", "ranksum", "randomization", "bootstrap"]))
def test_swap_and_direction(pairs, test):
    M = np.array(pairs, dtype=float).T / 6.0
    ab = _run(M, tests=[test], samples=199).table().records[0]
    ba = _run(M[::-1], tests=[test], samples=199).table().records[0]
    assert (ab["p_value"] is None) == (ba["p_value"] is None)
    if ab["p_value"] is not None:
        assert ab["p_value"] == pytest.approx(ba["p_value"], abs=1e-12)
    assert ab["diff"] == -ba["diff"]
    assert (ab["wins"], ab["losses"]) == (ba["losses"], ba["wins"])
    less = _run(M, tests=[test], alternative="less", samples=199).table().records[0]
    greater = _run(M[::-1], tests=[test], alternative="greater",
                   samples=199).table().records[0]
    assert less["p_value"] == pytest.approx(greater["p_value"], abs=1e-12) or \
        less["p_value"] is greater["p_value"] is None


@pytest.mark.parametrize("method", ["bonferroni", "holm", "bh"])
def test_corrected_not_below_raw(method):
    rng = np.random.default_rng(2)
    M = rng.random((6, 25)) + np.linspace(0, 0.3, 6)[:, None]
    none = _run(M, tests=["t", "sign", "anova"], all_pairs=True).table().records
    corr = _run(M, tests=["t", "sign", "anova"], all_pairs=True, correct=method).table().records
    assert len(none) == len(corr) == 15 * 3 + 1
    for r0, r1 in zip(none, corr):
        assert r1["p_value"] == r0["p_value"]
        if r1["p_value"] is not None:
            assert r1["p_adjusted"] >= r1["p_value"] - 1e-15
            assert r0["p_adjusted"] == r0["p_value"]
    n_sig = sum(r["significant"] for r in none)
    assert sum(r["significant"] for r in corr) <= n_sig


@pytest.mark.parametrize("scale, test", [("interval", "t"), ("ratio", "t"),
                                         ("ordinal", "sign"), (None, "sign")])
def test_default_test_per_scale(scale, test):
    # without --test each (pair, measure) is tested once, with the test its
    # scale permits (Ferrante et al. 2021 §2.5: t needs an interval scale, sign order only)
    assert registry.default_test(scale)[0] == test
    if scale is not None:
        assert registry.permissible(scale, test)
    rng = np.random.default_rng(5)
    M = rng.random((3, 15))
    rs = sigtest.run(["a", "b", "c"], {"X": M}, {"X": scale}, sigtest.Options()).table()
    assert [(r["run_a"], r["run_b"], r["test"]) for r in rs.records] == \
        [("a", "b", test), ("a", "c", test)]
    assert all(r["why"] == registry.default_test(scale)[1] for r in rs.records)
    assert rs.columns == sigtest.COLUMNS + ["why"]
    want = registry.run(test, M[[0, 0]], M[[1, 2]]).pvalue
    assert [r["p_value"] for r in rs.records] == pytest.approx(list(want), abs=1e-15)


def test_default_correction_family_is_the_rows_reported():
    # Holm over the 2 pairs x 2 measures reported (one test each), checked by hand;
    # the default once ran 4 tests and Holm corrected over all 16 rows
    rng = np.random.default_rng(6)
    P = rng.random((3, 20)) + np.array([0, 0.15, 0.3])[:, None]
    A = rng.random((3, 20)) + np.array([0, 0.1, 0.25])[:, None]
    out = sigtest.run(["a", "b", "c"], {"P@10": P, "AP": A},
                      {"P@10": "interval", "AP": "ordinal"},
                      sigtest.Options(correct="holm"))
    recs = out.table().records
    assert [(r["measure"], r["test"]) for r in recs] == \
        [("P@10", "t"), ("P@10", "t"), ("AP", "sign"), ("AP", "sign")]
    raw = np.array([r["p_value"] for r in recs])
    order = np.argsort(raw)
    holm = np.minimum(1, np.maximum.accumulate(raw[order] * (len(raw) - np.arange(len(raw)))))
    want = np.empty_like(raw)
    want[order] = holm
    assert [r["p_adjusted"] for r in recs] == pytest.approx(list(want), abs=1e-15)
    fam = out.table().params["correction_family"]
    assert "4 comparison(s) reported" in fam and "2 pair(s) x 2 measure(s)" in fam
    assert "4 comparison(s) reported" in out.table().view.title


def test_explicit_tests_are_corrected_per_test():
    # --test t,sign: each test's rows are one family; alternatives are not pooled
    rng = np.random.default_rng(7)
    M = rng.random((4, 20)) + np.array([0, 0.1, 0.2, 0.3])[:, None]
    recs = _run(M, tests=["t", "sign"], correct="bonferroni").table().records
    for test in ("t", "sign"):
        rows = _by(recs, test)
        assert len(rows) == 3
        for r in rows:
            assert r["p_adjusted"] == pytest.approx(min(1.0, 3 * r["p_value"]), abs=1e-15)
        assert "why" not in rows[0]


def test_usage_errors():
    M = np.zeros((2, 5))
    with pytest.raises(UsageError):
        _run(M, tests=["anova"])                       # needs 3 runs
    with pytest.raises(UsageError):
        sigtest.parse_tests(["t,wilcox0n"])
    with pytest.raises(UsageError):
        _run(np.zeros((3, 5)), tests=["t"], all_pairs=True, fail_if="worse")
    with pytest.raises(UsageError):
        _run(M, tests=["t"], baseline="nope")
    assert sigtest.parse_tests(["t,permutation", "kw"]) == ["t", "randomization", "kruskal"]


def test_gate_logic_lower_is_better():
    rng = np.random.default_rng(3)
    base = rng.random(30) * 5 + 1
    M = np.vstack([base, base + 2.0])               # ESL-like: B larger = worse
    opts = sigtest.Options(tests=["t"], fail_if="worse")
    out = sigtest.run(["a", "b"], {"ESL@10": M}, {"ESL@10": "ratio"}, opts,
                      lower_better={"ESL@10"})
    assert not out.gate.passed
    out = sigtest.run(["a", "b"], {"AP": M}, {"AP": "ordinal"}, opts)
    assert out.gate.passed
