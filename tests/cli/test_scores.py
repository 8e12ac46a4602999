"""--scores: per-topic scores from any tool (ipsoeval/scores.py)."""

import json

import numpy as np
import pytest
from scipy import stats

from tests.conftest import ROOT, TESTDATA, invoke

ADHOC = TESTDATA / "adhoc"
Q = str(ADHOC / "qrels.txt")
RUNS = [str(ADHOC / "run-bm25.txt"), str(ADHOC / "run-neural.txt")]
MSM = TESTDATA / "msmarco"
MSM_RUNS = [str(MSM / f"{n}.run.xz") for n in ("baseline", "better-ranking", "fewer-answers")]


def _export(tmp_path, fmt, measures, qrels=Q, runs=RUNS, name="scores"):
    code, out, _ = invoke(["eval", "-q", "--queries", "qrels", "--format", fmt,
                           *[a for m in measures for a in ("-m", m)], qrels, *runs])
    assert code == 0
    p = tmp_path / f"{name}.{fmt}"
    p.write_text(out)
    return str(p)


@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_sigtest_on_exported_scores_equals_runs(tmp_path, fmt):
    ms = ["RR@10", "nDCG@10"]
    path = _export(tmp_path, fmt, ms, qrels=str(MSM / "qrels.txt"), runs=MSM_RUNS)
    common = ["--format", "tsv", "-m", "RR@10", "-m", "nDCG@10", "--test", "t,wilcoxon,sign",
              "--correct", "holm"]
    code, on_runs, _ = invoke(["sigtest", *common, str(MSM / "qrels.txt"), *MSM_RUNS])
    code2, on_scores, err = invoke(["sigtest", *common, "--scores", path])
    assert code == code2 == 0
    assert on_scores == on_runs
    assert "ipsoeval: note:" in err and ("long table" in err or "JSON" in err)


def test_bootstrap_and_gate_on_exported_scores_equal_runs(tmp_path):
    path = _export(tmp_path, "tsv", ["RR@10"], qrels=str(MSM / "qrels.txt"), runs=MSM_RUNS)
    common = ["--format", "tsv", "-m", "RR@10", "--samples", "200", "--seed", "5",
              "--baseline", "baseline"]
    _, on_runs, _ = invoke(["bootstrap", *common, str(MSM / "qrels.txt"), *MSM_RUNS])
    _, on_scores, _ = invoke(["bootstrap", *common, "--scores", path])
    assert on_scores == on_runs
    gate = ["--format", "tsv", "-m", "RR@10", "--test", "sign", "--fail-if", "worse",
            "--baseline", "better-ranking"]
    c1, o1, _ = invoke(["sigtest", *gate, str(MSM / "qrels.txt"), *MSM_RUNS])
    c2, o2, e2 = invoke(["sigtest", *gate, "--scores", path])
    assert c1 == c2 == 1 and o1 == o2 and "gate failed" in e2


def _trec_eval_file(tmp_path, run_index):
    """trec_eval -q layout (measure qid value, 4 decimals) from eval --format trec."""
    code, out, _ = invoke(["eval", "-q", "--queries", "qrels", "--format", "trec", "-m", "P@5",
                           "-m", "P@10", Q, RUNS[run_index]])
    assert code == 0
    name = ("bm25", "neural")[run_index]
    lines = [f"runid                 \tall\t{name}"] + out.splitlines()   # as trec_eval -q
    p = tmp_path / f"te{run_index}.txt"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_trec_eval_and_ir_measures_formats(tmp_path):
    files = [_trec_eval_file(tmp_path, i) for i in (0, 1)]
    args = ["--format", "tsv", "-m", "P@5", "-m", "P@10", "--test", "t,sign"]
    _, ref, _ = invoke(["sigtest", *args, "--queries", "qrels", Q, *RUNS])
    code, got, err = invoke(["sigtest", *args, "--scores", *files])
    assert code == 0 and got == ref                 # P@k is exact at 4 decimals
    assert err.count("trec_eval -q output") == 2
    # ir_measures: qid measure value, run named by the file stem
    irm = []
    for i, f in enumerate(files):
        rows = [ln.split() for ln in open(f) if not ln.startswith("runid")]
        p = tmp_path / ("bm25" if i == 0 else "neural")
        # as ir_measures -q prints: qid measure value, then the summary rows "all ..."
        p.write_text("".join(f"{q}\t{m}\t{v}\n" for m, q, v in rows if q != "all")
                     + "".join(f"all\t{m}\t{v}\n" for m, q, v in rows if q == "all"))
        irm.append(str(p))
    code, got2, err = invoke(["sigtest", *args, "--scores", *irm])
    assert code == 0 and got2 == ref and "ir_measures" in err


def test_long_csv_with_unknown_measure_scale(tmp_path):
    rng = np.random.default_rng(3)
    a, b = rng.random(12), rng.random(12)
    p = tmp_path / "llm.csv"
    p.write_text("run,qid,measure,value\n" + "".join(
        f"{r},q{i},nugget_recall,{float(v)!r}\n" for r, x in (("A", a), ("B", b))
        for i, v in enumerate(x)))
    code, out, err = invoke(["sigtest", "--format", "json", "-m", "nugget_recall",
                             "--test", "t", "--scores", str(p)])
    assert code == 0
    rec = json.loads(out)["results"][0]
    assert rec["permissible"] is None
    assert "scale unknown for nugget_recall" in err
    assert rec["p_value"] == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-12)
    code, out, _ = invoke(["sigtest", "--format", "json", "-m", "nugget_recall", "--test", "t",
                           "--scores-scale", "nugget_recall=interval", "--scores", str(p)])
    assert json.loads(out)["results"][0]["permissible"] is True
    code, out, _ = invoke(["sigtest", "--format", "table", "-m", "nugget_recall",
                           "--test", "t", "--scores", str(p)], width=200)
    assert "scale unknown" in out


def test_topic_policies(tmp_path):
    p = tmp_path / "s.tsv"
    p.write_text("run\tqid\tmeasure\tvalue\n"
                 "A\t1\tAP\t0.5\nA\t2\tAP\t0.25\nA\t3\tAP\t1\n"
                 "B\t1\tAP\t0.75\nB\t2\tAP\t0.5\n")
    base = ["sigtest", "--format", "json", "-m", "AP", "--test", "sign", "--scores", str(p)]
    code, out, err = invoke(base)
    rec = json.loads(out)["results"][0]
    assert code == 0 and rec["n"] == 3 and rec["mean_b"] == pytest.approx(1.25 / 3)
    assert "scored 0" in err
    code, out, err = invoke(base + ["--queries", "intersection"])
    assert json.loads(out)["results"][0]["n"] == 2 and "left out" in err
    code, _, err = invoke(base + ["--queries", "strict"])
    assert code == 3 and "lacks 1 topic" in err


@pytest.mark.parametrize("text, fmt, where, what", [
    ("run\tqid\tmeasure\tvalue\nA\t1\tAP\tx\n", "auto", ":2:", "not a number"),
    ("run\tqid\tmeasure\tvalue\nA\t1\tAP\t1\nA\t1\tAP\t0\n", "auto", ":3:", "given twice"),
    ("AP 1 0.5\nAP 2\n", "trec_eval", ":2:", "expected 3 fields"),
    ("foo 1 0.5\n", "auto", ":1:", "cannot tell"),
    ("{\"a\": 1}", "auto", "", "no records"),
])
def test_errors_name_file_and_line(tmp_path, text, fmt, where, what):
    p = tmp_path / "bad"
    p.write_text(text)
    code, out, err = invoke(["sigtest", "-m", "AP", "--scores", "--scores-format", fmt,
                             str(p), str(p)])
    assert code in (2, 3) and out == ""
    assert err.startswith(f"ipsoeval: error: {p}{where}") and what in err
    assert err.count("\n") == 1


def test_ipso_sign_test_on_scores(tmp_path):
    path = _export(tmp_path, "tsv", ["RR@10", "ESL@10"], qrels=str(MSM / "qrels.txt"),
                   runs=MSM_RUNS)
    code, out, err = invoke(["ipso", "--format", "json", "-m", "RR@10", "-m", "ESL@10",
                             "--scores", path])
    assert code == 0, err
    recs = json.loads(out)["results"]
    from ipsoeval.reading.scores import read_scores
    ts = read_scores([path])
    for rec in recs:
        M = ts.matrices[rec["measure"]]
        a, b = M[ts.runs.index(rec["run_a"])], M[ts.runs.index(rec["run_b"])]
        d = (b - a) if rec["measure"] == "RR@10" else (a - b)     # ESL: lower is better
        d = d[~np.isnan(d)]
        assert (rec["n_b_better"], rec["n_a_better"]) == (int((d > 0).sum()), int((d < 0).sum()))
        n = rec["n_b_better"] + rec["n_a_better"]
        assert rec["p_value"] == pytest.approx(stats.binomtest(rec["n_b_better"], n).pvalue)
    code, _, err = invoke(["ipso", "-k", "5", "--scores", path])
    assert code == 2 and "needs the rankings" in err


def test_python_api_on_scores(tmp_path):
    import ipsoeval
    path = _export(tmp_path, "tsv", ["RR@10"], qrels=str(MSM / "qrels.txt"), runs=MSM_RUNS)
    ts = ipsoeval.read_scores(path)
    res = ipsoeval.evaluate(str(MSM / "qrels.txt"), MSM_RUNS, ["RR@10"])
    np.testing.assert_array_equal(ts.matrix("RR@10"), res.matrix("RR@10"))
    a = ipsoeval.sigtest(ts, tests="t").table().records
    b = ipsoeval.sigtest(res, tests="t").table().records
    assert a == b
    rep = ipsoeval.ipso(ts, measures="RR@10")
    assert rep.ids == ["sign_test"]


@pytest.mark.parametrize("extra", [["--analyze"], ["-q", "--values", "--normalise"]])
def test_interval_map_on_exported_scores_equals_runs(tmp_path, extra):
    path = _export(tmp_path, "tsv", ["P@10", "RR@10"], qrels=str(MSM / "qrels.txt"),
                   runs=MSM_RUNS)
    args = ["interval-map", "--format", "tsv", "-m", "P@10", "-m", "RR@10", *extra]
    code, ref, _ = invoke([*args, str(MSM / "qrels.txt"), *MSM_RUNS])
    code2, got, err = invoke([*args, "--scores", path])
    assert code == code2 == 0 and got == ref, err


@pytest.mark.filterwarnings("ignore::ipsoeval.api.InputWarning")
def test_interval_map_scores_rounded_refused_and_api(tmp_path):
    p = tmp_path / "te.tsv"
    p.write_text("run\tqid\tmeasure\tvalue\nA\t1\trecip_rank\t0.1429\nA\t2\trecip_rank\t1.0000\n"
                 "B\t1\trecip_rank\t0.5000\nB\t2\trecip_rank\t0.0000\n")
    code, out, err = invoke(["interval-map", "--format", "json", "-q", "-m", "recip_rank",
                             "-N", "10", "--scores", str(p)])
    assert code == 0, err
    recs = json.loads(out)["results"]
    assert [r["interval_value"] for r in recs if r["qid"] != "all"] == [5, 11, 10, 1]
    assert recs[0]["value"] == pytest.approx(1 / 7)        # snapped to the exact value
    p.write_text("run\tqid\tmeasure\tvalue\nA\t1\tP@10\t0.15\nB\t1\tP@10\t0.1\n")
    code, _, err = invoke(["interval-map", "-m", "P@10", "--scores", str(p)])
    assert code == 3 and "not a value P@10 can take" in err
    p.write_text("run\tqid\tmeasure\tvalue\nA\t1\tAP\t0.15\nB\t1\tAP\t0.1\n")
    code, _, err = invoke(["interval-map", "-m", "AP", "--scores", str(p)])
    assert code == 2 and "P@k, RR@k and Success@k only" in err
    import ipsoeval
    path = _export(tmp_path, "tsv", ["P@10"])
    rep = ipsoeval.interval_map(ipsoeval.read_scores(path), analyze=True)
    res = ipsoeval.interval_map(ipsoeval.evaluate(Q, RUNS, ["P@10"]), analyze=True)
    assert [t.records for t in rep.tables] == [t.records for t in res.tables]


def test_real_trec_eval_q_output():
    """trec_eval 10.0 -q -c output (tests/data/scores; NIST notice: tests/data/trec_eval/
    NIST-NOTICE.md): P@k is exact at 4 decimals, so the tests equal the runs'."""
    files = [str(ROOT / "tests" / "data" / "scores" / f"{r}.treceval-q.txt")
             for r in ("bm25", "neural")]
    args = ["sigtest", "--format", "tsv", "-m", "P@5", "-m", "P@10", "--test", "t,sign"]
    _, ref, _ = invoke([*args, Q, *RUNS])
    code, got, err = invoke([*args, "--name", "bm25", "--name", "neural", "--scores", *files])
    assert code == 0 and got == ref and err.count("trec_eval -q output") == 2
    code, out, _ = invoke(["sigtest", "--format", "json", "-m", "map", "--test", "t",
                           "--scores", *files])
    rec = json.loads(out)["results"][0]
    assert rec["run_a"] == "bm25.treceval-q" and rec["measure"] == "AP"   # canonical name
    assert rec["permissible"] is False                                    # AP: ordinal


def _map_only(tmp_path, name, values):
    """A trec_eval -q file holding only map."""
    lines = [f"map                   \t{q}\t{v:.4f}" for q, v in values.items()]
    lines.append(f"map                   \tall\t{sum(values.values()) / len(values):.4f}")
    p = tmp_path / f"{name}.q"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_scores_with_one_measure_need_no_m(tmp_path):
    """`sigtest --scores a.q b.q` on files holding only map used to fail
    with "Missing option '-m'"; the one shared measure is used and said."""
    a = _map_only(tmp_path, "a", {"1": 0.5, "2": 0.25, "3": 0.125})
    b = _map_only(tmp_path, "b", {"1": 0.625, "2": 0.25, "3": 0.5})
    code, out, err = invoke(["sigtest", "--test", "t", "--format", "tsv", "--scores", a, b])
    assert code == 0, err
    code2, out2, _ = invoke(["sigtest", "--test", "t", "--format", "tsv", "-m", "map",
                             "--scores", a, b])
    assert code2 == 0 and out == out2
    assert "ipsoeval: note: sigtest --scores: using the scores' only measure, AP" in err
    # interval-map from scores alone maps P@k, RR@k, Success@k (not AP): P@10 here
    p10 = {}
    for name, vals in (("x", (0.1, 0.3)), ("y", (0.2, 0.5))):
        f = tmp_path / f"{name}.q"
        f.write_text("".join(f"P_10                  \t{q}\t{v:.4f}\n"
                             for q, v in zip(("1", "2"), vals)))
        p10[name] = str(f)
    code, out, err = invoke(["interval-map", "--format", "tsv", "--scores", *p10.values()])
    code2, out2, _ = invoke(["interval-map", "--format", "tsv", "-m", "P@10", "--scores",
                             *p10.values()])
    assert code == code2 == 0 and out == out2
    assert "using the scores' only measure, P@10" in err


def test_scores_with_several_measures_ask_for_m_and_list_them(tmp_path):
    a = _trec_eval_file(tmp_path, 0)
    b = _trec_eval_file(tmp_path, 1)
    code, out, err = invoke(["sigtest", "--scores", a, b])
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == ("ipsoeval: error: Missing option '-m' / '--measure': "
                                    "the scores hold 2 measures (P@5, P@10)")
    code, _, err = invoke(["sigtest", Q, *RUNS])       # without --scores -m is required
    assert code == 2 and err.splitlines()[-1] == "ipsoeval: error: Missing option '-m' / '--measure'."
