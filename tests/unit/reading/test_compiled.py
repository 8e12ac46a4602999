"""Reading and aligning a run in one pass (``compiled.stream_run``, the C
``streamer``/``stream_feed``) against the two-step compiled path (``parse``, then
``align_run``) and the pure-Python reader and alignment: the same Aligned
result, or the same error, on generated runs -- grouped by topic or not,
valid or broken, read whole or cut into parts read side by side."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipsoeval import engine
from ipsoeval.errors import InputError
from ipsoeval.reading import compiled as _fast
from ipsoeval.reading import opening
from tests.unit.test_core import ALIGNED_FIELDS
from tests.unit.test_core import _same as same_fields

pytestmark = pytest.mark.skipif(_fast._core is None, reason="compiled core not built")

MODES = ("stream", "two-step", "python")


def _load(mode, monkeypatch, qp, rps, parts=1, block=None, **kw):
    """engine.load on one path; ("error", message) for an InputError.  parts:
    the thread count, with every file cut into that many parts; block: the
    size of the blocks a compressed file is inflated in."""
    with monkeypatch.context() as m:
        m.setenv("IPSOEVAL_CORE", "python" if mode == "python" else "c")
        m.setenv("IPSOEVAL_THREADS", str(parts))
        m.setattr(_fast, "PART_BYTES", 1)
        if block:
            m.setattr(opening, "INFLATE_BLOCK", block)
            m.setattr(opening, "BLOCK", block)
        calls = []
        real = _fast.stream_run

        def spy(*a, **k):
            got = None if mode == "two-step" else real(*a, **k)
            calls.append(got is not None)
            return got

        m.setattr(_fast, "stream_run", spy)
        try:
            return engine.load(qp, rps, **kw), calls
        except InputError as exc:
            return ("error", str(exc)), calls


def _same(a, b):
    same_fields(a, b, ALIGNED_FIELDS)
    if isinstance(a, tuple):
        return
    assert len(a.judged_labels) == len(b.judged_labels)
    assert all(np.array_equal(x, y) for x, y in zip(a.judged_labels, b.judged_labels))


def _write(d, data, name):
    p = d / name
    p.write_bytes(data)
    return str(p)


# ids that are not UTF-8 are surrogateescape strs, written as their bytes
TOPICS = ["1", "2", "10", "q" * 9, "t" * 17, "zz", "\u00e9", "caf\udce9", "caf\udce8"]
DOCS = ["d1", "d2", "d3", "d" * 12, "e" * 8, "x", "w" * 17, "L" * 300 + "a", "L" * 300 + "b",
        "D" * 249, "d\udcff", "d\udcfe\udce9" * 3]
SCORES = ["1", "2", "2.5", "-1", "0", "1e1", "3.25", "2.50", "0x1", "nan"]


@st.composite
def qrels_bytes(draw):
    rows = []
    for t in draw(st.lists(st.sampled_from(TOPICS + ["y" * 250]), min_size=1, max_size=5,
                           unique=True)):
        for d in draw(st.lists(st.sampled_from(DOCS[:7] + ["y", "L" * 300 + "a", "d\udcff"]),
                               min_size=1, max_size=6, unique=True)):
            rows.append(f"{t} 0 {d} {draw(st.integers(-2, 3))}")
    return ("\n".join(rows) + "\n").encode("utf-8", "surrogateescape")


@st.composite
def run_bytes(draw):
    """Mostly a valid run grouped by topic; sometimes not grouped, with a
    duplicate, a broken number, comments, blank lines, a byte-order mark, an
    unterminated last line, or in the MS MARCO layout."""
    msmarco = draw(st.integers(0, 5)) == 0
    blocks = []
    for t in draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=7, unique=True))
        if draw(st.integers(0, 15)) == 0:
            docs.append(docs[0])                          # a duplicate docno
        rows = []
        for i, d in enumerate(docs):
            if msmarco:
                rows.append(f"{t}\t{d}\t{i + 1}")
            else:
                s = draw(st.sampled_from(SCORES[:7] if draw(st.integers(0, 20)) else SCORES))
                rows.append(f"{t} Q0 {d} {i} {s} tag{t[:1]}")
        blocks.append(rows)
    lines = [r for b in blocks for r in b]
    if len(lines) > 2 and draw(st.integers(0, 6)) == 0:   # a topic in two blocks
        i = draw(st.integers(0, len(lines) - 2))
        lines[i], lines[-1] = lines[-1], lines[i]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", "# c", "  "])))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n" * 70]))
    if draw(st.integers(0, 20)) == 0:
        text = "\ufeff" + text
    return text.encode("utf-8", "surrogateescape")


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=qrels_bytes(), runs=st.lists(run_bytes(), min_size=1, max_size=3),
       parts=st.sampled_from([1, 3]), compress=st.sampled_from([None, None, "gz", "bz2"]),
       block=st.sampled_from([None, 40, 200]),
       queries=st.sampled_from(["intersection", "qrels"]),
       judged_only=st.booleans(), depth=st.sampled_from([None, 1, 3]),
       tie_break=st.sampled_from(["trec", "docno-asc", "input"]))
def test_stream_same_as_two_step_and_python(tmp_path_factory, monkeypatch, q, runs, parts,
                                            compress, block, queries, judged_only, depth,
                                            tie_break):
    """Plain files (whole or in parts) and compressed ones (gzip: isal's
    inflate in blocks of whole lines; bz2: the readers' blocks), the blocks
    small enough that topics span several."""
    import bz2
    import gzip
    d = tmp_path_factory.mktemp("s")
    qp = _write(d, q, "qrels")
    pack = {None: lambda b: b, "gz": gzip.compress, "bz2": bz2.compress}[compress]
    rps = [_write(d, pack(r), f"run{i}") for i, r in enumerate(runs)]
    kw = dict(queries=queries, judged_only=judged_only, depth=depth, tie_break=tie_break)
    got = {m: _load(m, monkeypatch, qp, rps, parts=parts, block=block, **kw) for m in MODES}
    _same(got["stream"][0], got["two-step"][0])
    _same(got["stream"][0], got["python"][0])
    assert not any(got["two-step"][1])


def _grouped(topics, per_topic, width=1, seed=0):
    """A run grouped by topic, scores descending with ties, docnos of mixed length."""
    rng = np.random.default_rng(seed)
    out = []
    for t in range(topics):
        score = np.sort(rng.integers(0, per_topic // 3 + 1, per_topic))[::-1]
        for i in range(per_topic):
            doc = f"D{'x' * (i % width)}{i}"
            out.append(f"{t} Q0 {doc} {i + 1} {score[i]} run\n")
    return "".join(out).encode()


def _qrels_for(topics, per_topic, every=7):
    return "".join(f"{t} 0 D{i} {i % 3}\n" for t in range(0, topics, 2)
                   for i in range(0, per_topic, every)).encode()


@pytest.mark.parametrize("parts", [1, 2, 5, "gz"])
@pytest.mark.parametrize("shape", ["many-topics", "one-big-topic", "widening"])
def test_stream_buffers_grow_compact_and_widen(tmp_path, monkeypatch, parts, shape):
    """Past the C pass's 16,384-row buffer: topics spanning buffer refills
    (the open topic moves to the front), one topic larger than the buffer (it
    grows), docnos widening mid-file; parts cut at topic boundaries, or
    gzip's blocks of inflated lines with topics across them."""
    import gzip
    topics, per, width = {"many-topics": (120, 333, 1), "one-big-topic": (3, 40000, 1),
                          "widening": (40, 700, 30)}[shape]
    qp = _write(tmp_path, _qrels_for(topics, per), "qrels")
    data = _grouped(topics, per, width)
    rp = _write(tmp_path, gzip.compress(data, 1) if parts == "gz" else data, "run")
    parts = 2 if parts == "gz" else parts
    for kw in (dict(), dict(depth=50, judged_only=True), dict(tie_break="docno-asc")):
        a, calls = _load("stream", monkeypatch, qp, [rp], parts=parts, **kw)
        assert calls == [True]                     # streamed, not declined
        b, _ = _load("two-step", monkeypatch, qp, [rp], **kw)
        _same(a, b)
    c, _ = _load("python", monkeypatch, qp, [rp])
    _same(_load("stream", monkeypatch, qp, [rp], parts=parts)[0], c)


def test_stream_declines_what_it_must(tmp_path, monkeypatch):
    """A topic in two blocks, a duplicate docno, a long id, a broken number
    and a byte-order mark go to the two-step path, which decides (the same
    result, or the one error message with its line)."""
    qp = _write(tmp_path, b"1 0 a 1\n2 0 b 1\n", "qrels")
    cases = {
        "two-blocks": b"1 Q0 a 1 2 t\n2 Q0 b 1 2 t\n1 Q0 c 2 1 t\n",
        "duplicate": b"1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n",
        "long-id": b"1 Q0 " + b"a" * 300 + b" 1 2 t\n1 Q0 a 2 1 t\n",
        "number": b"1 Q0 a 1 0x2 t\n",
        "bom": b"\xef\xbb\xbf1 Q0 a 1 2 t\n",
    }
    for name, data in cases.items():
        rp = _write(tmp_path, data, name)
        for parts in (1, 2):
            a, calls = _load("stream", monkeypatch, qp, [rp], parts=parts)
            assert calls == [False], name
            _same(a, _load("python", monkeypatch, qp, [rp])[0])
    a, _ = _load("stream", monkeypatch, qp, [str(tmp_path / "duplicate")])
    assert a[0] == "error" and ":3:" in a[1] and "duplicate docno 'a'" in a[1]


def test_stream_topic_split_across_parts_declines(tmp_path, monkeypatch):
    """Parts are cut where the first field changes; a topic that comes back
    in a later part is found when the parts are joined, and declined."""
    rows = [f"{t} Q0 d{i} {i} {100 - i} r\n" for t in (1, 2, 1, 3) for i in range(50)]
    qp = _write(tmp_path, b"1 0 d1 1\n3 0 d2 1\n", "qrels")
    rp = _write(tmp_path, "".join(rows).encode(), "run")
    a, calls = _load("stream", monkeypatch, qp, [rp], parts=4)
    assert calls == [False]
    assert a[0] == "error" and "duplicate docno" in a[1]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_stream_peak_memory_is_a_fraction_of_the_file(tmp_path):
    """The parsed pages of a mapped file leave memory as the C pass goes
    (MADV_DONTNEED every 4 MiB) and the rows are never held as arrays: on a
    39 MB run, loading grows the peak by well under the file's size, and by
    less than half of what the two-step path needs (~28 bytes a line)."""
    import subprocess
    import sys
    run = tmp_path / "run"
    run.write_bytes(_grouped(1000, 1000).replace(b"\n", b" padding-padding\n"))
    (tmp_path / "qrels").write_bytes(_qrels_for(1000, 1000))
    size = os.path.getsize(run)
    # VmHWM, not ru_maxrss: that one carries the forking parent's peak over exec
    code = ("import sys\n"
            "from ipsoeval import engine\nfrom ipsoeval.reading import compiled as _fast\n"
            "def hwm():\n"
            "    for line in open('/proc/self/status'):\n"
            "        if line.startswith('VmHWM:'):\n"
            "            return int(line.split()[1])\n"
            "if sys.argv[3] == 'two-step':\n"
            "    _fast.stream_run = lambda *a, **k: None\n"
            "base = hwm()\n"
            "al = engine.load(sys.argv[1], [sys.argv[2]])\n"
            "print(hwm() - base)\n")
    env = dict(os.environ, IPSOEVAL_CORE="c", IPSOEVAL_THREADS="1")
    grown = {}
    for mode in ("stream", "two-step"):
        r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "qrels"), str(run), mode],
                           env=env, capture_output=True, text=True, check=True)
        grown[mode] = int(r.stdout) * 1024
    assert size > 35e6
    assert grown["stream"] < 0.8 * size, (grown, size)
    assert grown["stream"] < grown["two-step"] / 2, (grown, size)


def test_a_part_out_of_memory_is_raised_in_the_caller(tmp_path, monkeypatch):
    """A part read on another thread that runs out of memory raises
    MemoryError in the caller (the CLI's "out of memory" exit), not a
    thread's traceback on stderr."""
    qp = _write(tmp_path, _qrels_for(40, 200), "qrels")
    rp = _write(tmp_path, _grouped(40, 200), "run")
    real = _fast._core.stream_feed
    calls = []

    def feed(st, data, lo, hi, final, out, tout):
        calls.append(lo)
        if lo > 0:
            raise MemoryError
        return real(st, data, lo, hi, final, out, tout)

    monkeypatch.setattr(_fast._core, "stream_feed", feed)
    with pytest.raises(MemoryError):
        _load("stream", monkeypatch, qp, [rp], parts=2)
    assert len(calls) == 2
