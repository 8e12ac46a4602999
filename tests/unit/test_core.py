"""The compiled core (ipsoeval/_core.c) against the pure-Python reader and
alignment: identical arrays and identical errors on random bytes, valid and
broken; and the compiled core's own regressions."""

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval import engine
from ipsoeval import reading as readers
from ipsoeval.errors import InputError
from ipsoeval.reading import compiled, opening, python, words

pytestmark = pytest.mark.skipif(compiled._core is None, reason="compiled core not built")


def _with(mode, fn, *args, **kw):
    old = os.environ.get("IPSOEVAL_CORE")
    os.environ["IPSOEVAL_CORE"] = mode
    try:
        return fn(*args, **kw)
    except InputError as exc:
        return ("error", str(exc))
    finally:
        if old is None:
            del os.environ["IPSOEVAL_CORE"]
        else:
            os.environ["IPSOEVAL_CORE"] = old


def _same(a, b, fields):
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
        return
    for f in fields:
        x, y = getattr(a, f), getattr(b, f)
        if isinstance(x, np.ndarray):
            assert x.shape == y.shape, f
            assert np.array_equal(x, y), f
        else:
            assert x == y, f


RUN_FIELDS = ("path", "name", "qid", "docno", "score", "line", "fmt", "warnings")
QRELS_FIELDS = ("path", "qid", "docno", "label", "line", "warnings")

TOKENS = ["1", "2", "10", "Q0", "d1", "d2", "doc-3", "d#4", "a" * 9, "b" * 17, "0", "-1", "+2",
          "1.5", "-0.25", "1e3", "2E-2", ".5", "5.", "1_0", "nan", "inf", "1e400", "x",
          "99999999999", "0x10", "1.0.0", "\u00e9", "2147483647", "-2147483647",
          "-2147483646", "2147483648", "00000000000000000001.25", "tag",
          "caf\udce9", "\udcff\udcfe" * 5, "\udcc3"]   # not UTF-8 (surrogateescape: bytes)
SEPS = [" ", "\t", "  ", " \t", "\r"]
ENDS = ["\n", "\r\n", " \n", "\n\n", "\n# comment\n", "\x00\n", "\x0b\n", "\n#\x01\n"]


@st.composite
def table_bytes(draw, width):
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        k = draw(st.sampled_from([width, width, width, width, width + 1, width - 1, 0]))
        toks = draw(st.lists(st.sampled_from(TOKENS), min_size=k, max_size=k))
        line = ""
        for t in toks:
            line += t + draw(st.sampled_from(SEPS))
        line = line.rstrip(" \t\r") if draw(st.booleans()) else line
        if draw(st.integers(0, 9)) == 0:
            line = "#" + line
        lines.append(line + draw(st.sampled_from(ENDS)))
    text = "".join(lines)
    if text and draw(st.booleans()):
        text = text.rstrip("\n")
    elif draw(st.booleans()):
        text += "\n" * 64          # every line 64+ bytes from the end: the SIMD line scan
    return text.encode("utf-8", "surrogateescape")


@st.composite
def valid_run(draw):
    rows = []
    for t in draw(st.lists(st.sampled_from(["1", "2", "10", "q" * 9]), min_size=1, max_size=3,
                           unique=True)):
        docs = draw(st.lists(st.sampled_from(["d1", "d2", "d3", "d" * 12, "e" * 8, "x",
                                              "L" * 300 + "a", "L" * 300 + "b"]),
                             min_size=1, max_size=6, unique=True))
        for d in docs:
            s = draw(st.sampled_from(["1", "2", "2.5", "-1", "0", "1e1", "3.25"]))
            rows.append(f"{t} Q0 {d} 0 {s} tag")
    order = draw(st.permutations(range(len(rows))))
    pad = "\n" * draw(st.sampled_from([0, 64]))
    return ("\n".join(rows[i] for i in order) + "\n" + pad).encode()


def _write(tmp_path, data, name):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


@pytest.mark.slow
@settings(max_examples=300)
@given(data=st.one_of(table_bytes(6), table_bytes(7), table_bytes(3), valid_run()))
def test_run_reader_same_on_both_paths(tmp_path_factory, data):
    p = _write(tmp_path_factory.mktemp("r"), data, "run")
    for fmt in ("auto", "trec", "msmarco"):
        a = _with("c", readers.read_run, p, run_format=fmt)
        b = _with("python", readers.read_run, p, run_format=fmt)
        _same(a, b, RUN_FIELDS)


@pytest.mark.slow
@settings(max_examples=300)
@given(data=table_bytes(4))
def test_qrels_reader_same_on_both_paths(tmp_path_factory, data):
    p = _write(tmp_path_factory.mktemp("q"), data, "qrels")
    _same(_with("c", readers.read_qrels, p), _with("python", readers.read_qrels, p),
          QRELS_FIELDS)


@st.composite
def qrels_bytes(draw):
    rows = []
    for t in ["1", "2", "10", "q" * 9]:
        for d in draw(st.lists(st.sampled_from(["d1", "d2", "d3", "e" * 8, "x", "y",
                                                "L" * 300 + "a"]),
                               max_size=5, unique=True)):
            rows.append(f"{t} 0 {d} {draw(st.integers(-1, 3))}")
    if not rows:
        rows.append("1 0 d1 1")
    if draw(st.booleans()):      # a qrels docno wider than every run docno, or not
        rows.append("zz 0 " + "w" * 17 + " 0")
    return ("\n".join(rows) + "\n").encode()


ALIGNED_FIELDS = ("runs", "topics", "labels", "n_ret", "num_rel", "num_nonrel", "in_run", "tied",
                  "warnings")


@pytest.mark.slow
@settings(max_examples=200)
@given(q=qrels_bytes(), runs=st.lists(valid_run(), min_size=1, max_size=3),
       queries=st.sampled_from(["intersection", "qrels"]),
       judged_only=st.booleans(), depth=st.sampled_from([None, 1, 3]),
       tie_break=st.sampled_from(["trec", "docno-asc", "input"]))
def test_alignment_same_on_both_paths(tmp_path_factory, q, runs, queries, judged_only, depth,
                                      tie_break):
    d = tmp_path_factory.mktemp("a")
    qp = _write(d, q, "qrels")
    rps = [_write(d, r, f"run{i}") for i, r in enumerate(runs)]
    kw = dict(queries=queries, judged_only=judged_only, depth=depth, tie_break=tie_break)
    a = _with("c", engine.load, qp, rps, **kw)
    b = _with("python", engine.load, qp, rps, **kw)
    _same(a, b, ALIGNED_FIELDS)
    if not isinstance(a, tuple):
        assert len(a.judged_labels) == len(b.judged_labels)
        assert all(np.array_equal(x, y) for x, y in zip(a.judged_labels, b.judged_labels))


@pytest.mark.parametrize("depth", [None, 2])
def test_judged_only_beyond_the_cut_warns_on_both_paths(tmp_path, depth):
    """The C pass counts judged rows among the kept rows of evaluated topics
    only (rows it does not write stay unjudged): the one judged document
    beyond -M, or in a topic not evaluated, leaves none retrieved."""
    qp = _write(tmp_path, b"1 0 c 1\n", "qrels")
    rp = _write(tmp_path, b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n2 Q0 c 1 1 t\n", "run")
    a = _with("c", engine.load, qp, [rp], depth=depth)
    b = _with("python", engine.load, qp, [rp], depth=depth)
    _same(a, b, ALIGNED_FIELDS)
    assert any("none of the retrieved" in w for w in a.warnings) == (depth == 2)


@pytest.mark.parametrize("mode", ["c", "python"])
def test_align_releases_the_runs_it_is_handed(tmp_path, mode, monkeypatch):
    """align(release_inputs=True), as engine.load calls it, frees a run's
    topic ids once coded and (compiled core) its other arrays once aligned:
    nothing of align keeps the Run objects alive; the result is the same."""
    import gc
    import weakref

    from ipsoeval import align as align_module
    from ipsoeval.align import align
    monkeypatch.setenv("IPSOEVAL_CORE", mode)
    monkeypatch.setattr(align_module, "RELEASE_BYTES", 0)    # released whatever their size
    qp = _write(tmp_path, b"1 0 a 1\n2 0 b 1\n", "qrels")
    rp = _write(tmp_path, b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n2 Q0 b 1 1 t\n3 Q0 c 1 1 t\n", "run")
    qrels = readers.read_qrels(qp)
    keep = readers.read_run(rp)
    expect = align(qrels, [keep], queries="qrels")
    run = readers.read_run(rp)
    refs = {f: weakref.ref(getattr(run, f).base if getattr(run, f).base is not None
                           else getattr(run, f)) for f in ("qid", "docno", "score", "line")}
    runs = [run]
    del run
    got = align(qrels, runs, queries="qrels", release_inputs=True)
    gc.collect()
    _same(got, expect, ALIGNED_FIELDS)
    freed = {f for f, r in refs.items() if r() is None}
    assert freed == ({"qid", "docno", "score", "line"} if mode == "c" else {"qid"})
    assert runs[0].name == keep.name and runs[0].path == keep.path and len(runs[0].qid) == 0
    assert len(keep.qid) == 4 and len(keep.docno) == 4          # a run not handed over: intact
    monkeypatch.setattr(align_module, "RELEASE_BYTES", 1 << 20)  # small arrays are kept
    runs = [readers.read_run(rp)]
    align(qrels, runs, queries="qrels", release_inputs=True)
    assert len(runs[0].qid) == 4 and len(runs[0].docno) == 4


def test_duplicate_docno_falls_back_to_the_python_message(tmp_path):
    qp = _write(tmp_path, b"1 0 a 1\n", "qrels")
    rp = _write(tmp_path, b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n", "run")
    a = _with("c", engine.load, qp, [rp])
    assert a == _with("python", engine.load, qp, [rp])
    assert a[0] == "error" and ":3:" in a[1] and "duplicate docno 'a'" in a[1]


def test_declined_input_is_read_by_python(tmp_path, monkeypatch):
    """A spelling the C pass does not accept goes to the Python reader (one policy)."""
    calls = []
    real = python.parse_blocks
    monkeypatch.setattr(python, "parse_blocks", lambda *a, **k: calls.append(1) or real(*a, **k))
    p = _write(tmp_path, b"1 Q0 a 1 2.5 t\n1 Q0 b 2 0x1 t\n", "run")
    _with("c", readers.read_run, p)
    assert calls                       # declined -> Python
    calls.clear()
    p = _write(tmp_path, b"1 Q0 a 1 2.5 t\n1 Q0 b 2 1e-3 t\n", "run2")
    _with("c", readers.read_run, p)
    assert not calls                   # valid -> C only


def test_long_run_docno_is_matched_by_its_full_bytes(tmp_path):
    """A run docno longer (in 8-byte words) than every qrels docno does not zero
    the run: ids compare by their full bytes (compiled core)."""
    qp = _write(tmp_path, b"1 0 d1 1\n1 0 d2 1\n", "qrels")
    rp = _write(tmp_path, b"1 Q0 d1 1 3 t\n1 Q0 " + b"z" * 20 + b" 2 2 t\n1 Q0 d2 3 1 t\n", "run")
    al = _with("c", engine.load, qp, [rp])
    assert al.labels[0, 0].tolist() == [1, al.labels[0, 0, 1], 1]
    assert al.labels[0, 0, 1] < 0      # the long docno is not judged


def test_compressed_and_grown_tables(tmp_path, monkeypatch):
    """Block input (gzip) with a table that must grow and widen mid-file."""
    import gzip
    rows = [f"{t} Q0 {'d' * (1 + i % 30)}{i} {i} {1000 - i} tag\n"
            for t in range(3) for i in range(2000)]
    data = "".join(rows).encode()
    p = _write(tmp_path, gzip.compress(data), "run.gz")
    plain = _write(tmp_path, data, "run")
    monkeypatch.setattr(compiled, "CHUNK", 4096)
    monkeypatch.setattr(opening, "INFLATE_BLOCK", 4096)     # many gzip blocks: the buffer ring turns
    a = _with("c", readers.read_run, p)
    monkeypatch.setattr(opening, "_cpus", lambda: 1)   # one buffer, inflated in turn
    _same(_with("c", readers.read_run, p), a, RUN_FIELDS)
    b = _with("python", readers.read_run, p)
    c = _with("c", readers.read_run, plain)
    _same(a, b, ("name", "qid", "docno", "score", "line", "fmt"))
    _same(c, b, ("name", "qid", "docno", "score", "line", "fmt"))


@pytest.mark.parametrize("cpus", [1, 2])
@pytest.mark.parametrize("own_reader", [True, False])
@pytest.mark.parametrize("shape", ["one", "members", "truncated", "trailing", "corrupt"])
def test_gzip_readers_agree(tmp_path, monkeypatch, shape, own_reader, cpus):
    """The C pass inflates with isal's reader straight into its blocks (or,
    without it, igzip.open), in a second thread or (one CPU) in turn with the
    parse: multi-member, truncated, corrupt and trailing bytes give the
    Python reader's result or error."""
    import gzip
    pytest.importorskip("isal")
    from isal import igzip
    if not own_reader:
        monkeypatch.delattr(igzip, "_IGzipReader")
    monkeypatch.setattr(opening, "_cpus", lambda: cpus)
    rows = [f"{t} Q0 d{i} {i} {500 - i} tag\n" for t in range(2) for i in range(300)]
    data = "".join(rows).encode()
    comp = {"one": gzip.compress(data),
            "members": gzip.compress(data[:5000]) + gzip.compress(data[5000:]),
            "truncated": gzip.compress(data)[:-40],
            "trailing": gzip.compress(data) + b"\x00\x00junk",
            "corrupt": gzip.compress(data)[:200] + b"\xff" * 50 + gzip.compress(data)[250:],
            }[shape]
    p = _write(tmp_path, comp, "run.gz")
    monkeypatch.setattr(opening, "INFLATE_BLOCK", 1000)
    a = _with("c", readers.read_run, p)
    b = _with("python", readers.read_run, p)
    _same(a, b, ("name", "qid", "docno", "score", "line", "fmt"))
    if shape in ("one", "members"):
        assert len(a.qid) == 600


@pytest.mark.parametrize("tail", [b"\xff\xff\xff\xff", b"garbage\xff\xff\xff\x7f"])
@pytest.mark.parametrize("fmt", ["bz2", "gz"])
def test_compressed_trailer_noise_does_not_reserve_gigabytes(tmp_path, fmt, tail):
    """A compressed file's last four bytes are gzip's size hint only in gzip;
    noise there once made a 166-byte bz2 file reserve ~4 GB (exit 70 under a
    memory limit, found by the 10^5 fuzz run)."""
    import bz2
    import gzip
    import resource
    import subprocess
    import sys
    text = b"1 Q0 d1 1 2 A\n1 Q0 d2 2 1 A\n"
    comp = (bz2.compress if fmt == "bz2" else gzip.compress)(text) + tail
    (tmp_path / f"run.{fmt}").write_bytes(comp)
    (tmp_path / "qrels").write_bytes(b"1 0 d1 1\n")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))

    env = dict(os.environ, IPSOEVAL_CORE="c", OPENBLAS_NUM_THREADS="1")
    r = subprocess.run([sys.executable, "-m", "ipsoeval", "eval", "-m", "P@5", "--format", "tsv",
                        "qrels", f"run.{fmt}"], cwd=tmp_path, env=env, preexec_fn=limit,
                       capture_output=True)
    assert b"out of memory" not in r.stderr
    assert r.returncode in (0, 3), r.stderr


# --- in-memory id columns: the compiled encoding against the Python one ---------------

ID_ATOMS = ["1", "10", "007", "d1", "doc-3", "Q0", "a" * 8, "b" * 9, "c" * 17, "\u00e9",
            "\u4e2d\u6587", "x\x7f", "", " ", "a b", "x\ty", "x\n", "\n", "x\x00", "\x00",
            "\r", "a" * words.LONG_ID, "a" * (words.LONG_ID + 1), "\ud800"]


def _words_or_error(mode, fn, *args):
    old = os.environ.get("IPSOEVAL_CORE")
    os.environ["IPSOEVAL_CORE"] = mode
    try:
        return fn(*args)
    except Exception as exc:            # InputError (FILE:LINE) or whatever the Python path raises
        return ("error", type(exc).__name__, str(exc), getattr(exc, "line", None))
    finally:
        if old is None:
            del os.environ["IPSOEVAL_CORE"]
        else:
            os.environ["IPSOEVAL_CORE"] = old


def _same_words(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
    else:
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _same_run_from(obj, where):
    """rm.run_from(obj) on both paths: the same Run, or the same error."""
    from ipsoeval.reading import memory as rm
    _same(_words_or_error("c", rm.run_from, obj, "r", where),
          _words_or_error("python", rm.run_from, obj, "r", where), RUN_FIELDS)


id_values = st.one_of(st.sampled_from(ID_ATOMS), st.text(max_size=12),
                      st.sampled_from([None, float("nan"), 7, b"d1", 1.5]))


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.one_of(st.sampled_from(ID_ATOMS[:11]), id_values), min_size=0,
                       max_size=40),
       as_str=st.booleans())
def test_id_column_words_same_on_both_paths(values, as_str):
    """A DataFrame's id column encoded by the compiled core (id_scan/id_fill)
    equals the Python encoding, words and errors (message and frame row) alike,
    on valid and broken columns: empty ids, blanks, control bytes, newlines,
    over-long ids, non-str values, missing values, non-ASCII, a lone surrogate."""
    pd = pytest.importorskip("pandas")
    from ipsoeval.reading import memory as rm
    if as_str:
        values = [v for v in values if isinstance(v, str) or v is None]
        try:
            col = pd.Series(values, dtype="str")
        except UnicodeEncodeError:   # Arrow-backed strings (pyarrow) refuse a lone surrogate
            col = pd.Series(values, dtype=object)
    else:
        col = pd.Series(values + [None], dtype=object)[:-1]
    c = _words_or_error("c", rm._series_words, col, "<df>", "document id")
    p = _words_or_error("python", rm._series_words, col, "<df>", "document id")
    _same_words(c, p)
    if values and not isinstance(p, tuple):
        df = pd.DataFrame({"qid": col, "docno": col, "score": np.arange(len(col), 0, -1.0)})
        _same_run_from(df, "<df>")


@settings(max_examples=150, deadline=None)
@given(run=st.dictionaries(id_values.filter(lambda v: v == v), st.dictionaries(
    id_values.filter(lambda v: v == v), st.floats(-5, 5), max_size=6), max_size=5))
def test_dict_ids_same_on_both_paths(run):
    """A {qid: {docno: score}} dict: the same Run (or error) on both paths."""
    _same_run_from(run, "<dict>")


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.one_of(st.integers(0, 10**9), st.integers(-2**63, 2**63 - 1)),
                       min_size=0, max_size=40),
       dtype=st.sampled_from(["int64", "int32", "uint64"]))
def test_int_id_column_words_same_on_both_paths(values, dtype):
    """Integer ids written in decimal by the compiled core (int_fill) equal
    the Python path's words, negative and 19-digit ids included."""
    pd = pytest.importorskip("pandas")
    from ipsoeval.reading import memory as rm
    info = np.iinfo(dtype)
    col = pd.Series(np.array([v for v in values if info.min <= v <= info.max], dtype=dtype))
    c = _words_or_error("c", rm._series_words, col, "<df>", "topic id")
    p = _words_or_error("python", rm._series_words, col, "<df>", "topic id")
    _same_words(c, p)
    if not isinstance(c, tuple) and len(col):
        assert [words.id_bytes(w) for w in c] == [str(v).encode() for v in col.tolist()]


@pytest.mark.parametrize("bad", [None, "", "a b", 5])
def test_long_id_column_declined_names_the_frame_row(bad):
    """A column long enough to be factorised, broken far from its start: the
    compiled pass declines and the error names the same row as the Python path."""
    pd = pytest.importorskip("pandas")
    from ipsoeval.reading import memory as rm
    n = 70_000
    vals = (np.arange(n) % 977).astype(str).astype(object)
    vals[61_234] = bad
    col = pd.Series(vals, dtype=object)
    c = _words_or_error("c", rm._series_words, col, "<df>", "topic id")
    p = _words_or_error("python", rm._series_words, col, "<df>", "topic id")
    _same_words(c, p)
    if bad != 5:
        assert c[0] == "error" and c[3] == 61_235, c
    ok = col.copy()
    ok[61_234] = "x"
    _same_words(_words_or_error("c", rm._series_words, ok, "<df>", "topic id"),
                _words_or_error("python", rm._series_words, ok, "<df>", "topic id"))
