"""Small CLI defects met in a trial and by fuzzing: each gives a clear error
before any work or the documented behaviour."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, TESTDATA, invoke

AD = TESTDATA / "adhoc"
Q, A, B = str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")
SC = ROOT / "tests" / "data" / "scores"
SA, SB = str(SC / "bm25.treceval-q.txt"), str(SC / "neural.treceval-q.txt")
MANIFEST = str(TESTDATA / "across" / "manifest.tsv")


def one_error(code, err, status=2):
    lines = err.strip().splitlines()
    assert code == status, err
    assert len(lines) == 1 and lines[0].startswith("ipsoeval: error: "), err
    return lines[0]


def run(args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "ipsoeval", *map(str, args)], cwd=cwd,
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


# --- -o -: standard output ------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["eval", Q, A, "-m", "P@10"],
    ["sigtest", Q, A, B, "-m", "P@10"],                       # the quick path
    ["sigtest", Q, A, B, "-m", "P@10", "--format", "json"],   # the full program
    ["leaderboard", Q, A, B, "-m", "P@10", "--samples", "50"],
    ["report", Q, A, B, "-m", "P@10", "--samples", "50"],
    ["nuggets", str(TESTDATA / "nuggets" / "auto.jsonl")],
])
def test_dash_output_is_standard_output(args, tmp_path):
    code, out, err = run([*args, "-o", "-", "-W", "ignore"], cwd=tmp_path)
    assert code == 0, err
    assert out.strip()
    assert not (tmp_path / "-").exists()


# --- --baseline checked first, alone ----------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["risk", "--scores", SA, SB, "-m", "AP", "--baseline", "nope"],
    ["sigtest", "--scores", SA, SB, "-m", "AP", "--baseline", "nope"],
    ["sigtest", "--scores", SA, SB, "--baseline", "nope"],        # no -m: still the baseline
    ["bootstrap", "--scores", SA, SB, "-m", "AP", "--baseline", "nope"],
])
def test_scores_bad_baseline_is_the_only_line(args):
    code, out, err = invoke(args)
    line = one_error(code, err)
    assert "--baseline 'nope'" in line and out == ""


def test_scores_missing_measure_is_the_only_line():
    code, out, err = invoke(["risk", "--scores", SA, SB])
    assert "Missing option '-m'" in one_error(code, err) and out == ""


@pytest.fixture
def no_reading(monkeypatch):
    import ipsoeval.pipeline.inputs as cli_options  # the one input module
    import ipsoeval.reading.manifest as manifest
    import ipsoeval.reading.scores as scores

    def boom(*a, **k):
        raise AssertionError("the inputs were read before the check")

    for name in ("load_aligned", "aligned_and_warnings", "load_scores"):
        monkeypatch.setattr(cli_options, name, boom)
    monkeypatch.setattr(scores, "read_scores", boom)
    monkeypatch.setattr(manifest, "read_manifest", boom)


@pytest.mark.parametrize("args", [
    ["risk", Q, A, B, "-m", "AP", "--name", "x", "--name", "y", "--baseline", "nope"],
    ["sigtest", Q, A, B, "-m", "AP", "--name", "x", "--name", "y", "--baseline", "nope"],
    ["sigtest", Q, A, B, "-m", "AP", "--name-from-file", "--baseline", "bm25"],
    ["risk", Q, A, B, "-m", "AP", "--name-from-file", "--baseline", "nope"],
    ["risk", "--scores", SA, SB, "-m", "AP", "--name", "x", "--name", "y",
     "--baseline", "nope"],
    ["sigtest", "--scores", SA, SB, "-m", "AP", "--name", "x", "--name", "y",
     "--baseline", "nope"],
])
def test_baseline_against_names_before_reading(args, no_reading):
    code, out, err = invoke(args)
    assert "--baseline '" in one_error(code, err) and out == ""


def test_baseline_as_a_file_with_names_still_works():
    code, out, _ = invoke(["risk", Q, A, B, "-m", "AP", "--name", "x", "--name", "y",
                           "--baseline", B, "-W", "ignore"])
    assert code == 0 and "\ty\t" in out.splitlines()[1]


# --- across --table checked before reading ---------------------------------------------------

def test_across_unknown_table_before_reading(no_reading):
    code, out, err = invoke(["across", MANIFEST, "-m", "AP", "--table", "nope"])
    line = one_error(code, err)
    assert "no table 'nope'" in line and "contrasts" in line and out == ""


def test_across_table_list_without_reading(no_reading):
    code, out, err = invoke(["across", MANIFEST, "-m", "AP", "--table", "list"])
    assert code == 0, err
    ids = [x.split("\t")[0] for x in out.splitlines()]
    assert ids == ["pooled", "effects", "leaderboard", "notes", "collection_means", "mixed",
                   "mixed_model", "contrasts"]


def test_across_table_catalogue_is_the_reports():
    from ipsoeval.cli.output import TABLES
    code, out, err = invoke(["across", MANIFEST, "-m", "AP", "--format", "json",
                             "--samples", "20", "-W", "ignore"])
    assert code == 0, err
    import json
    tables = json.loads(out)["tables"]
    assert [(t[0], t[1]) for t in TABLES["across"]] == \
        [(k, v["description"]) for k, v in tables.items()]


# --- nugget measure names are exact -----------------------------------------------------------

NUG = str(TESTDATA / "nuggets" / "auto.jsonl")


@pytest.mark.parametrize("args, meant", [
    (["nuggets", NUG, "-m", "NUGGET_ALL"], "nugget_all"),
    (["nuggets", NUG, "-m", "nugget-vital"], "nugget_vital"),
    (["nuggets", NUG, "-m", "nugget_vital_strikt"], "nugget_vital_strict"),
    (["sigtest", "--nuggets", NUG, "-m", "Nugget_all"], "nugget_all"),
])
def test_nugget_names_are_exact(args, meant, no_reading, monkeypatch):
    import ipsoeval.reading.nuggets as rn
    monkeypatch.setattr(rn, "read_nuggets", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("read before the check")))
    code, out, err = invoke(args)
    line = one_error(code, err)
    assert f"did you mean {meant!r}" in line and out == ""


# --- an empty interval-map cache entry is a miss; no EOFError reaches click ------------------

def test_empty_cache_entry_is_recomputed(tmp_path):
    import os
    env = dict(os.environ, IPSOEVAL_CACHE_DIR=str(tmp_path / "cache"))
    args = [sys.executable, "-m", "ipsoeval", "interval-map", "-m", "AP@12", Q, A, "-W",
            "ignore"]
    first = subprocess.run(args, capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    entries = list((tmp_path / "cache").rglob("*.npz"))
    assert len(entries) == 1
    entries[0].write_bytes(b"")                     # what a full disk leaves
    again = subprocess.run(args, capture_output=True, text=True, env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout and again.stdout.strip()
    assert entries[0].stat().st_size > 0            # rewritten whole
    third = subprocess.run(args, capture_output=True, text=True, env=env)
    assert third.returncode == 0 and third.stdout == first.stdout


def test_eoferror_is_an_internal_error_not_an_interrupt(monkeypatch):
    import ipsoeval.pipeline.inputs as cli_options  # the one input module
    from ipsoeval.errors import EXIT_INTERNAL

    def eof(*a, **k):
        raise EOFError("No data left in file")

    monkeypatch.setattr(cli_options, "load_aligned", eof)
    code, out, err = invoke(["risk", Q, A, B, "-m", "AP"])
    assert code == EXIT_INTERNAL, err
    assert "internal error" in err and "interrupted" not in err and out == ""


# --- interval-map: a long value-set pass is announced, on a pipe too ---------------------------

def test_long_value_set_pass_is_announced_on_a_pipe(tmp_path, monkeypatch):
    from ipsoeval.analyses.interval_map import ap
    monkeypatch.setenv("IPSOEVAL_CACHE_DIR", str(tmp_path / "cache"))
    # AP@20's pass (979,461 candidate values) made to look as long as AP@30's
    monkeypatch.setattr(ap, "SECONDS_PER_PAIR", 14.0 / 979_461)
    code, out, err = invoke(["interval-map", "-m", "AP@20", Q, A, "-W", "ignore"])
    assert code == 0, err
    assert err.splitlines() == ["ipsoeval: note: interval-map: AP@20 value set: about 14 s "
                                "(computed once, then cached; a smaller -N or cutoff is "
                                "faster)"]
    # cached: no pass, nothing to announce
    code, out2, err = invoke(["interval-map", "-m", "AP@20", Q, A, "-W", "ignore"])
    assert code == 0 and out2 == out and err == ""


def test_pass_estimate_is_the_measured_order():
    from ipsoeval.analyses.interval_map.ap import APSystem
    assert 5 < APSystem(30).pass_seconds() < 60           # 11 s quiet, 20-40 s loaded
    assert APSystem(20).pass_seconds() < 1


# --- parameters and degrees of freedom print as the numbers they are -------------------------

def _column(table: str, name: str) -> list[str]:
    lines = table.splitlines()
    head = next(i for i, x in enumerate(lines) if f" {name} " in f" {x} ")
    j = lines[head].split().index(name)
    return [x.split()[j] for x in lines[head + 2:] if x.strip() and not x.startswith("  part")
            and len(x.split()) == len(lines[head].split())]


def test_risk_alpha_prints_as_given_in_the_table():
    code, out, err = invoke(["risk", Q, A, B, "-m", "AP", "--risk-alpha", "0.5,1,5",
                             "--format", "table", "-W", "ignore"], width=200)
    assert code == 0, err
    first = out.split("\n\n\n")[0] if "\n\n\n" in out else out
    assert _column(first, "risk_alpha")[:3] == ["0.5", "1", "5"], out
    assert "1.0000" not in out and "5.0000" not in out
    code, md, _ = invoke(["risk", Q, A, B, "-m", "AP", "--format", "markdown", "-W", "ignore"])
    assert "| 1 |" in md and "| 5 |" in md and "1.0000" not in md


def test_f_degrees_of_freedom_print_as_integers():
    code, out, err = invoke(["across", MANIFEST, "-m", "AP", "--table", "mixed_model",
                             "--format", "table", "--samples", "20", "-W", "ignore"], width=200)
    assert code == 0, err
    assert _column(out, "f_df1") == ["2"] and _column(out, "f_df2") == ["193"], out
    # the other floats keep their digits
    assert _column(out, "f_statistic") == ["4.4720"]


def test_agree_nuggets_confusion_names_the_support_labels():
    human, auto = TESTDATA / "nuggets" / "human.tsv", TESTDATA / "nuggets" / "auto.jsonl"
    code, out, err = invoke(["agree", "--nuggets", human, auto, "--table", "confusion",
                             "--format", "table", "-W", "ignore"], width=120)
    assert code == 0, err
    for name in ("b=not_support", "b=partial_support", "b=support"):
        assert name in out
    assert "b=0" not in out and "b=2" not in out
