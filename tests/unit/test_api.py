"""The public Python API (ipsoeval/api/): same numbers as the CLI, dict and
DataFrame inputs read exactly like files."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import ipsoeval
from ipsoeval.errors import InputError, UsageError
from ipsoeval.formatters import render
from tests.conftest import ROOT, TESTDATA, invoke

try:
    import pandas as pd
except ImportError:          # the 'pandas' extra: make test installs it
    pd = None
needs_pandas = pytest.mark.skipif(pd is None, reason="pandas (the 'pandas' extra) is not installed")

ADHOC = TESTDATA / "adhoc"
Q = str(ADHOC / "qrels.txt")
RUNS = [str(ADHOC / "run-bm25.txt"), str(ADHOC / "run-neural.txt")]
FIG5 = TESTDATA / "ipso-fig5"
MSM = TESTDATA / "msmarco"


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ipsoeval.InputWarning)
        yield


def _tsv(rows):
    head, *body = rows.rstrip("\n").split("\n")
    cols = head.split("\t")
    return [dict(zip(cols, r.split("\t"))) for r in body]


# --- evaluate == eval ---------------------------------------------------------------

@pytest.mark.parametrize("opts, kw", [
    ([], {}),
    (["-J"], {"judged_only": True}),
    (["-M", "5"], {"depth": 5}),
    (["-l", "2"], {"rel_level": 2}),
    (["--queries", "intersection"], {"queries": "intersection"}),
    (["--tie-break", "docno-asc", "--gains", "0:0,1:1,2:5"],
     {"tie_break": "docno-asc", "gains": {0: 0, 1: 1, 2: 5}}),
])
def test_evaluate_equals_eval_cli(opts, kw):
    ms = ["AP", "nDCG@10", "P@5", "RR", "num_ret", "ESL@10"]
    code, out, _ = invoke(["eval", "-q", "--format", "tsv", "--queries", "qrels", *opts,
                           *[a for m in ms for a in ("-m", m)], Q, *RUNS])
    assert code == 0
    res = ipsoeval.evaluate(Q, RUNS, ms, **kw)
    cli = _tsv(out)
    means = {(r["run"], r["measure"]): r["value"] for r in cli if r["qid"] == "all"}
    per = {(r["run"], r["qid"], r["measure"]): r["value"] for r in cli if r["qid"] != "all"}
    from ipsoeval.formatters.values import plain
    got_means = {(r, m): plain(v) for r, d in res.mean().items() for m, v in d.items()}
    got_per = {(r, q, m): plain(v) for r, d in res.per_query().items()
               for q, dd in d.items() for m, v in dd.items()}
    assert got_means == means
    assert got_per == per
    if pd is not None:
        frame = res.to_frame()
        assert list(frame.columns) == ["run", "qid", "measure", "value"]
        assert len(frame) == len(per)


def test_matrices_and_names():
    res = ipsoeval.evaluate(Q, {"a": RUNS[0], "b": RUNS[1]}, "AP")
    assert res.runs == ["a", "b"] and res.measures == ["AP"]
    assert res.matrix("AP").shape == (2, len(res.topics))
    assert res.matrix("map").shape == (2, len(res.topics))     # trec_eval spelling
    with pytest.raises(KeyError):
        res.matrix("P@5")


def test_directory_as_runs(tmp_path):
    d = tmp_path / "runs"
    d.mkdir()
    for p in RUNS[::-1]:
        (d / (p.rsplit("/", 1)[1])).write_bytes(open(p, "rb").read())
    (d / ".hidden").write_text("x")
    res = ipsoeval.evaluate(Q, str(d), "AP", name_from_file=True)
    assert res.runs == ["run-bm25", "run-neural"]


# --- dict and DataFrame inputs --------------------------------------------------------

def _random_inputs(rng, long_id=False):
    topics = [f"t{i}" for i in range(6)] + ["ü-topic"]
    docs = [f"d{i:03d}" for i in range(40)] + ["é-doc", "x" * (300 if long_id else 20)]
    qrels, runs = [], {}
    for t in topics:
        for d in rng.choice(docs, 15, replace=False):
            qrels.append((t, d, int(rng.choice([-1, 0, 0, 1, 2]))))
    for name in ("r1", "r2"):
        rows = []
        for t in topics[:-1] if name == "r2" else topics:
            for d in rng.choice(docs, 20, replace=False):
                rows.append((t, d, float(rng.integers(0, 5))))   # many ties
        rng.shuffle(rows)
        runs[name] = rows
    return qrels, runs


def _write(tmp_path, qrels, runs):
    qp = tmp_path / "qrels"
    qp.write_text("".join(f"{t} 0 {d} {lab}\n" for t, d, lab in qrels), encoding="utf-8")
    paths = {}
    for name, rows in runs.items():
        p = tmp_path / name
        p.write_text("".join(f"{t} Q0 {d} {i} {s} {name}\n" for i, (t, d, s) in enumerate(rows)),
                     encoding="utf-8")
        paths[name] = str(p)
    return str(qp), paths


@needs_pandas
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kw", [{}, {"judged_only": True, "depth": 7},
                                {"rel_level": 2, "queries": "intersection"},
                                {"tie_break": "docno-asc"}])
def test_dataframe_and_dict_read_like_files(tmp_path, seed, kw):
    rng = np.random.default_rng(seed)
    qrels, runs = _random_inputs(rng, long_id=seed == 2)
    qp, paths = _write(tmp_path, qrels, runs)
    ms = ["AP", "nDCG@5", "P@3", "RR", "ESL@10", "num_rel_ret", "bpref"]
    ref = ipsoeval.evaluate(qp, paths, ms, **kw)
    qdf = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    rdf = {n: pd.DataFrame(rows, columns=["qid", "docno", "score"]) for n, rows in runs.items()}
    qdict: dict = {}
    for t, d, lab in qrels:
        qdict.setdefault(t, {})[d] = lab
    rdict = {n: {} for n in runs}
    for n, rows in runs.items():
        for t, d, s in rows:
            rdict[n].setdefault(t, {})[d] = s
    one_frame = pd.concat([df.assign(run=n) for n, df in rdf.items()])
    cat = {n: df.astype({"qid": "category", "docno": "category"}) for n, df in rdf.items()}
    for q_in, r_in in [(qdf, rdf), (qdict, rdict), (qdf, rdict), (qdict, one_frame), (qdf, cat)]:
        got = ipsoeval.evaluate(q_in, r_in, ms, **kw)
        assert got.runs == ref.runs and got.topics == ref.topics
        for m in ms:
            np.testing.assert_array_equal(got.matrix(m), ref.matrix(m))
        assert got.mean() == ref.mean()


@needs_pandas
def test_msmarco_rank_frame_and_int_ids(tmp_path):
    qrels = pd.DataFrame({"qid": [1, 1, 2], "docno": [10, 11, 20], "label": [1, 0, 1]})
    run = pd.DataFrame({"qid": [1, 1, 2, 2], "docno": [11, 10, 21, 20], "rank": [1, 2, 1, 2]})
    (tmp_path / "q").write_text("1 0 10 1\n1 0 11 0\n2 0 20 1\n")
    (tmp_path / "r").write_text("1\t11\t1\n1\t10\t2\n2\t21\t1\n2\t20\t2\n")
    a = ipsoeval.evaluate(qrels, {"r": run}, ["RR", "AP"])
    b = ipsoeval.evaluate(str(tmp_path / "q"), {"r": str(tmp_path / "r")}, ["RR", "AP"])
    assert a.mean() == b.mean() == {"r": {"RR": 0.5, "AP": 0.5}}


@needs_pandas
def test_input_errors_name_the_row():
    q = {"1": {"a": 1}}
    with pytest.raises(InputError, match=r"^<run x>:2: duplicate docno 'a'"):
        ipsoeval.evaluate(q, {"x": pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "a"],
                                                 "score": [1.0, 2.0]})}, "AP")
    with pytest.raises(InputError, match=r"^<run x>:2: score is not a finite number"):
        ipsoeval.evaluate(q, {"x": {"1": {"a": 1.0, "b": float("nan")}}}, "AP")
    with pytest.raises(InputError, match=r"^<qrels>:1: label is not an integer"):
        ipsoeval.evaluate({"1": {"a": 1.5}}, {"x": {"1": {"a": 1.0}}}, "AP")
    with pytest.raises(InputError, match=r"blank or control character"):
        ipsoeval.evaluate(q, {"x": {"1": {"a b": 1.0}}}, "AP")
    with pytest.raises(UsageError, match="no document id column"):
        ipsoeval.evaluate(q, pd.DataFrame({"qid": ["1"], "score": [1.0]}), "AP")
    with pytest.raises(UsageError, match="unknown measure"):
        ipsoeval.evaluate(q, {"x": {"1": {"a": 1.0}}}, "nosuch")


def test_warnings_are_python_warnings():
    with pytest.warns(ipsoeval.InputWarning, match="missing from the run"):
        res = ipsoeval.evaluate({"1": {"a": 1}, "2": {"b": 1}}, {"x": {"1": {"a": 1.0}}}, "AP")
    assert any("missing from the run" in w for w in res.warnings)


def test_to_frame_without_pandas(monkeypatch):
    res = ipsoeval.evaluate(Q, RUNS, "AP")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(UsageError, match="needs pandas"):
        res.to_frame()
    with pytest.raises(UsageError, match="needs pandas"):
        ipsoeval.sigtest(res, tests="t").to_frame()


# --- analyses == CLI -------------------------------------------------------------------

def _same_tsv(report, table_id, args):
    code, out, _ = invoke(args)
    assert code in (0, 1)
    assert render(report, "tsv", table=table_id) == out


def test_sigtest_equals_cli():
    res = ipsoeval.evaluate(Q, RUNS, ["AP", "nDCG@10"])
    rep = ipsoeval.sigtest(res, baseline="bm25", tests=["t", "randomization"], correct="holm",
                           samples=2000, seed=3)
    assert isinstance(rep, ipsoeval.Report) and rep.command == "sigtest"
    _same_tsv(rep, None, ["sigtest", "--format", "tsv", "-m", "AP", "-m", "nDCG@10",
                          "--baseline", "bm25", "--test", "t,randomization", "--correct", "holm",
                          "--samples", "2000", "--seed", "3", Q, *RUNS])
    assert len(rep.table().records) == 4


def test_sigtest_default_follows_the_scale_like_the_cli():
    # without tests=, each (pair, measure) once, with the test its scale permits
    res = ipsoeval.evaluate(Q, RUNS, ["AP", "P@10"])
    rep = ipsoeval.sigtest(res, baseline="bm25", correct="holm")
    recs = rep.table().records
    assert [(r["measure"], r["test"], r["permissible"]) for r in recs] == \
        [("AP", "sign", True), ("P@10", "t", True)]
    assert recs[0]["why"].startswith("ordinal scale") and "interval scale" in recs[1]["why"]
    _same_tsv(rep, None, ["sigtest", "--format", "tsv", "-m", "AP", "-m", "P@10",
                          "--baseline", "bm25", "--correct", "holm", Q, *RUNS])


def test_sigtest_gate():
    res = ipsoeval.evaluate(str(MSM / "qrels.txt"),
                            [str(MSM / "better-both.run.xz"), str(MSM / "baseline.run.xz")],
                            "RR@10")
    rep = ipsoeval.sigtest(res, tests="sign", fail_if="worse")
    assert rep.gate is not None and rep.gate.passed is False and "worse" in rep.gate.reason


def test_bootstrap_equals_cli():
    runs = sorted(str(p) for p in MSM.glob("*.run.xz"))
    res = ipsoeval.evaluate(str(MSM / "qrels.txt"), runs, ["RR@10"])
    rep = ipsoeval.bootstrap(res, samples=300, seed=7)
    _same_tsv(rep, None, ["bootstrap", "--format", "tsv", "-m", "RR@10", "--samples", "300",
                          "--seed", "7", str(MSM / "qrels.txt"), *runs])
    assert set(rep.ids) >= {"leaderboard", "rank_probabilities"}


def test_breakdown_ipso_interval_map_equal_cli():
    runs = [str(MSM / "baseline.run.xz"), str(MSM / "better-ranking.run.xz")]
    res = ipsoeval.evaluate(str(MSM / "qrels.txt"), runs, ["RR@10"])
    _same_tsv(ipsoeval.breakdown(res, k=10), None,
              ["breakdown", "--format", "tsv", "-k", "10", str(MSM / "qrels.txt"), *runs])
    fig = [str(FIG5 / "sysA.run"), str(FIG5 / "sysB.run")]
    res5 = ipsoeval.evaluate(str(FIG5 / "qrels.txt"), fig, ["P@10"])
    rep = ipsoeval.ipso(res5, measures=["P@10"], tests=["t", "sign"])
    code, out, _ = invoke(["ipso", "--format", "tsv", "-m", "P@10", "--test", "t,sign",
                           str(FIG5 / "qrels.txt"), *fig])
    assert code == 0 and render(rep, "tsv") == out
    resi = ipsoeval.evaluate(Q, RUNS, ["P@10", "RR@10"])
    rep = ipsoeval.interval_map(resi)
    code, out, _ = invoke(["interval-map", "--format", "tsv", "-m", "P@10", "-m", "RR@10",
                           Q, *RUNS])
    assert code == 0 and render(rep, "tsv") == out


def test_analyses_need_rankings_where_they_do():
    with pytest.raises(UsageError, match="needs the rankings"):
        ipsoeval.breakdown(object())


# --- import cost -----------------------------------------------------------------------

def test_import_ipsoeval_is_cheap():
    code = ("import sys, ipsoeval; assert 'numpy' not in sys.modules, 'numpy'; "
            "assert 'ipsoeval.api' not in sys.modules; ipsoeval.evaluate; "
            "assert 'ipsoeval.api' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@needs_pandas
def test_integer_ids_read_as_their_decimal_text():
    from ipsoeval.reading import read_run, run_from
    as_float = run_from(pd.DataFrame({"qid": [1.0, 20.0], "docno": ["a", "b"], "score": 1.0}), "r")
    np.testing.assert_array_equal(as_float.qid, read_run("x", data=b"1 Q0 a 1 1 r\n20 Q0 b 1 1 r\n").qid)
    ids = [0, 7, 10, 99, 100, 12345678, 123456789, 2**40 + 3, 10**15]
    text = "".join(f"{q} Q0 {q} 1 1.0 r\n" for q in ids).encode()
    ref = read_run("x", data=text)
    got = run_from(pd.DataFrame({"qid": ids, "docno": ids, "score": 1.0}), "r")
    np.testing.assert_array_equal(got.qid, ref.qid)
    np.testing.assert_array_equal(got.docno, ref.docno)


def test_cli_directory_as_run_and_name_from_file(tmp_path):
    import lzma
    d = tmp_path / "runs"
    d.mkdir()
    (d / "b.run.xz").write_bytes(lzma.compress(open(RUNS[1], "rb").read()))
    (d / "a.txt").write_bytes(open(RUNS[0], "rb").read())
    (d / ".DS_Store").write_text("x")
    (d / "sub").mkdir()
    code, out, _ = invoke(["eval", "--format", "tsv", "-m", "AP", "--name-from-file", Q, d])
    _, ref, _ = invoke(["eval", "--format", "tsv", "-m", "AP", "--name", "a", "--name", "b",
                        Q, d / "a.txt", d / "b.run.xz"])
    assert code == 0 and out == ref and "\na\tall\tAP\t" in out and "\nb\tall\tAP\t" in out
    code, _, err = invoke(["eval", Q, d / "sub"])
    assert code == 3 and "sub: directory holds no run file" in err
    from ipsoeval.reading import file_stem
    assert [file_stem(p) for p in ("x/bm25.run.gz", "-", "a.b.c", ".gz")] == \
        ["bm25", "stdin", "a.b", ".gz"]


def test_an_id_that_is_not_valid_text_is_an_input_error_naming_the_row():
    # a lone surrogate has no UTF-8 spelling: an InputError naming the entry,
    # not a bare UnicodeEncodeError
    import ipsoeval
    from ipsoeval.errors import InputError
    with pytest.raises(InputError, match=r"<qrels>:1: document id is not valid text"):
        ipsoeval.evaluate({"q1": {"a\ud800": 1}}, {"r": {"q1": {"a": 1.0}}}, ["AP"])
    pd = pytest.importorskip("pandas")
    # object columns: pandas' Arrow-backed strings (pandas 3 with pyarrow) refuse a
    # lone surrogate before ipsoeval sees it
    frame = pd.DataFrame({"query_id": ["q1", "q1"],
                          "doc_id": pd.Series(["a", "b\ud800"], dtype=object),
                          "score": [1.0, 2.0]})
    with pytest.raises(InputError, match=r":2: document id is not valid text"):
        ipsoeval.evaluate({"q1": {"a": 1}}, frame, ["AP"])
