"""``ipsoeval eval [--format trec] QRELS RUN`` served by the compiled core
without numpy (ipsoeval/reading/quick.py): byte for byte what the full program
prints, on stdout and on stderr (its tie warning), and the full program
whenever anything else is unusual."""

import gzip
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval.pipeline import evaluate as _quick  # quick(): eval's argv, declared once
from ipsoeval.reading import compiled as _fast
from tests.conftest import TE, TESTDATA, invoke, run_quick

pytestmark = pytest.mark.skipif(_fast._core is None, reason="compiled core not built")


def full(qrels, *runs, with_err=False):
    code, out, err = invoke(["eval", "--format", "trec", qrels, *runs])
    return (code, out, err) if with_err else (code, out)


BM25 = TESTDATA / "adhoc" / "run-bm25.txt"


def untied(d, src=BM25):
    """``src`` with distinct scores (1000 - rank).  run-bm25.txt itself ranks
    documents of different labels at one score (topic 401: DOC-401-02, 2, and
    DOC-401-07, 0, at 9.5): the tie order moves map, and both programs warn
    (test_quick_warns_as_the_full_program)."""
    out = d / ("untied-" + src.name)
    lines = [ln.split() for ln in src.read_text().splitlines() if ln.strip()]
    out.write_text("".join(f"{q} {z} {doc} {rk} {1000 - int(rk)} {tag}\n"
                           for q, z, doc, rk, _, tag in lines))
    return out


def quick(qrels, *runs):
    """The core's stdout text, or None (declined)."""
    out = _fast._core.eval_official(os.fsencode(qrels), [os.fsencode(r) for r in runs])
    return None if out is None else out[0].decode()


@pytest.mark.parametrize("qrels,run", [
    (TE / "qrels.test", TE / "results.test"),
    (TESTDATA / "adhoc" / "qrels.txt", BM25),
])
def test_quick_is_the_full_program_and_trec_eval(tmp_path, qrels, run):
    if run == BM25:
        run = untied(tmp_path)
    served, got, got_err = run_quick(["eval", "--format", "trec", qrels, run])
    assert served
    code, out, err = full(qrels, run, with_err=True)
    assert got == out and got_err == err
    if run.name == "results.test":
        # topic 301 ranks FBIS3-58025 (0) and FBIS3-58055 (1) at one score, 2.243509:
        # map & co. depend on the tie order, both programs warn
        assert out == (TE / "out.test").read_text()      # trec_eval 10.0's own output
        assert err == ("ipsoeval: warning: STANDARD: 1 topic(s) have tied scores across a cutoff "
                       "or between documents of different labels (the values of AP, gm_map, "
                       "Rprec, bpref and 12 more depend on the tie order; --tie-break "
                       "expected averages over it)\n"), err
    else:
        assert err == ""


def test_quick_warns_as_the_full_program(tmp_path):
    """run-bm25.txt as it is: tie groups of different labels in 4 topics."""
    q = TESTDATA / "adhoc" / "qrels.txt"
    other = tmp_path / "other"                 # untied, another name: no warning of its own
    other.write_text(untied(tmp_path).read_text().replace(" bm25\n", " other\n"))
    for args in (["eval", q, BM25], ["eval", "--format", "trec", q, BM25],
                 ["eval", q, other, BM25]):
        served, got, got_err = run_quick(args)
        code, out, err = invoke(args)
        assert served and code == 0
        assert got == out and got_err == err
    assert got_err.startswith("ipsoeval: warning: bm25: 4 topic(s) have tied scores")
    assert got_err.count("\n") == 1


def test_quick_names_the_cutoffs_a_tie_straddles(tmp_path):
    """Long rankings tied across P@k's cutoffs (5 ... 1000): the names and the
    count of the full program's message (trec_eval keeps every retrieved
    document: ranks past 1000 count too)."""
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} 0 d{i} {i % 2}\n" for t in (1, 2, 3) for i in range(1200)))

    def write(name, groups):
        """Topic -> groups of 0-based positions sharing one score (distinct otherwise)."""
        rows = []
        for t, gs in groups.items():
            first = {i: g[0] for g in gs for i in g}
            rows += [f"{t} Q0 d{i} {i} {4000 - first.get(i, i)} {name}\n" for i in range(1200)]
        r.write_text("".join(rows))

    # ranks 10-12 and 100-102 (straddle 10 and 100); 5-7 (5) and 1000-1001 (1000);
    # 1001-1002 (no cutoff, but AP & co.): 3 topics, 16 + 4 measures
    write("long", {1: [(9, 10, 11), (99, 100, 101)], 2: [(4, 5, 6), (999, 1000)],
                   3: [(1000, 1001)]})
    served, got, got_err = run_quick(["eval", q, r])
    code, out, err = invoke(["eval", q, r])
    assert served and got == out and got_err == err
    assert "long: 3 topic(s)" in err and "and 16 more depend" in err, err
    for groups in ({1: [(9, 10)]}, {1: [(10, 11)]}, {1: [(998, 999)]},
                   {1: [(199, 200), (14, 15)]}, {1: [(29, 30, 31, 32)]}, {1: [(0, 1)]}):
        write("one", {2: [], 3: [], **groups})
        served, got, got_err = run_quick(["eval", q, r])
        code, out, err = invoke(["eval", q, r])
        assert served and got == out and got_err == err
        assert err.startswith("ipsoeval: warning: one: 1 topic(s)"), err


@st.composite
def files(draw):
    topics = draw(st.lists(st.sampled_from(["1", "2", "10", "301", "q" * 9]), min_size=1,
                           max_size=4, unique=True))
    docs = ["d1", "d2", "d3", "d4", "d" * 12, "e" * 8, "x", "FBIS3-101526"]
    qrels, run = [], []
    for t in topics:
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=6, unique=True))
        for d in judged:
            qrels.append(f"{t} 0 {d} {draw(st.integers(-1, 3))}")
        ret = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=8, unique=True))
        for d in ret:
            s = draw(st.sampled_from(["1", "2", "2.5", "-1", "0", "1e1", "3.25", "0.1"]))
            run.append(f"{t} Q0 {d} 0 {s} tag")
    run = draw(st.permutations(run))
    qrels = draw(st.permutations(qrels))
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(run) + "\n").encode()


@settings(max_examples=300)
@given(f=files(), more=st.integers(0, 2))
def test_quick_equals_full_on_random_files(tmp_path_factory, f, more):
    d = tmp_path_factory.mktemp("q")
    q, r = d / "qrels", d / "run"
    q.write_bytes(f[0])
    r.write_bytes(f[1])
    runs = [r]
    for i in range(more):              # more runs of the same topics, other names
        p = d / f"run{i}"
        p.write_bytes(f[1].replace(b" tag\n", f" tag{i}\n".encode()))
        runs.append(p)
    served, got, got_err = run_quick(["eval", "--format", "trec", q, *runs])
    code, out, err = full(q, *runs, with_err=True)
    if not served:                     # another warning (no judged document): the full program
        assert got == got_err == ""
        assert [ln for ln in err.splitlines() if "have tied scores" not in ln], err
        return
    assert code == 0 and got == out and got_err == err


@pytest.mark.parametrize("depth", [["-M", "1"], ["-M5"], ["--depth", "12"], ["--depth=100"]])
def test_quick_official_measures_with_depth(tmp_path, depth):
    """-M without -m: the official measures of the top documents (the core's
    alignment cuts), the full program's bytes and tie warning."""
    q = TESTDATA / "adhoc" / "qrels.txt"
    for r in (BM25, untied(tmp_path)):
        served, got, got_err = run_quick(["eval", *depth, q, r])
        code, out, err = invoke(["eval", *depth, q, r])
        assert served and code == 0 and got == out and got_err == err


def test_quick_declines_two_runs_of_one_name(tmp_path):
    r = TESTDATA / "adhoc" / "run-bm25.txt"
    assert quick(TESTDATA / "adhoc" / "qrels.txt", r, r) is None


def test_quick_declines_a_run_with_warnings():
    assert quick(TESTDATA / "adhoc" / "qrels.txt", TESTDATA / "adhoc" / "run-neural.txt") is None


@pytest.mark.parametrize("qrels,run", [
    ("1 0 a 1\n2 0 b 1\n", "1 Q0 a 1 1 t\n"),                    # a qrels topic not run: warning
    ("1 0 a 1\n", "1 Q0 a 1 1 t\n2 Q0 a 1 1 t\n"),               # a run topic not judged: warning
    ("1 0 a 1\n", "1 Q0 a 1 1 t\n1 Q0 a 2 0 t\n"),               # duplicate docno: error
    ("1 0 a 1\n1 0 a 0\n", "1 Q0 a 1 1 t\n"),                    # duplicate judgment: error
    ("1 0 a 1\n", "1 Q0 a 1 nan t\n"),                           # bad score: error
    ("1 0 a 1_0\n", "1 Q0 a 1 1 t\n"),                           # label spelling: the reader decides
    ("1 0 a 1\n", "1 a 1\n"),                                    # MS MARCO run
    ("1 0 a 1\n", "1 Q0 a 1 1 t\xff\n"),                         # run name not UTF-8
])
def test_quick_declines_anything_unusual(tmp_path, qrels, run):
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_bytes(qrels.encode("latin-1"))
    r.write_bytes(run.encode("latin-1"))
    assert quick(q, r) is None


def test_quick_entry_point_arguments(tmp_path, monkeypatch, capsys):
    q, r = TESTDATA / "adhoc" / "qrels.txt", untied(tmp_path)
    assert _quick.quick(["eval", "--format", "trec", str(q), str(r)])
    assert capsys.readouterr().out == full(q, r)[1]
    assert _quick.quick(["eval", "--format=trec", str(q), str(r)])
    capsys.readouterr()
    for args in (["eval", "-q", str(q), str(r)], ["eval", "--format", "tsv", str(q), str(r)],
                 ["eval", str(q), str(r), str(r)], ["measures"], ["eval", "-", str(r)],
                 ["eval", str(q), str(tmp_path / "missing")], ["eval", str(q)]):
        assert not _quick.quick(args)
    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress(r.read_bytes()))
    assert not _quick.quick(["eval", "--format", "trec", str(q), str(gz)])
    monkeypatch.setenv("IPSOEVAL_CORE", "python")
    assert not _quick.quick(["eval", "--format", "trec", str(q), str(r)])
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("tied", [False, True])
def test_quick_path_imports_neither_numpy_nor_click(tmp_path, tied):
    q = TESTDATA / "adhoc" / "qrels.txt"
    r = BM25 if tied else untied(tmp_path)       # run-bm25.txt: the tie warning too
    code = ("import sys; from ipsoeval.pipeline.evaluate import quick as quick_eval; "
            f"ok = quick_eval(['eval', '--format', 'trec', {str(q)!r}, {str(r)!r}]); "
            "sys.stderr.write(repr((ok, 'numpy' in sys.modules, 'click' in sys.modules)))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code_, out, err = full(q, r, with_err=True)
    assert p.stdout == out
    assert p.stderr == err + "(True, False, False)"


def test_quick_runs_in_threads_in_file_order(tmp_path, monkeypatch, capsys):
    q = TESTDATA / "adhoc" / "qrels.txt"
    src = untied(tmp_path).read_bytes()
    runs = []
    for i in range(7):
        p = tmp_path / f"r{i}"
        lines = src.decode().splitlines()
        # other names, other orders: every block differs
        body = "\n".join(ln.rsplit(" ", 1)[0] + f" tag{6 - i}" for ln in lines[i:] + lines[:i])
        p.write_text(body + "\n")
        runs.append(str(p))
    monkeypatch.setenv("IPSOEVAL_THREADS", "3")
    assert _quick.quick(["eval", str(q), *runs])
    assert capsys.readouterr().out == full(q, *runs)[1]
    (tmp_path / "r6").write_text(src.decode().replace(" bm25", " tag6"))   # r0 is tag6 too
    assert not _quick.quick(["eval", str(q), *runs])


# --- -m: the common families (ipsoeval/reading/quick_measures.py, _core.eval_measures) ---

MEASURE_ARGS = [
    ["-m", "nDCG@10", "-m", "AP"],
    ["-m", "ndcg_cut.10", "-m", "map"],
    ["-q", "-m", "P.5,10", "-m", "recip_rank", "-m", "runid", "-m", "num_q"],
    ["-m", "P@5", "-m", "RR@10", "-m", "R@100", "-m", "Success@10", "-m", "Judged@10",
     "-m", "ERR@20"],
    ["-q", "-m", "P(rel=2)@5", "-m", "bpref", "-m", "Rprec", "-m", "num_ret", "-m", "num_rel",
     "-m", "num_rel_ret", "-m", "recall.5"],
    ["-m", "ndcg", "-m", "map_cut.10", "-m", "success.1,5", "-m", "AP@10", "-m", "nDCG"],
    ["-q", "-m", "NumRel(rel=2)", "-m", "R", "-m", "ERR", "-m", "Bpref", "-m", "P_10",
     "-m", "RR(rel=2)", "-m", "AP(rel=0)", "-m", "NumRelRet(rel=3)", "-m", "Rprec(rel=2)"],
    ["--measure", "nDCG@3", "--measure=P@1", "-q", "--format=trec"],
    ["-M", "3", "-m", "nDCG@10", "-m", "map", "-q", "-m", "num_ret", "-m", "R"],
]


@pytest.mark.parametrize("args", MEASURE_ARGS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("fmt", [[], ["--format", "tsv"]], ids=["trec", "tsv"])
def test_measures_are_the_full_program(tmp_path, args, tied, fmt):
    q = TESTDATA / "adhoc" / "qrels.txt"
    r = BM25 if tied else untied(tmp_path)
    if fmt:
        args = [a for a in args if a != "--format=trec"] + fmt
    served, got, got_err = run_quick(["eval", *args, q, r])
    code, out, err = invoke(["eval", *args, q, r])
    assert served and code == 0
    assert got == out and got_err == err
    assert got.startswith("run\tqid\tmeasure\tvalue\n") == bool(fmt)
    if not tied:
        assert err == ""
    elif args == MEASURE_ARGS[0]:          # 4 topics tie documents of different labels
        assert err == ("ipsoeval: warning: bm25: 4 topic(s) have tied scores across a cutoff "
                       "or between documents of different labels (the value of AP depends "
                       "on the tie order; --tie-break expected averages over it)\n")


def test_measures_against_trec_eval_by_hand():
    """trec_eval 10.0's own output on its test data (tests/data/trec_eval/out.test),
    the lines of the measures asked."""
    want = {ln.split()[0]: ln for ln in (TE / "out.test").read_text().splitlines(True)}
    served, got, _ = run_quick(["eval", "-m", "P.5,30", "-m", "map", "-m", "bpref",
                                "-m", "num_rel_ret", TE / "qrels.test", TE / "results.test"])
    assert served
    assert got == "".join(want[m] for m in ("num_rel_ret", "map", "bpref", "P_5", "P_30"))


@pytest.mark.parametrize("args", MEASURE_ARGS[:2] + MEASURE_ARGS[6:7])
def test_measures_import_neither_numpy_nor_click(tmp_path, args):
    q = TESTDATA / "adhoc" / "qrels.txt"
    code = ("import sys; from ipsoeval.pipeline.evaluate import quick as quick_eval; "
            f"ok = quick_eval(['eval', *{[str(a) for a in args]!r}, {str(q)!r}, {str(BM25)!r}]); "
            "sys.stderr.write(repr((ok, 'numpy' in sys.modules, 'click' in sys.modules)))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code_, out, err = invoke(["eval", *args, q, BM25])
    assert p.stdout == out
    assert p.stderr == err + "(True, False, False)"


@pytest.mark.parametrize("args", [
    ["-m", "official"], ["-m", "gm_map"], ["-m", "nDCG(dcg='exp-log2')@10"],
    ["-m", "P.5", "-m", "P.10"],              # trec_eval's first parameters win: a warning
    ["-m", "P@"], ["-m", "nDCG@10", "-l", "2"], ["--format", "tsv"],
    ["-m", "nDCG@10", "--format", "json"],
    ["-m", "nDCG@10", "-J"], ["-m", "nDCG@10", "-c"],
    ["-m"], ["-q"], ["-m", "ERR(gmax=5)"], ["-m", "nDCG@10", "--tie-break", "expected"],
    ["-M", "0"], ["-m", "AP", "-M", "0"], ["-m", "AP", "-M", "x"], ["-m", "AP", "-M"],
    ["-m", "AP", "-M", "\u0665"],
])
def test_measures_declined(tmp_path, args):
    q, r = TESTDATA / "adhoc" / "qrels.txt", untied(tmp_path)
    served, got, got_err = run_quick(["eval", *args, q, r])
    assert not served and got == got_err == ""


def test_measures_declined_inputs(tmp_path):
    """ERR's gmax below a label (a usage error), -q over several runs (a layout
    warning), a topic in one file only: the full program."""
    q = tmp_path / "q"
    q.write_text("1 0 a 5\n1 0 b 0\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n")
    assert not run_quick(["eval", "-m", "ERR@10", q, r])[0]
    assert run_quick(["eval", "-m", "nDCG@10", q, r])[0]
    r2 = tmp_path / "r2"
    r2.write_text("1 Q0 a 1 2 u\n1 Q0 b 2 1 u\n")
    assert not run_quick(["eval", "-q", "-m", "nDCG@10", q, r, r2])[0]
    assert run_quick(["eval", "-m", "nDCG@10", q, r, r2])[0]
    r2.write_text("1 Q0 a 1 2 u\n2 Q0 b 2 1 u\n")
    assert not run_quick(["eval", "-m", "nDCG@10", q, r2])[0]


QUICK_NAMES = ["P@1", "P@3", "P(rel=2)@2", "R", "R@2", "R(rel=2)@5", "AP", "AP@3",
               "AP(rel=2)", "AP(rel=0)", "nDCG", "nDCG@1", "nDCG@5", "RR", "RR@2",
               "RR(rel=3)", "Success@1", "Success(rel=2)@3", "Judged@1", "Judged@5", "ERR",
               "ERR@3", "bpref", "Bpref(rel=2)", "Rprec", "Rprec(rel=2)", "NumRet",
               "NumRel", "NumRel(rel=2)", "NumRelRet", "NumRelRet(rel=0)", "NumQ", "runid",
               "P.1,2,5", "recall.3", "map", "map_cut.2", "ndcg", "ndcg_cut.1,3",
               "recip_rank", "success.1,2", "num_q", "num_ret", "num_rel", "num_rel_ret",
               "P_2", "Rprec", "bpref", "ndcg_cut_4"]


@settings(max_examples=300, deadline=None)
@given(f=files(), more=st.integers(0, 2),
       names=st.lists(st.sampled_from(QUICK_NAMES), min_size=1, max_size=6),
       per_query=st.booleans(), tsv=st.booleans())
def test_measures_equal_full_on_random_files(tmp_path_factory, f, more, names, per_query, tsv):
    """Random qrels (labels -1..3, so ERR's gmax holds) and runs (ties, odd
    docnos) with random measures: the quick path prints the full program's bytes,
    stdout and stderr (its tie warning), or declines."""
    d = tmp_path_factory.mktemp("m")
    q, r = d / "qrels", d / "run"
    q.write_bytes(f[0])
    r.write_bytes(f[1])
    runs = [r]
    for i in range(0 if per_query and not tsv else more):
        p = d / f"run{i}"
        p.write_bytes(f[1].replace(b" tag\n", f" tag{i}\n".encode()))
        runs.append(p)
    args = ["eval", *(["-q"] if per_query else []), *(["--format", "tsv"] if tsv else []),
            *[x for n in names for x in ("-m", n)], q, *runs]
    served, got, got_err = run_quick(args)
    code, out, err = invoke(args)
    if not served:                     # another warning (no judged document): the full program
        assert got == got_err == ""
        assert code != 0 or [ln for ln in err.splitlines() if "have tied scores" not in ln], err
        return
    assert code == 0 and got == out and got_err == err


@st.composite
def deep_files(draw):
    """Longer rankings (up to 40 documents a topic, so that cutoffs 5-20 cut
    inside them), labels -1..4, scores from a small pool (ties across cutoffs)."""
    qrels, run = [], []
    for t in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 40))
        labels = draw(st.lists(st.sampled_from([None, -1, 0, 0, 1, 2, 3, 4]), min_size=n,
                               max_size=n))
        for i, lab in enumerate(labels):
            if lab is not None:
                qrels.append(f"t{t} 0 d{i} {lab}")
        if not any(q.startswith(f"t{t} ") for q in qrels):
            qrels.append(f"t{t} 0 d0 1")
        ret = draw(st.permutations(range(n)))[:draw(st.integers(1, n))]
        for i in ret:
            s = draw(st.sampled_from(["1", "2", "3", "0.5", "7", "-1"]))
            run.append(f"t{t} Q0 d{i} 0 {s} tag")
    return ("\n".join(qrels) + "\n").encode(), ("\n".join(run) + "\n").encode()


DEEP_NAMES = ["P@5", "P@10", "P(rel=2)@5", "R@10", "AP@10", "AP", "nDCG@5", "nDCG@10",
              "nDCG@20", "RR@5", "Success@5", "Judged@10", "ERR@10", "ERR", "bpref",
              "Rprec(rel=2)", "NumRelRet(rel=2)", "ndcg_cut.5,15", "map_cut.10", "P.5,20",
              "recall.5", "success.5,10"]


@settings(max_examples=100, deadline=None)
@given(f=deep_files(), names=st.lists(st.sampled_from(DEEP_NAMES), min_size=1, max_size=5),
       per_query=st.booleans(), depth=st.sampled_from([[], ["-M", "1"], ["-M3"], ["-M", "12"],
                                                       ["--depth=7"]]))
def test_measures_equal_full_on_deep_rankings(tmp_path_factory, f, names, per_query, depth):
    d = tmp_path_factory.mktemp("deep")
    q, r = d / "qrels", d / "run"
    q.write_bytes(f[0])
    r.write_bytes(f[1])
    args = ["eval", *(["-q"] if per_query else []), *depth,
            *[x for n in names for x in ("-m", n)], q, r]
    served, got, got_err = run_quick(args)
    code, out, err = invoke(args)
    if not served:
        assert got == got_err == ""
        return
    assert code == 0 and got == out and got_err == err


@pytest.mark.parametrize("fmt", ["trec", "tsv"])
def test_measures_runs_in_threads_in_file_order(tmp_path, monkeypatch, capsys, fmt):
    q = TESTDATA / "adhoc" / "qrels.txt"
    src = BM25.read_text()
    runs = []
    for i in range(7):
        p = tmp_path / f"r{i}"
        lines = src.splitlines()
        # other names, other orders (and ties): every block differs
        body = "\n".join(ln.rsplit(" ", 1)[0] + f" tag{6 - i}" for ln in lines[i:] + lines[:i])
        p.write_text(body + "\n")
        runs.append(str(p))
    monkeypatch.setenv("IPSOEVAL_THREADS", "3")
    args = ["eval", "--format", fmt, "-m", "nDCG@10", "-m", "map", "-m", "P@5", str(q), *runs]
    assert _quick.quick(args)
    got = capsys.readouterr()
    code, out, err = invoke(args)
    assert got.out == out and got.err == err
    (tmp_path / "r6").write_text(src.replace(" bm25", " tag6"))   # r0 is tag6 too
    assert not _quick.quick(args)
