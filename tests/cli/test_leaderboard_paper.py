"""leaderboard --format latex / markdown: the paper's view -- compact, no
shell commands in a cell, run names with LaTeX's special characters
escaped, compilable with a plain booktabs preamble."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import TESTDATA, invoke

A = TESTDATA / "adhoc"
NAMES = ["bm_25&co", "neural%v2#1", "$best_{x}"]


def _runs(tmp_path):
    """The adhoc runs under names full of LaTeX's special characters."""
    paths = []
    for i, (src, name) in enumerate(zip(["run-bm25.txt", "run-neural.txt", "run-bm25.txt"],
                                        NAMES)):
        p = tmp_path / f"run{i}.txt"
        lines = (A / src).read_text().splitlines()
        p.write_text("".join(" ".join(ln.split()[:5] + [name]) + "\n" for ln in lines))
        paths.append(p)
    return paths


def _leaderboard(tmp_path, fmt, *more):
    code, out, err = invoke(["leaderboard", "-m", "AP", "-m", "P@10", "--samples", "200",
                             "--format", fmt, *more, A / "qrels.txt", *_runs(tmp_path)])
    assert code == 0, err
    return out


def test_latex_is_compact_and_has_no_shell_commands(tmp_path):
    out = _leaderboard(tmp_path, "latex")
    tables = out.split(r"\begin{tabular}")[1:]
    assert len(tables) == 2
    header = tables[0].split(r"\midrule")[0]
    assert "run & measure & mean & 95\\% CI & group & rank & top group" in header
    assert tables[0].split("}", 1)[0] == "{llrllll"          # 7 columns (was 11)
    assert "ci\\_low" not in out and "rank\\_best &" not in out
    assert "permissible\\_route" not in out and "ipsoeval sigtest" not in \
        tables[1].split(r"\bottomrule")[0]
    # run names escaped; an interval and a rank range in one cell each
    assert r"bm\_25\&co" in out and r"neural\%v2\#1" in out and r"\$best\_\{x\}" in out
    assert "& [" in out and ", " in out
    body = tables[0].split(r"\midrule")[1]
    assert "1--" in body or " & 1 & " in body or "& 1 &" in body
    # a shell command in a note keeps its two hyphens
    assert "--all" not in out.replace("-{}-", "")


def test_markdown_and_digits(tmp_path):
    md = _leaderboard(tmp_path, "markdown", "--digits", "2")
    assert "| run | measure | mean | 95% CI | group | rank | top group |" in md
    assert "0.2899" not in md and "0.29" in md
    assert "permissible_route" not in md


def test_tsv_keeps_every_column(tmp_path):
    out = _leaderboard(tmp_path, "tsv", "--table", "resolution")
    assert out.splitlines()[0].endswith("\tpermissible\tpermissible_route")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles_with_plain_booktabs(tmp_path):
    body = _leaderboard(tmp_path, "latex", "--digits", "3")
    tex = tmp_path / "t.tex"
    tex.write_text("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
                   + body + "\\end{document}\n")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:]
    assert "Missing $ inserted" not in p.stdout and "Undefined control" not in p.stdout
