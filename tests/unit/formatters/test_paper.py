"""--format latex / markdown (paper-ready tables) against golden files, and
--format jsonl.  Regenerate the golden files with UPDATE_GOLDEN=1."""

import json
import os

import pytest

from tests.conftest import ROOT, TESTDATA, invoke
from tests.goldens import assert_same_output

GOLD = ROOT / "tests" / "data" / "paper"
A = TESTDATA / "adhoc"
M = TESTDATA / "msmarco"
F = TESTDATA / "ipso-fig5"
ADHOC = [A / "qrels.txt", A / "run-bm25.txt", A / "run-neural.txt"]
MSM3 = [M / "qrels.txt", M / "baseline.run.xz", M / "better-ranking.run.xz",
        M / "fewer-answers.run.xz"]

CASES = {
    "eval": ["eval", "-m", "AP", "-m", "nDCG@10", "-m", "ESL@10", *ADHOC],
    "sigtest": ["sigtest", "-m", "RR@10", "-m", "nDCG@10", "--test", "t,sign",
                "--correct", "holm", *MSM3],
    "bootstrap": ["bootstrap", "-m", "RR@10", "--samples", "200", "--seed", "3", *MSM3],
    "breakdown": ["breakdown", "-k", "10", *MSM3],
    "ipso": ["ipso", "-m", "P@10", "--test", "t,sign", F / "qrels.txt", F / "sysA.run",
             F / "sysB.run"],
    "interval-map": ["interval-map", "-m", "P@10", "-m", "RR@10", *ADHOC],
}


@pytest.mark.parametrize("fmt, ext", [("latex", "tex"), ("markdown", "md")])
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(case, fmt, ext):
    code, out, err = invoke([*CASES[case][:1], "--format", fmt, *CASES[case][1:]])
    assert code == 0, err
    path = GOLD / f"{case}.{ext}"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(out)
    assert_same_output(path.read_text(), out, name=path.name)


def test_latex_marks_and_bold():
    text = (GOLD / "sigtest.tex").read_text()
    assert r"\toprule" in text and r"\bottomrule" in text
    assert "Holm-corrected" in text and r"$^{\dagger}$ the test is not permissible" in text
    ev = (GOLD / "eval.tex").read_text()
    assert r"\textbf{1.3333}" in ev          # ESL@10: lower is better


def test_latex_keeps_an_options_two_hyphens():
    # TeX typesets -- as an en dash: "--test" in a note would print "–test"
    from ipsoeval.formatters.latex import esc
    assert esc("named by --test") == "named by -{}-test"
    assert esc("a---b") == "a-{}-{}-b"
    assert esc("x – y, -1") == "x -- y, -1"   # an en dash stays one, a minus one hyphen
    assert "-{}-test" in (GOLD / "sigtest.tex").read_text()
    # OT1 has an em dash where ASCII has |, inverted ! and ? for < and >
    assert esc("|ns| <= 3 > 2") == r"\textbar{}ns\textbar{} \textless{}= 3 \textgreater{} 2"


def test_jsonl_one_record_per_line():
    code, out, _ = invoke(["eval", "-q", "--format", "jsonl", "-m", "P@5", *ADHOC])
    _, js, _ = invoke(["eval", "-q", "--format", "json", "-m", "P@5", *ADHOC])
    lines = out.splitlines()
    assert code == 0 and [json.loads(ln) for ln in lines] == \
        [{k: r[k] for k in ("run", "qid", "measure", "value")} for r in json.loads(js)["results"]]


def test_paper_hint_estimate_wrap_digits_caption():
    """The ``paper`` hint's value-over-interval join, paragraph column,
    digits and caption; --digits still decides the rounding when given."""
    from ipsoeval.formatters import latex, markdown
    from ipsoeval.results import ResultSet
    rs = ResultSet("qpp", ["name", "r", "r_low", "r_high", "why"],
                   [{"name": "a", "r": 0.12345, "r_low": -0.5, "r_high": 0.75, "why": "long"},
                    {"name": "b", "r": None, "r_low": None, "r_high": None, "why": "none"}],
                   title="the terminal's title",
                   table_hints={"paper": {"columns": ["name", "r_ci", "why"],
                                          "join": {"r_ci": ["r", "r_low", "r_high",
                                                            "estimate"]},
                                          "labels": {"r_ci": "ρ τ"}, "digits": 2,
                                          "wrap": {"why": 0.5}, "caption": "ρ, with τ"}})
    md = markdown.render([rs])
    assert md.splitlines()[0] == "**ρ, with τ**"
    assert "| name | ρ τ | why |" in md and "|:---|---:|:---|" in md
    assert "| a | 0.12 [-0.50, 0.75] | long |" in md and "| b | – | none |" in md
    tex = latex.render([rs])
    assert r"\caption{$\rho$, with $\tau$}" in tex
    assert r"\begin{tabular}{lcp{0.5\linewidth}}" in tex
    assert r"name & $\rho$ $\tau$ & why \\" in tex
    # two lines in the cell; '[' after \\ would be its optional argument
    assert r"a & \begin{tabular}[t]{@{}c@{}}0.12 \\{}[-0.50, 0.75]\end{tabular} & long \\" in tex
    assert r"b & -- & none \\" in tex
    assert "| a | 0.123 [-0.500, 0.750] | long |" in markdown.render([rs], digits=3)


def test_latex_marks_only_where_they_are_marks():
    """'*' and '?' print as superscript marks after a number, after another
    mark or opening a footnote, and as themselves inside words: a question
    in a note, a run named a*b."""
    from ipsoeval.formatters.latex import esc
    assert esc("1.9e-05*†") == r"1.9e-05$^{*}$$^{\dagger}$"
    assert esc("0.12?") == r"0.12$^{?}$"
    assert esc("? the scale is unknown") == r"$^{?}$ the scale is unknown"
    assert esc("x: * sign test") == r"x: $^{*}$ sign test"
    assert esc("is it distinguishable? yes") == "is it distinguishable? yes"
    assert esc("run a*b") == "run a*b"
