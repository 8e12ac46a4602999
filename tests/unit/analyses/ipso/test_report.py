"""`ipso` analyses on aligned runs: pair summaries, p range, Table 3,
Figure 7 agreement, graded-relevance rules, Table 2 records.

References: scipy.stats.binomtest, brute force over every way the **
topics can break, a literal Algorithm 1, the paper's numbers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from ipsoeval.analyses import ipso
from ipsoeval.analyses.ipso import core
from ipsoeval.errors import UsageError
from ipsoeval.model import PAD, UNJUDGED, Aligned
from tests.unit.analyses.ipso.test_core import FIG5, algorithm1


def make_aligned(labels, runs=None, topics=None, rel_level=1, gain_map=None, judged=None):
    labels = np.asarray(labels, dtype=np.int32)
    R, T, D = labels.shape
    runs = runs or [f"r{i}" for i in range(R)]
    topics = topics or [str(301 + t) for t in range(T)]
    if judged is None:
        judged = []
        for t in range(T):
            lab = labels[:, t, :]
            lab = lab[lab > UNJUDGED]
            judged.append(np.sort(np.concatenate([lab, [1] * 10, [0] * 5]))[::-1])
    num_rel = np.array([(j >= rel_level).sum() for j in judged])
    return Aligned(runs=runs, topics=topics, labels=labels,
                   n_ret=(labels != PAD).sum(axis=2), rel_level=rel_level,
                   num_rel=num_rel, num_nonrel=np.array([(j < rel_level).sum() for j in judged]),
                   judged_labels=judged, gain_map=gain_map)


def fig5_aligned():
    rows = sorted((line.split() for line in FIG5.splitlines()), key=lambda r: r[0])
    lab = np.array([[[int(c) for c in r[1]] for r in rows],
                    [[int(c) for c in r[2]] for r in rows]])
    return make_aligned(lab, runs=["sysA", "sysB"], topics=[r[0] for r in rows])


def brute_range(ns, ni, s):
    ps = []
    for x in range(s + 1):  # x of the ** topics towards B (ns side)
        a, b = ns + x, ni + s - x
        ps.append(binomtest(a, a + b).pvalue if a + b else 1.0)
    return min(ps), max(ps)


# ------------------------------------------------------------ sign test

def test_paper_sign_example_and_range():
    counts = np.array([[20, 81, 23, 109, 16]])
    p, lo, hi = ipso.sign_pvalues(counts)
    assert round(float(p[0]), 4) == 0.0499
    assert np.isclose(p[0], binomtest(81, 190).pvalue, rtol=1e-12)
    # all 36 towards A: 81 vs 145; all towards B: 117 vs 109; balanced: 1
    assert np.isclose(lo[0], binomtest(81, 226).pvalue, rtol=1e-12)
    assert lo[0] < 0.01
    assert hi[0] == 1.0
    assert np.isclose(ipso.sign_p_counts([117], [109])[0], binomtest(117, 226).pvalue)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=5, max_size=5))
def test_p_range_is_min_and_max_over_every_break(c):
    p, lo, hi = ipso.sign_pvalues(np.array([c]))
    ns, ni, s = c[1], c[3], c[0] + c[4]
    blo, bhi = brute_range(ns, ni, s)
    assert np.isclose(lo[0], blo, rtol=1e-10, atol=1e-300)
    assert np.isclose(hi[0], bhi, rtol=1e-10)
    ref = binomtest(ns, ns + ni).pvalue if ns + ni else 1.0
    assert np.isclose(p[0], ref, rtol=1e-10)


def test_claim_rule():
    assert ipso.claim(0.01, 0.01, 0.1, n_ns=30, n_ni=10, alpha=0.05) == "†‡"
    assert ipso.claim(0.01, 0.01, -0.1, n_ns=10, n_ni=30, alpha=0.05) == "†‡"
    # IPSO significant the other way: no corroboration
    assert ipso.claim(0.01, 0.01, 0.1, n_ns=10, n_ni=30, alpha=0.05) == "†"
    assert ipso.claim(0.01, 0.20, 0.1, n_ns=30, n_ni=25, alpha=0.05) == "†"
    # IPSO alone never claims (§3.6: only after the metric test)
    assert ipso.claim(0.20, 0.001, 0.1, n_ns=30, n_ni=1, alpha=0.05) == ""
    assert ipso.claim(float("nan"), 0.001, 0.1, n_ns=30, n_ni=1, alpha=0.05) == ""


# ------------------------------------------------------------ pair summaries

def test_fig5_pair_summary():
    al = fig5_aligned()
    rs = ipso.run(al, ipso.Options(k=10)).table()
    assert rs.columns == ipso.PAIR_COLUMNS
    (rec,) = rs.records
    assert (rec["run_a"], rec["run_b"], rec["k"], rec["n"]) == ("sysA", "sysB", 10, 25)
    assert [rec[c] for c in ("n_nonsep_via_ns", "n_ns", "n_equal", "n_ni",
                             "n_nonsep_via_ni")] == [2, 4, 5, 13, 1]
    assert np.isclose(rec["sign_p_value"], binomtest(4, 17).pvalue, rtol=1e-12)
    lo, hi = brute_range(4, 13, 3)
    assert np.isclose(rec["sign_p_value_min"], lo) and np.isclose(rec["sign_p_value_max"], hi)


def test_depths_give_one_row_per_depth_and_match_algorithm1():
    al = fig5_aligned()
    rs = ipso.run(al, ipso.Options(k=10, depths=[1, 3, 5, 10])).table()
    assert [r["k"] for r in rs.records] == [1, 3, 5, 10]
    rows = sorted((line.split() for line in FIG5.splitlines()), key=lambda r: r[0])
    for rec in rs.records:
        d = rec["k"]
        tally = {"==": 0, "ni": 0, "ns": 0, "**": 0}
        for _, a, b in rows:
            tally[algorithm1([int(c) for c in a[:d]], [int(c) for c in b[:d]])] += 1
        assert rec["n_equal"] == tally["=="]
        assert rec["n_ni"] == tally["ni"] and rec["n_ns"] == tally["ns"]
        assert rec["n_nonsep_via_ns"] + rec["n_nonsep_via_ni"] == tally["**"]


def test_three_runs_first_against_each_and_all_pairs():
    rng = np.random.default_rng(5)
    lab = rng.integers(0, 2, size=(3, 12, 8))
    al = make_aligned(lab, runs=["x", "y", "z"])
    rs = ipso.run(al, ipso.Options(k=8)).table()
    assert [(r["run_a"], r["run_b"]) for r in rs.records] == [("x", "y"), ("x", "z")]
    out = ipso.run(al, ipso.Options(k=8, all_pairs=True))
    assert out.ids == ["depths", "pairs"] and out.primary == "pairs"
    depth_rs, pair_rs = out.table("depths"), out.table("pairs")
    assert [(r["run_a"], r["run_b"]) for r in pair_rs.records] == [("x", "y"), ("x", "z"), ("y", "z")]
    assert [r["k"] for r in depth_rs.records] == list(range(1, 9))


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.integers(1, 6), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_table3_counts_match_algorithm1(n_runs, n_topics, k, seed):
    rng = np.random.default_rng(seed)
    lab = rng.integers(0, 2, size=(n_runs, n_topics, rng.integers(1, k + 3)))
    al = make_aligned(lab)
    depth_rs = ipso.run(al, ipso.Options(k=k, all_pairs=True)).table("depths")
    assert depth_rs.columns == ipso.DEPTH_COLUMNS
    G = np.zeros((n_runs, n_topics, k), dtype=int)
    d = min(k, lab.shape[2])
    G[:, :, :d] = lab[:, :, :d]
    for rec in depth_rs.records:
        i = rec["k"]
        tally = {"==": 0, "sep": 0, "**": 0}
        for a, b in itertools.combinations(range(n_runs), 2):
            for t in range(n_topics):
                r = algorithm1(G[a, t, :i].tolist(), G[b, t, :i].tolist())
                tally["sep" if r in ("ni", "ns") else r] += 1
        assert (rec["n_equal"], rec["n_separable"], rec["n_nonseparable"]) == (
            tally["=="], tally["sep"], tally["**"])
        n = rec["n_serp_pairs"]
        assert n == n_runs * (n_runs - 1) // 2 * n_topics
        assert np.isclose(rec["pct_equal"] + rec["pct_separable"] + rec["pct_nonseparable"], 100)


def test_all_pairs_crossings_equal_pairwise():
    rng = np.random.default_rng(11)
    for graded, high in (("prefix", 2), ("prefix", 4), ("threshold", 4)):
        G = rng.integers(0, high, size=(6, 7, 15))
        fp, fn = core.all_pairs_crossings(G, 12, graded)
        ia, ib = core.run_pairs(6)
        fp2, fn2 = core.crossings(G[ia], G[ib], 12, graded)
        assert np.array_equal(fp, fp2) and np.array_equal(fn, fn2)
    Gf = rng.integers(0, 4, size=(5, 3, 10)) * 0.1
    fp, fn = core.all_pairs_crossings(Gf, 10, "prefix")
    ia, ib = core.run_pairs(5)
    fp2, fn2 = core.crossings(Gf[ia], Gf[ib], 10, "prefix")
    assert np.array_equal(fp, fp2) and np.array_equal(fn, fn2)


def test_agreement_categories():
    # scores built so that the metric test's verdict is known
    rng = np.random.default_rng(3)
    R, T, k = 4, 40, 5
    lab = rng.integers(0, 2, size=(R, T, k))
    lab[0] = 1  # run 0 dominates everything: IPSO significant against all
    fp, fn = core.all_pairs_crossings(lab, k)
    ia, ib = core.run_pairs(R)
    S = lab.sum(axis=2).astype(float)
    scores = {"X": ("X", "interval", S)}
    metric_p = {("X", "t"): np.array([0.01, 0.5, 0.01, 0.5, 0.01, 0.5])}
    opts = ipso.Options(k=k, measures=["X"], tests=["t"], all_pairs=True)
    rs = ipso.agreement_table(fp, fn, k, ia, ib, scores, metric_p, opts, {})
    (rec,) = rs.records
    counts = core.group_counts(core.group(fp, fn, k))
    p = np.array([binomtest(int(c[1]), int(c[1] + c[3])).pvalue if c[1] + c[3] else 1.0
                  for c in counts])
    isig = p < 0.05
    msig = metric_p[("X", "t")] < 0.05
    assert rec["both_yes"] == int((isig & msig).sum())
    assert rec["both_no"] == int((~isig & ~msig).sum())
    assert rec["metric_only"] == int((~isig & msig).sum())
    assert rec["ipso_only"] == int((isig & ~msig).sum())
    assert rec["both_yes"] + rec["both_no"] + rec["metric_only"] + rec["ipso_only"] == 6
    assert rec["n_run_pairs"] == 6


# ------------------------------------------------------------ graded

def graded_aligned(gain_map=None):
    lab = np.array([[[2, 0, 1, 0]], [[1, 1, 0, 2]]])
    judged = [np.array([2, 2, 1, 1, 0, 0])]
    return make_aligned(lab, judged=judged, gain_map=gain_map)


def test_graded_qrels_need_gains_or_level():
    al = graded_aligned()
    with pytest.raises(UsageError, match="--gains"):
        ipso.run(al, ipso.Options(k=4))
    with pytest.raises(UsageError):
        ipso.run(al, ipso.Options(k=4, graded="threshold"))  # not given explicitly
    rs = ipso.run(al, ipso.Options(k=4), rel_level_given=True).table()
    assert rs.params["values"].startswith("binary")
    rs = ipso.run(al, ipso.Options(k=4, graded="threshold"), graded_given=True).table()
    assert rs.params["values"].startswith("ordinal")


def test_graded_gains_prefix_and_threshold():
    # A = [1, 0, 0.5, 0], B = [0.5, 0.5, 0, 1] with gains 0:0, 1:0.5, 2:1
    al = graded_aligned(gain_map={0: 0.0, 1: 0.5, 2: 1.0})
    rs = ipso.run(al, ipso.Options(k=4), gains_given=True).table()
    rec = rs.records[0]
    assert algorithm1([1, 0, 0.5, 0], [0.5, 0.5, 0, 1]) == "**"
    assert rec["n_nonsep_via_ni"] == 1
    rs = ipso.run(al, ipso.Options(k=3), gains_given=True).table()
    assert rs.records[0]["n_ni"] == 1          # [1,0,.5] vs [.5,.5,0]: ni
    rs = ipso.run(al, ipso.Options(k=3, graded="threshold"), gains_given=True).table()
    # threshold 0.5: [1,0,1] vs [1,1,0] -> ** : so non-separable
    assert rs.records[0]["n_nonsep_via_ns"] + rs.records[0]["n_nonsep_via_ni"] == 1


def test_binary_qrels_need_nothing():
    lab = np.array([[[1, 0, 1]], [[0, 1, 1]]])
    rs = ipso.run(make_aligned(lab), ipso.Options(k=3)).table()
    assert rs.records[0]["n_ni"] == 1


def test_unjudged_and_padding_are_non_relevant():
    lab = np.array([[[1, UNJUDGED, PAD]], [[1, 0, 0]]])
    rs = ipso.run(make_aligned(lab), ipso.Options(k=3)).table()
    assert rs.records[0]["n_equal"] == 1
    s = ipso.serp_strings(make_aligned(lab), 4, binary=True)
    assert s[0, 0] == "10.." and s[1, 0] == "100."


# ------------------------------------------------------------ options

def test_parse_depths_and_enumerate():
    assert ipso.parse_depths("5,10,1..3", 10) == [1, 2, 3, 5, 10]
    assert ipso.parse_depths("1..k", 4) == [1, 2, 3, 4]
    for bad in ("x", "3..1", "0", ""):
        with pytest.raises(UsageError):
            ipso.parse_depths(bad, 10)
    assert ipso.parse_enumerate("5, 10,100") == [5, 10, 100]
    for bad in ("0", "a", "5001", ""):
        with pytest.raises(UsageError):
            ipso.parse_enumerate(bad)
    with pytest.raises(UsageError):
        ipso.Options(k=5, depths=[6]).check()
    with pytest.raises(UsageError):
        ipso.Options(tests=["anova"]).check()


def test_enumerate_table():
    rs = ipso.enumerate_table([3, 5, 10])
    assert rs.columns == ipso.ENUMERATE_COLUMNS
    r3, r5, r10 = rs.records
    assert (r3["n_equal"], r3["n_separable"], r3["n_nonseparable"]) == ("8", "54", "2")
    assert round(r5["pct_equal"], 2) == 3.12 and round(r5["pct_nonseparable"], 2) == 12.89
    assert r10["n_nonseparable"] == "344168"
    for r in rs.records:       # exact counts as decimal strings (JSON would round them)
        assert int(r["n_equal"]) + int(r["n_separable"]) + int(r["n_nonseparable"]) == 4 ** r["k"]
        assert isinstance(r["n_equal"], str)


def test_column_names():
    assert ipso.column_name("RBP(p=0.5)@10") == "rbp_p_0_5_10"
    assert ipso.column_name("nDCG@10") == "ndcg_10"
    assert ipso.column_name("RR@10") == "rr_10"
