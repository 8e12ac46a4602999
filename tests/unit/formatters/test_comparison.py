"""The results table of ``ipsoeval compare`` in every text format: bold on the
best printed value (ties in the printed digits together), underline on the
second, --digits everywhere, the terminal width, LaTeX escaping."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ipsoeval.analyses import compare as cmp
from ipsoeval.formatters import comparison, render

FORMATS = ("table", "tsv", "markdown", "latex", "html")


def report(means: dict[str, list[float]], runs=None, higher=None, **kw):
    """A compare report whose means are exactly ``means`` (every topic the same
    value), marks none unless asked."""
    runs = runs or [f"r{i}" for i in range(len(next(iter(means.values()))))]
    mats = {m: np.repeat(np.array(v, dtype=float)[:, None], 4, axis=1) for m, v in means.items()}
    kw.setdefault("marks", "none")
    opts = cmp.Options(**kw)
    opts.check()
    return cmp.run(runs, 4, mats, {m: "interval" for m in means},
                   higher or {m: True for m in means}, opts)


def bold_md(text: str) -> list[str]:
    rows = "\n".join(ln for ln in text.splitlines() if ln.startswith("| "))
    return re.findall(r"\*\*([^*]+)\*\*", rows)


def test_bold_on_the_column_maximum_and_ties_in_printed_digits():
    rep = report({"A": [0.30001, 0.30004, 0.2], "B": [0.1, 0.5, 0.49996]})
    md = comparison.render(rep, "markdown")
    # A: 0.3000 twice at 4 digits -> both bold; B: 0.5000 twice (0.49996 rounds up)
    assert bold_md(md) == ["0.3000", "0.3000", "0.5000", "0.5000"]
    md5 = comparison.render(rep, "markdown", digits=5)
    assert bold_md(md5) == ["0.30004", "0.50000"]
    tex = comparison.render(rep, "latex", digits=5)
    assert re.findall(r"\\textbf\{([^}]*)\}", tex) == ["0.30004", "0.50000"]
    html = render(rep, "html", digits=5)
    assert re.findall(r"<strong>([^<]*)</strong>", html) == ["0.30004", "0.50000"]
    ansi = comparison.render(rep, "table", digits=5, color=True)
    assert re.findall(r"\x1b\[1m([^\x1b]*)\x1b\[0m", ansi) == ["0.30004", "0.50000"]
    plain = comparison.render(rep, "table", digits=5)
    assert "0.30004*" in plain and "0.50000*" in plain and "0.30001*" not in plain


def test_lower_is_better_bolds_the_minimum_and_second_is_underlined():
    rep = report({"L": [0.3, 0.1, 0.2], "H": [0.3, 0.1, 0.2]},
                 higher={"L": False, "H": True}, underline_second=True)
    md = comparison.render(rep, "markdown")
    rows = {ln.split("|")[1].strip(): ln for ln in md.splitlines() if ln.startswith("| r")}
    assert "**0.1000**" in rows["r1"].split("|")[2]     # L: the lowest
    assert "**0.3000**" in rows["r0"].split("|")[3]     # H: the highest
    assert "<ins>0.2000</ins>" in rows["r2"]
    tex = comparison.render(rep, "latex")
    assert tex.count(r"\underline{0.2000}") == 2
    assert "second best underlined" in tex


@pytest.mark.parametrize("fmt", FORMATS)
def test_digits_in_every_format(fmt):
    rep = report({"A": [0.123456789, 0.5]})
    for d, want in ((2, "0.12"), (6, "0.123457")):
        text = render(rep, fmt, digits=d)
        if fmt == "html":   # data-value keeps the TSV spelling (what sorting compares)
            assert 'data-value="0.123456789"' in text
            text = re.sub(r'data-value="[^"]*"', "", text)
        assert want in text, (fmt, d, text)
        assert "0.123456789" not in text
    default = render(rep, fmt)
    assert ("0.1235" in default) if fmt != "tsv" else ("0.123456789" in default)


def test_json_keeps_full_precision():
    import json
    rep = report({"A": [0.123456789, 0.5]})
    doc = json.loads(render(rep, "json", digits=2))
    assert doc["tables"]["comparison"]["records"][0]["mean"] == 0.123456789


def test_the_terminal_table_fits_the_width_and_repeats_the_labels():
    ms = {f"nDCG@{k}": list(np.linspace(0.1, 0.9, 6) + k / 1000) for k in range(1, 16)}
    rep = report(ms, runs=[f"system_{i}_long_name" for i in range(6)], marks="none",
                 ci=False)
    for width in (80, 60, 120):
        text = comparison.render(rep, "table", width=width)
        assert max(len(ln) for ln in text.splitlines()) <= width
        blocks = [ln for ln in text.splitlines() if ln.startswith("run ")]
        assert len(blocks) > 1                                  # split
        assert sum(ln.count("nDCG@") for ln in blocks) == 15    # every measure once
        assert text.count("system_0_long_name") == len(blocks)  # labels repeated
    color = comparison.render(rep, "table", width=80, color=True)
    visible = re.sub(r"\x1b\[[0-9]*m", "", color)
    assert max(len(ln) for ln in visible.splitlines()) <= 80


def test_tsv_is_one_table_with_one_header():
    rep = report({"A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, 0.1]}, marks="pairs", test="t")
    lines = render(rep, "tsv").splitlines()
    assert lines[0].split("\t") == ["run", "letter", "measure", "mean", "marks",
                                    "better_than", "worse_than", "permissible"]
    assert len(lines) == 1 + 3 * 2 and sum(ln.startswith("run\t") for ln in lines) == 1
    assert [ln.split("\t")[:3] for ln in lines[1:3]] == [["r0", "a", "A"], ["r0", "a", "B"]]
    assert lines[5].split("\t")[3:7] == ["0.3", "ab", "r0,r1", ""]    # r2 on A: the best


def test_latex_escapes_run_names():
    runs = ["bm25_x", "a&b", "50%", "c#1"]
    rep = report({"A": [0.1, 0.2, 0.3, 0.4]}, runs=runs, marks="pairs", test="t")
    tex = comparison.render(rep, "latex")
    for raw, esc in (("bm25_x", r"bm25\_x"), ("a&b", r"a\&b"), ("50%", r"50\%"),
                     ("c#1", r"c\#1")):
        assert esc in tex
    body = tex.split(r"\midrule")[1].split(r"\bottomrule")[0]
    assert all(ln.count("&") - ln.count(r"\&") == 1 for ln in body.strip().splitlines())
    assert r"\begin{table}" in tex and r"\caption{" in tex
    assert tex.index(r"\caption{") < tex.index(r"\end{table}")
    assert "\\usepackage" not in tex.replace(r"% needs \usepackage{booktabs}", "")


def test_transpose_turns_the_table():
    rep = report({"A": [0.1, 0.2], "B": [0.4, 0.3]}, transpose=True)
    md = comparison.render(rep, "markdown")
    head = [ln for ln in md.splitlines() if ln.startswith("| ")][0]
    assert head == "| measure | r0 | r1 |"
    rows = [ln for ln in md.splitlines() if ln.startswith("| A") or ln.startswith("| B")]
    assert rows == ["| A | 0.1000 | **0.2000** |", "| B | **0.4000** | 0.3000 |"]
