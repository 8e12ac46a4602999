"""`ipsoeval bootstrap` core: rank stability, bootstrap CIs, query subsets and
split-half reliability (Craswell et al. 2021 §3.1-3.2, §4.3).

References: scipy.stats.bootstrap on the same resamples, scipy.stats tests
and ipsoeval.stats.tests, brute-force loops over trials and splits, and a
literal transcription of the paper's agree / partially agree / disagree
definition."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from scipy import stats

from ipsoeval.analyses import bootstrap as b
from ipsoeval.analyses.bootstrap import resample as br
from ipsoeval.analyses.bootstrap import splithalf as sh
from ipsoeval.errors import InputError, UsageError
from ipsoeval.stats import tests as st

RR_VALUES = np.array([0.0] + [1.0 / k for k in range(1, 11)])


def rr_matrix(rng, runs, topics, effects=None):
    """RR@10-like scores: shared topic difficulty, per-run effect and noise."""
    u = rng.random(topics)
    eff = np.zeros(runs) if effects is None else np.asarray(effects)
    z = u[None, :] + eff[:, None] + rng.normal(0, 0.25, (runs, topics))
    k = np.clip((z * 11).astype(int), 0, 10)
    return RR_VALUES[k]


def names(n, prefix="r"):
    return [f"{prefix}{i}" for i in range(n)]


def analyse(x, **kw):
    """The report's tables in order: leaderboard, rank_probabilities[, split_half]."""
    R, T = x.shape
    inputs = [b.MeasureInput("RR@10", x, True, "ordinal")]
    return b.analyse(names(R), names(T, "q"), inputs, b.Options(**kw)).tables


# ------------------------------------------------------------ resampling

def test_resamples_are_scipys_and_batch_independent():
    rng = np.random.default_rng(0)
    x = rng.random((3, 50))
    a, = br.bootstrap_means([x], 300, seed=5, batch=7)
    c, = br.bootstrap_means([x], 300, seed=5, batch=1000)
    idx = np.random.default_rng(5).integers(0, 50, (300, 50))
    ref = x[:, idx].mean(axis=-1).T                       # (300, 3)
    np.testing.assert_allclose(a, ref, rtol=0, atol=1e-14)
    np.testing.assert_allclose(a, c, rtol=0, atol=1e-14)   # same draws, whatever the batch


def test_trial_means_are_the_same_bytes_whatever_the_trial_count():
    # every product has one shape (the last batch padded): trial b's mean
    # does not depend on how many trials were asked for (numpy 2.4's
    # OpenBLAS rounds edge tiles differently, which broke this before)
    rng = np.random.default_rng(0)
    x = rng.random((40, 300))
    short, = br.bootstrap_means([x], 300, seed=5)
    long, = br.bootstrap_means([x], 1000, seed=5)
    np.testing.assert_array_equal(short, long[:300])


def test_trial_means_leave_out_undefined_scores():
    x = np.array([[1.0, np.nan, 3.0, np.nan], [np.nan] * 4])
    tm, = br.bootstrap_means([x], 50, seed=1)
    idx = np.random.default_rng(1).integers(0, 4, (50, 4))
    vals = x[0][idx]
    ok = ~np.isnan(vals)
    with np.errstate(invalid="ignore"):
        ref = np.where(ok, vals, 0).sum(axis=1) / ok.sum(axis=1)
    np.testing.assert_allclose(tm[:, 0], ref)
    assert np.isnan(tm[:, 1]).all()


def test_same_seed_same_output_other_seed_differs():
    x = rr_matrix(np.random.default_rng(2), 6, 300)
    r1 = analyse(x, samples=200, seed=9)
    r2 = analyse(x, samples=200, seed=9)
    r3 = analyse(x, samples=200, seed=10)
    assert r1[0].records == r2[0].records and r1[1].records == r2[1].records
    assert r1[0].records != r3[0].records


# ---------------------------------------------------------------- ranking

def test_rank_min_ties_share_the_better_rank():
    g = np.array([[0.3, 0.5, 0.5, 0.1, np.nan, np.nan]])
    assert br.rank_min(g).tolist() == [[3, 1, 1, 4, 5, 5]]
    # within tolerance counts as a tie
    assert br.rank_min(np.array([1.0, 1.0 + 1e-13, 0.5]), tol=1e-12).tolist() == [1, 1, 3]


@settings(max_examples=30, deadline=None)
@given(hst.integers(1, 8), hst.integers(1, 40), hst.integers(0, 2**31 - 1))
def test_rank_probabilities_sum_to_one(R, T, seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.random((R, T)) * 3) / 3          # many ties
    tm, = br.bootstrap_means([x], 64, seed)
    stab = br.rank_stability(x, tm)
    np.testing.assert_allclose(stab.probabilities.sum(axis=1), 1.0)
    assert stab.rank_counts.sum() == 64 * R
    assert ((stab.expected_rank >= 1) & (stab.expected_rank <= R)).all()
    low, high = stab.rank_interval(0.95)
    assert (low <= high).all() and (low >= 1).all() and (high <= R).all()


def test_rank_stability_matches_brute_force():
    rng = np.random.default_rng(3)
    x = rr_matrix(rng, 7, 120, effects=np.linspace(0, 0.2, 7))
    B = 300
    tm, = br.bootstrap_means([x], B, seed=11)
    stab = br.rank_stability(x, tm)
    idx = np.random.default_rng(11).integers(0, 120, (B, 120))
    counts = np.zeros((7, 7), dtype=int)
    for row in idx:
        means = x[:, row].mean(axis=1)
        ranks = stats.rankdata(-np.round(means, 12), method="min").astype(int)
        counts[np.arange(7), ranks - 1] += 1
    np.testing.assert_array_equal(stab.rank_counts, counts)
    lb = stats.rankdata(-np.round(x.mean(axis=1), 12), method="min")
    np.testing.assert_array_equal(stab.leaderboard_rank, lb)
    np.testing.assert_allclose(stab.expected_rank, (counts @ np.arange(1, 8)) / B)


def test_run_far_ahead_is_first_in_every_trial():
    rng = np.random.default_rng(4)
    x = rr_matrix(rng, 5, 400)
    x[2] = np.minimum(x[2] + 0.6, 1.0)
    res = analyse(x, samples=500)
    first = res[0].records[0]
    assert first["run"] == "r2" and first["leaderboard_rank"] == 1
    assert first["p_top"] == 1.0 and first["expected_rank"] == 1.0
    assert (first["rank_ci_low"], first["rank_ci_high"]) == (1, 1)
    assert sum(r["p_top"] for r in res[0].records) == 1.0


def test_identical_runs_get_the_same_rank_distribution():
    rng = np.random.default_rng(5)
    x = rr_matrix(rng, 6, 250, effects=[0, .05, .05, .1, 0, .02])
    x[4] = x[1]
    x[5] = x[1][::-1]                           # same values, other topics
    tm, = br.bootstrap_means([x], 400, seed=3)
    stab = br.rank_stability(x, tm)
    np.testing.assert_array_equal(stab.rank_counts[1], stab.rank_counts[4])
    assert stab.leaderboard_rank[1] == stab.leaderboard_rank[4] == stab.leaderboard_rank[5]
    # two identical best runs share rank 1 in every trial
    y = np.vstack([x[3], x[3], x[0]])
    y[:2] += 0.5
    tmy, = br.bootstrap_means([y], 100, seed=3)
    st_y = br.rank_stability(y, tmy)
    assert st_y.rank_counts[0, 0] == st_y.rank_counts[1, 0] == 100


def test_rank_interval_on_hand_counts():
    counts = np.array([[25, 950, 25, 0], [0, 24, 26, 950], [974, 26, 0, 0], [0, 0, 949, 51]])
    s = br.RankStability(np.zeros(4), np.arange(1, 5), counts[:, :4], 1000)
    low, high = s.rank_interval(0.95)
    # run 0: P(rank<1)=0 , P(rank<2)=.025 <= .025 -> low 2; P(rank>2)=.025 -> high 2
    assert low.tolist() == [2, 3, 1, 3]
    assert high.tolist() == [2, 4, 2, 4]


def test_lower_is_better_measures_rank_reversed():
    x = np.array([[1.0, 2.0, 1.0], [3.0, 4.0, 5.0]])        # ESL: run 0 is better
    inputs = [b.MeasureInput("ESL@10", x, False, "ratio")]
    res = b.analyse(["a", "b"], ["1", "2", "3"], inputs, b.Options(samples=50)).table()
    assert res.records[0]["run"] == "a" and res.records[0]["p_top"] == 1.0

    from ipsoeval.measures import parse_measure
    assert b.higher_is_better(parse_measure("ESL@10")) is False
    assert b.higher_is_better("ESL@10") is False
    assert b.higher_is_better(parse_measure("RR@10")) is True


# ------------------------------------------------------ confidence intervals

@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_ci_matches_scipy_on_the_same_resamples(method, level):
    rng = np.random.default_rng(6)
    x = rng.gamma(0.6, 1.0, (4, 200))
    B = 999
    tm, = br.bootstrap_means([x], B, seed=21)
    lo, hi = br.bootstrap_ci(x, tm, level, method)
    ref = stats.bootstrap((x,), np.mean, axis=-1, n_resamples=B, confidence_level=level,
                          method=method, vectorized=True, rng=np.random.default_rng(21))
    np.testing.assert_allclose(lo, ref.confidence_interval.low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(hi, ref.confidence_interval.high, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_paired_difference_ci_matches_scipy(method):
    rng = np.random.default_rng(7)
    x = rr_matrix(rng, 3, 300, effects=[0, 0.05, -0.02]) + rng.normal(0, 1e-3, (3, 300))
    B = 500
    d = br.paired_differences(x, 0)
    _, td = br.bootstrap_means([x, d], B, seed=8)
    lo, hi = br.bootstrap_ci(d, td, 0.95, method)

    def stat(a, b_, axis=-1):
        return np.mean(b_ - a, axis=axis)
    for r in (1, 2):
        ref = stats.bootstrap((x[0], x[r]), stat, paired=True, n_resamples=B, method=method,
                              vectorized=True, rng=np.random.default_rng(8))
        assert lo[r] == pytest.approx(ref.confidence_interval.low, abs=1e-12)
        assert hi[r] == pytest.approx(ref.confidence_interval.high, abs=1e-12)


def test_ci_with_undefined_scores_matches_scipy_nanmean():
    rng = np.random.default_rng(8)
    x = rng.random((2, 150))
    x[rng.random(x.shape) < 0.2] = np.nan
    tm, = br.bootstrap_means([x], 400, seed=2)
    for method in ("percentile", "bca"):
        lo, hi = br.bootstrap_ci(x, tm, 0.9, method)
        ref = stats.bootstrap((x,), np.nanmean, axis=-1, n_resamples=400, method=method,
                              confidence_level=0.9, vectorized=True,
                              rng=np.random.default_rng(2))
        np.testing.assert_allclose(lo, ref.confidence_interval.low, atol=1e-12)
        np.testing.assert_allclose(hi, ref.confidence_interval.high, atol=1e-12)


def test_ci_covers_the_mean_within_monte_carlo_error():
    # different seeds: the interval ends move by Monte Carlo error only
    rng = np.random.default_rng(9)
    x = rr_matrix(rng, 2, 500)
    ends = []
    for seed in range(5):
        tm, = br.bootstrap_means([x], 2000, seed)
        ends.append(np.array(br.bootstrap_ci(x, tm, 0.95, "bca")))
    ends = np.array(ends)
    se = x.std(axis=1, ddof=1) / np.sqrt(500)
    assert (ends.std(axis=0) < 0.3 * se).all()
    # and the interval is close to the normal one (mean +- 1.96 se)
    mid = ends.mean(axis=0)
    np.testing.assert_allclose(mid[1] - mid[0], 2 * 1.96 * se, rtol=0.1)


def test_constant_scores_give_a_degenerate_interval():
    x = np.array([[0.5] * 30, list(np.linspace(0, 1, 30))])
    tm, = br.bootstrap_means([x], 100, seed=1)
    for method in ("percentile", "bca"):
        lo, hi = br.bootstrap_ci(x, tm, 0.95, method)
        assert lo[0] == hi[0] == 0.5
        assert lo[1] < 0.5 < hi[1]


# ------------------------------------------------------------ query subsets

def test_query_subsets_show_a_run_that_only_tops_one_subset():
    rng = np.random.default_rng(10)
    x = rr_matrix(rng, 3, 400)
    x[0, :200] = np.minimum(x[0, :200] + 0.5, 1)      # r0 best on "public" only
    x[1, 200:] = np.minimum(x[1, 200:] + 0.5, 1)      # r1 best on "private" only
    topics = names(400, "q")
    res = analyse(x, samples=300, subsets=[("public", topics[:200]), ("private", topics[200:])])
    recs = {r["run"]: r for r in res[0].records}
    assert recs["r0"]["expected_rank_public"] == 1.0
    assert recs["r0"]["expected_rank_private"] > 1.5
    assert recs["r1"]["expected_rank_private"] == 1.0
    assert recs["r1"]["leaderboard_rank_public"] > 1
    for c in ("mean_public", "leaderboard_rank_public", "expected_rank_private"):
        assert c in res[0].columns
    assert recs["r2"]["mean_private"] == pytest.approx(x[2, 200:].mean())


def test_subset_topics_missing_are_warned_and_empty_subset_is_an_error():
    x = rr_matrix(np.random.default_rng(1), 2, 10)
    warnings = []
    inputs = [b.MeasureInput("RR@10", x, True, "ordinal")]
    b.analyse(["a", "b"], names(10, "q"), inputs,
              b.Options(samples=10, subsets=[("s", ["q1", "q2", "zz"])]), warn=warnings.append)
    assert len(warnings) == 1 and "1 of 3" in warnings[0]
    with pytest.raises(UsageError):
        b.analyse(["a", "b"], names(10, "q"), inputs,
                  b.Options(samples=10, subsets=[("s", ["zz"])]))


def test_read_query_subset(tmp_path):
    p = tmp_path / "private.queries.tsv"
    p.write_text("# comment\n1037798\twho is robert gray\n\n104861\tcost of interior\n"
                 "1037798\tagain\n")
    assert b.read_query_subset(str(p)) == ("private", ["1037798", "104861"])
    assert b.read_query_subset(f"Held Out={p}") == ("held_out", ["1037798", "104861"])
    (tmp_path / "empty").write_text("# nothing\n")
    with pytest.raises(InputError):
        b.read_query_subset(str(tmp_path / "empty"))
    with pytest.raises(InputError):
        b.read_query_subset(str(tmp_path / "absent"))


# ---------------------------------------------------------------- options

@pytest.mark.parametrize("kw", [dict(samples=0), dict(seed=-1), dict(top=-1), dict(ci=1.0),
                                dict(ci_method="basic"), dict(alpha=0.0),
                                dict(tests=("sign", "anova")), dict(aggregates=("mode",)),
                                dict(ranks=True, split_half=10),
                                dict(subsets=[("a", ["1"]), ("a", ["2"])])])
def test_bad_options_are_usage_errors(kw):
    with pytest.raises(UsageError):
        b.Options(**kw).check()


def test_unknown_baseline_and_too_few_runs_are_usage_errors():
    x = rr_matrix(np.random.default_rng(1), 1, 10)
    with pytest.raises(UsageError):
        analyse(x, baseline="nope")
    with pytest.raises(UsageError):
        analyse(x, split_half=5)


def test_parse_list():
    assert b.parse_list(["sign,t", "t", "WILCOXON"], b.TESTS) == ("sign", "t", "wilcoxon")
    assert b.parse_list(None, ("mean",)) == ("mean",)


# -------------------------------------------------------- split-half: classes

def paper_class(dir_a, sig_a, dir_b, sig_b):
    """Craswell et al. 2021 §4.3, literally."""
    same = dir_a == dir_b
    if same and ((sig_a and sig_b) or (not sig_a and not sig_b)):
        return "agree"
    if same and (sig_a != sig_b):
        return "partial"
    if not same and not sig_a and not sig_b:
        return "partial"
    if not same and ((sig_a and sig_b) or (sig_a != sig_b)):
        return "disagree"
    raise AssertionError("unreachable")


def test_classification_covers_every_branch_of_the_definition():
    names_ = {sh.AGREE: "agree", sh.PARTIAL: "partial", sh.DISAGREE: "disagree"}
    seen = set()
    for da, db, sa, sb in itertools.product((-1, 0, 1), (-1, 0, 1), (False, True),
                                            (False, True)):
        got = names_[int(sh.classify(da, sa, db, sb))]
        assert got == paper_class(da, sa, db, sb), (da, sa, db, sb)
        seen.add((da == db, sa + sb, got))
    # every branch: same/different direction x 0/1/2 significant halves
    assert seen == {(True, 0, "agree"), (True, 2, "agree"), (True, 1, "partial"),
                    (False, 0, "partial"), (False, 1, "disagree"), (False, 2, "disagree")}
    # vectorised
    got = sh.classify(np.array([1, 1, -1, 1]), np.array([True, False, False, True]),
                      np.array([1, 1, 1, -1]), np.array([True, True, False, True]))
    assert got.tolist() == [sh.AGREE, sh.PARTIAL, sh.PARTIAL, sh.DISAGREE]


def test_split_matrix_halves():
    h = sh.split_matrix(np.random.default_rng(0), 11, 20)
    assert h.shape == (11, 20) and (h.sum(axis=0) == 5).all()
    assert len({tuple(c) for c in h.T}) > 15


# -------------------------------------------------- split-half: p-values

def _data(kind, rng, R=5, n=240):
    if kind == "rr":
        return rr_matrix(rng, R, n, effects=np.linspace(0, 0.15, R))
    x = rng.random((R, n)) * rng.random((R, 1)) + np.linspace(0, .2, R)[:, None]
    if kind == "ties":
        x = np.round(x * 40) / 40
        x[1] = x[0]
        x[2, :60] = x[-1, :60]
    if kind == "nan":
        x[rng.random(x.shape) < 0.05] = np.nan
    if kind == "small":
        x = x[:, :40]
    return x


@pytest.mark.parametrize("kind", ["rr", "continuous", "ties", "nan", "small"])
def test_fast_half_pvalues_equal_the_stats_layer(kind, monkeypatch):
    rng = np.random.default_rng(["rr", "continuous", "ties", "nan", "small"].index(kind))
    x = _data(kind, rng)
    h = sh.split_matrix(rng, x.shape[1], 4)
    slow = sh.half_pvalues(x, h, sh.TESTS, fast=False)
    for dense in (4096, 0):                       # both rank-sum strategies
        monkeypatch.setattr(sh, "_DENSE_VALUES", dense)
        fast = sh.half_pvalues(x, h, sh.TESTS, fast=True)
        for t in sh.TESTS:
            np.testing.assert_allclose(fast[t], slow[t], rtol=1e-9, atol=1e-12,
                                       err_msg=f"{kind} {t}")


@pytest.mark.parametrize("kind", ["rr", "ties", "continuous"])
def test_both_signed_rank_strategies_agree(kind):
    rng = np.random.default_rng(3)
    x = _data(kind, rng)
    h = sh.split_matrix(rng, x.shape[1], 3)
    pi, pj = sh.pairs_of(x.shape[0])
    d = x[pj] - x[pi]
    order, srt = sh._sort_abs(d)
    a = sh._wilcoxon_groups(d, h, order, srt)
    e = sh._wilcoxon_elements(d, h, order, srt)
    np.testing.assert_allclose(a, e, rtol=1e-12, atol=1e-14)


def test_half_pvalues_match_scipy():
    rng = np.random.default_rng(12)
    x = _data("ties", rng, R=3, n=200)
    h = sh.split_matrix(rng, 200, 2)
    pv = sh.half_pvalues(x, h, sh.TESTS)
    pi, pj = sh.pairs_of(3)
    for s in range(2):
        for half, mask in enumerate((h[:, s] > 0, h[:, s] == 0)):
            for p, (i, j) in enumerate(zip(pi, pj)):
                a, bb = x[i, mask], x[j, mask]
                d = bb - a
                ref = {
                    "t": stats.ttest_rel(bb, a).pvalue,
                    "wilcoxon": stats.wilcoxon(bb, a).pvalue if (d != 0).any() else np.nan,
                    "ranksum": stats.mannwhitneyu(bb, a).pvalue,
                    "sign": stats.binomtest(int((d > 0).sum()), int((d != 0).sum())).pvalue
                    if (d != 0).any() else 1.0,
                }
                for t, v in ref.items():
                    got = pv[t][half, s, p]
                    if np.isnan(v):
                        assert np.isnan(got)
                    else:
                        assert got == pytest.approx(v, rel=1e-9, abs=1e-14), (t, s, half, i, j)


# -------------------------------------------------- split-half: rates

def brute_force_rates(x, h, tests, aggregate, alpha):
    R = x.shape[0]
    fns = {"t": st.paired_t, "wilcoxon": st.wilcoxon, "sign": st.sign_test,
           "ranksum": st.ranksum}
    out = {}
    for t in tests:
        cls = {"agree": 0, "partial": 0, "disagree": 0}
        anysig = 0
        cases = 0
        for s in range(h.shape[1]):
            halves = (h[:, s] > 0, h[:, s] == 0)
            for i in range(R):
                for j in range(i + 1, R):
                    dirs, sigs = [], []
                    for mask in halves:
                        a, bb = x[i, mask], x[j, mask]
                        agg = np.mean if aggregate == "mean" else np.median
                        diff = agg(bb) - agg(a)
                        dirs.append(0 if abs(diff) <= 1e-10 * np.abs(x).max()
                                    else int(np.sign(diff)))
                        p = float(fns[t](a, bb).pvalue)
                        sigs.append(bool(p < alpha))
                    cls[paper_class(dirs[0], sigs[0], dirs[1], sigs[1])] += 1
                    anysig += sigs[0] or sigs[1]
                    cases += 1
        out[t] = (100 * cls["agree"] / cases, 100 * cls["partial"] / cases,
                  100 * cls["disagree"] / cases, 100 * anysig / cases)
    return out


@pytest.mark.parametrize("aggregate", ["mean", "median"])
def test_split_half_rates_match_a_brute_force_loop(aggregate):
    rng = np.random.default_rng(13)
    x = rr_matrix(rng, 5, 160, effects=[0, 0.02, 0.05, 0.1, 0.1])
    h = sh.split_matrix(rng, 160, 6)
    got = sh.split_half(x, 6, None, tests=sh.TESTS, aggregates=(aggregate,), h=h)
    ref = brute_force_rates(x, h, sh.TESTS, aggregate, 0.05)
    for r in got:
        assert (r.agree, r.partial, r.disagree, r.pct_significant) == \
            pytest.approx(ref[r.test], abs=1e-9), r.test
        assert r.agree + r.partial + r.disagree == pytest.approx(100.0)
        assert r.cases == 6 * 10


def test_split_half_extremes():
    rng = np.random.default_rng(14)
    x = rr_matrix(rng, 2, 300)
    x[1] = np.minimum(x[0] + 0.3, 1.3)                  # always better: always significant
    for r in sh.split_half(x, 10, seed=1):
        assert (r.agree, r.pct_significant) == (100.0, 100.0), r.test
    y = np.vstack([x[0], x[0]])                        # identical runs: never significant
    for r in sh.split_half(y, 10, seed=1, aggregates=("mean", "median")):
        assert (r.agree, r.pct_significant) == (100.0, 0.0), r.test


def test_split_half_result_set_and_table4_layout():
    x = rr_matrix(np.random.default_rng(15), 4, 200, effects=[0, .05, .1, .1])
    res = analyse(x, split_half=5, aggregates=("mean", "median"), samples=20, tests=b.TESTS)
    rs = res[2]
    assert rs.columns == b.SPLIT_COLUMNS
    assert [(r["test"], r["aggregate"]) for r in rs.records] == \
        [(t, a) for a in ("mean", "median") for t in b.TESTS]
    assert [r["permissible"] for r in rs.records[:4]] == [True, True, False, False]
    t4 = b.table4(rs)
    assert [r["rate"] for r in t4.records] == ["agree", "part. agree", "disagree",
                                              "perc. signif"]
    assert t4.columns[2:] == ["sign", "rank-sum", "signed-rank", "t", "sign med.",
                              "rank-sum med.", "signed-rank med.", "t med."]
    assert t4.records[0]["sign"] == rs.records[0]["agree"]
    assert [t.id for t in res] == ["leaderboard", "rank_probabilities", "split_half"]
    assert b.primary_id(b.Options(split_half=5)) == "split_half"
    assert rs.view is not None and rs.view.columns == t4.columns   # people see Table 4


def test_progress_is_reported_and_reaches_the_end():
    x = rr_matrix(np.random.default_rng(16), 3, 100)
    calls = []
    inputs = [b.MeasureInput("RR@10", x, True, "ordinal")]
    b.analyse(names(3), names(100, "q"), inputs,
              b.Options(samples=600, split_half=3, subsets=[("s", names(50, "q"))]),
              progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1]
    assert all(d <= t for d, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_result_columns_and_rank_rows():
    x = rr_matrix(np.random.default_rng(17), 6, 150, effects=np.linspace(0, .2, 6))
    res = analyse(x, samples=100, top=3, baseline="r0")
    assert res[0].columns == b.SUMMARY_COLUMNS + b.BASELINE_COLUMNS
    assert [r["leaderboard_rank"] for r in res[0].records] == sorted(
        r["leaderboard_rank"] for r in res[0].records)
    base = [r for r in res[0].records if r["run"] == "r0"][0]
    assert base["diff"] is None and base["baseline"] == "r0"
    assert res[1].columns == b.RANK_COLUMNS and len(res[1].records) == 6 * 3
    full = analyse(x, samples=100, top=0)[1].records
    assert len(full) == 36
    for run in names(6):
        assert sum(r["probability"] for r in full if r["run"] == run) == pytest.approx(1.0)
    assert res[1].table_hints["heatmap"]["columns"] == ["1", "2", "3"]
