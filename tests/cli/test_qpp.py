"""`ipsoeval qpp` end to end on testdata/qpp: the primary table, -q, --table,
--scores, the warnings, the error lines for bad predictor files, the paper's
formats, and the API giving the CLI's numbers."""

from __future__ import annotations

import csv
import io
import os

import pytest
from scipy import stats

from tests.conftest import invoke

HERE = os.path.dirname(__file__)
T = os.path.join(HERE, "..", "..", "testdata", "qpp")
QRELS, RUN = os.path.join(T, "qrels.txt"), os.path.join(T, "run.txt")
CLARITY, WIG, LONG = (os.path.join(T, f) for f in ("clarity.txt", "wig.txt", "long.tsv"))


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def qpp(*args):
    return invoke(["qpp", "--samples", "100", *args])


def test_primary_table_equals_scipy_on_the_eval_scores(tmp_path):
    code, out, err = qpp("-m", "AP", QRELS, RUN, CLARITY, LONG)
    assert code == 0, err
    rows = tsv(out)
    assert [r["predictor"] for r in rows] == ["clarity", "nqc", "scq"]
    code, scores, _ = invoke(["eval", "-q", "-m", "AP", "--format", "tsv", QRELS, RUN])
    ap = {r["qid"]: float(r["value"]) for r in tsv(scores) if r["qid"] != "all"}
    values = {}
    for line in open(CLARITY):
        q, v = line.split()
        values[q] = float(v)
    qs = sorted(ap)
    ref = stats.kendalltau([values[q] for q in qs], [ap[q] for q in qs])
    assert float(rows[0]["kendall"]) == pytest.approx(ref.statistic, abs=1e-12)
    assert float(rows[0]["kendall_p"]) == pytest.approx(ref.pvalue, rel=1e-12)
    assert rows[0]["n"] == "20"
    code, out, err = qpp("-m", "AP", "--format", "json", QRELS, RUN, CLARITY, LONG)
    assert "sMARE is its mean over topics" in out      # the method's notes go with the output


def test_missing_topic_is_one_warning_and_W_error_is_fatal():
    code, out, err = qpp("-m", "AP", QRELS, RUN, CLARITY, WIG)
    assert code == 0
    assert ("ipsoeval: warning: qpp: 1 topic(s) of the qrels missing from a predictor left "
            "out (wig lacks 1)") in err
    assert err.count("warning:") == 1
    assert {r["n"] for r in tsv(out)} == {"19"}
    code, out, err = qpp("-W", "error", "-m", "AP", QRELS, RUN, CLARITY, WIG)
    assert code == 3 and out == ""


@pytest.mark.parametrize("text,words", [
    ("301 0.1\n302 nan\n", "bad.txt:2: predictor value is NaN"),
    ("301 0.1\n301 0.2\n", "bad.txt:2: topic 301 given twice"),
    ("301 0.1\n302 x\n", "bad.txt:2: predictor value is not a number"),
])
def test_bad_predictor_file_is_one_line(tmp_path, text, words):
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    code, out, err = qpp("-m", "AP", QRELS, RUN, bad)
    assert code == 3 and out == ""
    lines = [ln for ln in err.splitlines() if ln]
    assert len(lines) == 1 and lines[0].startswith("ipsoeval: error: ") and words in lines[0]


def test_constant_predictor_is_a_note(tmp_path):
    flat = tmp_path / "flat.txt"
    flat.write_text("".join(f"{q} 1.0\n" for q in range(301, 321)))
    code, out, err = qpp("-m", "AP", QRELS, RUN, flat)
    assert code == 0
    row = tsv(out)[0]
    assert row["pearson"] == "" and row["kendall"] == ""
    assert "note: qpp: predictor flat is constant" in err


def test_tables_and_per_query():
    code, out, _ = qpp("-m", "AP", "-q", QRELS, RUN, CLARITY)
    rows = tsv(out)
    assert len(rows) == 20 and set(rows[0]) >= {"qid", "rank_measure", "rank_predictor",
                                                "sare"}
    assert sum(float(r["sare"]) for r in rows) / 20 == pytest.approx(
        float(tsv(qpp("-m", "AP", QRELS, RUN, CLARITY)[1])[0]["smare"]), abs=1e-12)
    for tid, col in (("pairs", "coefficient"), ("anova", "source"), ("tukey", "q")):
        code, out, err = qpp("-m", "AP", "--table", tid, QRELS, RUN, CLARITY, LONG)
        assert code == 0, err
        assert col in tsv(out)[0]
    code, out, _ = qpp("-m", "AP", "--table", "list", QRELS, RUN, CLARITY, LONG)
    assert code == 0 and "correlations" in out and "(primary)" in out


def test_scores_input_gives_the_same_numbers(tmp_path):
    code, scores, _ = invoke(["eval", "-q", "-m", "AP", "--format", "tsv", QRELS, RUN])
    f = tmp_path / "scores.tsv"
    f.write_text(scores)
    a = tsv(qpp("-m", "AP", QRELS, RUN, CLARITY, LONG)[1])
    code, out, err = qpp("--scores", "-m", "AP", f, CLARITY, LONG)
    assert code == 0, err
    assert tsv(out) == a
    code, out, err = qpp("--scores", f, CLARITY)         # the only measure
    assert code == 0, err


def test_scores_of_two_runs_are_refused(tmp_path):
    code, scores, _ = invoke(["eval", "-q", "-m", "AP", "--format", "tsv", QRELS, RUN, RUN,
                              "--name", "a", "--name", "b"])
    f = tmp_path / "scores.tsv"
    f.write_text(scores)
    code, out, err = qpp("--scores", "-m", "AP", f, CLARITY)
    assert code == 2 and "one run" in err and out == ""


def test_missing_predictor_is_a_usage_error():
    code, out, err = qpp("-m", "AP", QRELS, RUN)
    assert code == 2 and "PREDICTOR" in err


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_paper_formats(fmt):
    code, out, err = qpp("-m", "AP", "--format", fmt, QRELS, RUN, CLARITY, LONG)
    assert code == 0, err
    assert "clarity" in out and "smare" in out.replace("\\_", "_")


def test_api_equals_cli():
    import ipsoeval
    res = ipsoeval.evaluate(QRELS, RUN, ["AP"])
    rep = ipsoeval.qpp(res, [CLARITY, LONG], samples=100)
    cli = tsv(qpp("-m", "AP", QRELS, RUN, CLARITY, LONG)[1])
    for mine, row in zip(rep.table().records, cli):
        for k in ("pearson", "spearman_boot_low", "kendall", "smare"):
            assert mine[k] == pytest.approx(float(row[k]), rel=1e-12)
