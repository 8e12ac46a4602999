"""`ipsoeval breakdown` on the command line: exact outputs, options, errors,
and the bundled MS MARCO-style test set."""

import json
import lzma

import numpy as np
import pytest
from scipy import stats as ss

from tests.conftest import TESTDATA

QRELS = """\
q1 0 d1 1
q2 0 d2 1
q3 0 d3 1
q4 0 d4 1
q4 0 d4b 1
q5 0 d5 0
"""
RUN_A = """\
q1 Q0 d1 1 3 runA
q1 Q0 x 2 2 runA
q2 Q0 x 1 3 runA
q2 Q0 d2 2 2 runA
q3 Q0 x 1 1 runA
"""
RUN_B = """\
q1 Q0 x 1 3 runB
q1 Q0 d1 2 2 runB
q2 Q0 d2 1 3 runB
q3 Q0 d3 1 1 runB
q4 Q0 d4b 1 1 runB
"""

HEADER = ("run_a\trun_b\tk\tn\tmrr_a\tmrr_b\tmrr_diff\tn_neither\tn_a_only\t"
          "n_b_only\tn_both\tpct_neither\tpct_a_only\tpct_b_only\tanswered_sign_p_value\t"
          "pct_both\tesl_a\tesl_b\tesl_wilcoxon_p_value\tesl_t_p_value\trr_a\trr_b\t"
          "rr_wilcoxon_p_value\trr_t_p_value")


@pytest.fixture
def small(tmp_path):
    for name, text in (("qrels", QRELS), ("a", RUN_A), ("b", RUN_B)):
        (tmp_path / name).write_text(text)
    return tmp_path


def test_tsv_exact(small, cli_invoke):
    # By hand: RR A = (1, 1/2, 0, 0, 0), B = (1/2, 1, 1, 1, 0); q1, q2 both
    # answer (ranks 1,2 vs 2,1); q3, q4 only B; q5 neither (no relevant doc).
    code, out, err = cli_invoke(["breakdown", small / "qrels", small / "a", small / "b"])
    assert code == 0
    assert out == (
        HEADER + "\tverdict\n"
        "runA\trunB\t100\t5\t0.3\t0.7\t0.4\t1\t0\t2\t2\t20.0\t0.0\t40.0\t0.5\t40.0\t"
        "1.5\t1.5\t1.0\t1.0\t0.75\t0.75\t1.0\t1.0\tno significant difference\n")
    assert "1 of 5 topics have more than one relevant document" in err
    assert "1 of 5 topics have no relevant document in the qrels" in err


def test_per_query_tsv_exact(small, cli_invoke):
    code, out, _ = cli_invoke(["breakdown", "-q", small / "qrels", small / "a", small / "b"])
    assert code == 0
    assert out == (
        "run_a\trun_b\tqid\toutcome\trank_a\trank_b\n"
        "runA\trunB\tq1\t3\t1\t2\n"
        "runA\trunB\tq2\t3\t2\t1\n"
        "runA\trunB\tq3\t2B\t\t1\n"
        "runA\trunB\tq4\t2B\t\t1\n"
        "runA\trunB\tq5\t1\t\t\n")


def test_cutoff_option(small, cli_invoke):
    code, out, _ = cli_invoke(["breakdown", "-k", "1", "-q", small / "qrels", small / "a",
                               small / "b"])
    assert code == 0
    assert out.splitlines()[1:3] == ["runA\trunB\tq1\t2A\t1\t", "runA\trunB\tq2\t2B\t\t1"]
    code, out2, _ = cli_invoke(["breakdown", "--cutoff", "1", "-q", small / "qrels",
                                small / "a", small / "b"])
    assert out2 == out


def test_json_naive_and_correction(small, cli_invoke):
    code, out, _ = cli_invoke(["breakdown", "--format", "json", "--naive", "--correct",
                               "bonferroni", small / "qrels", small / "a", small / "b"])
    assert code == 0
    doc = json.loads(out)
    assert doc["command"] == "breakdown"
    assert doc["params"]["correct"] == "bonferroni" and doc["params"]["k"] == 100
    assert doc["params"]["queries"] == "qrels"
    (rec,) = doc["results"]
    rra = [1, 0.5, 0, 0, 0]
    rrb = [0.5, 1, 1, 1, 0]
    assert rec["mrr_ranksum_p_value"] == pytest.approx(ss.mannwhitneyu(rrb, rra).pvalue)
    assert rec["mrr_wilcoxon_p_value"] == pytest.approx(ss.wilcoxon(rrb, rra).pvalue)
    assert rec["mrr_t_p_value"] == pytest.approx(ss.ttest_rel(rrb, rra).pvalue)
    pcols = ["esl_wilcoxon_p_value", "esl_t_p_value", "rr_wilcoxon_p_value", "rr_t_p_value",
             "answered_sign_p_value", "mrr_ranksum_p_value", "mrr_wilcoxon_p_value",
             "mrr_t_p_value"]
    for c in pcols:
        adjusted = c.replace("_p_value", "_p_adjusted")
        assert rec[adjusted] == pytest.approx(min(1.0, 8 * rec[c]))
    assert list(rec)[-1] == "verdict"


def test_undefined_values_are_null(tmp_path, cli_invoke):
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq2 0 d2 1\n")
    (tmp_path / "a").write_text("q1 Q0 d1 1 1 A\nq2 Q0 x 1 1 A\n")
    (tmp_path / "b").write_text("q1 Q0 x 1 1 B\nq2 Q0 d2 1 1 B\n")
    code, out, _ = cli_invoke(["breakdown", "--format", "json", tmp_path / "qrels",
                               tmp_path / "a", tmp_path / "b"])
    rec = json.loads(out)["results"][0]
    assert rec["n_both"] == 0
    assert rec["esl_a"] is None and rec["esl_t_p_value"] is None and rec["rr_wilcoxon_p_value"] is None
    assert rec["answered_sign_p_value"] == 1.0


def test_baseline_by_name_and_by_path(small, cli_invoke):
    args = [small / "qrels", small / "a", small / "b"]
    _, by_name, _ = cli_invoke(["breakdown", "--baseline", "runB", "-q", *args])
    _, by_path, _ = cli_invoke(["breakdown", "--baseline", str(small / "b"), "-q", *args])
    assert by_name == by_path
    assert by_name.splitlines()[1] == "runB\trunA\tq1\t3\t2\t1"


def test_table_format_runs(small, cli_invoke):
    code, out, _ = cli_invoke(["breakdown", "--format", "table", small / "qrels",
                               small / "a", small / "b"])
    assert code == 0 and "runA" in out and "runB" in out


@pytest.mark.parametrize("args,fragment", [
    (["--baseline", "nope"], "--baseline 'nope' is neither a run name nor a RUN argument"),
    (["--correct", "fdr"], "fdr"),
    (["-k", "0"], "0"),
    (["--verdict-test", "sign"], "sign"),
    (["--alpha", "2"], "2"),
])
def test_usage_errors(small, cli_invoke, args, fragment):
    code, out, err = cli_invoke(["breakdown", *args, small / "qrels", small / "a", small / "b"])
    assert code == 2 and out == ""
    assert fragment in err


def test_one_run_is_a_usage_error(small, cli_invoke):
    code, _, err = cli_invoke(["breakdown", small / "qrels", small / "a"])
    assert code == 2 and "at least two runs" in err


def test_malformed_run_is_an_input_error(small, cli_invoke):
    (small / "bad").write_text("q1 Q0 d1 1\n")
    code, _, err = cli_invoke(["breakdown", small / "qrels", small / "a", small / "bad"])
    assert code == 3 and "bad" in err


# ---------------------------------------------------------------- bundled test set

MS = TESTDATA / "msmarco"
CHALLENGERS = ["more-answers", "better-ranking", "better-both", "same-team",
               "fewer-answers", "top-heavy"]


def _ranks_by_hand(name, rel):
    out = {}
    with lzma.open(MS / f"{name}.run.xz", "rt") as fh:
        for line in fh:
            q, _, doc, rank, _, _ = line.split()
            if rel.get(q) == doc:
                out[q] = int(rank)
    return out


def test_bundled_msmarco_set(cli_invoke):
    files = [MS / "qrels.txt", MS / "baseline.run.xz"] + \
        [MS / f"{c}.run.xz" for c in CHALLENGERS]
    code, out, err = cli_invoke(["breakdown", "--format", "json", *files])
    assert code == 0 and "more than one relevant" not in err
    recs = json.loads(out)["results"]
    assert [r["run_b"] for r in recs] == CHALLENGERS
    assert all(r["n"] == 2000 for r in recs)
    # the designed outcome of each challenger (see testdata/msmarco/README)
    assert [r["verdict"] for r in recs] == [
        "mixed", "better (do no harm)", "better", "no significant difference",
        "worse (do harm)", "worse (do harm)"]
    # one pair recomputed from the files by hand, tested with scipy
    rel = {}
    for line in (MS / "qrels.txt").read_text().splitlines():
        q, _, d, _ = line.split()
        rel[q] = d
    qids = sorted(rel)
    a = _ranks_by_hand("baseline", rel)
    b = _ranks_by_hand("more-answers", rel)
    ra = np.array([a.get(q, 0) for q in qids])
    rb = np.array([b.get(q, 0) for q in qids])
    both = (ra > 0) & (rb > 0)
    rec = recs[0]
    assert rec["n_both"] == both.sum()
    assert rec["n_a_only"] == ((ra > 0) & (rb == 0)).sum()
    assert rec["n_b_only"] == ((ra == 0) & (rb > 0)).sum()
    assert rec["esl_b"] == pytest.approx(rb[both].mean(), rel=1e-12)
    assert rec["esl_t_p_value"] == pytest.approx(
        ss.ttest_rel(rb[both], ra[both]).pvalue, rel=1e-9)
    assert rec["answered_sign_p_value"] == pytest.approx(
        ss.binomtest(rec["n_b_only"], rec["n_a_only"] + rec["n_b_only"]).pvalue, rel=1e-9)
