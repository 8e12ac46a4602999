"""The quick path (``_core.eval_official``/``eval_measures``, ipsoeval/reading/quick.py)
reads a run a block at a time and scores each topic once its last line is read:
its buffers stay bounded whatever the run's length, and what it prints is the
full program's, at block boundaries, for topics whose rows are not together,
for long lines and ids, and where it leaves the call to the full program
(compressed files, standard input, errors)."""

import bz2
import gzip
import lzma
import os
import random
import subprocess
import sys

import pytest

from ipsoeval.reading import compiled as _fast
from tests.conftest import invoke, run_quick

pytestmark = pytest.mark.skipif(_fast._core is None, reason="compiled core not built")

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
