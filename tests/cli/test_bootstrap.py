"""`ipsoeval bootstrap` end to end on the MS MARCO-style testdata (click's
CliRunner): output tables, reproducibility, options and errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from tests.conftest import ROOT, TESTDATA, invoke

MS = TESTDATA / "msmarco"
QRELS = str(MS / "qrels.txt")
RUNS = sorted(str(p) for p in MS.glob("*.run.xz"))
FILES = [QRELS, *RUNS]


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def run_ok(*args, isatty=False):
    code, out, err = invoke(["bootstrap", *args], isatty=isatty)
    assert code == 0, (code, out, err)
    return out


@pytest.fixture(scope="module")
def summary_tsv():
    code, out, err = invoke(["bootstrap", "-m", "RR@10", "--samples", "300", *FILES])
    assert code == 0, err
    return out


def test_summary_columns_and_rows(summary_tsv):
    rows = tsv(summary_tsv)
    assert list(rows[0]) == ["run", "measure", "mean", "leaderboard_rank", "expected_rank",
                             "rank_ci_low", "rank_ci_high", "p_top", "ci_low", "ci_high"]
    assert len(rows) == len(RUNS)
    assert [int(r["leaderboard_rank"]) for r in rows] == sorted(
        int(r["leaderboard_rank"]) for r in rows)
    # ties in a trial share rank 1, so the shares at rank 1 add up to 1 or more
    assert 1.0 <= sum(float(r["p_top"]) for r in rows) < 1.05
    for r in rows:
        assert float(r["ci_low"]) <= float(r["mean"]) <= float(r["ci_high"])
        assert 1 <= int(r["rank_ci_low"]) <= int(r["rank_ci_high"]) <= len(RUNS)
        assert 1 <= float(r["expected_rank"]) <= len(RUNS)


def test_means_are_the_eval_means(summary_tsv):
    code, out, _ = invoke(["eval", "-m", "RR@10", "--queries", "qrels", "--format", "tsv",
                           *FILES])
    assert code == 0
    ev = {(r["run"]): float(r["value"]) for r in tsv(out)
          if r.get("qid", "all") == "all" and r["measure"] == "RR@10"}
    for r in tsv(summary_tsv):
        assert float(r["mean"]) == pytest.approx(ev[r["run"]], abs=1e-12)


def test_same_seed_same_output_other_seed_differs(summary_tsv):
    again = run_ok("-m", "RR@10", "--samples", "300", *FILES)
    other = run_ok("-m", "RR@10", "--samples", "300", "--seed", "7", *FILES)
    assert again == summary_tsv
    assert other != summary_tsv


def test_ranks_long_rows_sum_to_one():
    rows = tsv(run_ok("-m", "RR@10", "-m", "nDCG@10", "--samples", "200", "--ranks",
                      "--top", "0", *FILES))
    assert list(rows[0]) == ["run", "measure", "rank", "probability"]
    R = len(RUNS)
    assert len(rows) == 2 * R * R
    for m in ("RR@10", "nDCG@10"):
        for run in {r["run"] for r in rows}:
            p = [float(r["probability"]) for r in rows if r["run"] == run and r["measure"] == m]
            assert sum(p) == pytest.approx(1.0)
    top3 = tsv(run_ok("-m", "RR@10", "--samples", "200", "--ranks", "--top", "3", *FILES))
    assert len(top3) == 3 * R and {r["rank"] for r in top3} == {"1", "2", "3"}


def test_split_half_rows_json():
    out = run_ok("-m", "RR@10", "--split-half", "4", "--test", "sign,t", "--aggregate",
                 "mean,median", "--samples", "20", "--format", "json", *FILES)
    doc = json.loads(out)
    assert doc["command"] == "bootstrap" and doc["params"]["split_half"] == 4
    res = doc["results"]
    assert [(r["test"], r["aggregate"]) for r in res] == [
        ("sign", "mean"), ("t", "mean"), ("sign", "median"), ("t", "median")]
    for r in res:
        assert set(r) == {"measure", "test", "aggregate", "agree", "partial", "disagree",
                          "pct_significant", "permissible"}
        assert r["agree"] + r["partial"] + r["disagree"] == pytest.approx(100.0)
    n = len(RUNS)
    assert doc["params"]["pairs"] == n * (n - 1) // 2


def test_split_half_default_tests():
    # the default by scale (RR@10 is ordinal: the sign test), as every command's
    rows = tsv(run_ok("-m", "RR@10", "--split-half", "3", "--samples", "10", *FILES[:4]))
    assert [r["test"] for r in rows] == ["sign"]
    rows = tsv(run_ok("-m", "RR@10", "--split-half", "3", "--samples", "10", "--test",
                      "sign,ranksum,wilcoxon,t", *FILES[:4]))
    assert [r["test"] for r in rows] == ["sign", "ranksum", "wilcoxon", "t"]
    assert {r["aggregate"] for r in rows} == {"mean"}


def test_baseline_and_bca(tmp_path):
    rows = tsv(run_ok("-m", "RR@10", "--samples", "300", "--baseline", "baseline",
                      "--ci-method", "bca", *FILES))
    assert list(rows[0])[-4:] == ["baseline", "diff", "diff_ci_low", "diff_ci_high"]
    base = [r for r in rows if r["run"] == "baseline"][0]
    assert base["diff"] == "" and base["diff_ci_low"] == ""
    for r in rows:
        if r["run"] != "baseline":
            assert float(r["diff_ci_low"]) <= float(r["diff"]) <= float(r["diff_ci_high"])
            assert float(r["diff"]) == pytest.approx(
                float(r["mean"]) - float(base["mean"]), abs=1e-12)


def test_queries_files_side_by_side(tmp_path):
    qids = []
    for line in open(QRELS):
        q = line.split()[0]
        if q not in qids:
            qids.append(q)
    pub = tmp_path / "public.txt"
    pub.write_text("\n".join(qids[: len(qids) // 2]) + "\n")
    priv = tmp_path / "queries.tsv"
    priv.write_text("".join(f"{q}\tsome text\n" for q in qids[len(qids) // 2:]) + "extra\tx\n")
    code, out, err = invoke(["bootstrap", "-m", "RR@10", "--samples", "100", "--queries-file",
                             str(pub), "--queries-file", f"private={priv}", *FILES])
    assert code == 0, err
    assert "1 of" in err and "warning" in err
    rows = tsv(out)
    for c in ("mean_public", "leaderboard_rank_public", "expected_rank_public",
              "mean_private", "expected_rank_private"):
        assert c in rows[0]
    # the mean over both halves is the size-weighted mean of the halves
    r = rows[0]
    n1, n2 = len(qids) // 2, len(qids) - len(qids) // 2
    assert float(r["mean"]) == pytest.approx(
        (n1 * float(r["mean_public"]) + n2 * float(r["mean_private"])) / (n1 + n2))


def test_table_shows_the_heatmap():
    out = run_ok("-m", "RR@10", "--samples", "100", *FILES, isatty=True)
    assert "Rank under bootstrapping" in out and "Leaderboard under" in out
    out = run_ok("-m", "RR@10", "--samples", "10", "--split-half", "3", *FILES[:4],
                 isatty=True)
    assert "part. agree" in out and "perc. signif" in out


@pytest.mark.parametrize("args", [
    ["--samples", "0"],
    ["--baseline", "nope"],
    ["--test", "sign"],
    ["--split-half", "3", "--test", "anova"],
    ["--split-half", "3", "--ranks"],
    ["--split-half", "0"],
    ["--ci", "1.5"],
    ["--ci-method", "basic"],
])
def test_usage_errors(args):
    code, out, err = invoke(["bootstrap", "-m", "RR@10", *args, *FILES])
    assert code == 2, (out, err)
    assert out == ""


def test_measure_required_and_unknown_measure():
    code, _, err = invoke(["bootstrap", *FILES])
    assert code == 2 and "-m" in err
    code, _, err = invoke(["bootstrap", "-m", "NDGC@10", *FILES])
    assert code == 2
    code, _, err = invoke(["bootstrap", "-m", "num_ret", *FILES])
    assert code == 2 and "mean" in err


def test_missing_queries_file_is_an_input_error(tmp_path):
    code, _, err = invoke(["bootstrap", "-m", "RR@10", "--queries-file",
                           str(tmp_path / "absent.txt"), *FILES])
    assert code == 3 and "absent.txt" in err


def test_esl_ranks_smaller_first():
    rows = tsv(run_ok("-m", "ESL@10", "--samples", "50", *FILES))
    means = [float(r["mean"]) for r in rows]
    assert means == sorted(means)
    assert np.isfinite(means).all()


def test_same_bytes_whatever_the_blas_thread_count(tmp_path):
    # Determinism: the same seed gives the same bytes with one or two BLAS
    # threads (the trial sums run on one BLAS thread, in products of one shape)
    import os
    import subprocess
    import sys
    td = os.path.join(ROOT, "testdata", "msmarco")
    runs = sorted(os.path.join(td, f) for f in os.listdir(td) if f.endswith(".run.xz"))
    outs = []
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads, IPSOEVAL_THREADS=threads)
        p = subprocess.run([sys.executable, "-m", "ipsoeval", "bootstrap", "--format", "tsv",
                            "-m", "RR@10", "--samples", "300", "--seed", "3",
                            os.path.join(td, "qrels.txt"), *runs],
                           capture_output=True, env=env)
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]
