"""Warnings and notes are two things (docs/conventions.md, "Warnings and notes").

A warning says these inputs may make a number wrong or surprising: on stderr
once per kind, fatal under ``-W error`` (exit 3, nothing written), the same
in every command and in the API.  A note says what the method always implies
(a measure's scale, the permissible route): it goes with the output (json's
``notes``, the table layout's footer, latex and markdown footnotes), is never
fatal and names only the measures asked for.
"""

from __future__ import annotations

import json
import lzma
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.conftest import ROOT, TESTDATA, invoke

ENTRY = ("import sys; from ipsoeval._quick import main; sys.argv[0] = 'ipsoeval'; "
         "sys.exit(main())")

TIE_TEXT = ("topic(s) have tied scores across a cutoff or between documents of different "
            "labels")


@pytest.fixture(autouse=True)
def _plain_env(plain_env):
    """Neither $IPSOEVAL_WARNINGS nor $IPSOEVAL_CORE of the caller's shell."""


@pytest.fixture(scope="module")
def msmarco(tmp_path_factory):
    """testdata/msmarco: one relevant document per topic, no tied scores, every
    run on every topic -- inputs without a warning; nDCG@10 and AP are ordinal
    (a note)."""
    d = tmp_path_factory.mktemp("msmarco")
    runs = []
    for name in ("baseline", "better-both", "top-heavy"):
        p = d / f"{name}.run"
        p.write_bytes(lzma.decompress((TESTDATA / "msmarco" / f"{name}.run.xz").read_bytes()))
        runs.append(str(p))
    return str(TESTDATA / "msmarco" / "qrels.txt"), runs


@pytest.fixture(scope="module")
def tied(tmp_path_factory):
    """12 topics, 3 runs of 20 documents; ranks 10 and 11 share a score on
    every topic, and the documents there often differ in label: P@10 depends
    on the tie order (eval's tie warning)."""
    import random
    rng = random.Random(1)
    d = tmp_path_factory.mktemp("tied")
    with open(d / "qrels", "w") as f:
        for t in range(1, 13):
            for k in range(30):
                f.write(f"{t} 0 d{k} {1 if k % 3 == 0 else 0}\n")
    runs = []
    for r in "abc":
        lines = []
        for t in range(1, 13):
            docs = list(range(30))
            rng.shuffle(docs)
            for i, k in enumerate(docs[:20]):
                score = 100 - (9 if i == 10 else i)          # ranks 10 and 11 tied
                lines.append(f"{t} Q0 d{k} {i + 1} {score} {r}\n")
        (d / f"run-{r}").write_text("".join(lines))
        runs.append(str(d / f"run-{r}"))
    return str(d / "qrels"), runs


def _warning_lines(err: str) -> list[str]:
    return [ln[len("ipsoeval: warning: "):] for ln in err.splitlines()
            if ln.startswith("ipsoeval: warning: ")]


def _quick(args, **env):
    p = subprocess.run([sys.executable, "-c", ENTRY, *map(str, args)], capture_output=True,
                       text=True, cwd=ROOT, env=dict(os.environ, **env))
    return p.returncode, p.stdout, p.stderr


def _data_block(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="ipsoeval-data">(.*?)</script>', html,
                  re.S)
    return json.loads(m.group(1))


# --- -W error with ordinal measures: notes are not warnings ---------------------------------

def test_leaderboard_W_error_with_ordinal_measures(msmarco, tmp_path):
    qrels, runs = msmarco
    out = tmp_path / "board.json"
    code, stdout, err = invoke(["leaderboard", "-W", "error", "-m", "nDCG@10", "-m", "AP",
                                "--samples", "200", "--format", "json", "-o", out, qrels,
                                *runs])
    assert code == 0, err
    assert err == ""
    doc = json.loads(out.read_text())
    assert doc["warnings"] == []
    scale = [n for n in doc["notes"] if "its scale is ordinal" in n]
    assert [n.split(":")[0] for n in scale] == ["nDCG@10", "AP"]
    assert doc["notes"][0].startswith("Test: ")


def test_report_W_error_with_ordinal_measures(msmarco, tmp_path):
    qrels, runs = msmarco
    out = tmp_path / "page.html"
    code, _, err = invoke(["report", "-W", "error", "-m", "nDCG@10", "-m", "AP",
                           "--samples", "200", "-o", out, qrels, *runs])
    assert code == 0, err
    assert "warning" not in err
    data = _data_block(out.read_text())
    assert data["warnings"] == []
    assert any(n.startswith("nDCG@10: its scale is ordinal") for n in data["notes"])
    assert data["reports"]["leaderboard"]["notes"]


def test_notes_go_with_the_output_in_each_format(msmarco):
    qrels, runs = msmarco
    base = ["leaderboard", "-m", "AP", "--samples", "100", qrels, *runs]
    note = "AP: its scale is ordinal"
    _, tsv, err = invoke([*base, "--format", "tsv"])
    assert note not in tsv and note not in err        # one table, nothing else
    _, table, _ = invoke([*base, "--format", "table"])
    assert re.search(r"^  note: AP: its scale is ordinal", table, re.M)
    _, md, _ = invoke([*base, "--format", "markdown"])
    assert "Note: AP: its scale is ordinal" in md
    _, tex, _ = invoke([*base, "--format", "latex"])
    assert "Note: AP: its scale is ordinal" in tex
    assert tex.count("Note: AP") == 1                  # under the last table only


def test_notes_are_never_fatal(msmarco):
    qrels, runs = msmarco
    for fmt in ("json", "table", "tsv"):
        code, _, err = invoke(["sigtest", "-W", "error", "-m", "nDCG@10", "--format", fmt,
                               qrels, *runs])
        assert code == 0, (fmt, err)


def test_the_api_keeps_notes_out_of_its_warnings(msmarco):
    import ipsoeval
    qrels, runs = msmarco
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = ipsoeval.evaluate(qrels, runs, ["nDCG@10", "AP"])
        rep = ipsoeval.leaderboard(res, samples=100)
    assert rep.warnings == []
    from ipsoeval.stats import registry
    # the scale notes of the measures asked for, after the test and rank sentences
    assert rep.notes[:2] == [rep.params.get("test_note") or rep.table().params["test_note"],
                             registry.RANK_BEST_WORST_NOTE]
    assert [n.split(":")[0] for n in rep.notes[2:]] == ["nDCG@10", "AP"]


# --- the same tie warning in every command and the API -----------------------------------

TIE_COMMANDS = {
    "eval": ["eval", "-m", "P@10", "--format", "json"],
    "sigtest": ["sigtest", "-m", "P@10", "--format", "json"],
    "leaderboard": ["leaderboard", "-m", "P@10", "--samples", "100", "--format", "json"],
    "bootstrap": ["bootstrap", "-m", "P@10", "--samples", "100", "--format", "json"],
    "report": ["report", "-m", "P@10", "--samples", "100"],
    "compare": ["compare", "-m", "P@10", "--format", "json"],
}


def _tie_line(tied) -> str:
    _, _, err = invoke([*TIE_COMMANDS["eval"], tied[0], *tied[1]])
    lines = _warning_lines(err)
    assert len(lines) == 1 and TIE_TEXT in lines[0] and "P@10" in lines[0], err
    return lines[0]


@pytest.mark.parametrize("command", sorted(TIE_COMMANDS))
def test_every_command_gives_eval_s_tie_warning(tied, command):
    qrels, runs = tied
    line = _tie_line(tied)
    code, _, err = invoke([*TIE_COMMANDS[command], qrels, *runs])
    assert code == 0, err
    assert _warning_lines(err) == [line]


@pytest.mark.parametrize("command", sorted(TIE_COMMANDS))
def test_the_tie_warning_is_fatal_under_W_error(tied, command, tmp_path):
    qrels, runs = tied
    out = tmp_path / "out"
    code, stdout, err = invoke([*TIE_COMMANDS[command], "-W", "error", "-o", out, qrels,
                                *runs])
    assert code == 3, err
    assert stdout == "" and not out.exists()
    assert TIE_TEXT in err and "fatal under --warnings error" in err


def test_the_quick_paths_give_the_same_tie_warning(tied):
    qrels, runs = tied
    line = _tie_line(tied)
    for args in (["eval", "-m", "P@10", "--format", "tsv"],
                 ["sigtest", "-m", "P@10", "--format", "tsv"]):
        quick = _quick([*args, qrels, *runs])
        full = _quick([*args, qrels, *runs], IPSOEVAL_CORE="python")
        assert quick == full, args
        assert _warning_lines(quick[2]) == [line], args


def test_sigtest_W_error_fail_if_worse_on_ties_exits_3(tied):
    qrels, runs = tied
    args = ["sigtest", "-W", "error", "--fail-if", "worse", "-m", "P@10", qrels, *runs]
    for env in ({}, {"IPSOEVAL_CORE": "python"}):          # the quick path, the full one
        code, out, err = _quick(args, **env)
        assert code == 3 and out == "", (env, err)
        assert TIE_TEXT in err
    code, _, _ = _quick(args, IPSOEVAL_WARNINGS="default")
    assert code == 3                                        # -W wins over the environment
    code, _, _ = _quick(args[:1] + args[3:], IPSOEVAL_WARNINGS="error")
    assert code == 3


def test_the_api_warns_the_same_tie_warning(tied):
    import ipsoeval
    qrels, runs = tied
    line = _tie_line(tied)

    def caught(f, *a, **kw):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            out = f(*a, **kw)
        return out, [str(w.message) for w in got]

    res, w = caught(ipsoeval.evaluate, qrels, runs, ["P@10"])
    assert w == [line]
    for f, kw in ((ipsoeval.sigtest, {}), (ipsoeval.leaderboard, {"samples": 100}),
                  (ipsoeval.bootstrap, {"samples": 100})):
        rep, w = caught(f, res, **kw)
        assert w == [line], f.__name__                       # once per kind per call
        assert any(TIE_TEXT in x for x in rep.warnings)


# --- ppi: too few human topics for a normal interval -------------------------------------

def test_ppi_warns_with_few_human_topics():
    from ipsoeval.analyses.ppi.report import MIN_NORMAL_TOPICS
    adhoc = TESTDATA / "adhoc"
    args = ["ppi", "--human", TESTDATA / "ppi" / "human.qrels", "--auto",
            TESTDATA / "ppi" / "auto.qrels", "-m", "AP", "--format", "json",
            adhoc / "run-bm25.txt", adhoc / "run-neural.txt"]
    code, out, err = invoke(args)
    assert code == 0
    line = (f"only 2 human-judged topic(s): the human-only and ppi++ intervals are normal "
            f"(asymptotic) and too narrow with fewer than {MIN_NORMAL_TOPICS}")
    assert any(w.startswith(line) for w in _warning_lines(err))
    assert any(w.startswith(line) for w in json.loads(out)["warnings"])
    code, out, err = invoke(["ppi", "-W", "error", *args[1:]])
    assert code == 3 and out == ""


def test_ppi_threshold_coverage_is_what_the_comment_says():
    """A nominal 95 % normal interval (z, divisor n) on n normal scores covers
    the mean with probability P(|t_{n-1}| < z sqrt((n-1)/n))."""
    scipy_stats = pytest.importorskip("scipy.stats")
    z = scipy_stats.norm.ppf(0.975)
    cover = {n: 2 * scipy_stats.t.cdf(z * math.sqrt((n - 1) / n), n - 1) - 1
             for n in (3, 10, 30)}
    assert round(cover[3], 2) == 0.75 and round(cover[10], 2) == 0.90
    assert round(cover[30], 2) == 0.94


# --- nuggets: notes name only the measures asked for ---------------------------------------

@pytest.mark.parametrize("fmt", ["json", "table"])
def test_nugget_notes_only_for_the_measure_asked(fmt):
    auto = TESTDATA / "nuggets" / "auto.jsonl"
    code, out, err = invoke(["sigtest", "--nuggets", auto, "-m", "nugget_vital_strict",
                             "--format", fmt])
    assert code == 0
    assert "ordinal across topics" not in err
    if fmt == "json":
        notes = json.loads(out)["notes"]
        assert notes[0].startswith("Test: ")            # the test chosen, then the scale
        assert [n.split(" ")[0] for n in notes[1:]] == ["nugget_vital_strict"]
    else:
        for other in ("nugget_all_strict", "nugget_vital ", "nugget_all "):
            assert other not in out
        assert "note: nugget_vital_strict is ordinal" in out


def test_report_notes_field_is_stable():
    from ipsoeval.formatters import render
    from ipsoeval.results import Report, ResultSet
    rep = Report("x", [ResultSet("x", ["a"], [{"a": 1}], id="t")])
    assert json.loads(render(rep, "json"))["notes"] == []
    rep.note("one", "two", "one", "")
    assert rep.notes == ["one", "two"]
    assert json.loads(render(rep, "json"))["notes"] == ["one", "two"]
    assert render(rep, "tsv") == "a\n1\n"


def test_docs_state_the_two_kinds():
    text = (ROOT / "docs" / "conventions.md").read_text()
    assert "Warnings and notes" in text
    page = Path(ROOT / "man" / "ipsoeval.1").read_text()
    assert "NOTES" in page
