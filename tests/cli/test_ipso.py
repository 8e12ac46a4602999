"""`ipsoeval ipso` end to end: Figure 5's 25 topics from testdata, Table 2,
graded-relevance usage errors, the reporting protocol, --all-pairs; and the
property that `ni` at depth k implies M(A) >= M(B) for every engine metric.

References: the numbers printed in Moffat & Mackenzie (2024) Figure 5,
scipy.stats, brute-force enumeration, a literal Algorithm 1."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ipsoeval.analyses.ipso import core
from ipsoeval.cli import cli
from ipsoeval.measures import parse_measure
from ipsoeval.model import Aligned
from tests.conftest import ROOT, environment
from tests.unit.analyses.ipso.test_core import FIG5, algorithm1

DATA = ROOT / "testdata" / "ipso-fig5"
FILES = [str(DATA / "qrels.txt"), str(DATA / "sysA.run"), str(DATA / "sysB.run")]
FIG5_ROWS = [line.split() for line in FIG5.splitlines()]


class Result:
    def __init__(self, r):
        self.exit_code, self.output, self.stderr = r.exit_code, r.stdout, r.stderr


def invoke(*args, code=0):
    r = CliRunner().invoke(cli, ["ipso", *args], obj={"env": environment()},
                           catch_exceptions=False)
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    return Result(r)


def tsv_tables(text):
    """Split TSV output of several result sets (each starts with a header)."""
    tables, cur = [], None
    for line in text.splitlines():
        cells = line.split("\t")
        if cur is None or (cells[0] in ("run_a", "k", "measure") and cells != cur[0]
                           and not cells[0].replace(".", "").isdigit()):
            cur = [cells]
            tables.append(cur)
        else:
            cur.append(cells)
    return [[dict(zip(t[0], r)) for r in t[1:]] for t in tables]


def test_figure5_per_topic_view():
    res = invoke(*FILES, "-k", "10", "-q", "--format", "tsv")
    (topics,) = tsv_tables(res.output)      # -q: the per-topic table is primary
    assert [r["qid"] for r in topics] == [r[0] for r in FIG5_ROWS]
    for r, (qid, a, b) in zip(topics, FIG5_ROWS):
        assert (r["serp_a"], r["serp_b"]) == (a, b)
        ref = [algorithm1([int(c) for c in a[:i]], [int(c) for c in b[:i]]) for i in range(1, 11)]
        assert r["trajectory"] == ",".join(ref)
        assert r["relation"] == ref[-1]
        nd = r["nonsep_depth"]
        assert (nd == "") == ("**" not in ref)
        if nd:
            assert int(nd) == ref.index("**") + 1
    assert [r["group"] for r in topics] == ["1"] * 2 + ["2"] * 4 + ["3"] * 5 + ["4"] * 13 + ["5"]
    # Figure 5's printed differences M(A) - M(B) (two decimals; the table's diff
    # is B - A, so its negation); AP with R = 10 per topic
    printed = {  # RR, Prec, RBP.5, RBP.8, AP
        "302": (0.00, -0.10, -0.08, -0.03, -0.09), "301": (0.00, -0.10, -0.25, -0.17, -0.24),
        "306": (0.00, -0.20, -0.17, -0.25, -0.26), "303": (0.00, 0.00, 0.01, 0.03, 0.01),
        "316": (0.00, 0.10, 0.04, 0.10, 0.16), "324": (0.00, 0.20, 0.03, 0.11, 0.25),
        "305": (0.33, 0.10, 0.12, 0.13, 0.03), "311": (0.00, 0.40, 0.36, 0.37, 0.49),
        "319": (0.50, 0.70, 0.49, 0.60, 0.49), "304": (0.80, 0.10, 0.53, 0.22, 0.13),
        "310": (0.67, 0.20, 0.56, 0.30, 0.24), "314": (1.00, 0.20, 0.51, 0.25, 0.13),
        "318": (1.00, 0.40, 0.69, 0.46, 0.29),
    }
    cols = ["rr_10_diff", "p_10_diff", "rbp_p_0_5_10_diff", "rbp_p_0_8_10_diff", "ap_10_diff"]
    for r in topics:
        if r["qid"] in printed:
            got = [-float(r[c]) for c in cols]
            for g, p in zip(got, printed[r["qid"]]):
                assert abs(g - p) <= 0.0051, (r["qid"], got)
    # the mandated signs of §3.4 (of A - B): group 2 <= 0, group 4 >= 0, group 3 == 0
    for r in topics:
        for c in cols + ["ndcg_10_diff"]:
            v = -float(r[c])
            if r["group"] == "2":
                assert v <= 1e-12
            if r["group"] == "4":
                assert v >= -1e-12
            if r["group"] == "3":
                assert v == 0.0


def test_pair_summary_and_protocol():
    res = invoke(*FILES, "-m", "P@10", "--test", "t,sign", "--format", "json")
    doc = json.loads(res.output)
    assert doc["command"] == "ipso"
    recs = doc["results"]
    assert [r["test"] for r in recs] == ["t", "sign"]
    a = np.array([r[1].count("1") / 10 for r in sorted(FIG5_ROWS)])
    b = np.array([r[2].count("1") / 10 for r in sorted(FIG5_ROWS)])
    t, s = recs
    assert np.isclose(t["metric_p_value"], stats.ttest_rel(b, a).pvalue, rtol=1e-10)
    wins, losses = int((b > a).sum()), int((b < a).sum())
    assert np.isclose(s["metric_p_value"], stats.binomtest(wins, wins + losses).pvalue, rtol=1e-10)
    assert np.isclose(t["mean_a"], a.mean()) and np.isclose(t["diff"], b.mean() - a.mean())
    assert (t["n_ns"], t["n_ni"]) == (4, 13)
    assert np.isclose(t["sign_p_value"], stats.binomtest(4, 17).pvalue, rtol=1e-12)
    # A is ahead on both counts and both tests are below 0.05: dagger and double dagger
    assert t["metric_p_value"] < 0.05 and t["sign_p_value"] < 0.05 and t["claim"] == "†‡"
    assert s["metric_p_value"] > 0.05 and s["claim"] == ""
    assert t["permissible"] is True


def test_depths_rows():
    res = invoke(*FILES, "--depths", "1,5,10", "--format", "tsv")
    (rows,) = tsv_tables(res.output)
    assert [r["k"] for r in rows] == ["1", "5", "10"]


def test_enumerate_without_files():
    # speed is measured by make bench (ipso-enumerate), not here
    res = invoke("--enumerate", "5,10,15,20,50,100,1000", "--format", "tsv")
    rows = list(csv.DictReader(io.StringIO(res.output), delimiter="\t"))
    assert list(rows[0]) == ["k", "pct_equal", "pct_separable", "pct_nonseparable",
                             "n_equal", "n_separable", "n_nonseparable"]
    by_k = {int(r["k"]): r for r in rows}
    assert {k: tuple(int(by_k[k][c]) for c in ("n_equal", "n_separable", "n_nonseparable"))
            for k in (5, 10)} == {5: (32, 860, 132), 10: (1024, 703384, 344168)}
    for r in rows:
        k = int(r["k"])
        assert int(r["n_equal"]) + int(r["n_separable"]) + int(r["n_nonseparable"]) == 4**k
    assert round(float(by_k[15]["pct_separable"]), 2) == 55.97
    assert round(float(by_k[15]["pct_nonseparable"]), 2) == 44.02


def test_usage_errors():
    assert "at least two runs" in invoke(code=2).stderr
    invoke(FILES[0], FILES[1], code=2)
    invoke(*FILES, "--test", "t", code=2)                 # --test without -m
    invoke(*FILES, "-m", "P@10", "--test", "anova", code=2)
    invoke(*FILES, "-k", "5", "--depths", "3,6", code=2)
    invoke(*FILES, "-m", "NoSuchMeasure@10", code=2)
    invoke("--enumerate", "0", code=2)
    invoke("--enumerate", "5001", code=2)


@pytest.fixture
def graded(tmp_path):
    q = tmp_path / "qrels"
    q.write_text("1 0 d1 2\n1 0 d2 1\n1 0 d3 0\n1 0 d4 1\n")
    a = tmp_path / "a.run"
    b = tmp_path / "b.run"
    a.write_text("1 Q0 d2 1 3 A\n1 Q0 d4 2 2 A\n1 Q0 d3 3 1 A\n")   # labels 1 1 0
    b.write_text("1 Q0 d1 1 3 B\n1 Q0 d3 2 2 B\n1 Q0 d2 3 1 B\n")   # labels 2 0 1
    return [str(q), str(a), str(b)]


def test_graded_needs_gains_or_level(graded):
    res = invoke(*graded, "-k", "2", code=2)
    assert "--gains" in res.stderr and "-l" in res.stderr
    one = lambda res: tsv_tables(res.output)[0][0]  # noqa: E731
    r = one(invoke(*graded, "-k", "2", "-l", "1", "--format", "tsv"))
    assert r["n_ni"] == "1"                        # binarised: [1, 1] vs [1, 0]
    # gains 1:0.5, 2:1 -> A = [0.5, 0.5], B = [1, 0]: prefix ns, threshold **
    r = one(invoke(*graded, "-k", "2", "--gains", "0:0,1:0.5,2:1", "--format", "tsv"))
    assert r["n_ns"] == "1"
    r = one(invoke(*graded, "-k", "2", "--gains", "0:0,1:0.5,2:1", "--graded", "threshold",
                   "--format", "tsv"))
    assert int(r["n_nonsep_via_ns"]) + int(r["n_nonsep_via_ni"]) == 1
    r = one(invoke(*graded, "-k", "2", "--graded", "threshold", "--format", "tsv"))
    assert int(r["n_nonsep_via_ns"]) + int(r["n_nonsep_via_ni"]) == 1


def test_graded_binarised_at_level_1(graded):
    res = invoke(*graded, "-k", "2", "-l", "1", "--format", "tsv")
    (rows,) = tsv_tables(res.output)
    # labels A = [1, 1], B = [2, 0] binarised at 1: [1, 1] vs [1, 0]: ni
    assert rows[0]["n_ni"] == "1"
    res = invoke(*graded, "-k", "2", "-l", "2", "--format", "tsv")
    (rows,) = tsv_tables(res.output)
    assert rows[0]["n_ns"] == "1"   # [0, 0] vs [1, 0]


def test_all_pairs(tmp_path):
    rng = np.random.default_rng(7)
    qrels = tmp_path / "q"
    lines = [f"{t} 0 d{t}-{i} {int(rng.random() < 0.3)}" for t in range(1, 21) for i in range(30)]
    qrels.write_text("\n".join(lines) + "\n")
    runs = []
    for j in range(4):
        p = tmp_path / f"r{j}"
        rows = []
        for t in range(1, 21):
            docs = rng.permutation(30)[:12]
            rows += [f"{t} Q0 d{t}-{d} {i + 1} {100 - i} run{j}" for i, d in enumerate(docs)]
        p.write_text("\n".join(rows) + "\n")
        runs.append(str(p))
    res = invoke(str(qrels), *runs, "--all-pairs", "-k", "10", "--depths", "5,10",
                 "-m", "P@10", "--test", "t,wilcoxon", "--format", "json")
    doc = json.loads(res.output)
    assert list(doc["tables"]) == ["depths", "agreement", "pairs"]
    depth_t, agree_t, pair_t = (t["records"] for t in doc["tables"].values())
    assert doc["primary"] == "pairs" and doc["results"] == pair_t
    assert [r["k"] for r in depth_t] == [5, 10]
    assert all(r["n_serp_pairs"] == 6 * 20 for r in depth_t)
    assert [(r["measure"], r["test"]) for r in agree_t] == [("P@10", "t"), ("P@10", "wilcoxon")]
    for r in agree_t:
        assert r["both_yes"] + r["both_no"] + r["metric_only"] + r["ipso_only"] == 6
    assert len(pair_t) == 6 * 2


# ------------------------------------------- ni => every engine metric agrees

K = 6
CUTOFF_MEASURES = ["P@{k}", "R@{k}", "AP@{k}", "RR@{k}", "nDCG@{k}", "DCG@{k}",
                   "nDCG(b=2)@{k}", "DCG(b=2)@{k}", "nDCG(b=3)@{k}", "RBP(p=0.5)@{k}",
                   "RBP(p=0.8)@{k}", "RBP(p=0.95)@{k}", "Success@{k}", "IPrec@0.5",
                   "IPrec@0.0"]
# runs are exactly k long, so these read only the top k as well
WHOLE_RUN_MEASURES = ["AP", "RR", "nDCG", "DCG", "R", "Rprec", "bpref", "gm_map", "NumRelRet"]


def _aligned(a, b, R):
    labels = np.array([a, b], dtype=np.int32)          # (2, T, K)
    T = labels.shape[1]
    judged = [np.array([1] * int(R[t]) + [0] * 40) for t in range(T)]
    return Aligned(runs=["A", "B"], topics=[str(t) for t in range(T)], labels=labels,
                   n_ret=np.full((2, T), K), rel_level=1, num_rel=np.array(R),
                   num_nonrel=np.full(T, 40), judged_labels=judged)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 1), min_size=K, max_size=K),
                          st.lists(st.integers(0, 1), min_size=K, max_size=K),
                          st.integers(0, 8)), min_size=1, max_size=8))
def test_ni_implies_every_engine_metric_not_lower(topics):
    a = [t[0] for t in topics]
    b = [t[1] for t in topics]
    R = [max(sum(x), sum(y), 1) + e for x, y, e in topics]
    al = _aligned(a, b, R)
    fp, fn = core.crossings(np.array(a), np.array(b), K)
    rel = core.relation_at(fp, fn, K)
    names = [m.format(k=K) for m in CUTOFF_MEASURES] + WHOLE_RUN_MEASURES + [f"ESL@{K}"]
    for name in names:
        S = parse_measure(name).compute(al)
        if name.startswith("ESL"):
            S = -np.where(np.isnan(S), K + 1, S)      # lower is better; none = worst
        for t in range(len(topics)):
            if rel[t] in (core.NI, core.EQUAL):
                assert S[0, t] >= S[1, t] - 1e-12, (name, a[t], b[t], R[t])
            if rel[t] in (core.NS, core.EQUAL):
                assert S[0, t] <= S[1, t] + 1e-12, (name, a[t], b[t], R[t])


def test_table1_orderings_with_engine_measures():
    # [1,0,0] vs [0,1,1], R = 3
    al = _aligned([[1, 0, 0, 0, 0, 0]], [[0, 1, 1, 0, 0, 0]], [3])
    phi = (5 ** 0.5 - 1) / 2

    def m(name):
        s = parse_measure(name).compute(al)
        return s[0, 0], s[1, 0]

    for name in ("P@3", "RBP(p=0.8)@3", "AP@3", "nDCG@3"):
        x, y = m(name)
        assert x < y, name
    x, y = m("Success@3")
    assert x == y
    x, y = m(f"RBP(p={phi!r})@3")
    assert np.isclose(x, y, rtol=1e-12)
    for name in ("RR@3", "RBP(p=0.5)@3"):
        x, y = m(name)
        assert x > y, name
