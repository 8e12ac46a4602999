"""``ipsoeval eval [--format trec] QRELS RUN`` served by the compiled core
without numpy (ipsoeval/reading/quick.py): byte for byte what the full program
prints, on stdout and on stderr (its tie warning), and the full program
whenever anything else is unusual."""

import bz2
import gzip
import lzma
import os
import random
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


# --- -m: the families the core serves (reading/provider.py, _core.eval_measures) ---

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


def _served_calls():
    """Per family the compiled core serves (the registry's families the
    provider accepts), the -m lists of its spellings the quick path takes:
    the canonical and ir_measures names (cutoffs, levels), then trec_eval's
    names (one call each where trec_eval's "first parameters win" would
    otherwise warn)."""
    from ipsoeval.measures.registry import FAMILIES
    from ipsoeval.reading.quick_measures import requested
    out = []
    for fam in FAMILIES.values():
        names = [fam.name, *fam.ir_measures]
        cuts = {"none": [""], "optional": ["", "@3", "@10"], "required": ["@1", "@10"]}
        canon = [n + c for n in names for c in cuts[fam.cutoff]]
        if "rel" in fam.param_names:
            canon += [f"{n}(rel={r}){c}" for n in names for c in cuts[fam.cutoff]
                      for r in (0, 2)]
        calls = [[t for t in canon if requested([t])]]
        trec = [fam.trec_plain.name] if fam.trec_plain else []
        if fam.trec:
            trec += [fam.trec.name, f"{fam.trec.name}.5,10"]
            calls.append([f"{fam.trec.name}_20"])
        calls.append(trec)
        calls = [c for c in calls if c and requested(c)]
        if calls:
            out += [(fam.name, c) for c in calls]
    return out


SERVED_CALLS = _served_calls()


def test_every_family_the_core_serves_is_called():
    from ipsoeval.measures.registry import FAMILIES
    assert {f for f, _ in SERVED_CALLS} == {f.name for f in FAMILIES.values()
                                            if f.core or f.agg == "text"}


@pytest.mark.parametrize("names", [c for _, c in SERVED_CALLS],
                         ids=[f"{f}:{c[0]}" for f, c in SERVED_CALLS])
@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("fmt", [[], ["--format", "tsv"]], ids=["trec", "tsv"])
def test_every_served_measure_is_the_full_program(tmp_path, names, tied, fmt):
    """Whichever serves -- the core or the numpy engine -- the same bytes."""
    q = TESTDATA / "adhoc" / "qrels.txt"
    r = BM25 if tied else untied(tmp_path)
    args = ["-q", *fmt] + [x for n in names for x in ("-m", n)]
    served, got, got_err = run_quick(["eval", *args, q, r])
    code, out, err = invoke(["eval", *args, q, r])
    assert served and code == 0
    assert got == out and got_err == err


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



# The quick path (``_core.eval_official``/``eval_measures``, ipsoeval/reading/quick.py)
# reads a run a block at a time and scores each topic once its last line is read:
# its buffers stay bounded whatever the run's length, and what it prints is the
# full program's, at block boundaries, for topics whose rows are not together,
# for long lines and ids, and where it leaves the call to the full program
# (compressed files, standard input, errors).

BLOCK = 1 << 20           # the core's read block (QUICK_BLOCK)
ROWS = 4096               # the rows it holds at first (QUICK_ROWS)
MEASURES = ["-m", "RR@10", "-m", "nDCG@10", "-m", "AP", "-m", "P@5", "-m", "num_ret"]


def write_files(d, topics=300, docs=400, seed=1, name="run", order=None):
    """qrels and a run of ``topics`` x ``docs`` lines with distinct scores
    per topic; ``order``: the run's lines reordered by this function."""
    rng = random.Random(seed)
    q, r = d / "qrels", d / name
    qrels, run = [], []
    for t in range(topics):
        for i in rng.sample(range(docs * 2), 6):
            qrels.append(f"{t} 0 D{i} {rng.randint(0, 2)}\n")
        for k, i in enumerate(rng.sample(range(docs * 2), docs)):
            run.append(f"{t} Q0 D{i} {k + 1} {docs - k}.{rng.randint(0, 9)} tag\n")
    if order is not None:
        run = order(run)
    q.write_text("".join(qrels))
    r.write_text("".join(run))
    return q, r


def same_as_full(args):
    """The quick path serves ``args`` and prints what the full program prints."""
    served, out, err = run_quick(args)
    code, fout, ferr = invoke(args)
    assert served and code == 0
    assert out == fout and err == ferr
    return out


def test_quick_buffers_are_bounded_by_a_topic_not_the_run(tmp_path):
    """120,000 lines (3 MB): read one 1 MB block at a time, holding one
    topic's rows.  Read whole, the buffers would be the file's size and its
    row count (the core without quick_buffers fails here too)."""
    q, r = write_files(tmp_path)
    assert r.stat().st_size > 2 * BLOCK
    core = _fast._core
    core.quick_buffers()                        # forget earlier calls
    assert core.eval_measures(os.fsencode(q), [os.fsencode(r)], [(3, 0, 1)], []) is not None
    nbytes, rows, parts = core.quick_buffers()
    assert nbytes == BLOCK and rows == ROWS and parts == 1
    assert core.quick_buffers() == (0, 0, 0)
    assert core.eval_official(os.fsencode(q), [os.fsencode(r)]) is not None
    assert core.quick_buffers() == (BLOCK, ROWS, 1)
    for fmt in ([], ["--format", "tsv"]):
        same_as_full(["eval", *MEASURES, *fmt, q, r])
    same_as_full(["eval", q, r])


def test_a_topic_longer_than_the_row_buffer(tmp_path):
    """One topic of 3 x ROWS lines between short ones: the row buffer grows
    to hold it, and only to that."""
    q, r = write_files(tmp_path, topics=5, docs=50)
    (tmp_path / "long").mkdir()
    q2, r2 = write_files(tmp_path / "long", topics=1, docs=3 * ROWS, seed=2)
    lines = r.read_text().splitlines(keepends=True)
    long_topic = ["99" + ln[1:] for ln in r2.read_text().splitlines(keepends=True)]
    r.write_text("".join(lines[:100] + long_topic + lines[100:]))
    q.write_text(q.read_text() + "".join("99" + ln[1:] for ln in q2.read_text().splitlines(True)))
    _fast._core.quick_buffers()
    same_as_full(["eval", *MEASURES, "-q", q, r])
    assert _fast._core.quick_buffers() == (BLOCK, 4 * ROWS, 1)
    same_as_full(["eval", q, r])


def test_block_boundaries_long_lines_and_wide_ids(tmp_path):
    """A comment line longer than a block (the buffer grows), topic ids and
    docnos that need wider rows only after the first blocks, CRLF line ends,
    a last line without its newline: the full program's bytes."""
    q, r = write_files(tmp_path, topics=200, docs=300)
    lines = r.read_text().splitlines(keepends=True)
    qlines = q.read_text().splitlines(keepends=True)
    wide_t, wide_d = "topic-with-a-long-id-" * 3, "document-" * 12
    lines = [ln.replace("199 Q0 ", f"{wide_t} Q0 ") for ln in lines]
    lines = [ln.replace(" D7 ", f" {wide_d} ") for ln in lines]
    qlines = [ln.replace("199 0 ", f"{wide_t} 0 ") for ln in qlines]
    qlines = [ln.replace(" D7 ", f" {wide_d} ") for ln in qlines]
    lines = ["# " + "x" * (BLOCK + BLOCK // 2) + "\n"] + lines
    lines[5000:9000] = [ln.replace("\n", "\r\n") for ln in lines[5000:9000]]
    lines[-1] = lines[-1].rstrip("\n")
    r.write_text("".join(lines))
    q.write_text("".join(qlines))
    assert sum(wide_d in ln for ln in lines) > 10
    _fast._core.quick_buffers()
    same_as_full(["eval", *MEASURES, "-q", q, r])
    assert _fast._core.quick_buffers()[0] == 2 * BLOCK
    same_as_full(["eval", "-q", "-m", "P@10", "--format", "tsv", q, r])
    same_as_full(["eval", q, r])


@pytest.mark.parametrize("how", ["swap", "split", "shuffle"])
def test_topics_not_together_are_merged_as_the_full_program_does(tmp_path, how):
    """A topic whose rows are not in one block of lines: its rows together, in
    file order (the full program's reader merges them; trec_eval accepts any
    order) -- the same numbers as the run sorted by topic."""
    def order(run):
        if how == "swap":           # topic 3's second half at the very end, 3 MB on
            t3 = [ln for ln in run if ln.startswith("3 ")]
            rest = [ln for ln in run if not ln.startswith("3 ")]
            return t3[:200] + rest + t3[200:]
        if how == "split":          # two topics' rows alternating
            a = [ln for ln in run if ln.startswith("0 ")]
            b = [ln for ln in run if ln.startswith("1 ")]
            rest = [ln for ln in run if not ln.startswith(("0 ", "1 "))]
            return [x for pair in zip(a, b) for x in pair] + rest
        return random.Random(3).sample(run, len(run))
    q, r = write_files(tmp_path, order=order)
    _, s = write_files(tmp_path, name="sorted")
    for args in (MEASURES, MEASURES + ["-q"], ["-q", "-m", "bpref", "--format", "tsv"], []):
        got = same_as_full(["eval", *args, q, r])
        served, want, _ = run_quick(["eval", *args, q, s])
        assert served and got == want


@pytest.mark.parametrize("pack", [gzip.compress, bz2.compress, lzma.compress, None],
                         ids=["gz", "bz2", "xz", "stdin"])
def test_compressed_runs_and_stdin_print_what_the_quick_path_prints(tmp_path, pack):
    """The quick path leaves a compressed run (found by its magic bytes, whatever
    its name) and standard input to the full program, which reads them as a
    stream: the console script prints the same bytes as the quick path on the
    plain file."""
    q, r = write_files(tmp_path, topics=60, docs=200)
    script = [sys.executable, "-c", "from ipsoeval._quick import main; main()"]
    env = {**os.environ, "COLUMNS": "80"}
    env.pop("IPSOEVAL_CORE", None)
    for args in (MEASURES, []):
        want = subprocess.run([*script, "eval", *args, str(q), str(r)], env=env,
                              capture_output=True, check=True)
        if pack is None:
            got = subprocess.run([*script, "eval", *args, str(q), "-"], env=env,
                                 input=r.read_bytes(), capture_output=True)
        else:
            packed = tmp_path / "run.data"
            packed.write_bytes(pack(r.read_bytes()))
            assert not run_quick(["eval", *args, q, packed])[0]
            got = subprocess.run([*script, "eval", *args, str(q), str(packed)], env=env,
                                 capture_output=True)
        assert got.returncode == 0, got.stderr
        assert got.stdout == want.stdout and got.stderr == want.stderr == b""


def test_a_duplicate_docno_names_both_lines(tmp_path):
    """A duplicate docno within a topic, its two lines blocks apart: the quick
    path declines, and the full program's error names both lines."""
    q, r = write_files(tmp_path, topics=2, docs=40000)
    lines = r.read_text().splitlines(keepends=True)
    first = lines[10].split()[2]
    lines[39000] = lines[39000].replace(lines[39000].split()[2], first)
    r.write_text("".join(lines))
    assert not run_quick(["eval", *MEASURES, q, r])[0]
    p = subprocess.run([sys.executable, "-c", "from ipsoeval._quick import main; main()",
                        "eval", *MEASURES, str(q), str(r)], capture_output=True, text=True)
    assert p.returncode != 0 and p.stdout == ""
    assert p.stderr == (f"ipsoeval: error: {r}:39001: duplicate docno '{first}' in topic '0' "
                        "(also at line 11)\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_run_through_a_named_pipe(tmp_path):
    """A run written into a named pipe in small pieces (reads come back
    short): the same values as from the file, read with the same bounded
    buffers."""
    import threading
    q, r = write_files(tmp_path, topics=120, docs=300)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = r.read_bytes()

    def writer():
        with open(fifo, "wb", buffering=0) as f:
            for i in range(0, len(data), 65537):
                f.write(data[i:i + 65537])

    core = _fast._core
    specs = [(3, 0, 1), (4, 10, 1), (5, 10, 1)]
    want = core.eval_measures(os.fsencode(q), [os.fsencode(r)], specs, [10])
    t = threading.Thread(target=writer)
    t.start()
    core.quick_buffers()
    try:
        got = core.eval_measures(os.fsencode(q), [os.fsencode(fifo)], specs, [10])
    finally:
        t.join()
    assert got is not None and got == want
    assert core.quick_buffers() == (BLOCK, ROWS, 1)


def test_a_large_run_read_in_parts_side_by_side(tmp_path, monkeypatch):
    """A run of 8 MiB or more is cut at topic boundaries into parts read side
    by side (as the full program's reader cuts it): the same values and text
    with 1 to 16 parts, and a topic whose rows are not together -- in one
    part or across two -- still merged as the full program does."""
    q, r = write_files(tmp_path, topics=700, docs=500)
    assert r.stat().st_size >= 8 << 20
    core = _fast._core
    specs = [(3, 0, 1), (4, 10, 1), (5, 10, 1), (11, 0, 1)]
    args = (os.fsencode(q), [os.fsencode(r)], specs, [10], 0)
    want = core.eval_measures(*args)
    off = core.eval_official(os.fsencode(q), [os.fsencode(r)], 0)
    assert want is not None and off is not None
    core.quick_buffers()
    for parts in (2, 3, 4, 16):
        assert core.eval_measures(*args, parts) == want
        assert core.quick_buffers() == (BLOCK, ROWS, parts)   # each part: one block
        assert core.eval_official(os.fsencode(q), [os.fsencode(r)], 0, parts) == off
    monkeypatch.setenv("IPSOEVAL_THREADS", "3")
    same_as_full(["eval", *MEASURES, q, r])

    lines = r.read_text().splitlines(keepends=True)
    for t in ("350", "699", "0"):       # the middle, the last, the first topic
        mine = [ln for ln in lines if ln.startswith(t + " ")]
        rest = [ln for ln in lines if not ln.startswith(t + " ")]
        moved = tmp_path / f"moved{t}"
        moved.write_text("".join(mine[:250] + rest + mine[250:]))
        for parts in (1, 3):
            got = core.eval_measures(os.fsencode(q), [os.fsencode(moved)], specs, [10], 0, parts)
            assert got == want
        same_as_full(["eval", *MEASURES, q, moved])
