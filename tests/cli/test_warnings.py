"""Warnings: quiet by default, strict on request.

A warning of one kind is one line whatever the number of runs (12 runs that
each lack the same 35 topics in the qrels: one line), each run's warning
stays in --format json and -W all; -W error makes a warning an input error
(exit 3, nothing written), -W ignore silences them, IPSOEVAL_WARNINGS is the
default of -W; an error comes alone; the quick path prints the same merged
tie line as the full program; the Python API warns once per kind per call
without echoing the caller's source line.
"""

import json
import os
import random
import subprocess
import sys

import pytest

from ipsoeval.tiewarn_text import official_tie_note, tie_lines, tie_note
from ipsoeval.warntext import merge
from tests.conftest import ROOT, invoke, run_quick

N_RUNS = 12


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """Qrels judging 15 of 50 topics (qrels15) or all 50 (qrels50), and 12 runs
    of 50 topics, 8 of them with tied scores between differently labelled
    documents."""
    root = tmp_path_factory.mktemp("study")
    rnd = random.Random(7)
    for name, n in (("qrels15", 15), ("qrels50", 50)):
        with open(root / name, "w") as f:
            for q in range(1, n + 1):
                for d in range(20):
                    f.write(f"{q} 0 d{d} {rnd.choice([0, 0, 1, 2])}\n")
    runs = []
    for r in range(N_RUNS):
        path = root / f"r{r:02d}.txt"
        with open(path, "w") as f:
            for q in range(1, 51):
                for i, d in enumerate(rnd.sample(range(30), 25)):
                    score = (25 - i) // 2 if r % 3 else 25 - i      # ties in 8 runs
                    f.write(f"{q} Q0 d{d} {i + 1} {score} r{r}\n")
        runs.append(path)
    return root, runs


def _lines(err):
    return [ln for ln in err.splitlines() if ln]


# --- the merge itself -----------------------------------------------------------------

def test_merge_states_counts_and_runs_never_names():
    ws = [f"runs/r{i}.txt: 35 topic(s) not in the qrels ignored" for i in range(12)]
    ws += ["runs/r1.txt: 3 qrels topic(s) missing from the run skipped",
           "runs/r2.txt: 5 qrels topic(s) missing from the run skipped",
           "--bounds: AP left undefined for 3 ranking(s)",
           "runs/r4.txt: no topic in common with the qrels",
           "q.txt:1: identifier is not UTF-8 (caf\\xe9)", "r.txt:1: identifier is not UTF-8 (caf\\xe9)"]
    assert merge(ws) == ["12 runs: 35 topic(s) not in the qrels ignored",
                         "2 runs: 3 to 5 qrels topic(s) missing from the run skipped",
                         "--bounds: AP left undefined for 3 ranking(s)",
                         "runs/r4.txt: no topic in common with the qrels",
                         # a line of a file: its own warning
                         "q.txt:1: identifier is not UTF-8 (caf\\xe9)",
                         "r.txt:1: identifier is not UTF-8 (caf\\xe9)"]
    # one run: its own line, unchanged; duplicates once
    one = "runs/r1.txt: 35 topic(s) not in the qrels ignored"
    assert merge([one, one]) == [one]


def test_tie_notes_merge_naming_every_measure_moved_in_the_asked_order():
    order = ["AP", "P@10", "nDCG@10"]
    a = tie_note("a", 3, ["P@10"], order=order)
    b = tie_note("b", 7, ["AP", "nDCG@10"], order=order)
    assert merge([a, b]) == [
        "2 runs: 3 to 7 topic(s) have tied scores across a cutoff or between documents of "
        "different labels (the values of AP, P@10 and nDCG@10 depend on the tie order; "
        "--tie-break expected averages over it)"]
    # one run: exactly the old text
    assert merge([b]) == [str(b)] and str(b).startswith("b: 7 topic(s) have tied scores")
    # the quick path's lines are the same merge
    notes = [official_tie_note("x", 4, 0b10), None, official_tie_note("y", 4, 0b1)]
    assert tie_lines(notes) == merge([n for n in notes if n is not None])
    assert tie_lines(notes, "ignore") == [] and tie_lines(notes, "error") is None
    assert tie_lines([None], "error") == [] and tie_lines(notes, "bogus") is None


# --- the command line ----------------------------------------------------------------

def test_twelve_runs_one_line_per_kind(study):
    root, runs = study
    code, out, err = invoke(["eval", "-m", "P@10", "-m", "AP", root / "qrels15", *runs])
    assert code == 0 and out
    lines = _lines(err)
    assert lines[0] == f"ipsoeval: warning: {N_RUNS} runs: 35 topic(s) not in the qrels ignored"
    assert len(lines) == 2, err                  # and one tie line for the 8 tied runs
    assert lines[1].startswith("ipsoeval: warning: 8 runs: ") and "tied scores" in lines[1]
    # each run's detail: -W all, and --format json's warnings
    code, _, err = invoke(["eval", "-W", "all", "-m", "P@10", root / "qrels15", *runs])
    assert code == 0
    assert sum("35 topic(s) not in the qrels ignored" in ln for ln in _lines(err)) == N_RUNS
    code, out, err = invoke(["eval", "--format", "json", "-m", "P@10", "-m", "AP",
                             root / "qrels15", *runs])
    detail = json.loads(out)["warnings"]
    assert sorted(w for w in detail if "not in the qrels" in w) == sorted(
        f"{p}: 35 topic(s) not in the qrels ignored" for p in runs)
    assert len(_lines(err)) == 2


@pytest.mark.parametrize("cmd", [["sigtest", "-m", "AP"], ["leaderboard", "-m", "AP",
                                                             "--samples", "200"]])
def test_analyses_merge_too(study, cmd):
    root, runs = study
    code, _, err = invoke([*cmd, root / "qrels15", *runs])
    assert code == 0
    assert f"ipsoeval: warning: {N_RUNS} runs: 35 topic(s) not in the qrels ignored" in err
    assert "r00.txt" not in err


def test_error_mode_is_exit_3_one_line_nothing_written(study, tmp_path):
    root, runs = study
    out_file = tmp_path / "out.tsv"
    code, out, err = invoke(["eval", "-W", "error", "-m", "P@10", "-o", out_file,
                             root / "qrels15", *runs])
    assert code == 3 and out == "" and not out_file.exists()
    assert _lines(err) == [f"ipsoeval: error: {N_RUNS} runs: 35 topic(s) not in the qrels "
                           f"ignored (a warning, fatal under --warnings error)"]
    # to standard output: nothing written either
    code, out, err = invoke(["sigtest", "--warnings", "error", "-m", "P@10", root / "qrels15",
                             *runs[:2]])
    assert code == 3 and out == "" and len(_lines(err)) == 1
    # no warning: no error
    code, out, _ = invoke(["eval", "-W", "error", "-m", "P@10", "--tie-break", "expected",
                           root / "qrels50", runs[0]])
    assert code == 0 and out


def test_ignore_mode_and_the_environment_variable(study, monkeypatch):
    root, runs = study
    args = ["eval", "-m", "P@10", "-m", "AP", root / "qrels15", *runs]
    code, out, err = invoke(["eval", "-W", "ignore", *args[1:]])
    assert code == 0 and out and err == ""
    monkeypatch.setenv("IPSOEVAL_WARNINGS", "ignore")
    code, out2, err = invoke(args)
    assert code == 0 and out2 == out and err == ""
    monkeypatch.setenv("IPSOEVAL_WARNINGS", "error")
    code, out, err = invoke(args)
    assert code == 3 and out == "" and err.startswith("ipsoeval: error: 12 runs: ")
    code, out, err = invoke(["eval", "-W", "default", *args[1:]])   # the option wins
    assert code == 0 and len(_lines(err)) == 2
    monkeypatch.setenv("IPSOEVAL_WARNINGS", "loud")
    code, out, err = invoke(args)
    assert code == 2 and out == "" and "IPSOEVAL_WARNINGS='loud'" in err
    assert len(_lines(err)) == 1


def test_an_error_comes_alone(study):
    """Warnings met while reading are not printed when the command then fails."""
    root, runs = study
    code, _, err = invoke(["sigtest", "-m", "AP", "--baseline", "nosuchrun", root / "qrels15",
                           *runs])
    assert code == 2 and len(_lines(err)) == 1 and err.startswith("ipsoeval: error: ")


def _console(args, **env):
    script = ROOT / ".venv" / "bin" / "ipsoeval"
    if not script.exists():
        pytest.skip("no console script in .venv")
    return subprocess.run([str(script), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def test_quick_path_prints_the_full_programs_merged_tie_line(study):
    root, runs = study
    served, qout, qerr = run_quick(["eval", root / "qrels50", *runs])
    if not served:
        pytest.skip("compiled core not built")
    lines = _lines(qerr)
    assert len(lines) == 1 and lines[0].startswith("ipsoeval: warning: 8 runs: ")
    code, out, err = invoke(["eval", "--format", "trec", root / "qrels50", *runs])
    assert code == 0 and out == qout and err == qerr
    # the console script: quick path by default, the full one under IPSOEVAL_CORE=python
    q = _console(["eval", root / "qrels50", *runs])
    p = _console(["eval", root / "qrels50", *runs], IPSOEVAL_CORE="python")
    assert q.returncode == p.returncode == 0 and q.stdout == p.stdout == out
    assert q.stderr == p.stderr == qerr
    # -W error through the environment: the quick path leaves it to the full program
    e = _console(["eval", root / "qrels50", *runs], IPSOEVAL_WARNINGS="error")
    assert e.returncode == 3 and e.stdout == "" and len(_lines(e.stderr)) == 1
    i = _console(["eval", root / "qrels50", *runs], IPSOEVAL_WARNINGS="ignore")
    assert i.returncode == 0 and i.stdout == out and i.stderr == ""


# --- the Python API -------------------------------------------------------------------

def test_api_warns_once_per_kind_without_the_source_line(study, tmp_path):
    root, runs = study
    script = tmp_path / "study.py"
    script.write_text(
        "import ipsoeval\n"
        f"runs = {[str(r) for r in runs]!r}\n"
        f"res = ipsoeval.evaluate({str(root / 'qrels15')!r}, runs, ['P@10'])  # SOURCE\n"
        "print(len(res.warnings))\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       cwd=tmp_path, env={**os.environ, "PYTHONWARNINGS": "default"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(N_RUNS)            # each run's warning kept in .warnings
    lines = _lines(p.stderr)
    assert lines == ["<ipsoeval>:0: InputWarning: 12 runs: 35 topic(s) not in the qrels "
                     "ignored"], p.stderr
    assert "SOURCE" not in p.stderr


def test_api_warning_is_a_filterable_inputwarning(study):
    import warnings

    import ipsoeval
    root, runs = study
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        ipsoeval.evaluate(root / "qrels15", [str(r) for r in runs], ["P@10"])
        ipsoeval.evaluate(root / "qrels15", [str(r) for r in runs], ["P@10"])
    assert [str(w.message) for w in got] == ["12 runs: 35 topic(s) not in the qrels ignored"] * 2
    assert all(w.category is ipsoeval.InputWarning for w in got)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ipsoeval.InputWarning)
        with pytest.raises(ipsoeval.InputWarning):
            ipsoeval.evaluate(root / "qrels15", [str(r) for r in runs], ["P@10"])


def test_a_measure_warning_is_not_merged_as_if_measures_were_runs(study):
    """Two recall measures whose recall bases differ across topics get one
    note each, naming the measure (it read '2 runs: ordinal across topics'
    when the merge took the measure for a run), in the full program and in
    sigtest's quick path alike.  A scale is what the method implies: a note
    in the output (json's notes), never a warning on stderr."""
    root, runs = study
    args = ["sigtest", "-m", "R@10", "-m", "R@20", "--format", "json", root / "qrels50",
            *runs[:2]]
    code, out, err = invoke(args)
    assert code == 0
    assert "ordinal across topics" not in err
    scale = [n for n in json.loads(out)["notes"] if " is ordinal across" in n]
    assert [n.split(" is ordinal")[0] for n in scale] == ["R@10", "R@20"], out
    p = subprocess.run([sys.executable, "-c", "import sys; from ipsoeval._quick import main; "
                        "sys.argv = ['ipsoeval', *sys.argv[1:]]; main()",
                        *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0
    assert (p.stdout, p.stderr) == (out, err)
