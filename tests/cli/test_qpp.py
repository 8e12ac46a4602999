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
    assert "clarity" in out and "sMARE" in out


def _header(md: str, caption: str) -> list[str]:
    """The header of the markdown table whose caption starts with ``caption``."""
    lines = md.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(f"**{caption}"))
    return [c.strip() for c in lines[at + 2].strip("|").split("|")]


def test_paper_view_is_compact():
    """latex and markdown show each coefficient with its interval in one
    cell (Fisher for r and rho, bootstrap for tau), the measure column only
    with several measures, and the pairs and Tukey tables without their
    statistics; the tsv keeps every column."""
    code, md, err = qpp("-m", "AP", "-m", "nDCG@10", "--samples", "50", "--format", "markdown",
                        QRELS, RUN, CLARITY, WIG)
    assert code == 0, err
    assert _header(md, "Query performance prediction") == [
        "measure", "predictor", "r", "ρ", "τ", "sMARE"]
    assert _header(md, "Predictors compared") == [
        "measure", "coefficient", "A", "B", "A − B", "95% CI", "p"]
    assert _header(md, "Tukey HSD") == ["measure", "A", "B", "B − A", "95% CI", "p", "reject"]
    code, out, _ = qpp("-m", "AP", "-m", "nDCG@10", "--samples", "50", QRELS, RUN, CLARITY, WIG)
    row = next(csv.DictReader(io.StringIO(out), delimiter="\t"))
    r, lo, hi = (float(row[c]) for c in ("pearson", "pearson_low", "pearson_high"))
    tlo, thi = (float(row[c]) for c in ("kendall_boot_low", "kendall_boot_high"))
    assert f"| {r:.2f} [{lo:.2f}, {hi:.2f}] |" in md
    assert f" [{tlo:.2f}, {thi:.2f}] | {float(row['smare']):.2f} |" in md
    code, md, err = qpp("-m", "AP", "--samples", "50", "--format", "markdown",
                        QRELS, RUN, CLARITY, WIG)
    assert _header(md, "Query performance prediction") == ["predictor", "r", "ρ", "τ", "sMARE"]
    code, tex, err = qpp("-m", "AP", "--samples", "50", "--format", "latex",
                         QRELS, RUN, CLARITY, WIG)
    assert "predictor & r & $\\rho$ & $\\tau$ & sMARE \\\\" in tex
    # the value over its interval in the cell
    assert "\\begin{tabular}[t]{@{}c@{}}" in tex and " \\\\{}[" in tex


def test_api_equals_cli():
    import ipsoeval
    res = ipsoeval.evaluate(QRELS, RUN, ["AP"])
    rep = ipsoeval.qpp(res, [CLARITY, LONG], samples=100)
    cli = tsv(qpp("-m", "AP", QRELS, RUN, CLARITY, LONG)[1])
    for mine, row in zip(rep.table().records, cli):
        for k in ("pearson", "spearman_boot_low", "kendall", "smare"):
            assert mine[k] == pytest.approx(float(row[k]), rel=1e-12)
