"""`ipsoeval report`'s "same tables from the commands": each printed command
line, run as printed (a subprocess in the same folder, with the same files),
prints the tables the page holds, to 1e-12 relative."""

from __future__ import annotations

import html
import json
import math
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.report_inputs import make_inputs, one_relevant

REL = 1e-12


def _report(cwd: Path, args: list[str]) -> str:
    r = subprocess.run([sys.executable, "-m", "ipsoeval", "report", *args, "-o", "page.html",
                        "-W", "ignore"], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return (cwd / "page.html").read_text()


def _data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="ipsoeval-data">(.*?)</script>', page,
                  re.S)
    return json.loads(m.group(1))


def _printed(page: str) -> list[str]:
    m = re.search(r"The same tables from the commands:</p><pre>(.*?)</pre>", page, re.S)
    lines = html.unescape(m.group(1)).splitlines()
    assert lines == _data(page)["report"]["commands"]
    return lines


def _run(cwd: Path, line: str) -> tuple[dict, str | None]:
    """Run a printed line as a shell would split it (its ``# comment`` cut),
    with --format json added; (the JSON, the comment)."""
    argv = shlex.split(line, comments=True)
    comment = line.partition("   # ")[2] or None
    assert argv[0] == "ipsoeval"
    # no option is left without its value (the old "--test  --samples")
    for i, a in enumerate(argv[:-1]):
        if a in ("--test", "--baseline", "--samples", "--seed", "--alpha", "--correct"):
            assert not argv[i + 1].startswith("--"), line
    r = subprocess.run([sys.executable, "-m", "ipsoeval", *argv[1:], "--format", "json",
                        "-W", "ignore"], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, (line, r.stderr)
    return json.loads(r.stdout), comment


def _same(got, want, where):
    if isinstance(want, float) and isinstance(got, (int, float)):
        if math.isnan(want):
            assert math.isnan(got), where
        else:
            assert math.isclose(got, want, rel_tol=REL, abs_tol=0.0) or got == want, \
                (where, got, want)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), (where, got, want)
        for k in want:
            _same(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, (where, got, want)


def _check_every_line(cwd: Path, page: str) -> set[str]:
    doc = _data(page)
    reports = doc["reports"]
    lines = _printed(page)
    seen, sig_rows = set(), []
    for line in lines:
        out, comment = _run(cwd, line)
        cmd = out["command"]
        seen.add(cmd)
        if cmd == "leaderboard":
            for tid in ("leaderboard", "pairs", "resolution"):
                _same(out["tables"][tid]["records"],
                      reports["leaderboard"]["tables"][tid]["records"], f"leaderboard.{tid}")
        elif cmd == "sigtest":
            rows = out["tables"]["tests"]["records"]
            if comment:                     # "the rows of run_b = B"
                b = comment.rpartition(" = ")[2]
                rows = [r for r in rows if r["run_b"] == b]
            assert rows
            sig_rows += rows
        elif cmd == "compare":
            for tid in ("comparison", "tests"):
                _same(out["tables"][tid]["records"],
                      reports["compare"]["tables"][tid]["records"], f"compare.{tid}")
        elif cmd == "across":
            for tid, t in reports["across"]["tables"].items():
                _same(out["tables"][tid]["records"], t["records"], f"across.{tid}")
        elif cmd == "breakdown":
            b = comment.rpartition(" = ")[2]
            rows = [r for r in out["tables"]["summary"]["records"] if r["run_b"] == b]
            _same(rows, reports["breakdown"]["tables"]["summary"]["records"], "breakdown")
        else:
            raise AssertionError(line)
    # the page's pair tests are exactly the printed sigtests' rows
    _same(sig_rows, reports["sigtest"]["tables"]["tests"]["records"], "sigtest.tests")
    return seen


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Runs whose file names need quoting, and qrels with one relevant
    document per topic (so that the page has the outcomes breakdown)."""
    d = tmp_path_factory.mktemp("cmds")
    qrels, runs = make_inputs(d, runs=4, topics=20)
    one = one_relevant(qrels, d)
    names = ["run a.txt", "run'b.txt", "run-c.txt", "run$d.txt"]
    for src, dst in zip(runs, names):
        Path(src).rename(d / dst)
    Path(one).rename(d / "qrels one.txt")
    return d, "qrels one.txt", names


def test_default_tests_every_line_runs_and_gives_the_page_tables(folder):
    d, qrels, runs = folder
    page = _report(d, [qrels, *runs, "-m", "AP", "-m", "nDCG@10", "--samples", "300"])
    lines = _printed(page)
    assert not any(re.search(r"--test\s+(--|$)", x) for x in lines), lines
    assert _check_every_line(d, page) == {"leaderboard", "sigtest", "breakdown",
                                                  "compare"}


def test_given_tests_options_and_names(folder):
    d, qrels, runs = folder
    page = _report(d, [qrels, *runs, "-m", "P@10", "--samples", "300", "--seed", "3",
                       "--alpha", "0.0123456789", "--ci", "0.9", "--test", "t,sign",
                       "--correct", "holm", "--pair", "x1:x3", "--pair", "x0:x2",
                       "--name", "x0", "--name", "x1", "--name", "x2", "--name", "x3",
                       "-J", "--depth", "15", "-k", "5"])
    lines = _printed(page)
    assert all("--alpha 0.0123456789" in x for x in lines)
    assert sum(x.startswith("ipsoeval sigtest") for x in lines) == 2
    assert _check_every_line(d, page) == {"leaderboard", "sigtest", "breakdown",
                                                  "compare"}


def test_nuggets_every_line_runs(tmp_path):
    src = ROOT / "testdata" / "nuggets" / "auto.jsonl"
    shutil.copy(src, tmp_path / "auto nuggets.jsonl")
    page = _report(tmp_path, ["--nuggets", "auto nuggets.jsonl", "-m", "nugget_vital_strict",
                              "-m", "nugget_all", "--samples", "300"])
    assert _check_every_line(tmp_path, page) == {"leaderboard", "sigtest", "compare"}


def test_manifest_section_has_its_across_line(tmp_path):
    src = ROOT / "testdata" / "across"
    for f in src.iterdir():
        if f.suffix in (".run", ".qrels", ".tsv"):
            shutil.copy(f, tmp_path / f.name)
    page = _report(tmp_path, ["web.qrels", "web-bm25.run", "web-dense.run", "web-hybrid.run",
                              "-m", "AP", "--samples", "200", "--manifest", "manifest.tsv"])
    assert any(x.startswith("ipsoeval across manifest.tsv") for x in _printed(page))
    assert _check_every_line(tmp_path, page) == {"leaderboard", "sigtest", "across",
                                                  "compare"}
