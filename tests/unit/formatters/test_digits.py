"""--digits in the formatters: the one rounding (values.rounded), what tsv,
table, latex and markdown make of it, and what they leave alone."""

from __future__ import annotations

import math

import pytest

from ipsoeval.formatters import render, values
from ipsoeval.formatters import table as table_fmt
from ipsoeval.formatters.latex import esc
from ipsoeval.formatters.paper import prepare
from ipsoeval.results import Composed, Report, ResultSet


@pytest.mark.parametrize("x, digits, text", [
    (0.28987, 2, "0.29"),
    (0.28987, 0, "3e-01"),                  # not "0": it is not 0
    (-0.105856, 3, "-0.106"),
    (2.0, 2, "2.00"),
    (699.0, 1, "699.0"),
    (123456.789, 2, "123456.79"),
    (0.0, 2, "0.00"),
    # nonzero but printed as 0 by N decimals: scientific, N significant digits
    (1e-9, 4, "1.000e-09"),
    (-0.004, 2, "-4.0e-03"),
    (0.004, 0, "4e-03"),
    (0.005001, 2, "0.01"),
])
def test_decimals(x, digits, text):
    assert values.decimals(x, digits) == text
    if x != 0:
        assert float(text) != 0                  # no nonzero value reads as 0


@pytest.mark.parametrize("p, digits, text", [
    (0.5, 2, "0.50"),
    (1.0, 2, "1.00"),
    (1.0, 0, "1"),
    (0.0312, 2, "0.031"),
    (0.0312, 4, "0.03120"),
    (0.09996, 2, "0.10"),                # rounds into the next decade: 2 digits still
    (0.0099996, 2, "0.010"),
    (0.00012, 2, "0.00012"),
    (9.4e-5, 2, "9.4e-05"),
    (1e-9, 2, "1.0e-09"),
    (1e-9, 0, "1e-09"),
    (0.0, 2, "0.00"),
])
def test_p_values_keep_significant_digits(p, digits, text):
    assert values.p_text(p, digits) == text
    assert math.isclose(float(text), p, rel_tol=0.5 * 10 ** (1 - max(digits, 1)), abs_tol=0)


def test_rounded_by_column():
    assert values.rounded(0.0312, "p_value", 2) == "0.031"
    assert values.rounded(0.0312, "tukey_p_value", 2) == "0.031"
    assert values.rounded(0.0312, "p_adjusted", 2) == "0.031"
    assert values.rounded(0.0312, "p_top", 2) == "0.03"      # a probability, not a p-value
    assert values.rounded(0.0312, "mean", 2) == "0.03"
    for v in (3, True, None, "x", math.nan, math.inf):       # not a finite float
        assert values.rounded(v, "mean", 2) is None


def _rs(**kw):
    return ResultSet("sigtest", ["run", "n", "mean", "p_value", "ok", "alpha", "note"],
                     [{"run": "a_b", "n": 50, "mean": 0.123456789, "p_value": 1.2345e-9,
                       "ok": True, "alpha": 0.05, "note": None},
                      {"run": "c", "n": 49, "mean": math.nan, "p_value": 0.5,
                       "ok": False, "alpha": 0.05, "note": "x"}],
                     id="t", **kw)


def test_tsv_digits_rounds_floats_only():
    rs = _rs(table_hints={"exact": ["alpha"]})
    assert render(Report("sigtest", [rs]), "tsv") == (
        "run\tn\tmean\tp_value\tok\talpha\tnote\n"
        "a_b\t50\t0.123456789\t1.2345e-09\ttrue\t0.05\t\n"
        "c\t49\t\t0.5\tfalse\t0.05\tx\n")
    assert render(Report("sigtest", [rs]), "tsv", digits=1) == (
        "run\tn\tmean\tp_value\tok\talpha\tnote\n"
        "a_b\t50\t0.1\t1e-09\ttrue\t0.05\t\n"             # alpha: exact, unrounded
        "c\t49\t\t0.5\tfalse\t0.05\tx\n")


def test_json_and_trec_ignore_digits():
    rep = Report("sigtest", [_rs()])
    assert render(rep, "json", digits=1) == render(rep, "json")
    assert render(rep, "jsonl", digits=1) == render(rep, "jsonl")
    ev = ResultSet("eval", ["run", "measure", "qid", "value"],
                   [{"run": "r", "measure": "map", "qid": "all", "value": 0.123456}], id="e")
    assert render(Report("eval", [ev]), "trec", digits=1) == \
        render(Report("eval", [ev]), "trec") == "map                   \tall\t0.1235\n"


def test_table_digits_override_the_hint():
    rs = _rs(table_hints={"digits": 4})
    default = table_fmt.render([rs], width=120)
    two = table_fmt.render([rs], width=120, digits=2)
    assert "0.1235" in default and "1.23e-09" in default
    assert "0.12" in two and "0.1235" not in two
    assert "1.2e-09" in two and "0.50" in two            # p-values: 2 significant digits
    assert " 50 " in two and "yes" in two and "–" in two


def test_paper_digits():
    rs = _rs()
    assert [c.text for c in prepare(rs).rows[0]] == \
        ["a_b", "50", "0.1235", "1.2e-09", "yes", "0.0500", "–"]
    assert [c.text for c in prepare(rs, 2).rows[0]] == \
        ["a_b", "50", "0.12", "1.2e-09", "yes", "0.05", "–"]
    for fmt in ("latex", "markdown"):
        out = render(Report("sigtest", [rs]), fmt, digits=2)
        assert "0.12" in out and "0.1235" not in out


def test_composed_view_cells_follow_digits():
    """A view's text made of numbers (sigtest's ci95, p with marks) is
    composed again under --digits; without, it is the text it always was."""
    cell = Composed("+0.027..+0.067", lambda d: f"{0.0271:+.{d}f}..{0.0674:+.{d}f}")
    rs = ResultSet("sigtest", ["run", "ci95"], [{"run": "a", "ci95": cell}], id="v")
    assert "+0.027..+0.067" in table_fmt.render([rs])
    assert "+0.03..+0.07" in table_fmt.render([rs], digits=2)
    assert "+0.03..+0.07" in render(Report("sigtest", [rs]), "markdown", digits=2)
    assert "+0.027..+0.067" in render(Report("sigtest", [rs]), "latex")


@pytest.mark.parametrize("text, latex", [
    ("a_b & c% #1 $x", r"a\_b \& c\% \#1 \$x"),
    ("{~^\\}", r"\{\textasciitilde{}\textasciicircum{}\textbackslash{}\}"),
    ("|ns| < 3 > 2", r"\textbar{}ns\textbar{} \textless{} 3 \textgreater{} 2"),
    ("sigtest --all-pairs -m AP", "sigtest -{}-all-pairs -m AP"),
    ("1–2 −0.5", "1--2 --0.5"),
])
def test_latex_escapes_every_special(text, latex):
    assert esc(text) == latex


def test_latex_row_opening_with_a_bracket():
    rs = ResultSet("eval", ["run", "mean"], [{"run": "[x]", "mean": 0.5}], id="b")
    out = render(Report("eval", [rs]), "latex")
    assert "\\midrule\n{}[x] & 0.5000 \\\\" in out


def test_composed_cells_copy_and_pickle_with_their_recipe():
    import copy
    import pickle

    from ipsoeval.analyses.ppi.report import _cell
    from ipsoeval.analyses.sigtest.report import _interval, _marked
    for c in (_interval(-0.0271, 0.0674), _marked(2.8e-7, "*†"), _cell(0.5, 0.4, 0.61)):
        for c2 in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
            assert isinstance(c2, Composed) and c2 == c and c2.at(2) == c.at(2)
    assert _interval(-0.0271, 0.0674).at(2) == "-0.03..+0.07"
    assert _marked(0.0312, "*").at(2) == "0.031*"
    assert _cell(0.5, 0.4, 0.61).at(1) == "0.5 [0.4, 0.6]"
