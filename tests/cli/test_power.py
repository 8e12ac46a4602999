"""`ipsoeval power` on the command line and through the API: exact TSV, the
options and JSON, the curve table, qrels and runs as input, usage errors, the
zero-variance warning and the plot.  The numbers are checked against
statsmodels in tests/unit/stats/test_power.py."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from ipsoeval.stats import power as pw
from tests.conftest import TESTDATA, invoke
from tests.unit.stats.test_power import _ci_half_width_chi, sm_anova_power, sm_t_power

MS = TESTDATA / "msmarco"
FILES = [str(MS / "qrels.txt"), *sorted(str(p) for p in MS.glob("*.run.xz"))]
X3 = np.array([[0.10, 0.30, 0.50, 0.20, 0.40, 0.60],
               [0.20, 0.35, 0.45, 0.30, 0.50, 0.55],
               [0.15, 0.50, 0.60, 0.25, 0.45, 0.70]])


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def _scores_file(tmp_path, X, measure="AP"):
    lines = ["run\tqid\tmeasure\tvalue"]
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            lines.append(f"r{i}\tq{j}\t{measure}\t{float(X[i, j])!r}")
    p = tmp_path / "scores.tsv"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_cli_tsv_exact_header_and_numbers(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--delta", "0.1", "--format", "tsv"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("measure\tdesign\truns\ttopics\tresidual_variance\talpha\tpower_target\t"
                        "delta\tsystems\thalf_width\ttopics_needed\tpower\tmin_detectable\t"
                        "expected_half_width")
    rows = tsv(out)
    assert [r["design"] for r in rows] == ["t", "anova", "ci"]
    var = pw.residual_variance(X3)[0]
    t, a, c = rows
    assert float(t["residual_variance"]) == var
    assert int(t["topics"]) == 6 and int(t["runs"]) == 3
    assert float(t["power"]) == pytest.approx(sm_t_power(6, 0.1, var, 0.05), rel=1e-9)
    assert float(a["power"]) == pytest.approx(sm_anova_power(6, 3, 0.1, var, 0.05), rel=1e-9)
    n = int(t["topics_needed"])
    assert sm_t_power(n, 0.1, var, 0.05) >= 0.8 > sm_t_power(n - 1, 0.1, var, 0.05)
    n = int(a["topics_needed"])
    assert sm_anova_power(n, 3, 0.1, var, 0.05) >= 0.8 > sm_anova_power(n - 1, 3, 0.1, var, 0.05)
    assert a["systems"] == "3" and t["systems"] == "" and c["half_width"] == "0.05"
    assert float(c["expected_half_width"]) == pytest.approx(_ci_half_width_chi(6, var, 0.05),
                                                            rel=1e-9)
    assert c["power"] == "" and c["min_detectable"] == ""


def test_cli_options_and_json(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--delta", "0.05,0.1", "--delta", "0.2",
                             "--design", "anova", "--systems", "10", "--power", "0.9",
                             "--alpha", "0.01", "--format", "json"])
    assert code == 0, err
    doc = json.loads(out)
    recs = doc["tables"]["power"]["records"] if "tables" in doc else None
    assert recs is not None, doc.keys()
    assert [r["delta"] for r in recs] == [0.05, 0.1, 0.2]
    var = pw.residual_variance(X3)[0]
    for r in recs:
        assert r["systems"] == 10
        n = r["topics_needed"]
        assert sm_anova_power(n, 10, r["delta"], var, 0.01) >= 0.9 > \
            sm_anova_power(n - 1, 10, r["delta"], var, 0.01)


def test_cli_curve_table(tmp_path):
    f = _scores_file(tmp_path, X3)
    code, out, err = invoke(["power", "--scores", f, "--table", "curve", "--design", "t"])
    assert code == 0, err
    rows = tsv(out)
    var = pw.residual_variance(X3)[0]
    assert rows and {r["design"] for r in rows} == {"t"}
    for r in rows[::7]:
        assert float(r["power"]) == pytest.approx(
            sm_t_power(int(r["topics"]), 0.05, var, 0.05), rel=1e-9)


def test_cli_runs_on_qrels_and_runs():
    code, out, err = invoke(["power", "-m", "RR@10", "-m", "nDCG@10", *FILES])
    assert code == 0, err
    rows = tsv(out)
    assert [r["measure"] for r in rows] == ["RR@10"] * 3 + ["nDCG@10"] * 3
    assert all(int(r["topics"]) == 2000 for r in rows)


@pytest.mark.parametrize("args, words", [
    (["--delta", "0"], "--delta must be a positive number"),
    (["--delta", "x"], "--delta must be a positive number"),
    (["--power", "1"], "--power must be between 0 and 1"),
    (["--systems", "1"], "--systems must be at least 2"),
    (["--design", "z"], "--design must be among t, anova, ci"),
    (["--half-width", "-1"], "--half-width must be a positive number"),
])
def test_cli_usage_errors(args, words):
    code, out, err = invoke(["power", "-m", "AP", *args, *FILES])
    assert code == 2 and words in err and out == ""
    assert "Traceback" not in err


def test_cli_one_run_is_a_usage_error():
    code, _, err = invoke(["power", "-m", "AP", *FILES[:2]])
    assert code == 2 and "at least two runs" in err


def test_cli_no_measure_is_a_usage_error():
    code, _, err = invoke(["power", *FILES])
    assert code == 2 and "-m MEASURE" in err


def test_zero_variance_warns(tmp_path):
    X = np.array([[0.1, 0.2, 0.3], [0.2, 0.3, 0.4]])
    f = _scores_file(tmp_path, X)
    code, out, err = invoke(["power", "--scores", f])
    assert code == 0
    assert "zero residual variance" in err
    assert all(r["topics_needed"] == "" for r in tsv(out) if r["design"] != "ci")


def test_api_matches_cli(tmp_path):
    import ipsoeval
    f = _scores_file(tmp_path, X3)
    rep = ipsoeval.power(ipsoeval.read_scores(f), delta=0.1)
    code, out, _ = invoke(["power", "--scores", f, "--delta", "0.1"])
    rows = tsv(out)
    for rec, row in zip(rep.table("power").records, rows):
        assert str(rec["topics_needed"]) == row["topics_needed"]
        assert rec["residual_variance"] == float(row["residual_variance"])


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    f = _scores_file(tmp_path, X3)
    png = tmp_path / "p.svg"
    code, _, err = invoke(["power", "--scores", f, "--plot", str(png)])
    assert code == 0, err
    assert png.stat().st_size > 1000
