"""`ipsoeval compare` end to end: on generated runs whose answer is known, the
marks equal `ipsoeval sigtest`'s decisions (same test and correction, one
measure: the family), the groups `ipsoeval leaderboard`'s letters; formats,
--scores, the API, warnings, errors, a closed pipe."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ROOT, TESTDATA, invoke

QUALITY = {"base": 0.5, "same": 0.5, "good": 0.9, "bad": 0.2, "fine": 0.6}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """qrels and five runs over 40 topics: each run ranks the relevant
    documents by its quality (good >> base = same >> bad), with noise."""
    d = tmp_path_factory.mktemp("compare")
    rng = np.random.default_rng(12)
    q = []
    runs = {name: [] for name in QUALITY}
    for t in range(1, 41):
        labels = {f"d{t}_{k}": int(rng.integers(0, 3)) if k < 12 else 0 for k in range(30)}
        q += [f"{t} 0 {doc} {lab}" for doc, lab in labels.items()]
        for name, qual in QUALITY.items():
            sc = {doc: qual * lab + rng.normal(0, 0.6) for doc, lab in labels.items()}
            ranked = sorted(sc, key=lambda x: -sc[x])
            runs[name] += [f"{t} Q0 {doc} {i + 1} {30 - i} {name}" for i, doc in enumerate(ranked)]
    (d / "qrels").write_text("\n".join(q) + "\n")
    paths = []
    for name, lines in runs.items():
        p = d / f"{name}.run"
        p.write_text("\n".join(lines) + "\n")
        paths.append(str(p))
    return str(d / "qrels"), paths


def ok(*args, **kw):
    code, out, err = invoke(["compare", *args], **kw)
    assert code == 0, (code, out, err)
    return out, err


def as_json(cmd, *args):
    code, out, err = invoke([cmd, *args, "--format", "json"])
    assert code == 0, (code, out, err)
    return json.loads(out)


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


@pytest.mark.parametrize("opts", [
    ["--test", "t"],
    ["--test", "t", "--correct", "holm"],
    ["--test", "randomization", "--samples", "3000", "--seed", "9", "--correct", "holm"],
    ["--test", "randomization", "--samples", "3000", "--seed", "9"],
    ["--correct", "bonferroni"],                     # the default test by scale
    ["--test", "sign", "--correct", "bh"],
])
@pytest.mark.parametrize("pairs", [["--all-pairs"], ["--baseline", "same"]])
@pytest.mark.parametrize("measure", ["nDCG@10", "P@10"])
def test_marks_equal_sigtest_decisions(study, opts, pairs, measure):
    qrels, runs = study
    marks = ["--marks", "pairs"] if pairs == ["--all-pairs"] else pairs
    doc = as_json("compare", "-m", measure, *marks, *opts, qrels, *runs)
    ref = as_json("sigtest", "-m", measure, *pairs, *opts, qrels, *runs)
    decided = {(r["run_a"], r["run_b"]): r for r in ref["tables"]["tests"]["records"]}
    rows = {r["run"]: r for r in doc["tables"]["comparison"]["records"]}     # one measure
    tests = {(r["run_a"], r["run_b"]): r for r in doc["tables"]["tests"]["records"]}
    assert set(tests) == set(decided)
    seen = 0
    for (a, b), rec in decided.items():
        assert tests[(a, b)]["p_adjusted"] == rec["p_adjusted"]
        assert tests[(a, b)]["test"] == rec["test"]
        win, lose = (b, a) if rec["diff"] > 0 else (a, b)
        better = rows[win]["better_than"].split(",")
        assert (lose in better) == rec["significant"], (a, b, rec)
        assert win not in rows[lose]["better_than"].split(",")
        seen += rec["significant"]
    assert seen                                     # the generated runs do differ
    letters = {r: rows[r]["letter"] for r in rows}
    for r, row in rows.items():
        names = [x for x in row["better_than"].split(",") if x]
        assert row["marks"] == "".join(letters[x] for x in names)
    # the known answer
    assert "bad" in rows["good"]["better_than"].split(",") or pairs != ["--all-pairs"]


def test_letters_equal_leaderboards_groups(study):
    qrels, runs = study
    doc = as_json("compare", "-m", "nDCG@10", "-m", "AP", "--marks", "groups", "--seed", "3",
                  qrels, *runs)
    board = as_json("leaderboard", "-m", "nDCG@10", "-m", "AP", "--seed", "3", qrels, *runs)
    want = {(r["run"], r["measure"]): r["letters"]
            for r in board["tables"]["leaderboard"]["records"]}
    got = {(r["run"], r["measure"]): r["group"] for r in doc["tables"]["comparison"]["records"]}
    assert got == want
    assert len({want[(r, "nDCG@10")] for r in QUALITY}) > 1


def test_table_bold_digits_and_width(study):
    qrels, runs = study
    ms = [x for m in ("P@5", "P@10", "P@20", "nDCG@5", "nDCG@10", "nDCG@20", "AP", "RR")
          for x in ("-m", m)]
    out, _ = ok(*ms, "--format", "table", "--ci", qrels, *runs)
    assert max(len(ln) for ln in out.splitlines()) <= 80
    assert sum(ln.startswith("run ") for ln in out.splitlines()) >= 2
    good = [ln for ln in out.splitlines() if ln.startswith("good")]
    assert all("*" in ln for ln in good)                    # best everywhere, marked
    out3, _ = ok("-m", "nDCG@10", "--format", "markdown", "--digits", "3", qrels, *runs)
    assert "| good (c) | **0." in out3
    cell = [ln for ln in out3.splitlines() if ln.startswith("| good")][0].split("|")[2]
    assert len(cell.split("**")[1]) == 5                    # 0.xxx


def test_tsv_default_output_in_a_pipe(study):
    qrels, runs = study
    out, _ = ok("-m", "nDCG@10", "-m", "AP", qrels, *runs)
    lines = out.splitlines()
    assert lines[0].startswith("run\tletter\tmeasure\tmean\t")
    assert len(lines) == 1 + 2 * len(runs)
    assert [(r["run"], r["measure"]) for r in tsv(out)] == \
        [(r, m) for r in QUALITY for m in ("nDCG@10", "AP")]     # input order, row by row


def test_latex_escapes_and_names(study, tmp_path):
    qrels, runs = study
    names = [x for n in ("bm25_x", "a&b", "50%", "c#1", "ok") for x in ("--name", n)]
    out, _ = ok("-m", "P@10", *names, "--format", "latex", qrels, *runs)
    for esc in (r"bm25\_x (a)", r"a\&b (b)", r"50\% (c)", r"c\#1 (d)"):
        assert esc in out
    assert r"\textbf{" in out and "$^{\\mathrm{" in out


def test_html_is_a_page_with_the_table(study):
    qrels, runs = study
    out, _ = ok("-m", "P@10", "--format", "html", qrels, *runs)
    assert out.startswith("<!DOCTYPE html>") and 'id="t-compare-comparison"' in out
    assert "<strong>" in out and "<sup>" in out and "http" not in out.lower()


def test_same_seed_same_bytes(study):
    qrels, runs = study
    args = ["-m", "nDCG@10", "--test", "randomization", "--samples", "500", "--seed", "4",
            "--format", "json", qrels, *runs]
    assert ok(*args)[0] == ok(*args)[0]


def test_scores_input(study, tmp_path):
    qrels, runs = study
    out, _ = invoke(["eval", "-q", "-c", "-m", "P@10", "-m", "AP", "--format", "tsv", qrels,
                     *runs])[1:]
    path = tmp_path / "scores.tsv"
    path.write_text(out)
    a = as_json("compare", "--scores", "--test", "t", str(path))
    b = as_json("compare", "-m", "P@10", "-m", "AP", "--test", "t", qrels, *runs)
    strip = lambda d: [{k: v for k, v in r.items()} for r in d["tables"]["comparison"]["records"]]  # noqa: E731
    assert strip(a) == strip(b)


def test_warning_fatal_under_W_error(tmp_path):
    adhoc = TESTDATA / "adhoc"
    code, out, err = invoke(["compare", "-W", "error", "-m", "AP", str(adhoc / "qrels.txt"),
                             str(adhoc / "run-bm25.txt"), str(adhoc / "run-neural.txt")])
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and "fatal under --warnings error" in err


@pytest.mark.parametrize("args,code,text", [
    (["--marks", "groups", "--test", "t"], 2, "--test does not apply to --marks groups"),
    (["--marks", "pairs", "--baseline", "base"], 2, "conflicts with --marks pairs"),
    (["--test", "nope"], 2, "unknown test"),
    (["--baseline", "nobody"], 2, "nobody"),
])
def test_bad_options_one_line(study, args, code, text):
    qrels, runs = study
    c, out, err = invoke(["compare", "-m", "P@10", *args, qrels, *runs])
    assert c == code and out == "" and text in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_run_is_an_input_error(study):
    qrels, runs = study
    c, out, err = invoke(["compare", "-m", "P@10", qrels, runs[0], "/nonexistent/run"])
    assert c == 3 and out == "" and err.startswith("ipsoeval: error: ") and err.count("\n") == 1


def test_table_list_reads_nothing():
    c, out, err = invoke(["compare", "--table", "list", "-m", "P@10", "/nonexistent/q",
                          "/nonexistent/r"])
    assert c == 0 and out.splitlines()[0].startswith("comparison\t") and "(primary)" in out


def test_closed_pipe_is_quiet_and_zero(study):
    qrels, runs = study
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = (f"{sys.executable} -m ipsoeval compare -m P@10 -m AP {qrels} {' '.join(runs)} "
           f"| head -1; echo ${{PIPESTATUS[0]}}")
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("run\t") and lines[-1] == "0"
    assert "Traceback" not in p.stderr and "Broken" not in p.stderr


def test_api_contract(study):
    import ipsoeval
    qrels, runs = study
    named = dict(zip(QUALITY, runs))
    res = ipsoeval.compare(qrels, named, ["nDCG@10", "P@10"], test="t", correct="holm")
    assert res.runs == list(QUALITY) and res.measures == ["nDCG@10", "P@10"]
    assert res.letters == {"base": "a", "same": "b", "good": "c", "bad": "d", "fine": "e"}
    doc = as_json("compare", "-m", "nDCG@10", "-m", "P@10", "--test", "t", "--correct", "holm",
                  qrels, *runs)
    rows = {(r["run"], r["measure"]): r for r in doc["tables"]["comparison"]["records"]}
    for run in QUALITY:
        for m in res.measures:
            assert res.mean(run, m) == rows[(run, m)]["mean"]
            assert res.better_than(run, m) == [x for x in rows[(run, m)]["better_than"]
                                               .split(",") if x]
    for rec in doc["tables"]["tests"]["records"]:
        p = res.p_value(rec["run_a"], rec["run_b"], rec["measure"])
        assert p == rec["p_adjusted"] == res.p_value(rec["run_b"], rec["run_a"], rec["measure"])
    assert "c" in res.to_markdown() and r"\toprule" in res.to_latex(digits=2)
    assert res.to_html().startswith("<!DOCTYPE html>")
    pytest.importorskip("pandas")
    frame = res.to_frame()
    assert list(frame.index) == list(QUALITY) and list(frame.columns) == res.measures
    assert frame.loc["good", "P@10"] == res.mean("good", "P@10")
    # an EvalResult, and paths in a list
    ev = ipsoeval.evaluate(qrels, runs, ["nDCG@10"])
    assert ipsoeval.compare(ev, marks="groups", samples=500).group("good", "nDCG@10")
    base = ipsoeval.compare(qrels, runs, ["nDCG@10"], baseline="same")
    assert base.marks == "baseline" and "same" in base.better_than("good", "nDCG@10")
    with pytest.raises(KeyError):
        base.p_value("good", "bad", "nDCG@10")          # not a baseline pair
