"""`ipsoeval meta` on the command line and through the API: its tables, JSON,
--scores input, plots, usage errors, the estimate it announces and its
progress bar.  The statistics are checked in tests/unit/analyses/meta/test_report.py."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from scipy import stats

from ipsoeval.analyses import meta
from tests.conftest import TESTDATA, invoke
from tests.unit.analyses.meta.test_report import _matrices

MS = TESTDATA / "msmarco"
FILES = [str(MS / "qrels.txt"), *sorted(str(p) for p in MS.glob("*.run.xz"))]


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


@pytest.fixture(scope="module")
def ms_out():
    code, out, err = invoke(["meta", "-m", "RR@10", "-m", "nDCG@10", "--samples", "500",
                             "--splits", "50", "--test", "t,randomization", *FILES])
    assert code == 0, err
    return out


def test_cli_summary_header_and_rows(ms_out):
    lines = ms_out.splitlines()
    assert lines[0] == ("measure\ttest\tpairs\tsignificant\tdiscriminative_power\trank\t"
                        "swap_rate\tmin_difference\tpermissible")
    rows = tsv(ms_out)
    assert [(r["measure"], r["test"]) for r in rows] == [
        ("RR@10", "t"), ("RR@10", "randomization"), ("nDCG@10", "t"),
        ("nDCG@10", "randomization")]
    assert all(r["pairs"] == "21" for r in rows)


def test_cli_is_deterministic(ms_out):
    code, out, _ = invoke(["meta", "-m", "RR@10", "-m", "nDCG@10", "--samples", "500",
                           "--splits", "50", "--test", "t,randomization", *FILES])
    assert out == ms_out


def test_cli_tables_and_json():
    base = ["meta", "-m", "RR@10", "-m", "nDCG@10", "--samples", "200", "--splits", "10",
            "--test", "t", *FILES]
    code, out, _ = invoke([*base, "--table", "list"])
    assert code == 0
    for tid in ("summary", "asl", "swap", "correlation"):
        assert tid in out
    code, out, _ = invoke([*base, "--table", "asl"])
    rows = tsv(out)
    assert list(rows[0]) == ["measure", "test", "rank", "run_a", "run_b", "diff", "p_value",
                             "p_adjusted", "significant"]
    assert len(rows) == 42
    code, out, _ = invoke([*base, "--format", "json"])
    doc = json.loads(out)
    assert set(doc["tables"]) == {"summary", "asl", "swap", "correlation"}
    for fmt in ("markdown", "latex", "table"):
        code, out, err = invoke([*base, "--format", fmt])
        assert code == 0 and out, (fmt, err)


def test_cli_scores_input(tmp_path):
    mats = _matrices(seed=1)
    lines = ["run\tqid\tmeasure\tvalue"]
    for m, X in mats.items():
        for i in range(X.shape[0]):
            for j in range(X.shape[1]):
                lines.append(f"r{i}\tq{j}\t{m}\t{float(X[i, j])!r}")
    f = tmp_path / "s.tsv"
    f.write_text("\n".join(lines) + "\n")
    code, out, err = invoke(["meta", "--scores", str(f), "--test", "t", "--splits", "10"])
    assert code == 0, err
    rows = tsv(out)
    for r in rows:
        X = mats[r["measure"]]
        ps = [stats.ttest_rel(X[j], X[i]).pvalue
              for i, j in itertools.combinations(range(5), 2)]
        assert int(r["significant"]) == sum(p < 0.05 for p in ps)


@pytest.mark.parametrize("args, words", [
    (["--test", "nope"], "unknown test"),
    (["--test", "anova"], "not available in meta"),
    (["--bin-width", "0"], "--bin-width must be a positive number"),
    (["--swap-limit", "2"], "--swap-limit must be between 0 and 1"),
])
def test_cli_usage_errors(args, words):
    code, out, err = invoke(["meta", "-m", "AP", *args, *FILES])
    assert code == 2 and words in err and out == ""


def test_cli_two_runs_is_a_usage_error():
    code, _, err = invoke(["meta", "-m", "AP", *FILES[:3]])
    assert code == 2 and "at least three runs" in err


def test_api(tmp_path):
    import ipsoeval
    res = ipsoeval.evaluate(FILES[0], FILES[1:], ["RR@10", "nDCG@10"])
    rep = ipsoeval.meta(res, tests="t", splits=10, samples=100)
    assert rep.ids == ["summary", "asl", "swap", "correlation"]
    code, out, _ = invoke(["meta", "-m", "RR@10", "-m", "nDCG@10", "--test", "t",
                           "--splits", "10", "--samples", "100", *FILES])
    assert [int(r["significant"]) for r in tsv(out)] == \
        [r["significant"] for r in rep.table("summary").records]


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    p = tmp_path / "asl.svg"
    code, _, err = invoke(["meta", "-m", "RR@10", "-m", "nDCG@10", "--test", "t",
                           "--splits", "5", "--plot", str(p), *FILES])
    assert code == 0, err
    assert p.stat().st_size > 1000


def test_cli_says_the_estimate_first(monkeypatch):
    monkeypatch.setattr(meta.report, "ESTIMATE_AFTER_SECONDS", 0.0)
    code, out, err = invoke(["meta", "-m", "RR@10", "--test", "randomization", "--samples",
                             "2000", "--splits", "5", *FILES])
    assert code == 0
    assert "ipsoeval: note: meta: the resampling tests will take about" in err
    assert "21 pairs x 1 measure(s) x 2,000 resamples" in err


def test_cli_progress_bar_on_a_terminal_is_erased():
    code, out, err = invoke(["meta", "-m", "RR@10", "--test", "t", "--splits", "5", *FILES],
                            stderr_isatty=True)
    assert code == 0
    assert "meta: tests on every pair of runs" in err       # the bar was drawn
    _, plain, plain_err = invoke(["meta", "-m", "RR@10", "--test", "t", "--splits", "5",
                                  *FILES])
    assert out == plain and "meta: tests" not in plain_err  # and only on a terminal


def test_set_size_larger_than_half_is_a_usage_error():
    code, out, err = invoke(["meta", "-m", "RR@10", "--test", "t", "--set-size", "1001",
                             *FILES])
    assert code == 2 and "--set-size 1001 is more than half of the 2000 topics" in err
