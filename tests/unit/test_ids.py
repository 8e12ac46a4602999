"""Identifiers are bytes: qids, docnos, run tags and run names are
never merged or split otherwise than trec_eval does, `--format trec` is
byte-identical to trec_eval's, tsv writes the bytes, json \\udcXX escapes,
the formats for people \\xNN; one warning per file names the first id that
is not UTF-8.  And an explicit --run-format is a promise (a line that does
not fit it is an input error) on every reading path.

The references: trec_eval 10.0's own output on the issue's example
(tests/data/differential/b-issue-0.out, with the other b- cases there) and,
for the generated ids, Python's bytes (their set, their order: strcmp's)."""

import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipsoeval import engine
from ipsoeval.errors import InputError
from ipsoeval.ids import decode_id, encode_id, id_sort_key, render_id
from ipsoeval.reading import compiled as _fast
from tests.conftest import ROOT, invoke, invoke_bytes

D = ROOT / "tests" / "data" / "differential"
ISSUE_Q, ISSUE_R = D / "b-issue.qrels", D / "b-issue.run"

# the compiled one-pass path, the compiled two-step path, the pure-Python path
PATHS = ("stream", "two-step", "python")


@pytest.fixture(params=PATHS)
def path(request, monkeypatch):
    mode = request.param
    if mode != "python" and _fast._core is None:
        pytest.skip("compiled core not built")
    monkeypatch.setenv("IPSOEVAL_CORE", "python" if mode == "python" else "c")
    if mode == "two-step":
        monkeypatch.setattr(_fast, "stream_run", lambda *a, **k: None)
    return mode


def _set_path(monkeypatch, mode):
    monkeypatch.setenv("IPSOEVAL_CORE", "python" if mode == "python" else "c")
    monkeypatch.setattr(_fast, "stream_run",
                        _REAL_STREAM if mode == "stream" else (lambda *a, **k: None))


_REAL_STREAM = _fast.stream_run


# --- the issue's example against trec_eval ----------------------------------------

def test_issue_example_is_trec_eval_byte_for_byte(path):
    code, out, err = invoke_bytes(["eval", "--format", "trec", "-q", "-m", "P.1",
                                   "-m", "num_q", ISSUE_Q, ISSUE_R])
    assert code == 0, err
    assert out == (D / "b-issue-0.out").read_bytes()       # trec_eval 10.0's output
    assert out.count(b"\tcaf\xe9\t") == 1 and out.count(b"\tcaf\xe8\t") == 1
    assert b"num_q                 \tall\t2\n" in out


def test_issue_example_official_measures(path):
    # trec_eval's default measures print the tag (runid) and every qid as bytes
    code, out, err = invoke_bytes(["eval", "--format", "trec", "-q", ISSUE_Q, ISSUE_R])
    assert code == 0, err
    assert out == (D / "b-issue-1.out").read_bytes()


def test_one_warning_per_file_naming_the_first_id(path):
    code, _, err = invoke(["eval", "--format", "trec", "-q", ISSUE_Q, ISSUE_R])
    lines = [ln for ln in err.splitlines() if "not UTF-8" in ln]
    assert lines == [
        f"ipsoeval: warning: {ISSUE_Q}:1: identifier is not UTF-8 (caf\\xe9); "
        "kept byte for byte (see IDENTIFIERS in man ipsoeval)",
        f"ipsoeval: warning: {ISSUE_R}:1: identifier is not UTF-8 (caf\\xe9); "
        "kept byte for byte (see IDENTIFIERS in man ipsoeval)"]


def test_warning_names_the_first_line_of_docno_or_tag(tmp_path, path):
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n1 0 b 0\n2 0 c\xff 1\n")
    r = tmp_path / "r"
    r.write_bytes(b"1 Q0 a 1 1 t\n1 Q0 b 2 0.5 t\n2 Q0 c 1 1 \xe9t\n")
    code, _, err = invoke(["eval", "--format", "trec", q, r])
    assert code == 0
    assert f"{q}:3: identifier is not UTF-8 (c\\xff)" in err
    assert f"{r}:3: identifier is not UTF-8 (\\xe9t)" in err
    assert err.count("not UTF-8") == 2


def test_valid_utf8_ids_give_no_warning(tmp_path, path):
    q = tmp_path / "q"
    q.write_bytes("é 0 文 1\n".encode())
    r = tmp_path / "r"
    r.write_bytes("é Q0 文 1 1 tä\n".encode())
    code, out, err = invoke_bytes(["eval", "--format", "trec", "-q", "-m", "P.1", q, r])
    assert code == 0 and "not UTF-8" not in err
    assert out == "P_1                   \té\t1.0000\nP_1                   \tall\t1.0000\n".encode()


# --- run tags ---------------------------------------------------------------------

def test_tags_differing_above_0x7f_are_two_runs(tmp_path, path):
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n")
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    r1.write_bytes(b"1 Q0 a 1 1 run\xe9\n")
    r2.write_bytes(b"1 Q0 b 1 1 run\xe8\n")
    code, out, err = invoke_bytes(["eval", "--format", "tsv", "-m", "P.1", q, r1, r2])
    assert code == 0, err
    assert out == b"run\tqid\tmeasure\tvalue\nrun\xe9\tall\tP@1\t1.0\nrun\xe8\tall\tP@1\t0.0\n"
    code, out, err = invoke_bytes(["eval", "--format", "trec", "-m", "runid", q, r1])
    assert out == b"runid                 \tall\trun\xe9\n"


def test_same_tag_bytes_are_one_name(tmp_path, path):
    # the same bytes in two files: the usual tag[path] disambiguation, nothing merged
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n")
    r1, r2 = tmp_path / "r1", tmp_path / "r2"
    r1.write_bytes(b"1 Q0 a 1 1 run\xe9\n")
    r2.write_bytes(b"1 Q0 b 1 1 run\xe9\n")
    code, out, err = invoke_bytes(["eval", "--format", "tsv", "-m", "P.1", q, r1, r2])
    assert code == 0, err
    rows = out.splitlines()[1:]
    assert rows == [b"run\xe9[" + os.fsencode(r1) + b"]\tall\tP@1\t1.0",
                    b"run\xe9[" + os.fsencode(r2) + b"]\tall\tP@1\t0.0"]


# --- order ------------------------------------------------------------------------

def test_topics_in_byte_order(tmp_path, path):
    # U+E000 (EE 80 80) sorts after the escaped byte EF as a Python str, before it
    # as bytes (strcmp); likewise the emoji (F0 ..) and the lone byte F5
    ids = [b"\xef", b"\xee\x80\x80", b"\xf5", "😀".encode(), b"a", "é".encode(), b"\xe9"]
    q = tmp_path / "q"
    q.write_bytes(b"".join(b"%s 0 d 1\n" % i for i in ids))
    r = tmp_path / "r"
    r.write_bytes(b"".join(b"%s Q0 d 1 1 t\n" % i for i in ids))
    code, out, err = invoke_bytes(["eval", "--format", "tsv", "-q", "-m", "P.1", q, r])
    assert code == 0, err
    got = [ln.split(b"\t")[1] for ln in out.splitlines()[1:]]
    assert got == sorted(ids) + [b"all"]
    assert sorted(ids) != [encode_id(s) for s in sorted(decode_id(i) for i in ids)]


def test_equal_scores_ordered_by_docno_bytes(tmp_path, path):
    # trec_eval: ties by docno descending, strcmp -- as bytes, not as str
    docs = [b"\xef", b"\xee\x80\x80", b"a"]
    q = tmp_path / "q"
    q.write_bytes(b"1 0 \xee\x80\x80 1\n")
    r = tmp_path / "r"
    r.write_bytes(b"".join(b"1 Q0 %s %d 1 t\n" % (d, k) for k, d in enumerate(docs)))
    # descending bytes: EF, EE 80 80, a -- the relevant document is second
    code, out, _ = invoke_bytes(["eval", "--format", "trec", "-m", "P.1,2", q, r])
    assert out == b"P_1                   \tall\t0.0000\nP_2                   \tall\t0.5000\n"


# --- formats ----------------------------------------------------------------------

def test_formats_render_ids_reversibly(tmp_path):
    out = {}
    for fmt in ("tsv", "json", "jsonl", "table", "markdown", "latex"):
        code, out[fmt], err = invoke_bytes(["eval", "--format", fmt, "-q", "-m", "P.1",
                                            ISSUE_Q, ISSUE_R])
        assert code == 0, err
    assert b"\tcaf\xe9\tP@1\t1.0\n" in out["tsv"] and b"\tcaf\xe8\tP@1\t0.0\n" in out["tsv"]
    doc = json.loads(out["json"])                    # valid UTF-8 JSON, \udcXX escapes
    qids = [encode_id(r["qid"]) for r in doc["results"]]
    assert qids == [b"caf\xe8", b"caf\xe9", b"all"]
    assert b"caf\\udce9" in out["json"]
    lines = [json.loads(ln) for ln in out["jsonl"].decode("utf-8").splitlines()]
    assert [encode_id(r["qid"]) for r in lines] == qids
    for fmt in ("table", "markdown"):
        text = out[fmt].decode("utf-8")              # valid UTF-8: bytes shown as \xNN
        assert "caf\\xe9" in text and "caf\\xe8" in text
    assert "caf\\textbackslash{}xe9" in out["latex"].decode("utf-8")


def test_output_file_holds_the_bytes(tmp_path):
    o = tmp_path / "o.tsv"
    code, out, err = invoke_bytes(["eval", "--format", "tsv", "-q", "-m", "P.1", "-o", o,
                                   ISSUE_Q, ISSUE_R])
    assert code == 0 and out == b""
    assert b"\tcaf\xe9\tP@1\t1.0\n" in o.read_bytes()


def test_scores_file_reads_back_the_bytes(tmp_path):
    # tsv written with ids as bytes reads back as the same topics (--scores)
    q, r1, r2 = tmp_path / "q", tmp_path / "r1", tmp_path / "r2"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 1\nx 0 a 1\n")
    r1.write_bytes(b"caf\xe9 Q0 a 1 1 A\xff\ncaf\xe8 Q0 b 1 1 A\xff\nx Q0 a 1 1 A\xff\n")
    r2.write_bytes(b"caf\xe9 Q0 b 1 1 B\ncaf\xe8 Q0 a 1 1 B\nx Q0 a 1 1 B\n")
    s = tmp_path / "s.tsv"
    code, _, err = invoke_bytes(["eval", "--format", "tsv", "-q", "-m", "P.1", "-o", s, q, r1,
                                 r2])
    assert code == 0, err
    code, out, err = invoke_bytes(["sigtest", "--format", "tsv", "--test", "sign", "-m", "P@1",
                                   "--scores", s])
    assert code == 0, err
    assert b"A\xff" in out


def test_render_id():
    s = decode_id(b"caf\xe9\xc3\xa9")
    assert s == "caf\udce9é"
    assert render_id(s, "tsv") == s and render_id(s, "json") == s
    assert render_id(s, "table") == "caf\\xe9é"
    assert id_sort_key(s) == b"caf\xe9\xc3\xa9"


# --- generated ids: never merged, round trips, every reading path agrees -----------

HIGH = st.binary(min_size=1, max_size=10).map(
    lambda b: bytes(0x80 | x if x < 0xC0 else x for x in b))   # bytes >= 0x80 only
IDS = st.one_of(HIGH, st.tuples(st.sampled_from([b"", b"q", b"doc1", b"\xc3\xa9"]), HIGH,
                                st.sampled_from([b"", b"x", b"\xe6\x96\x87"]))
                .map(lambda t: b"".join(t)))


def _ids_files(tmp_path, qids, docs, tags):
    q_lines, r_lines = [], []
    for i, t in enumerate(qids):
        for j, d in enumerate(docs):
            if (i + j) % 2 == 0:
                q_lines.append(b"%s 0 %s %d" % (t, d, (i * 7 + j) % 3))
            r_lines.append(b"%s Q0 %s %d %d %s" % (t, d, j + 1, (j * 5 + i) % 3,
                                                   tags[(i + j) % len(tags)]))
    q = tmp_path / "q"
    q.write_bytes(b"\n".join(q_lines) + b"\n")
    r = tmp_path / "r"
    r.write_bytes(b"\n".join(r_lines) + b"\n")
    judged = {t for i, t in enumerate(qids) if any((i + j) % 2 == 0 for j in range(len(docs)))}
    return q, r, judged


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(qids=st.lists(IDS, min_size=1, max_size=5, unique=True),
       docs=st.lists(IDS, min_size=1, max_size=6, unique=True),
       tags=st.lists(IDS, min_size=1, max_size=2))
def test_generated_ids_never_merged_and_round_trip(tmp_path_factory, monkeypatch, qids, docs,
                                                   tags):
    d = tmp_path_factory.mktemp("ids")
    q, r, judged = _ids_files(d, qids, docs, tags)
    got = {}
    for mode in PATHS:
        with monkeypatch.context() as m:
            _set_path(m, mode)
            try:
                got[mode] = engine.load(str(q), [str(r)], queries="qrels")
            except InputError as exc:
                got[mode] = str(exc)
    a = got["python"]
    for mode in ("stream", "two-step"):
        b = got[mode]
        assert type(a) is type(b)
        if isinstance(a, str):
            assert a == b
            continue
        assert a.topics == b.topics and a.runs == b.runs and a.warnings == b.warnings
        assert np.array_equal(a.labels, b.labels) and np.array_equal(a.n_ret, b.n_ret)
    if isinstance(a, str):
        return
    # never merged: one topic per distinct qid of the qrels, in byte order
    want = sorted(judged)
    assert [encode_id(t) for t in a.topics] == want
    assert a.runs == [decode_id(tags[(len(qids) - 1 + len(docs) - 1) % len(tags)])]
    assert a.n_ret.tolist() == [[len(docs)] * len(want)]
    # tsv and json give the bytes back
    code, out, err = invoke_bytes(["eval", "--format", "tsv", "-q", "-m", "num_ret", q, r])
    assert code == 0, err
    rows = [ln.split(b"\t") for ln in out.splitlines()[1:]]
    assert [row[1] for row in rows] == want + [b"all"]
    assert {row[0] for row in rows} == {encode_id(a.runs[0])}
    code, out, err = invoke_bytes(["eval", "--format", "json", "-q", "-m", "num_ret", q, r])
    recs = json.loads(out)["results"]
    assert [encode_id(x["qid"]) for x in recs] == want + [b"all"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids=st.lists(st.binary(min_size=1, max_size=12).map(
    lambda b: bytes(x if x > 32 else x + 0x61 for x in b)), min_size=1, max_size=6))
def test_compiled_utf8_check_is_pythons(tmp_path_factory, monkeypatch, ids):
    """The compiled reader's UTF-8 check (utf8_valid in _core.c) says what
    Python's strict decoder says: the same warning, naming the same line."""
    if _fast._core is None:
        pytest.skip("compiled core not built")
    from ipsoeval import reading as readers
    p = tmp_path_factory.mktemp("u") / "q"
    p.write_bytes(b"".join(b"q%d 0 %s 1\n" % (i, d) for i, d in enumerate(ids)))
    got = {}
    for mode in ("c", "python"):
        monkeypatch.setenv("IPSOEVAL_CORE", mode)
        got[mode] = readers.read_qrels(str(p)).warnings
    first = next((i for i, d in enumerate(ids) if not _utf8(d)), None)
    assert got["c"] == got["python"]
    assert len(got["c"]) == (first is not None)
    if first is not None:
        assert f"{p}:{first + 1}: identifier is not UTF-8" in got["c"][0]


def _utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


# --- the Python API ---------------------------------------------------------------

def test_api_str_ids_round_trip():
    from ipsoeval import api
    qa, qb = "caf\udce9", "caf\udce8"
    qrels = {qa: {"d\udcff": 1, "e": 0}, qb: {"d\udcfe": 1}, "é": {"x": 1}}
    run = {qa: {"d\udcff": 1.0, "e": 2.0}, qb: {"d\udcff": 1.0}, "é": {"x": 1.0}}
    res = api.evaluate(qrels, {"r\udce9": run}, measures=["P@1"])
    pq = res.per_query()
    assert list(pq) == ["r\udce9"]
    assert set(pq["r\udce9"]) == {qa, qb, "é"}
    assert pq["r\udce9"][qa]["P@1"] == 0.0 and pq["r\udce9"][qb]["P@1"] == 0.0
    assert pq["r\udce9"]["é"]["P@1"] == 1.0


def test_api_bytes_and_str_ids_are_the_same_id():
    from ipsoeval import api
    res = api.evaluate({b"caf\xe9": {b"d": 1}}, {"r": {"caf\udce9": {"d": 1.0}}},
                       measures=["P@1"])
    assert res.per_query() == {"r": {"caf\udce9": {"P@1": 1.0}}}


def test_api_refuses_non_canonical_escapes():
    # '\udcc3\udca9' encodes to the bytes of 'é': it would come back as 'é'
    from ipsoeval import api
    with pytest.raises(InputError, match="surrogateescape form"):
        api.evaluate({"\udcc3\udca9": {"d": 1}}, {"r": {"\udcc3\udca9": {"d": 1.0}}},
                     measures=["P@1"])
    with pytest.raises(InputError, match="not valid text"):
        api.evaluate({"\ud800": {"d": 1}}, {"r": {"\ud800": {"d": 1.0}}}, measures=["P@1"])


# --- an explicit --run-format is a promise ----------------------------------------

@pytest.mark.parametrize("fmt,lines,found", [
    ("msmarco", b"1 Q0 a 1 1 t\n1 Q0 b 2 0.5 t\n", 6),
    ("trec", b"1\ta\t1\n1\tb\t2\n", 3),
])
def test_explicit_run_format_refuses_other_lines(tmp_path, path, fmt, lines, found):
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n1 0 b 0\n")
    r = tmp_path / "r"
    r.write_bytes(lines)
    want = "3 fields" if fmt == "msmarco" else "6 or more fields"
    for cmd in (["eval", "--format", "trec", "-m", "P.1"], ["eval", "--format", "tsv"],
                ["sigtest", "--format", "tsv", "-m", "P@1"]):
        args = [*cmd, "--run-format", fmt, q, r] + ([r] if cmd[0] == "sigtest" else [])
        code, out, err = invoke(args)
        assert code == 3 and out == "", (cmd, err)
        assert err == f"ipsoeval: error: {r}:1: --run-format {fmt} expects {want} " \
                      f"(found {found})\n", (cmd, err)


def test_explicit_run_format_later_line(tmp_path, path):
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n")
    r = tmp_path / "r"
    r.write_bytes(b"1 a 1\n1 b 2\n1 Q0 c 3 1 t\n")
    code, _, err = invoke(["eval", "--run-format", "msmarco", q, r])
    assert code == 3
    assert err == f"ipsoeval: error: {r}:3: --run-format msmarco expects 3 fields (found 6)\n"


def test_auto_format_still_reads_both(tmp_path, path):
    q = tmp_path / "q"
    q.write_bytes(b"1 0 a 1\n1 0 b 0\n")
    r3, r6 = tmp_path / "r3", tmp_path / "r6"
    r3.write_bytes(b"1\tb\t1\n1\ta\t2\n")
    r6.write_bytes(b"1 Q0 a 1 1 t\n1 Q0 b 2 0.5 t\n")
    code, out, err = invoke(["eval", "--format", "trec", "-m", "P.1", q, r3])
    assert (code, out) == (0, "P_1                   \tall\t0.0000\n"), err
    code, out, err = invoke(["eval", "--format", "trec", "-m", "P.1", "--run-format", "msmarco",
                             q, r3])
    assert (code, out) == (0, "P_1                   \tall\t0.0000\n"), err
    code, out, err = invoke(["eval", "--format", "trec", "-m", "P.1", "--run-format", "trec",
                             q, r6])
    assert (code, out) == (0, "P_1                   \tall\t1.0000\n"), err


# --- the quick path (trec_eval's official measures without numpy) ------------------

@pytest.mark.parametrize("qrels,run", [
    (b"caf\xe9 0 a 1\n", b"caf\xe9 Q0 a 1 1 t\n"),          # qid not UTF-8: warned
    (b"1 0 a\xff 1\n", b"1 Q0 a\xff 1 1 t\n"),              # docno not UTF-8: warned
    (b"1 0 a 1\n", b"1 Q0 a 1 1 t\n1 Q0 b\xc3 2 0 t\n"),    # a truncated sequence
])
def test_quick_path_declines_ids_that_are_not_utf8(tmp_path, qrels, run):
    if _fast._core is None:
        pytest.skip("compiled core not built")
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes(qrels)
    r.write_bytes(run)
    assert _fast._core.eval_official(os.fsencode(q), [os.fsencode(r)]) is None


def test_quick_path_serves_valid_utf8_ids(tmp_path):
    if _fast._core is None:
        pytest.skip("compiled core not built")
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes("é 0 文 1\né 0 b 0\n".encode())
    r.write_bytes("é Q0 文 1 1 tä\né Q0 b 2 0 tä\n".encode())
    got = _fast._core.eval_official(os.fsencode(q), [os.fsencode(r)])
    code, out, err = invoke_bytes(["eval", "--format", "trec", q, r])
    assert got is not None and got[0] == out and code == 0 and err == ""


# --- plots: no font draws a lone surrogate; ids that are not UTF-8 are drawn as \xNN ---

@pytest.mark.parametrize("cmd", [["sigtest", "-m", "P@1"], ["ipso"], ["breakdown"],
                                 ["bootstrap", "-m", "P@1", "--samples", "20"],
                                 ["interval-map", "-m", "P", "-N", "3"]])
def test_plots_draw_ids_that_are_not_utf8(tmp_path, cmd):
    pytest.importorskip("matplotlib")
    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\nx 0 a 1\n")
    a.write_bytes(b"caf\xe9 Q0 a 1 1 A\xe9\ncaf\xe8 Q0 a 1 1 A\xe9\ncaf\xe8 Q0 b 2 0.5 A\xe9\n"
                  b"x Q0 b 1 1 A\xe9\n")
    b.write_bytes(b"caf\xe9 Q0 b 1 1 B\ncaf\xe8 Q0 b 1 1 B\nx Q0 a 1 1 B\n")
    svg = tmp_path / "p.svg"
    code, _, err = invoke_bytes([*cmd, "--format", "tsv", "--plot", svg, q, a, b])
    assert code == 0, err
    assert "A\\xe9" in svg.read_text()


def test_to_frame_keeps_ids_that_are_not_utf8(tmp_path):
    """pandas' Arrow-backed strings (pandas 3 with pyarrow installed) refuse
    surrogateescape strs: to_frame() falls back to object columns for them,
    and the ids still round-trip to the original bytes."""
    pd = pytest.importorskip("pandas")
    import warnings

    import ipsoeval
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\n")
    r.write_bytes(b"caf\xe9 Q0 a 1 1 t\ncaf\xe8 Q0 a 1 1 t\ncaf\xe8 Q0 b 2 0.5 t\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = ipsoeval.evaluate(str(q), str(r), ["P@1"]).to_frame()
    assert sorted(x.encode("utf-8", "surrogateescape") for x in frame["qid"]) == \
        [b"caf\xe8", b"caf\xe9"]
    assert pd.api.types.is_float_dtype(frame["value"])


def test_parquet_output_keeps_ids_that_are_not_utf8(tmp_path):
    """--format parquet: a column holding an id that is not UTF-8 is a binary
    column of the original bytes (pyarrow's strings refuse a lone surrogate:
    an internal error before, found by the fuzz)."""
    pq = pytest.importorskip("pyarrow.parquet")
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\n")
    r.write_bytes(b"caf\xe9 Q0 a 1 1 t\ncaf\xe8 Q0 a 1 1 t\ncaf\xe8 Q0 b 2 0.5 t\n")
    out = tmp_path / "o.parquet"
    code, _, err = invoke(["eval", "-q", "-m", "P@1", "--format", "parquet", "-o", str(out),
                           str(q), str(r)])
    assert code == 0, err
    qids = pq.read_table(str(out)).column("qid").to_pylist()
    assert sorted(set(qids)) == [b"all", b"caf\xe8", b"caf\xe9"]
