"""`ipsoeval repro` on the command line and through the API: the tables, the
replicability mode, --scores, the same bytes for the same seed, and bad
input as one line.  The numbers are checked against repro_eval in
tests/differential/test_repro_eval.py."""

from __future__ import annotations

import csv
import io
import json
import warnings

import pytest

from tests.conftest import TESTDATA, invoke

D = TESTDATA / "repro"
RUNS = [str(D / f) for f in ("orig_base.run", "orig_adv.run", "rep_base.run", "rep_adv.run")]
ARGS = [str(D / "qrels.txt"), *RUNS, "--samples", "500"]


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def test_primary_table_and_same_seed_same_bytes():
    code, out, err = invoke(["repro", *ARGS])
    assert code == 0, err
    rows = tsv(out)
    assert [r["measure"] for r in rows] == ["P@10", "nDCG@10", "nDCG", "AP", "RR"]
    assert list(rows[0]) == ["measure", "n", "n_rep", "er", "er_low", "er_high", "dri",
                             "dri_low", "dri_high", "distinguishable"]
    assert all(r["n"] == r["n_rep"] == "15" for r in rows)
    assert invoke(["repro", *ARGS])[1] == out
    assert invoke(["repro", *ARGS, "--seed", "7"])[1] != out


@pytest.mark.parametrize("table", ["tests", "order", "order_topics", "scores", "verdict"])
def test_other_tables(table):
    code, out, err = invoke(["repro", *ARGS, "--table", table])
    assert code == 0, err
    rows = tsv(out)
    assert rows
    if table == "order":
        assert [r["run"] for r in rows] == ["baseline", "advanced"]
        assert all(-1 <= float(r["ktu"]) <= 1 and 0 <= float(r["rbo"]) <= 1 for r in rows)
    if table == "order_topics":
        assert len(rows) == 30
    if table == "tests":
        assert {r["test"] for r in rows} == {"paired t"}
    if table == "verdict":
        assert all("distinguishable" in r["verdict"] for r in rows)


def test_notes_name_the_t_test_and_the_intervals():
    code, out, err = invoke(["repro", *ARGS, "--format", "json", "-m", "AP"])
    assert code == 0, err
    doc = json.loads(out)
    notes = " ".join(doc["notes"])
    assert "ttest_rel" in notes and "outside the scale policy" in notes and "BCa" in notes


def test_replicability():
    code, out, err = invoke(["repro", "--rep-qrels", D / "rep_qrels.txt", D / "qrels.txt",
                             *RUNS[:2], D / "repl_base.run", D / "repl_adv.run",
                             "--samples", "300", "--table", "tests"])
    assert code == 0, err
    rows = tsv(out)
    assert {r["test"] for r in rows} == {"unpaired t"}
    assert all(r["rmse"] == "" for r in rows)
    code, out, err = invoke(["repro", "--rep-qrels", D / "rep_qrels.txt", D / "qrels.txt",
                             *RUNS[:2], D / "repl_base.run", D / "repl_adv.run",
                             "--samples", "300", "--table", "order"])
    assert code == 2 and out == ""


def test_latex_and_markdown_tables():
    for fmt in ("latex", "markdown"):
        code, out, err = invoke(["repro", *ARGS, "-m", "AP", "--format", fmt])
        assert code == 0, err
        assert "AP" in out


def _header(md: str, caption: str) -> list[str]:
    """The header of the markdown table whose caption holds ``caption``."""
    lines = md.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("**") and caption in ln)
    return [c.strip() for c in lines[at + 2].strip("|").split("|")]


def test_paper_views_are_compact():
    """latex and markdown: ER and Delta RI each over its interval, the tests
    without the means, t and df (tsv keeps them), RMSE only when paired, the
    verdict a paragraph in latex."""
    code, md, err = invoke(["repro", *ARGS, "-m", "AP", "--format", "markdown"])
    assert code == 0, err
    assert _header(md, "effect ratio") == ["measure", "ER", "ΔRI", "distinguishable"]
    assert _header(md, "each original run") == ["measure", "run", "difference", "RMSE", "nRMSE", "p"]
    assert _header(md, "Document order") == ["run", "topics", "KTU", "RBO", "uneven"]
    row = tsv(invoke(["repro", *ARGS, "-m", "AP"])[1])[0]
    er, lo, hi = (float(row[c]) for c in ("er", "er_low", "er_high"))
    assert f"| AP | {er:.4f} [{lo:.4f}, {hi:.4f}] |" in md
    code, tex, err = invoke(["repro", *ARGS, "-m", "AP", "--format", "latex"])
    assert "measure & ER & $\\Delta$RI & distinguishable \\\\" in tex
    assert "\\begin{tabular}{lp{0.75\\linewidth}}" in tex
    assert "$^{?}$" not in tex            # a caption's '?' would print as a mark
    code, md, err = invoke(["repro", "--rep-qrels", D / "rep_qrels.txt", D / "qrels.txt",
                            *RUNS[:2], D / "repl_base.run", D / "repl_adv.run",
                            "--samples", "300", "-m", "AP", "--format", "markdown"])
    assert code == 0, err
    assert _header(md, "each original run") == ["measure", "run", "difference", "p"]


def test_mismatched_topics_is_one_line(tmp_path):
    short = tmp_path / "short.run"
    lines = open(RUNS[2]).read().splitlines()
    first = lines[0].split()[0]
    short.write_text("\n".join(x for x in lines if x.split()[0] != first) + "\n")
    code, out, err = invoke(["repro", D / "qrels.txt", RUNS[0], RUNS[1], short, RUNS[3]])
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"ipsoeval: error: {short}")
    assert "14 topics" in err and repr(first) in err


def test_not_four_runs_is_a_usage_error():
    code, out, err = invoke(["repro", D / "qrels.txt", *RUNS[:3]])
    assert code == 2 and out == "" and "four runs" in err
    code, out, err = invoke(["repro", "--replicated", D / "qrels.txt", *RUNS])
    assert code == 2 and "--scores" in err


def _scores(tmp_path, drop=None):
    code, out, err = invoke(["eval", "-q", "-m", "AP", "-m", "P@10", "--format", "tsv",
                             D / "qrels.txt", *RUNS])
    assert code == 0, err
    paths = []
    rows = tsv(out)
    for k, run in enumerate(("sysA", "sysB", "sysArep", "sysBrep")):
        p = tmp_path / f"{run}.tsv"
        keep = [r for r in rows if r["run"] == run and r["qid"] != "all"
                and not (drop and k >= 2 and r["qid"] == drop)]
        p.write_text("run\tqid\tmeasure\tvalue\n" + "".join(
            f"{r['run']}\t{r['qid']}\t{r['measure']}\t{r['value']}\n" for r in keep))
        paths.append(p)
    return paths


def test_scores_give_the_runs_numbers(tmp_path):
    paths = _scores(tmp_path)
    code, out, err = invoke(["repro", "--scores", *paths, "--samples", "500"])
    assert code == 0, err
    assert "KTU and RBO compare rankings" in err
    from_runs = {r["measure"]: r for r in tsv(invoke(["repro", *ARGS, "-m", "AP",
                                                      "-m", "P@10"])[1])}
    for r in tsv(out):
        assert float(r["er"]) == pytest.approx(float(from_runs[r["measure"]]["er"]), abs=1e-12)


def test_scores_with_topics_that_differ(tmp_path):
    rows = open(RUNS[0]).read().split()
    paths = _scores(tmp_path, drop=rows[0])
    code, out, err = invoke(["repro", "--scores", *paths])
    assert code == 3 and out == "" and err.count("\n") == 1 and "topic by topic" in err
    code, out, err = invoke(["repro", "--scores", "--replicated", *paths, "--samples", "200"])
    assert code == 0, err


def test_api_equals_cli():
    import ipsoeval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = ipsoeval.repro(D / "qrels.txt", *RUNS, samples=500, measures="AP")
    code, out, err = invoke(["repro", *ARGS, "-m", "AP"])
    got = rep.table("repro").records[0]
    want = tsv(out)[0]
    assert got["er"] == pytest.approx(float(want["er"]), abs=0)
    assert got["er_low"] == pytest.approx(float(want["er_low"]), abs=0)


def test_a_run_from_standard_input_is_refused():
    code, out, err = invoke(["repro", D / "qrels.txt", "-", *RUNS[1:]],
                            input=open(RUNS[0]).read())
    assert code == 2 and out == "" and "standard input" in err


def test_ties_in_the_rankings_follow_tie_break(tmp_path):
    # every score the same, the reproductions' files in the reverse order: the
    # rankings are the tie-break's alone
    lines = [f"1 Q0 d{i:02d} {i + 1} 1.0 x" for i in range(10)]
    runs = []
    for k in range(4):
        p = tmp_path / f"r{k}.run"
        p.write_text("\n".join(lines if k < 2 else lines[::-1]) + "\n")
        runs.append(p)
    q = tmp_path / "q.txt"
    q.write_text("1 0 d03 1\n1 0 d07 2\n")
    for tb, ktu in (("trec", 1.0), ("docno-asc", 1.0), ("input", -1.0)):
        code, out, err = invoke(["repro", q, *runs, "-m", "AP", "--samples", "50",
                                 "--tie-break", tb, "--table", "order"])
        assert code == 0, err
        assert all(float(r["ktu"]) == ktu for r in tsv(out)), (tb, out)


def test_no_original_effect_warns_and_gives_no_interval():
    code, out, err = invoke(["repro", D / "qrels.txt", RUNS[0], RUNS[0], *RUNS[2:], "-m", "AP",
                             "--samples", "100"])
    assert code == 0, err
    row = tsv(out)[0]
    assert row["er"] == "inf" and row["er_low"] == row["er_high"] == ""
    assert row["distinguishable"] == ""
    assert "mean difference is 0, so ER is undefined" in err
    code, out, err = invoke(["repro", "-W", "error", D / "qrels.txt", RUNS[0], RUNS[0],
                             *RUNS[2:], "-m", "AP", "--samples", "100"])
    assert code == 3 and out == ""


def test_an_original_effect_not_distinguishable_from_0_leaves_er_unbounded():
    code, out, err = invoke(["repro", *ARGS, "-m", "RR", "--format", "json"])
    assert code == 0, err
    doc = json.loads(out)
    row = doc["tables"]["repro"]["records"][0]
    assert row["er_low"] is None and row["er_high"] is None and row["distinguishable"] is False
    assert any("Fieller" in n for n in doc["notes"])
    code, out, err = invoke(["repro", *ARGS, "-m", "RR"])
    r = tsv(out)[0]
    assert (r["er_low"], r["er_high"]) == ("-inf", "inf")
    code, out, err = invoke(["repro", *ARGS, "-m", "RR", "--table", "verdict"])
    assert "original effect itself is not distinguishable from 0" in out
