"""Outcomes breakdown (Lin et al. 2021): core, verdicts, corrections, analysis.

Independent references: the papers' worked examples, brute-force loops over
topics, and scipy.stats on the raw ranks.
"""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as ss

from ipsoeval.analyses import breakdown as bd
from ipsoeval.errors import UsageError
from ipsoeval.model import UNJUDGED, Aligned
from tests import reference

# ---------------------------------------------------------------- helpers

def aligned_from_ranks(ranks, depth=10, names=None, extra_rel=None, no_rel=()):
    """An Aligned whose run r has its (only) relevant document of topic t at
    rank ranks[r][t] (0 = not retrieved); every other slot is unjudged.
    ``extra_rel``: {topic index: count} adds relevant docs to the qrels only
    (num_rel), ``no_rel``: topics with no relevant document in the qrels."""
    ranks = np.asarray(ranks)
    R, T = ranks.shape
    labels = np.full((R, T, depth), UNJUDGED, dtype=np.int32)
    for r in range(R):
        for t in range(T):
            if ranks[r, t]:
                labels[r, t, ranks[r, t] - 1] = 1
    num_rel = np.ones(T, dtype=np.int64)
    for t, c in (extra_rel or {}).items():
        num_rel[t] += c
    for t in no_rel:
        num_rel[t] = 0
    return Aligned(
        runs=list(names or [f"run{r}" for r in range(R)]),
        topics=[f"q{t:04d}" for t in range(T)],
        labels=labels, n_ret=np.full((R, T), depth, dtype=np.int64), rel_level=1,
        num_rel=num_rel, num_nonrel=np.zeros(T, dtype=np.int64),
        judged_labels=[np.array([1] * int(n), dtype=np.int64) for n in num_rel],
    )


def msmarco_like(rng, n=3000, found_a=0.85, found_b=0.85, shift=0.0):
    """Correlated first-relevant ranks of two runs (0 = none in the top 100)."""
    z = rng.standard_normal(n)
    ua = 0.8 * z + 0.6 * rng.standard_normal(n)
    ub = 0.8 * z + 0.6 * rng.standard_normal(n) + shift
    ra = np.minimum(np.floor(np.exp(1.2 * ua + 1.5)).astype(int) + 1, 100)
    rb = np.minimum(np.floor(np.exp(1.2 * ub + 1.5)).astype(int) + 1, 100)
    ra[rng.random(n) > found_a] = 0
    rb[rng.random(n) > found_b] = 0
    return ra, rb


def brute_force(ra, rb):
    """Counts and case-3 values by plain loops."""
    c = {"1": 0, "2A": 0, "2B": 0, "3": 0}
    esl_a, esl_b, rr_all_a, rr_all_b = [], [], [], []
    for a, b in zip(ra.tolist(), rb.tolist()):
        rr_all_a.append(1 / a if a else 0.0)
        rr_all_b.append(1 / b if b else 0.0)
        if a and b:
            c["3"] += 1
            esl_a.append(a)
            esl_b.append(b)
        elif a:
            c["2A"] += 1
        elif b:
            c["2B"] += 1
        else:
            c["1"] += 1
    return c, np.array(esl_a, float), np.array(esl_b, float), \
        np.array(rr_all_a), np.array(rr_all_b)


# ---------------------------------------------------------------- worked examples

def test_lin_example_same_mean_esl_different_mrr():
    # Lin et al. §5: ranks {1, 9} vs {4, 6}: same mean ESL, MRR 0.556 vs 0.208.
    s = bd.compare_pair([1, 9], [4, 6])
    assert s["n_both"] == 2
    assert s["esl_a"] == 5.0 and s["esl_b"] == 5.0
    assert round(s["mrr_a"], 3) == 0.556 and round(s["mrr_b"], 3) == 0.208
    assert s["rr_a"] == s["mrr_a"] and s["rr_b"] == s["mrr_b"]


def test_ferrante_example_9():
    # Ferrante et al. Example 9: ranks {1, 4} vs {2, 2}: MRR 0.625 vs 0.5,
    # mean rank 2.5 vs 2 — RR prefers A, ESL prefers B.
    s = bd.compare_pair([1, 4], [2, 2])
    assert s["mrr_a"] == 0.625 and s["mrr_b"] == 0.5
    assert s["esl_a"] == 2.5 and s["esl_b"] == 2.0
    d = bd.compare_pair([1, 4], [2, 2])["_direction"]
    assert d[("esl", "mean")] == 1 and d[("rr", "mean")] == -1


def test_nan_means_no_relevant_document():
    # ESL@k from the engine is NaN when undefined: accepted as "none".
    s1 = bd.compare_pair([1.0, np.nan, 3.0], [np.nan, 2.0, 3.0])
    s2 = bd.compare_pair([1, 0, 3], [0, 2, 3])
    s1.pop("_direction"), s2.pop("_direction")
    assert s1 == s2
    assert (s1["n_a_only"], s1["n_b_only"], s1["n_both"]) == (1, 1, 1)


# ---------------------------------------------------------------- first relevant rank

@settings(max_examples=60, deadline=None)
@given(hs.integers(1, 4), hs.integers(1, 6), hs.integers(0, 12), hs.integers(1, 15),
       hs.integers(0, 2**32 - 1))
def test_first_relevant_ranks_from_engine_brute_force(R, T, D, k, seed):
    """breakdown takes the first-relevant ranks from the engine (ESL@k), not its own pass."""
    rel = np.random.default_rng(seed).random((R, T, D)) < 0.2
    al = Aligned(runs=[f"r{i}" for i in range(R)], topics=[f"q{t}" for t in range(T)],
                 labels=rel.astype(np.int32), n_ret=np.full((R, T), D, dtype=np.int64),
                 rel_level=1, num_rel=np.full(T, 1, dtype=np.int64),
                 num_nonrel=np.zeros(T, dtype=np.int64),
                 judged_labels=[np.array([1], dtype=np.int64)] * T)
    got = bd.first_relevant_from_engine(al, k)
    assert got.shape == (R, T)
    for r in range(R):
        for t in range(T):
            want = next((i + 1 for i in range(min(k, D)) if rel[r, t, i]), 0)
            assert got[r, t] == want


def test_bad_cutoff_is_a_usage_error():
    with pytest.raises(UsageError):
        bd.Options(k=0).check()


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(0, 20), hs.integers(0, 20)), min_size=1, max_size=40))
def test_outcomes_partition_topics(pairs):
    ra = np.array([p[0] for p in pairs])
    rb = np.array([p[1] for p in pairs])
    s = bd.compare_pair(ra, rb)
    c, esl_a, esl_b, rra, rrb = brute_force(ra, rb)
    assert (s["n_neither"], s["n_a_only"], s["n_b_only"], s["n_both"]) == \
        (c["1"], c["2A"], c["2B"], c["3"])
    assert sum(s[f"pct_{x}"] for x in ("neither", "a_only", "b_only", "both")) == \
        pytest.approx(100.0)
    assert s["mrr_diff"] == pytest.approx(rrb.mean() - rra.mean(), abs=1e-12)
    oc = bd.outcomes(ra, rb)
    assert set(oc) <= {"1", "2A", "2B", "3"}
    assert [oc.tolist().count(x) for x in ("1", "2A", "2B", "3")] == \
        [c["1"], c["2A"], c["2B"], c["3"]]


# ---------------------------------------------------------------- vs scipy

@pytest.mark.parametrize("seed,shift", [(1, 0.0), (2, -0.15), (3, 0.1)])
def test_msmarco_like_pair_against_scipy(seed, shift):
    rng = np.random.default_rng(seed)
    ra, rb = msmarco_like(rng, found_b=0.88, shift=shift)
    s = bd.compare_pair(ra, rb, naive=True)
    c, esl_a, esl_b, rra, rrb = brute_force(ra, rb)
    n = len(ra)
    assert s["n"] == n
    assert (s["n_neither"], s["n_a_only"], s["n_b_only"], s["n_both"]) == \
        (c["1"], c["2A"], c["2B"], c["3"])
    assert s["pct_a_only"] == pytest.approx(100 * c["2A"] / n, rel=1e-12)
    assert s["pct_b_only"] == pytest.approx(100 * c["2B"] / n, rel=1e-12)
    assert s["mrr_a"] == pytest.approx(rra.mean(), rel=1e-12)
    assert s["mrr_b"] == pytest.approx(rrb.mean(), rel=1e-12)
    assert s["mrr_diff"] == pytest.approx(rrb.mean() - rra.mean(), rel=1e-9)
    assert s["esl_a"] == pytest.approx(esl_a.mean(), rel=1e-12)
    assert s["esl_b"] == pytest.approx(esl_b.mean(), rel=1e-12)
    assert s["rr_a"] == pytest.approx((1 / esl_a).mean(), rel=1e-12)
    assert s["rr_b"] == pytest.approx((1 / esl_b).mean(), rel=1e-12)
    # case 3 tests, on the raw ranks of the outcome-3 topics
    assert s["esl_wilcoxon_p_value"] == pytest.approx(ss.wilcoxon(esl_b, esl_a).pvalue, rel=1e-9)
    assert s["esl_t_p_value"] == pytest.approx(ss.ttest_rel(esl_b, esl_a).pvalue, rel=1e-9)
    # reference on exact rational differences (scipy ranks float noise such as
    # 1/2 - 1/3 vs 1/3 - 1/6 as distinct; ipsoeval ties them, see test_stats_ties)
    from fractions import Fraction
    d_exact = np.array([float(Fraction(1, int(b)) - Fraction(1, int(a)))
                        for a, b in zip(esl_a, esl_b)])
    assert s["rr_wilcoxon_p_value"] == pytest.approx(ss.wilcoxon(d_exact).pvalue, rel=1e-9)
    assert s["rr_t_p_value"] == pytest.approx(ss.ttest_rel(1 / esl_b, 1 / esl_a).pvalue, rel=1e-9)
    # case 2: exact binomial test of |2A| vs |2B|
    assert s["answered_sign_p_value"] == pytest.approx(
        ss.binomtest(c["2B"], c["2A"] + c["2B"], 0.5).pvalue, rel=1e-9)
    # naive (Table 1) tests on RR over all topics
    assert s["mrr_ranksum_p_value"] == pytest.approx(ss.mannwhitneyu(rrb, rra).pvalue, rel=1e-9)
    inv = {x: Fraction(1, round(1 / x)) if x else Fraction(0) for x in set(rra) | set(rrb)}
    d_all = np.array([float(inv[b] - inv[a]) for a, b in zip(rra, rrb)])
    assert s["mrr_wilcoxon_p_value"] == pytest.approx(ss.wilcoxon(d_all).pvalue, rel=1e-9)
    assert s["mrr_t_p_value"] == pytest.approx(ss.ttest_rel(rrb, rra).pvalue, rel=1e-9)


def test_small_case3_uses_exact_wilcoxon():
    ra = np.array([3, 5, 2, 9, 4, 7, 1, 0, 6])
    rb = np.array([1, 2, 4, 3, 1, 2, 1, 5, 0])
    s = bd.compare_pair(ra, rb)
    both = (ra > 0) & (rb > 0)
    assert s["esl_wilcoxon_p_value"] == pytest.approx(
        ss.wilcoxon(rb[both].astype(float), ra[both].astype(float)).pvalue, rel=1e-12)
    assert s["answered_sign_p_value"] == 1.0   # one topic each way


def test_undefined_pvalues_are_none():
    # identical rankings: no non-zero difference anywhere
    s = bd.compare_pair([1, 2, 0], [1, 2, 0], naive=True)
    assert s["esl_wilcoxon_p_value"] is None and s["esl_t_p_value"] is None
    assert s["rr_wilcoxon_p_value"] is None and s["rr_t_p_value"] is None
    assert s["answered_sign_p_value"] == 1.0       # no topic in outcome 2
    # no topic in outcome 3: means undefined
    s = bd.compare_pair([1, 0], [0, 3])
    assert s["esl_a"] is None and s["rr_b"] is None and s["esl_t_p_value"] is None
    # one topic in outcome 3: no t test
    s = bd.compare_pair([1, 0], [2, 0])
    assert s["esl_t_p_value"] is None and s["esl_wilcoxon_p_value"] == pytest.approx(1.0)


# ---------------------------------------------------------------- verdicts

def _ranks_for(answer: int, rank: int, rng, n3=60, n2=40):
    """Ranks for A and B where B answers more (answer=+1), fewer (-1) or the
    same (0) and ranks better (rank=+1, lower ESL), worse (-1) or alike (0)."""
    a3 = rng.integers(2, 30, n3)
    if rank == 1:
        b3 = np.maximum(1, a3 - rng.integers(1, 4, n3))
    elif rank == -1:
        b3 = a3 + rng.integers(1, 4, n3)
    else:
        b3 = a3.copy()
        idx = rng.choice(n3, 20, replace=False)
        b3[idx[:10]] += 1            # ten up, ten down: no shift
        b3[idx[10:]] = np.maximum(1, b3[idx[10:]] - 1)
    if answer == 1:
        a2, b2 = np.zeros(n2, int), rng.integers(1, 30, n2)
    elif answer == -1:
        a2, b2 = rng.integers(1, 30, n2), np.zeros(n2, int)
    else:
        a2 = np.r_[np.zeros(n2 // 2, int), rng.integers(1, 30, n2 // 2)]
        b2 = np.r_[rng.integers(1, 30, n2 // 2), np.zeros(n2 // 2, int)]
    neither = np.zeros(10, int)
    return np.r_[a3, a2, neither], np.r_[b3, b2, neither]


@pytest.mark.parametrize("answer,rank,expected", [
    (1, 1, "better"),
    (1, 0, "better (do no harm)"),
    (0, 1, "better (do no harm)"),
    (-1, -1, "worse"),
    (-1, 0, "worse (do harm)"),
    (0, -1, "worse (do harm)"),
    (1, -1, "mixed"),
    (-1, 1, "mixed"),
    (0, 0, "no significant difference"),
])
def test_every_verdict_reachable(answer, rank, expected):
    rng = np.random.default_rng(abs(answer * 3 + rank) + 11)
    ra, rb = _ranks_for(answer, rank, rng)
    al = aligned_from_ranks([ra, rb], depth=40, names=["A", "B"])
    for vt in ("esl-t", "esl-wilcoxon", "rr-t", "rr-wilcoxon"):
        out = bd.run(al, k=100, verdict_test=vt)
        rec = out.table().records[0]
        # the facets really are (non-)significant, by scipy
        both = (ra > 0) & (rb > 0)
        p_ans = ss.binomtest(int(((rb > 0) & (ra == 0)).sum()),
                             int(((rb > 0) != (ra > 0)).sum())).pvalue
        assert (p_ans < 0.05) == (answer != 0)
        if rank != 0:
            assert ss.ttest_rel(rb[both], ra[both]).pvalue < 0.05
        assert rec["verdict"] == expected, (vt, rec)


def test_verdict_rule_table():
    v = bd.verdict
    assert v(0.01, 10, 30, 0.01, +1, 0.05) == "better"
    assert v(0.01, 10, 30, 0.5, -1, 0.05) == "better (do no harm)"
    assert v(None, 0, 0, 0.01, +1, 0.05) == "better (do no harm)"
    assert v(0.01, 30, 10, 0.01, -1, 0.05) == "worse"
    assert v(0.01, 30, 10, None, 0, 0.05) == "worse (do harm)"
    assert v(0.01, 10, 30, 0.01, -1, 0.05) == "mixed"
    assert v(0.2, 10, 30, 0.2, +1, 0.05) == "no significant difference"
    # exactly alpha is not significant
    assert v(0.05, 10, 30, 0.05, +1, 0.05) == "no significant difference"
    # a significant p with no direction is no evidence
    assert v(0.01, 20, 20, 0.01, 0, 0.05) == "no significant difference"


def test_esl_and_rr_can_disagree():
    # Example 9 writ large: A finds answers at {1, 4}, B at {2, 2}, many times.
    ra = np.array([1, 4] * 40)
    rb = np.array([2, 2] * 40)
    al = aligned_from_ranks([ra, rb], depth=10)
    assert bd.run(al, verdict_test="esl-t").table().records[0]["verdict"] == \
        "better (do no harm)"     # mean ESL 2 < 2.5
    assert bd.run(al, verdict_test="rr-t").table().records[0]["verdict"] == \
        "worse (do harm)"         # MRR 0.5 < 0.625


# ---------------------------------------------------------------- run on Aligned

def test_run_columns_and_values():
    rng = np.random.default_rng(5)
    ra, rb = msmarco_like(rng, n=400)
    _, rc = msmarco_like(rng, n=400, shift=-0.3)
    al = aligned_from_ranks([ra, rb, rc], depth=100, names=["base", "x", "y"])
    out = bd.run(al, k=100)
    rs = out.table()
    assert rs.command == "breakdown"
    for c in ("run_a", "run_b", "k", "mrr_diff", "n_neither", "n_a_only", "n_b_only",
              "n_both", "pct_neither", "pct_a_only", "pct_b_only", "pct_both", "esl_a",
              "esl_b", "esl_wilcoxon_p_value", "esl_t_p_value", "rr_a", "rr_b", "rr_wilcoxon_p_value",
              "rr_t_p_value", "answered_sign_p_value", "verdict"):
        assert c in rs.columns
    assert [r["run_b"] for r in rs.records] == ["x", "y"]
    assert all(r["run_a"] == "base" and r["k"] == 100 for r in rs.records)
    for rec in rs.records:
        assert list(rec) == rs.columns
    rec = rs.records[1]
    s = bd.compare_pair(ra, rc)
    for key in ("n_both", "esl_b", "esl_t_p_value", "answered_sign_p_value"):
        assert rec[key] == s[key]
    assert out.warnings == []
    assert rs.params["k"] == 100 and rs.params["baseline"] == "base"


def test_cutoff_moves_topics_to_unanswered():
    ra = np.array([1, 5, 12, 0])
    rb = np.array([3, 11, 2, 7])
    al = aligned_from_ranks([ra, rb], depth=20)
    rec = bd.run(al, k=10).table().records[0]
    # k=10: topic 0 both; 1 only A (B at 11); 2 only B (A at 12); 3 only B
    assert (rec["n_neither"], rec["n_a_only"], rec["n_b_only"], rec["n_both"]) == (0, 1, 2, 1)
    rec = bd.run(al, k=1).table().records[0]
    assert (rec["n_neither"], rec["n_a_only"], rec["n_b_only"], rec["n_both"]) == (3, 1, 0, 0)


def test_baseline_choice():
    al = aligned_from_ranks([[1, 2, 0], [2, 0, 1], [0, 1, 1]], depth=5, names=["a", "b", "c"])
    rs = bd.run(al, baseline="b").table()
    assert [(r["run_a"], r["run_b"]) for r in rs.records] == [("b", "a"), ("b", "c")]
    rs = bd.run(al, baseline="c").table()
    assert [(r["run_a"], r["run_b"]) for r in rs.records] == [("c", "a"), ("c", "b")]
    with pytest.raises(UsageError, match="neither a run name nor a RUN argument"):
        bd.run(al, baseline="zzz")


def test_usage_errors():
    al = aligned_from_ranks([[1, 2]], depth=3)
    with pytest.raises(UsageError, match="at least two"):
        bd.run(al)
    al = aligned_from_ranks([[1, 2], [2, 1]], depth=3)
    with pytest.raises(UsageError):
        bd.run(al, k=0)
    with pytest.raises(UsageError):
        bd.run(al, correct="fdr")
    with pytest.raises(UsageError):
        bd.run(al, alpha=1.5)
    with pytest.raises(UsageError):
        bd.run(al, verdict_test="sign")
    al = aligned_from_ranks([[1, 2], [2, 1]], depth=3, names=["x", "x"])
    with pytest.raises(UsageError, match="distinct"):
        bd.run(al, baseline="x")


def test_warnings_multiple_and_no_relevant():
    al = aligned_from_ranks([[1, 2, 0, 3], [2, 1, 0, 0]], depth=5,
                            extra_rel={0: 2, 3: 1}, no_rel=[2])
    out = bd.run(al)
    assert any(w.startswith("2 of 4 topics have more than one relevant document")
               for w in out.warnings)
    assert any(w.startswith("1 of 4 topics have no relevant document") for w in out.warnings)


def test_first_relevant_document_used_with_several():
    # topic 0 has relevant docs at ranks 3 and 1 in run A: ESL is 1
    al = aligned_from_ranks([[3, 2], [2, 2]], depth=5, extra_rel={0: 1})
    al.labels[0, 0, 0] = 1
    rec = bd.run(al, per_query=True).table().records[0]
    assert rec["rank_a"] == 1 and rec["rank_b"] == 2


def test_per_query_records():
    al = aligned_from_ranks([[1, 0, 4, 0], [3, 2, 0, 0], [0, 0, 1, 1]], depth=5,
                            names=["a", "b", "c"])
    rs = bd.run(al, per_query=True).table()
    assert rs.columns == ["run_a", "run_b", "qid", "outcome", "rank_a", "rank_b"]
    rows = [(r["run_b"], r["qid"], r["outcome"], r["rank_a"], r["rank_b"]) for r in rs.records]
    assert rows == [
        ("b", "q0000", "3", 1, 3), ("b", "q0001", "2B", None, 2),
        ("b", "q0002", "2A", 4, None), ("b", "q0003", "1", None, None),
        ("c", "q0000", "2A", 1, None), ("c", "q0001", "1", None, None),
        ("c", "q0002", "3", 4, 1), ("c", "q0003", "2B", None, 1),
    ]


# ---------------------------------------------------------------- corrections



@pytest.mark.parametrize("method", ["bonferroni", "holm"])
@pytest.mark.parametrize("naive", [False, True])
def test_correction_family_is_every_pvalue(method, naive):
    rng = np.random.default_rng(9)
    ra, rb = msmarco_like(rng, n=300)
    _, rc = msmarco_like(rng, n=300, shift=-0.2)
    _, rd = msmarco_like(rng, n=300, found_b=0.95)
    al = aligned_from_ranks([ra, rb, rc, rd], depth=100)
    raw = bd.run(al, naive=naive).table()
    cor = bd.run(al, naive=naive, correct=method).table()
    pcols = bd.P_COLUMNS + (bd.NAIVE_P_COLUMNS if naive else [])
    assert len(pcols) == (8 if naive else 5)
    family = [rec[c] for rec in raw.records for c in pcols]
    assert all(p is not None for p in family)
    want = [min(1.0, p * len(family)) for p in family] if method == "bonferroni" \
        else reference.holm(family)
    got = [rec[bd.adjusted(c)] for rec in cor.records for c in pcols]
    assert got == pytest.approx(want, rel=1e-12)
    # raw p-values are still there, unchanged
    assert [rec[c] for rec in cor.records for c in pcols] == family
    assert all(bd.adjusted(c) in cor.columns for c in pcols)
    assert not any(c.endswith("_p_adjusted") for c in raw.columns)


def test_verdict_uses_adjusted_pvalues():
    # B answers 7 more topics than A (p = 2/128 raw) and ranks alike.
    ra = np.r_[np.full(30, 3), np.zeros(7, int)]
    rb = np.r_[np.full(30, 3), np.full(7, 2)]
    # many near-identical challengers make a big family
    al = aligned_from_ranks([ra] + [rb] * 40, depth=5)
    raw = bd.run(al).table().records[0]
    assert raw["answered_sign_p_value"] == pytest.approx(ss.binomtest(7, 7).pvalue)
    assert raw["verdict"] == "better (do no harm)"
    rec = bd.run(al, correct="bonferroni").table().records[0]
    assert rec["answered_sign_p_adjusted"] >= 0.05
    assert rec["verdict"] == "no significant difference"


def test_table_hints_groups_name_real_columns():
    al = aligned_from_ranks([[1, 2, 0], [2, 0, 1]], depth=5)
    for naive in (False, True):
        for correct in ("none", "holm"):
            rs = bd.run(al, naive=naive, correct=correct).table()
            grouped = [c for _, cols in rs.table_hints["groups"] for c in cols]
            assert set(grouped) <= set(rs.columns)
            assert set(rs.table_hints["hide"]) <= set(rs.columns)
            assert not set(grouped) & set(rs.table_hints["hide"])
