"""`ipsoeval leaderboard` end to end (click's CliRunner): numbers against
outside references, --scores, the API, formats, determinism, errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from tests.conftest import ROOT, TESTDATA, environment, invoke

MS = TESTDATA / "msmarco"
QRELS = str(MS / "qrels.txt")
RUNS = sorted(str(p) for p in MS.glob("*.run.xz"))[:4]
FILES = [QRELS, *RUNS]


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def ok(*args, **kw):
    code, out, err = invoke(["leaderboard", *args], **kw)
    assert code == 0, (code, out, err)
    return out, err


# a small score file: 3 runs x 6 topics, the scores chosen by hand
SCORES = {"a": [0.9, 0.8, 0.7, 0.9, 0.6, 0.8],
          "b": [0.5, 0.6, 0.4, 0.7, 0.5, 0.3],
          "c": [0.4, 0.5, 0.5, 0.6, 0.2, 0.4]}


@pytest.fixture
def score_file(tmp_path):
    lines = ["run,qid,measure,value"]
    for run, vals in SCORES.items():
        lines += [f"{run},q{t},P@10,{v}" for t, v in enumerate(vals)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_scores_against_outside_references(score_file):
    from scipy import stats as ss

    from tests.unit.analyses.leaderboard.test_report import slow_ranges
    out, err = ok("--scores", "--samples", "2000", "--seed", "5", "--format", "json", score_file)
    doc = json.loads(out)
    assert list(doc["tables"]) == ["leaderboard", "pairs", "resolution"]
    board = doc["tables"]["leaderboard"]["records"]
    assert [r["run"] for r in board] == ["a", "b", "c"]
    for r in board:
        x = np.array(SCORES[r["run"]])
        ci = ss.ttest_1samp(x, 0).confidence_interval(0.95)
        assert r["mean"] == pytest.approx(x.mean(), rel=1e-12)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-10)
        assert r["n"] == 6
    # the p-values: the scalar reference of the random stream, counted by hand
    X = np.array([SCORES[r] for r in "abc"])
    null = slow_ranges(X, 2000, 5)
    m = X.mean(axis=1)
    tol = 1e-10 * np.abs(X).max()
    for p in doc["tables"]["pairs"]["records"]:
        i, j = "abc".index(p["run_a"]), "abc".index(p["run_b"])
        want = ((null >= abs(m[i] - m[j]) - tol).sum() + 1) / 2001
        assert p["p_value"] == want
        assert p["significant"] == (want < 0.05)
    sig = {(p["run_a"], p["run_b"]): p["significant"] for p in doc["tables"]["pairs"]["records"]}
    assert sig == {("a", "b"): True, ("a", "c"): True, ("b", "c"): False}
    assert [(r["letters"], r["top_group"], r["rank_best"], r["rank_worst"]) for r in board] == \
        [("a", True, 1, 1), ("b", False, 2, 3), ("b", False, 2, 3)]
    res = doc["tables"]["resolution"]["records"][0]
    assert (res["n_pairs"], res["n_separated"], res["resolution"], res["best"]) == \
        (3, 2, 2 / 3, "a")
    assert "scores" in doc["tables"]["leaderboard"]["params"]


def test_scores_give_the_runs_result(tmp_path):
    out, _ = ok("-m", "RR@10", "--samples", "300", *FILES)
    code, scores, err = invoke(["eval", "-q", "-c", "-m", "RR@10", "--format", "tsv", *FILES])
    assert code == 0, err
    f = tmp_path / "q.tsv"
    f.write_text(scores)
    via, _ = ok("--scores", "-m", "RR@10", "--samples", "300", str(f))
    assert via == out


def test_api_equals_cli():
    import ipsoeval
    from ipsoeval.formatters import render
    res = ipsoeval.evaluate(QRELS, RUNS, ["RR@10"])
    rep = ipsoeval.leaderboard(res, samples=400, seed=9)
    assert rep.command == "leaderboard" and rep.ids == ["leaderboard", "pairs", "resolution"]
    for table in (None, "pairs", "resolution"):
        out, _ = ok("-m", "RR@10", "--samples", "400", "--seed", "9", "--format", "tsv",
                    *(["--table", table] if table else []), *FILES)
        assert render(rep, "tsv", table=table) == out


def test_same_bytes_whatever_threads_and_core(monkeypatch):
    args = ["-m", "RR@10", "--samples", "500", "--table", "pairs", *FILES]
    monkeypatch.setenv("IPSOEVAL_THREADS", "1")
    one, _ = ok(*args)
    monkeypatch.setenv("IPSOEVAL_THREADS", "3")
    assert ok(*args)[0] == one
    monkeypatch.setenv("IPSOEVAL_CORE", "python")
    assert ok(*args)[0] == one
    other, _ = ok("--seed", "7", *args)
    assert other != one


@pytest.mark.parametrize("fmt", ["table", "latex", "markdown", "jsonl"])
def test_formats(fmt):
    out, _ = ok("-m", "RR@10", "--samples", "100", "--format", fmt, *FILES)
    assert "better-both" in out


def test_progress_bar_and_estimate(monkeypatch):
    from ipsoeval.pipeline import leaderboard as pipeline
    bar = io.StringIO()
    env = environment(stderr_isatty=True, stderr=bar)
    code, out, err = invoke(["leaderboard", "-m", "RR@10", "--samples", "3000", *FILES], env=env)
    assert code == 0
    assert "\rleaderboard: randomised Tukey HSD samples [" in bar.getvalue()
    monkeypatch.setattr(pipeline, "ANNOUNCE_SECONDS", 0.0)
    code, out2, err2 = invoke(["leaderboard", "-m", "RR@10", "--samples", "300", *FILES])
    assert code == 0
    assert "ipsoeval: note: leaderboard: 300 samples x 4 runs x 2,000 topics: about" in err2


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "lb.svg"
    out, _ = ok("-m", "RR@10", "-m", "P@10", "--samples", "100", "--plot", str(path), *FILES)
    assert path.read_text().startswith("<?xml")


@pytest.mark.parametrize("args, code, words", [
    (["-m", "RR@10", QRELS, RUNS[0]], 2, "at least two"),
    (["-m", "RR@10", "--ci", "1.5", *FILES], 2, "--ci"),
    (["-m", "RR@10", "--samples", "0", *FILES], 2, "--samples"),
    (["-m", "RR@10", "--samples", "20000000", *FILES], 2, "--samples"),
    ([*FILES], 2, "needs a measure"),
    (["-m", "nope", *FILES], 2, "nope"),
    (["-m", "RR@10", QRELS, "missing.run", RUNS[0]], 3, "missing.run"),
    (["-m", "RR@10", "--table", "x", *FILES], 2, "no table"),
])
def test_errors_are_one_line(args, code, words, tmp_path):
    dest = tmp_path / "out.tsv"
    c, out, err = invoke(["leaderboard", "-o", str(dest), *args])
    assert c == code, err
    lines = [ln for ln in err.splitlines() if ln.startswith("ipsoeval: error:")]
    assert len(lines) == 1 and words in lines[0], err
    assert not dest.exists()


def test_esl_lower_is_better_and_incomplete_topics_warn():
    out, err = ok("-m", "ESL@10", "--samples", "200", *FILES)
    rows = tsv(out)
    means = [float(r["mean"]) for r in rows]
    assert means == sorted(means)                  # the best (smallest) first
    assert "left out for every run" in err


def test_ordinal_measure_is_marked(tmp_path):
    out, err = ok("-m", "RR@10", "--samples", "100", "--table", "pairs", *FILES)
    assert {r["permissible"] for r in tsv(out)} == {"false"}
    # what the scale implies is a note, with the output (json), not a warning
    assert "needs an interval scale" not in err
    doc = json.loads(ok("-m", "RR@10", "--samples", "100", "--format", "json", *FILES)[0])
    assert any("needs an interval scale" in n for n in doc["notes"])
    out, err = ok("-m", "P@10", "--samples", "100", "--table", "pairs", *FILES)
    assert {r["permissible"] for r in tsv(out)} == {"true"}


def test_man_page_names_every_column():
    from ipsoeval.analyses import leaderboard as lb
    text = (ROOT / "man" / "ipsoeval-leaderboard.1").read_text().replace("\\-", "-")
    for col in lb.COLUMNS + lb.PAIR_COLUMNS + lb.RESOLUTION_COLUMNS:
        assert col in text, col


def test_ordinal_measures_name_the_permissible_routes():
    # not only "permissible: no" -- the interval-mapped measure and a
    # rank-based test, as commands, in the resolution table and the warning
    code, out, err = invoke(["leaderboard", "-m", "RR@10", "-m", "P@10", "--samples", "200",
                             "--table", "resolution", "--format", "tsv", *FILES[:4]])
    assert code == 0, err
    rows = {r["measure"]: r for r in tsv(out)}
    route = rows["RR@10"]["permissible_route"]
    assert "ipsoeval sigtest --all-pairs --scale interval -m 'RR@10'" in route
    assert "ipsoeval sigtest --all-pairs --test friedman -m 'RR@10'" in route
    assert rows["P@10"]["permissible_route"] == ""
    code, out, err = invoke(["leaderboard", "-m", "RR@10", "-m", "P@10", "--samples", "200",
                             "--format", "json", *FILES[:4]])
    notes = [n for n in json.loads(out)["notes"] if "its scale is" in n]
    assert len(notes) == 1 and notes[0].startswith("RR@10: ")      # only the ordinal one
    assert "permissible: the interval-mapped RR@10 or Friedman" in notes[0]
    assert "ipsoeval sigtest" not in notes[0]        # words: the note goes into papers
