"""Runs as Parquet / Arrow tables read and aligned in one pass.

The compiled core reads a table's record batches from their Arrow buffers
(dictionary indices and words, string offsets and bytes, int64 ids) into
the same one-pass aligner as a text file (``reading.arrow.stream_run``).
Every layout -- plain, dictionary-encoded, large_string, binary and integer
ids; one or several row groups / record batches; Parquet, Arrow IPC file
and stream -- must give the text path's output byte for byte, on random
runs with odd docnos, ties, topics split across batches or not grouped at
all, and ids that are not UTF-8.  Nulls and bad ids keep today's error
(FILE:ROW, exit 3), and the one pass must be the path taken for the
ordinary layouts (else it would be slow, not wrong: checked too).
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ROOT, invoke, invoke_bytes

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from tests.fuzz import harness  # noqa: E402

KINDS = ["parquet", "arrow", "arrow-stream"]
EXT = {"parquet": "parquet", "arrow": "arrow", "arrow-stream": "arrows"}
LAYOUTS = harness.ID_LAYOUTS


def _ok(args) -> bytes:
    code, out, err = invoke_bytes(args)
    assert code == 0, err
    return out


def random_case(seed: int, integer_ids: bool = False, grouped: bool = True):
    """(qrels text, run columns, run text) of a random run: 1-6 topics of
    1-40 documents, scores with many ties, odd docnos (punctuation, UTF-8,
    a long id over the 248-byte prefix, '#'), some topics unjudged, a
    topic missing from the run (the first topic is judged); rows shuffled when not ``grouped``."""
    rng = np.random.default_rng(seed)
    ntop = int(rng.integers(1, 7))
    topics = [str(int(t)) for t in rng.choice(900, ntop, replace=False) + 1] if integer_ids \
        else [f"q{t}" if t % 3 else f"{t}.x" for t in range(ntop)]
    odd = ["D-1", "d.2", "x\u00e9y", "#5", "A" * 300 + "1", "A" * 300 + "2", "\u4e2d7",
           "007", "70"]
    rows, qrels = [], []
    for t in topics:
        n = int(rng.integers(1, 41))
        if integer_ids:
            docs = [str(int(d)) for d in rng.choice(5000, n, replace=False)]
        else:
            pool = odd + [f"doc{int(d)}" for d in rng.choice(5000, 60, replace=False)]
            docs = list(dict.fromkeys(rng.choice(pool, n, replace=True).tolist()))
        scores = rng.integers(0, 6, len(docs)).astype(float) / 2     # ties
        if rng.random() < 0.2:
            scores = -scores
        for d, s in zip(docs, scores):
            rows.append((t, d, float(s)))
        if rng.random() < 0.85 or t == topics[0]:
            for d in docs[: int(rng.integers(1, len(docs) + 1))]:
                qrels.append(f"{t} 0 {d} {int(rng.integers(-1, 4))}")
    missing = "999999" if integer_ids else "absent"
    qrels.append(f"{missing} 0 d 1")
    if not grouped:
        rows = [rows[i] for i in rng.permutation(len(rows))]
    tag = "run" + str(seed)
    run_text = "".join(f"{q} Q0 {d} {i} {s!r} {tag}\n" for i, (q, d, s) in enumerate(rows))
    cols = {"qid": [q for q, _, _ in rows], "docno": [d for _, d, _ in rows],
            "score": [s for _, _, s in rows], "tag": [tag] * len(rows)}
    return "\n".join(qrels) + "\n", cols, run_text


def _files(tmp_path, seed, kind, layout, chunk, grouped=True):
    qrels, cols, run_text = random_case(seed, integer_ids=layout == "int", grouped=grouped)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(run_text)
    table = tmp_path / f"r.{EXT[kind]}"
    table.write_bytes(harness.table_bytes(cols, kind, layout=layout, chunk=chunk))
    return tmp_path / "q.txt", tmp_path / "r.txt", table


ARGS = ["eval", "-q", "--format", "trec", "-m", "all_trec", "-m", "nDCG@5", "-m", "RR@3"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_gives_the_text_paths_bytes(kind, layout, tmp_path):
    """Random runs in each layout, whole and in batches of 1, 3 and 17 rows
    (topics split across row groups), grouped by topic or not: the text
    path's output byte for byte."""
    for seed in range(4):
        chunk = [None, 1, 3, 17][seed]
        q, text, table = _files(tmp_path, seed * 7 + len(layout), kind, layout, chunk,
                                grouped=seed != 2)
        assert _ok([*ARGS, q, table]) == _ok([*ARGS, q, text]), (seed, chunk)


@pytest.mark.parametrize("opts", [["-M", "5"], ["-J"], ["--tie-break", "docno-asc"],
                                  ["--tie-break", "input"], ["-c"], ["-l", "2"]])
def test_alignment_options(opts, tmp_path):
    """Depth, judged-only, the tie rules, -c and -l: as the text path."""
    for layout in ("dictionary", "int"):
        q, text, table = _files(tmp_path, 11, "parquet", layout, 5)
        assert _ok([*ARGS, *opts, q, table]) == _ok([*ARGS, *opts, q, text])


def _read(path, qrels_path, **kw):
    from ipsoeval.align import QrelsIndex
    from ipsoeval.reading import read_for_alignment, read_qrels
    qi = QrelsIndex(read_qrels(str(qrels_path)))
    return read_for_alignment(str(path), qi, **kw)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_one_pass_is_the_path_taken(kind, layout, tmp_path):
    """An ordinary table (grouped by topic, valid UTF-8 ids under the long-id
    bound) is read and aligned in one pass, in every layout; one the C pass
    does not take (topics not grouped, a non-UTF-8 id) is read whole."""
    from ipsoeval.reading.compiled import Streamed
    rows = {"qid": ["10", "10", "10", "2", "2", "31"],
            "docno": ["7", "12", "5", "7", "400", "1"],
            "score": [3.0, 2.0, 2.0, 1.0, 0.5, 9.0], "tag": ["t"] * 6}
    (tmp_path / "q.txt").write_text("10 0 7 1\n2 0 400 2\n31 0 9 1\n")
    path = tmp_path / f"r.{EXT[kind]}"
    path.write_bytes(harness.table_bytes(rows, kind, layout=layout, chunk=2))
    got = _read(path, tmp_path / "q.txt")
    assert isinstance(got, Streamed) and got.name == "t" and got.names == ["10", "2", "31"]
    shuffled = dict(rows, qid=["10", "2", "10", "2", "10", "31"])
    path.write_bytes(harness.table_bytes(shuffled, kind, layout=layout))
    assert not isinstance(_read(path, tmp_path / "q.txt"), Streamed)
    if layout != "int":
        bad = dict(rows, docno=["7", "12", "5", "7", "x\udcff", "1"])
        path.write_bytes(harness.table_bytes(bad, kind, layout=layout))
        assert not isinstance(_read(path, tmp_path / "q.txt"), Streamed)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", ["plain", "dictionary", "large", "int"])
@pytest.mark.parametrize("column", ["qid", "docno", "score"])
def test_nulls_keep_the_error_and_its_row(kind, layout, column, tmp_path):
    """A null in a later batch: exit 3 and the row of the whole table (the
    one pass declines; the whole-table reader names it), nothing printed."""
    rows = {"qid": ["1"] * 4 + ["2"] * 4, "docno": [str(i) for i in range(8)],
            "score": [float(8 - i) for i in range(8)], "tag": ["t"] * 8}
    rows[column] = list(rows[column])
    rows[column][6] = None
    (tmp_path / "q.txt").write_text("1 0 1 1\n2 0 5 1\n")
    path = tmp_path / f"r.{EXT[kind]}"
    path.write_bytes(harness.table_bytes(rows, kind, layout=layout, chunk=3))
    code, out, err = invoke(["eval", "-m", "AP", tmp_path / "q.txt", path])
    what = {"qid": "topic id", "docno": "document id", "score": "score"}[column]
    assert code == 3 and out == "", err
    assert err.strip() == f"ipsoeval: error: {path}:7: missing {what} (null in column {column})"


def test_bad_values_keep_todays_errors(tmp_path, monkeypatch):
    """What the one pass declines and the whole-table reader refuses: a
    score that is not finite, an id holding a blank, an empty id, a docno
    twice in a topic -- the same message with and without the compiled core."""
    (tmp_path / "q.txt").write_text("1 0 a 1\n")
    cases = [({"score": [1.0, float("inf"), 0.5]}, ":2: score is not a finite number"),
             ({"docno": ["a", "b c", "d"]}, ":2: document id b'b c' holds a blank"),
             ({"docno": ["a", "", "d"]}, ":2: document id is empty"),
             ({"docno": ["a", "b", "a"]}, "")]
    for change, expect in cases:
        rows = {"qid": ["1", "1", "1"], "docno": ["a", "b", "d"], "score": [3.0, 2.0, 1.0]}
        rows.update(change)
        path = tmp_path / "r.parquet"
        path.write_bytes(harness.table_bytes(rows, "parquet", chunk=1))
        errs = []
        for core in ("auto", "python"):
            monkeypatch.setenv("IPSOEVAL_CORE", core)
            code, out, err = invoke(["eval", "-m", "AP", tmp_path / "q.txt", path])
            assert code == 3 and out == "", err
            errs.append(err)
        assert errs[0] == errs[1] and expect in errs[0], errs


def test_rank_only_and_other_number_types(tmp_path):
    """An MS MARCO table (rank, no score), float32 and integer scores, int32
    and uint16 ids, int8 dictionary indices: the text path's bytes."""
    (tmp_path / "q.txt").write_text("5 0 3 1\n5 0 40 2\n6 0 1 1\n")
    (tmp_path / "m.txt").write_text("5\t40\t2\n5\t3\t1\n5\t9\t3\n6\t1\t1\n")
    rank = pa.table({"qid": pa.array([5, 5, 5, 6], pa.int32()),
                     "docno": pa.array([40, 3, 9, 1], pa.uint16()),
                     "rank": pa.array([2, 1, 3, 1], pa.int16())})
    pq.write_table(rank, tmp_path / "m.parquet")
    args = [*ARGS, "--name", "m", tmp_path / "q.txt"]
    assert _ok([*args, tmp_path / "m.parquet"]) == _ok([*args, tmp_path / "m.txt"])
    (tmp_path / "r.txt").write_text("5 Q0 40 1 2.5 t\n5 Q0 3 2 2.5 t\n6 Q0 1 1 7 t\n")
    docs = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2], pa.int8()),
                                          pa.array(["40", "3", "1"]))
    for score in (pa.array([2.5, 2.5, 7.0], pa.float32()), pa.array([2.5, 2.5, 7.0])):
        t = pa.table({"qid": ["5", "5", "6"], "docno": docs, "score": score,
                      "tag": ["t"] * 3})
        pq.write_table(t, tmp_path / "r.parquet")
        assert _ok([*args, tmp_path / "r.parquet"]) == _ok([*args, tmp_path / "r.txt"])
    ints = pa.table({"qid": ["5", "5", "6"], "docno": ["40", "3", "1"],
                     "score": pa.array([3, 3, 7], pa.int64()), "tag": ["t"] * 3})
    pq.write_table(ints, tmp_path / "i.parquet")
    (tmp_path / "i.txt").write_text("5 Q0 40 1 3 t\n5 Q0 3 2 3 t\n6 Q0 1 1 7 t\n")
    assert _ok([*args, tmp_path / "i.parquet"]) == _ok([*args, tmp_path / "i.txt"])


def test_sliced_and_chunked_arrays(tmp_path):
    """Batches whose arrays start at an offset into shared buffers (a table
    sliced before writing keeps them; an IPC stream of slices), several
    chunks per column: the text path's bytes."""
    qrels, cols, run_text = random_case(5)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(run_text)
    table = pa.table(cols)
    n = table.num_rows
    parts = [table.slice(0, n // 3), table.slice(n // 3, n // 3), table.slice(2 * (n // 3))]
    with pa.ipc.new_stream(tmp_path / "r.arrows", table.schema) as w:
        for part in parts:
            for batch in part.to_batches(max_chunksize=4):
                w.write_batch(batch)
    assert _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.arrows"]) == \
        _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.txt"])


def test_no_pandas_on_the_columnar_path(tmp_path):
    """Reading a Parquet run (dictionary topic ids, float scores) and an
    Arrow IPC run imports no pandas (its import alone costs more than the
    read)."""
    qrels, cols, run_text = random_case(3)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.parquet").write_bytes(harness.table_bytes(cols, "parquet"))
    (tmp_path / "r.arrow").write_bytes(harness.table_bytes(cols, "arrow", layout="large"))
    code = ("import sys\nfrom ipsoeval.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pandas' in sys.modules, file=sys.stderr)\n")
    for run in ("r.parquet", "r.arrow"):
        out = subprocess.run([sys.executable, "-c", code, "eval", "-m", "AP", "q.txt", run],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, out.stderr
        assert out.stderr.strip().splitlines()[-1] == "False", out.stderr


def test_parquet_read_without_pyarrow_parquet(tmp_path):
    """A Parquet run and Parquet qrels are read through pyarrow's reader
    itself: ``pyarrow.parquet`` (whose import costs more CPU than a small
    file's read) is not imported, and the output is the text path's."""
    import pyarrow.csv  # noqa: F401
    qrels, cols, run_text = random_case(5)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(run_text)
    (tmp_path / "r.parquet").write_bytes(harness.table_bytes(cols, "parquet", chunk=7))
    qtable = pa.csv.read_csv(pa.py_buffer(qrels.encode()), read_options=pa.csv.ReadOptions(
        column_names=["qid", "it", "docno", "label"]), parse_options=pa.csv.ParseOptions(
        delimiter=" "), convert_options=pa.csv.ConvertOptions(column_types={
            "qid": pa.string(), "docno": pa.string(), "label": pa.int64()}))
    pq.write_table(qtable.select(["qid", "docno", "label"]), tmp_path / "q.parquet")
    code = ("import sys\nfrom ipsoeval.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pyarrow.parquet' in sys.modules, file=sys.stderr)\n")
    want = _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.txt"])
    for q in ("q.txt", "q.parquet"):
        out = subprocess.run([sys.executable, "-c", code, *map(str, ARGS), q, "r.parquet"],
                             cwd=tmp_path, capture_output=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, out.stderr
        assert out.stderr.decode().strip().splitlines()[-1] == "False", out.stderr
        assert out.stdout == want


@pytest.mark.parametrize("index", range(0, 40, 4))
def test_differential_cases_as_tables(index, tmp_path):
    """Runs of the trec_eval differential corpus (tests/data/differential,
    each checked against trec_eval by test_differential.py) as tables in a
    rotating layout: ipsoeval's output on the table is its output on the
    text, byte for byte, with the case's options."""
    import json
    d = ROOT / "tests" / "data" / "differential"

    def columns(case):      # None: a run no table holds (comments, hex scores, ...)
        try:
            return harness.text_columns((d / (case["input"] + ".run")).read_bytes(), False)
        except (ValueError, UnicodeDecodeError):
            return None

    cases = [c for c in json.loads((d / "cases.json").read_text()) if columns(c)]
    assert len(cases) > 80
    case = cases[index * 7 % len(cases)]
    run = d / (case["input"] + ".run")
    cols = columns(case)
    kind = KINDS[index % 3]
    layout = LAYOUTS[index // 4 % len(LAYOUTS)]
    table = tmp_path / f"r.{EXT[kind]}"
    table.write_bytes(harness.table_bytes(cols, kind, layout=layout, chunk=[None, 9][index % 2]))
    qrels = d / (case["input"] + ".qrels")
    args = ["eval", "--format", "trec", *case["args"], "--name", "x", qrels]
    want = invoke_bytes([*args, run])
    got = invoke_bytes([*args, table])
    assert got[0] == want[0] and got[1] == want[1], (case, got[2], want[2])
