"""Arrow IPC files read without pyarrow (ipsoeval.reading.ipcfile).

The plain layout (uncompressed, flat string/binary/int64 ids, float64
scores) is parsed from the file's own flatbuffers: each column's buffers
must be pyarrow's byte for byte, the output the text path's, and pyarrow
never imported.  Everything else (dictionary ids, compression, other
types, nulls, damaged files) goes to pyarrow as before: same output, same
errors, never a crash.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ROOT, invoke_bytes

pa = pytest.importorskip("pyarrow")
import pyarrow.feather as feather  # noqa: E402

from ipsoeval.reading import ipcfile  # noqa: E402
from tests.fuzz import harness  # noqa: E402
from tests.unit.reading.test_arrow_columnar import ARGS, random_case  # noqa: E402


def _pyarrow_batches(data: bytes):
    reader = pa.ipc.open_file(pa.py_buffer(data))
    return reader.schema, [reader.get_batch(i) for i in range(reader.num_record_batches)]


@pytest.mark.parametrize("layout", harness.ID_LAYOUTS)
@pytest.mark.parametrize("chunk", [None, 1, 3, 17])
def test_buffers_are_pyarrows(layout, chunk, tmp_path):
    """Every batch's rows, null counts and buffers as pyarrow reads them;
    dictionary-encoded ids are not the plain layout (None)."""
    _, cols, _ = random_case(4, integer_ids=layout == "int")
    data = harness.table_bytes(cols, "arrow", layout=layout, chunk=chunk)
    path = tmp_path / "r.arrow"
    path.write_bytes(data)
    got = ipcfile.open_file(str(path))
    if layout == "dictionary":
        assert got is None
        return
    schema, batches = _pyarrow_batches(data)
    assert got.names == schema.names
    assert [c.int64 for c in got.columns] == [t == pa.int64() for t in schema.types]
    assert [c.float64 for c in got.columns] == [t == pa.float64() for t in schema.types]
    assert [c.wide for c in got.columns] == \
        [t in (pa.large_string(), pa.large_binary()) for t in schema.types]
    assert len(got.batches) == len(batches)
    for mine, theirs in zip(got.batches, batches):
        assert mine.num_rows == theirs.num_rows
        for (nulls, views), col in zip(mine.columns, theirs.columns):
            assert nulls == col.null_count
            want = [b"" if b is None else b.to_pybytes() for b in col.buffers()]
            assert [bytes(v) for v in views] == want


def _eval_in_child(tmp_path, run: str):
    """(stdout, whether pyarrow was imported) of eval on q.txt and ``run``."""
    code = ("import sys\nfrom ipsoeval.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pyarrow' in sys.modules, file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code, *ARGS, "q.txt", run], cwd=tmp_path,
                         capture_output=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    return out.stdout, out.stderr.decode().strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("layout", ["plain", "large", "int", "dictionary"])
def test_plain_layout_without_pyarrow(layout, tmp_path):
    """eval on a plain IPC file imports no pyarrow; a dictionary-encoded one
    is read by pyarrow; both give the text path's bytes."""
    rng = np.random.default_rng(9)
    cols = {"qid": [], "docno": [], "score": [], "tag": []}
    for t in (3, 17, 250):
        n = int(rng.integers(5, 30))
        cols["qid"] += [str(t)] * n
        cols["docno"] += [str(int(d)) for d in rng.choice(900, n, replace=False)]
        cols["score"] += (rng.integers(0, 8, n) / 4).tolist()
        cols["tag"] += ["sys"] * n
    (tmp_path / "q.txt").write_text("".join(f"{q} 0 {d} {int(rng.integers(0, 3))}\n" for q, d in
                                            zip(cols["qid"][::2], cols["docno"][::2])))
    (tmp_path / "r.txt").write_text("".join(
        f"{q} Q0 {d} {i + 1} {s!r} sys\n" for i, (q, d, s) in
        enumerate(zip(cols["qid"], cols["docno"], cols["score"]))))
    (tmp_path / "r.arrow").write_bytes(harness.table_bytes(cols, "arrow", layout=layout,
                                                           chunk=5))
    want, _ = _eval_in_child(tmp_path, "r.txt")
    got, imported = _eval_in_child(tmp_path, "r.arrow")
    assert got == want
    assert imported == (layout == "dictionary")


def _ok(args) -> bytes:
    code, out, err = invoke_bytes(args)
    assert code == 0, err
    return out


@pytest.mark.parametrize("compression", ["lz4", "zstd"])
def test_compressed_files_go_to_pyarrow(compression, tmp_path):
    qrels, cols, run_text = random_case(12)
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(run_text)
    feather.write_feather(pa.table(cols), tmp_path / "r.arrow", compression=compression)
    assert ipcfile.open_file(str(tmp_path / "r.arrow")) is None
    assert _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.arrow"]) == \
        _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.txt"])


def test_other_columns_go_to_pyarrow(tmp_path):
    """Rank-only runs, int32 ids, float32 scores, a null: the same output or
    error as before (pyarrow's path)."""
    (tmp_path / "q.txt").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    base = {"qid": ["1", "1", "2"], "docno": ["a", "b", "c"], "score": [2.0, 1.0, 0.5]}
    (tmp_path / "r.txt").write_text("".join(
        f"{q} Q0 {d} {i + 1} {s} r.arrow\n"
        for i, (q, d, s) in enumerate(zip(base["qid"], base["docno"], base["score"]))))
    want = _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.txt"])
    cases = [dict(base, score=pa.array(base["score"], pa.float32())),
             dict(base, qid=pa.array([1, 1, 2], pa.int32()))]
    for cols in cases:
        feather.write_feather(pa.table(cols), tmp_path / "r.arrow",
                              compression="uncompressed")
        assert _ok([*ARGS, tmp_path / "q.txt", tmp_path / "r.arrow"]) == want
    feather.write_feather(pa.table(dict(base, docno=["a", None, "c"])), tmp_path / "r.arrow",
                          compression="uncompressed")
    code, _, err = invoke_bytes([*ARGS, tmp_path / "q.txt", tmp_path / "r.arrow"])
    assert code == 3
    assert err.strip().endswith("r.arrow:2: missing document id (null in column docno)"), err


def test_damaged_files_never_crash(tmp_path):
    """Bytes cut or flipped anywhere (footer, messages, buffers): the parser
    returns a file or None, never raises, and eval exits 0 or 3 without a
    traceback (pyarrow or the C pass's bounds decide)."""
    qrels, cols, _ = random_case(21)
    (tmp_path / "q.txt").write_text(qrels)
    data = harness.table_bytes(cols, "arrow", chunk=4)
    rng = np.random.default_rng(0)
    path = tmp_path / "r.arrow"
    for trial in range(120):
        b = bytearray(data)
        if trial % 3 == 0:
            b = b[: int(rng.integers(0, len(b)))]
        else:
            tail = trial % 3 == 1       # the footer, or anywhere
            for _ in range(int(rng.integers(1, 4))):
                at = int(rng.integers(max(0, len(b) - 400) if tail else 0, len(b)))
                b[at] = int(rng.integers(0, 256))
        path.write_bytes(bytes(b))
        ipcfile.open_file(str(path))
        code, _, err = invoke_bytes([*ARGS, tmp_path / "q.txt", path])
        assert code in (0, 3), err
        assert "Traceback" not in err


def test_without_pyarrow_the_same_usage_error(tmp_path):
    """The plain layout needs no pyarrow to be read, but a table without
    pyarrow installed is the one usage error (exit 2) whatever its layout,
    as before."""
    (tmp_path / "q.txt").write_text("1 0 a 1\n")
    feather.write_feather(pa.table({"qid": ["1"], "docno": ["a"], "score": [1.0]}),
                          tmp_path / "r.arrow", compression="uncompressed")
    assert ipcfile.open_file(str(tmp_path / "r.arrow")) is not None
    code = ("import sys\nsys.modules['pyarrow'] = None\nfrom ipsoeval.cli import main\n"
            "main()\n")
    out = subprocess.run([sys.executable, "-c", code, "eval", "-m", "AP", "q.txt", "r.arrow"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip() == ("ipsoeval: error: reading Parquet/Arrow files needs pyarrow: "
                                  "pip install 'ipsoeval[arrow]'")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="VmHWM: Linux")
@pytest.mark.parametrize("magic", [b"PAR1", b"ARROW1\0\0", b"\xff\xff\xff\xff", b"\x1f\x8b"])
def test_quick_path_declines_tables_unread(magic, tmp_path):
    """The console script's quick path declines a table (or compressed) run
    from its first bytes, without reading the file into memory first (a
    512 MiB file: the child's peak stays far below it)."""
    (tmp_path / "q.txt").write_text("1 0 a 1\n")
    with open(tmp_path / "r.bin", "wb") as f:
        f.write(magic)
        f.truncate(512 << 20)          # sparse: no disk, but 512 MiB when read
    # the peak of this process's own memory (VmHWM: ru_maxrss would count the
    # forked copy of the test process before exec)
    code = ("from ipsoeval.pipeline.evaluate import quick\n"
            "got = quick(['eval', '-m', 'AP', 'q.txt', 'r.bin'])\n"
            "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
            "print(got, int(hwm[0].split()[1]) // 1024)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    got, peak_mb = out.stdout.split()
    assert got == "False", out.stderr
    assert int(peak_mb) < 200, peak_mb
