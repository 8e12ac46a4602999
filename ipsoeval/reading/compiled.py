"""Dispatch to the compiled core (ipsoeval/_core.c, :mod:`ipsoeval.reading.core`),
valid input only.

The C pass reads a run or qrels file into the same arrays as the Python
reader (:mod:`ipsoeval.reading.python`), encodes in-memory id columns, and
aligns a whole run, or reads and aligns a run in one pass (:func:`stream_run`,
for :func:`ipsoeval.reading.entry.read_for_alignment`).  It has no error
semantics of its own: whenever it meets anything it does not accept (a
malformed line, an unusual number spelling, a duplicate docno, stdin, ...)
these functions return None and the caller runs the pure-Python code on the
same bytes, which produces the one error message (FILE:LINE) or result.

The files come from :mod:`ipsoeval.reading.opening` (mapped when plain,
inflated in blocks when compressed); the ids are laid out as in
:mod:`ipsoeval.reading.words`.  The alignment half (:func:`align_run`,
:class:`Streamed`, :class:`Piece`) is called by :mod:`ipsoeval.align`, which
passes its QrelsIndex in (this module imports nothing of the alignment).

``IPSOEVAL_CORE=python`` selects the pure-Python path; ``IPSOEVAL_CORE=c``
requires the compiled core; the default uses it when it was built.
"""

from __future__ import annotations

import mmap
import os
import threading

import numpy as np

from ipsoeval.errors import InputError
from ipsoeval.model import UNJUDGED, Qrels, Run
from ipsoeval.parallel import in_worker, workers
from ipsoeval.reading import core
from ipsoeval.reading.core import CORE as _core
from ipsoeval.reading.grammar import display_name, sniff_run_format
from ipsoeval.reading.opening import Declined, inflated_blocks, inflated_size_hint, probe
from ipsoeval.reading.words import ID_WORDS, LONG_ID

CHUNK = 1 << 24          # bytes parsed per call on a mapped file (then dropped from memory)
_KIND = {"trec": 0, "msmarco": 1, "qrels": 2}
_TIE = {"trec": 0, "docno-asc": 1, "input": 2}


def enabled() -> bool:
    """Whether the compiled core serves (``IPSOEVAL_CORE``; :func:`core.enabled`)."""
    return core.enabled()


# --- reading -------------------------------------------------------------------

class _Table:
    """Preallocated output arrays, grown (in place) or widened when needed."""

    def __init__(self, cap: int, kind: int):
        self.cap = max(cap, 1)
        self.qid = np.zeros((self.cap, 1), np.uint64)
        self.docno = np.zeros((self.cap, 1), np.uint64)
        self.num = np.empty(self.cap, np.int64 if kind == 2 else np.float64)
        self.line = np.empty(self.cap, np.int32)
        self.row = 0
        self.nline = 0
        self.tag = None
        self.hi_line = 0     # the first line whose qid or docno is not UTF-8

    def grow(self) -> None:
        cap = self.cap + self.cap // 2 + 1024
        for name in ("qid", "docno", "num", "line"):
            a = getattr(self, name)
            try:
                a.resize((cap,) + a.shape[1:], refcheck=False)   # realloc, no copy peak
            except ValueError:
                b = np.zeros((cap,) + a.shape[1:], a.dtype)
                b[: self.row] = a[: self.row]
                a = b
            setattr(self, name, a)
        self.cap = cap

    def widen(self, name: str, nbytes: int) -> None:
        a = getattr(self, name)
        w = max((nbytes + 7) // 8, a.shape[1] * 2 if nbytes > 64 else 0, 1)
        b = np.zeros((self.cap, w), np.uint64)
        b[: self.row, : a.shape[1]] = a[: self.row]
        setattr(self, name, b)

    def feed(self, buf, lo: int, hi: int, kind: int) -> bool:
        """Parse buf[lo:hi] (whole lines); False when the C pass declines."""
        while True:
            if self.line.dtype == np.int32 and self.nline + (hi - lo) >= 2**31 - 1:
                self.line = self.line.astype(np.int64)
            st, pos, row, line, need, ts, tl, hi_line = _core.parse(
                buf, lo, hi, kind, self.nline, self.row, self.cap,
                self.qid, self.docno, self.num, self.line)
            if ts >= 0:
                self.tag = bytes(buf[ts: ts + tl])
            if hi_line and not self.hi_line:
                self.hi_line = hi_line
            self.row, self.nline, lo = row, line, pos
            if st == 0:
                return True
            if st < 0:
                return False
            if st == 1:
                self.grow()
            else:
                if need > LONG_ID:     # a long id: the Python reader stores it by
                    return False       # prefix and serial; widening costs need x rows
                self.widen("qid" if st == 2 else "docno", need)

    def arrays(self):
        n = self.row
        return self.qid[:n], self.docno[:n], self.num[:n], self.line[:n]


def _read(path: str, kind_of, data: bytes | None):
    """Parse a file with the C pass: (table, kind) or None (declined)."""
    if path == "-" and data is None:
        return None                       # stdin: read once, by the Python reader
    if data is not None:
        buf = memoryview(data)
        if not len(buf):
            return None
        kind = _KIND[kind_of(bytes(buf[:65536]))]
        t = _Table(_core.count_lines(buf, 0, len(buf)) + 1, kind)
        return (t, kind) if t.feed(buf, 0, len(buf), kind) and t.row else None
    got = probe(path)
    if got is None:
        return None
    size, mm = got
    if mm is None:
        return _read_blocks(path, kind_of)
    try:
        if hasattr(mmap, "MADV_SEQUENTIAL"):
            mm.madvise(mmap.MADV_SEQUENTIAL)
        head = mm[: 1 << 20]
        kind = _KIND[kind_of(head[:65536])]
        # rows from the first MiB's line length, generously: pages never written
        # cost no memory, and a short estimate grows in place
        per_line = max(len(head) / (_core.count_lines(head, 0, len(head)) + 1), 1.0)
        t = _Table(int(size / per_line * 1.25) + 1024, kind)
        lo = 0
        while lo < size:
            hi = size if size - lo <= CHUNK else mm.rfind(b"\n", lo, lo + CHUNK) + 1
            if hi <= lo:
                hi = mm.find(b"\n", lo + CHUNK) + 1 or size
            if not t.feed(mm, lo, hi, kind):
                return None
            if hasattr(mmap, "MADV_DONTNEED"):   # parsed bytes leave the resident set
                a = lo - lo % mmap.PAGESIZE
                b = hi - hi % mmap.PAGESIZE
                if b > a:
                    mm.madvise(mmap.MADV_DONTNEED, a, b - a)
            lo = hi
        return (t, kind) if t.row else None
    finally:
        mm.close()


def _read_blocks(path: str, kind_of):
    """Compressed input: a decompressing block stream, parsed as it comes."""
    t = kind = None
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    isize = inflated_size_hint(path, size)
    try:
        for block in inflated_blocks(path):
            if t is None:
                kind = _KIND[kind_of(bytes(block[:65536]))]
                per_line = max(len(block) / (_core.count_lines(block, 0, len(block)) + 1), 1.0)
                est = max(isize, size * 3)   # pages never written cost no memory
                t = _Table(int(est / per_line * 1.25) + 1024, kind)
            if not t.feed(block, 0, len(block), kind):
                return None
    except (InputError, Declined):
        return None                       # corrupt data: the Python reader says so
    return (t, kind) if t is not None and t.row else None


def _python_decides(qid: np.ndarray, docno: np.ndarray) -> bool:
    """Input the Python reader must see: ids over LONG_ID bytes (it
    stores them by prefix and serial) and a byte-order mark (an error)."""
    if qid.shape[1] >= ID_WORDS or docno.shape[1] >= ID_WORDS:
        return True
    return len(qid) > 0 and int(qid[0, 0]) & 0xFFFFFF == 0xBFBBEF


def read_qrels(path: str, data: bytes | None = None):
    """A Qrels, or None when the C pass declines."""
    got = _read(path, lambda head: "qrels", data)
    if got is None:
        return None
    qid, docno, label, line = got[0].arrays()
    if _python_decides(qid, docno):
        return None
    q = Qrels(path=display_name(path), qid=qid, docno=docno, label=label, line=line)
    if got[0].hi_line:
        _id_warning(q, got[0].hi_line)
    return q


def _id_warning(x, hi_line: int, tag: str | None = None) -> None:
    """Add to a Qrels/Run the warning for its first id that is not UTF-8
    (reading.words), looking from the first line the compiled reader found."""
    from ipsoeval.reading.words import file_warning
    w = file_warning(x.path, x.qid, x.docno, x.line, tag=tag,
                         tag_line=int(x.line[-1]) if tag is not None and len(x.line) else None,
                         first_line=hi_line or None)
    if w is not None:
        x.warnings.append(w)


def read_run(path: str, run_format: str, name: str | None, data: bytes | None = None):
    """A Run, or None when the C pass declines."""

    def kind_of(head):
        return sniff_run_format(head) if run_format == "auto" else run_format

    got = _read(path, kind_of, data)
    if got is None:
        return None
    t, kind = got
    qid, docno, score, line = t.arrays()
    if _python_decides(qid, docno):
        return None
    from ipsoeval.ids import decode_id, is_utf8
    fmt = "msmarco" if kind == 1 else "trec"
    tag = decode_id(t.tag) if fmt == "trec" and t.tag is not None else None
    if name is None:
        name = tag if fmt == "trec" else os.path.basename(path)
    run = Run(path=display_name(path), name=name, qid=qid, docno=docno, score=score,
              line=line, fmt=fmt)
    bad_tag = tag is not None and not is_utf8(tag)
    if t.hi_line or bad_tag:
        _id_warning(run, t.hi_line or int(line[-1]), tag if bad_tag else None)
    return run


# --- in-memory ids -----------------------------------------------------------------

def id_words(values: list):
    """(n, W) uint64 words of a list of str ids (the layout of words.load_words),
    or None when the C pass declines: anything but a str, an empty id, one
    holding a byte <= 32 or longer than LONG_ID bytes."""
    most = _core.id_scan(values, LONG_ID)
    if most < 0:
        return None
    w = max(1, (most + 7) // 8)
    out = np.zeros((len(values), w), np.uint64)
    return out if _core.id_fill(values, out, w) == 0 else None


def int_words(x: np.ndarray):
    """(n, W) uint64 words of non-negative int64 ids written in decimal, or
    None (declined: a negative id)."""
    x = np.ascontiguousarray(x, dtype=np.int64)
    if len(x) == 0 or int(x.min()) < 0:
        return None
    w = max(1, (len(str(int(x.max()))) + 7) // 8)
    out = np.zeros((len(x), w), np.uint64)
    return out if _core.int_fill(x, out, w) == 0 else None


def span_fill(data: np.ndarray, offsets: np.ndarray, out: np.ndarray) -> bool:
    """Write the ids ``data[offsets[i]:offsets[i + 1]]`` (an Arrow string
    column's value buffer and its n + 1 offsets) into the zeroed rows of
    ``out`` (C-contiguous (n, W) uint64, W words enough for the longest id).
    False: declined (an empty id, one holding a byte <= 32 or longer than
    W words; or a build without span_fill) -- the caller's numpy path then
    says what is wrong."""
    fill = getattr(_core, "span_fill", None)
    if fill is None or not out.flags.c_contiguous:
        return False
    off = np.ascontiguousarray(offsets, dtype=np.int64)
    return fill(np.ascontiguousarray(data), off, out, out.shape[1]) == 0


# --- alignment -------------------------------------------------------------------

class Piece:
    """A run aligned by the C pass: labels (and their tie flags: the same score as
    the rank above) per local topic, to be copied into the matrices."""

    def __init__(self, out, seg, kept, local, tout):
        self.out, self.seg, self.kept, self.local, self.tout = out, seg, kept, local, tout

    def fill(self, labels_r: np.ndarray, tied_r: np.ndarray) -> None:
        _core.fill(labels_r, labels_r.shape[1], self.out, self.seg, self.kept, self.local,
                   tied_r.view(np.uint8), self.tout)


_BUILD = threading.Lock()     # runs read side by side share one qrels table


def qrels_table(qi):
    """The C hash table of a QrelsIndex (built once, kept on the index)."""
    with _BUILD:
        return _qrels_table(qi)


def _qrels_table(qi):
    tab = getattr(qi, "_core_table", None)
    if tab is None:
        q = qi.qrels
        size = 16
        while size < 2 * len(qi.codes) + 2:
            size <<= 1
        tab = np.full(size, -1, np.int32)
        qdoc = np.ascontiguousarray(q.docno, dtype=np.uint64)
        codes = np.ascontiguousarray(qi.codes, dtype=np.int32)
        _core.qtable(qdoc, qdoc.shape[1], codes, tab)
        order = np.argsort(codes, kind="stable").astype(np.int32)    # rows by topic
        start = np.searchsorted(codes[order], np.arange(len(qi.topic_names) + 1)).astype(np.int64)
        tab = (tab, qdoc, codes, np.ascontiguousarray(q.label, dtype=np.int64), order, start)
        qi._core_table = tab
    return tab


def align_run(qi, run, names, codes, t_index, q_pos, T, *, tie_break, judged_only, depth):
    """(present, counts, Piece) for one whole run, or None (declined: use Python)."""
    n = len(codes)
    if n >= 2**31 - 1 or run.docno.ndim != 2 or not 1 <= run.docno.shape[1] < ID_WORDS:
        return None      # long ids (prefix and serial): align orders their ties in Python
    tab, qdoc, qcodes, qlab, qorder, qstart = qrels_table(qi)
    local = np.array([t_index.get(nm, -1) for nm in names], dtype=np.int32)
    l2q = np.array([q_pos.get(nm, -1) for nm in names], dtype=np.int32)
    L = len(names)
    docno = np.ascontiguousarray(run.docno, dtype=np.uint64)
    score = np.ascontiguousarray(run.score, dtype=np.float64)
    out = np.full(n, UNJUDGED, np.int32)     # rows the C pass does not write stay unjudged
    seg = np.zeros(L, np.int64)
    kept = np.zeros(L, np.int64)
    nrows = np.zeros(L, np.int64)
    tout = np.zeros(n, np.uint8)             # tie flags, one byte per row
    rc = _core.align_run(docno, docno.shape[1], score, np.ascontiguousarray(codes, np.int32),
                         local, l2q, qdoc, qdoc.shape[1], qcodes, qlab, qorder, qstart, tab,
                         _TIE[tie_break], int(bool(judged_only)),
                         int(depth or 0) if (depth or 0) <= n else 0,   # -M beyond the run: no cut
                         out, seg, kept, nrows, tout)
    if rc != 0:
        return None
    present = np.zeros(T, dtype=bool)
    counts = np.zeros(T, dtype=np.int64)
    ev = local >= 0
    present[local[ev]] = nrows[ev] > 0
    counts[local[ev]] = kept[ev]
    # (rows in evaluated topics, kept rows that are in the qrels), for align's warnings:
    # the C pass writes only the kept rows of evaluated topics (was a 16-byte-per-row
    # mask of the segments: +112 MB at the peak on 7M lines)
    judged = int(np.count_nonzero(out != UNJUDGED))
    return present, counts, Piece(out, seg, kept, local, tout), (int(nrows[ev].sum()), judged)


# --- reading and aligning in one pass ----------------------------------------------

class Streamed:
    """A run read and aligned in one pass by the compiled core (stream_run):
    what align() needs of it -- its topics, in first-appearance order, and
    each one's labels, already ranked, cut and filtered.  Its rows never
    exist as arrays (the two-step path holds ~28 bytes per line)."""

    def __init__(self, path, name, fmt, names, nrows, kept, seg, out, rows_eval, judged, tout):
        self.path, self.name, self.fmt, self.names = path, name, fmt, names
        self.nrows, self.kept, self.seg, self.out, self.tout = nrows, kept, seg, out, tout
        self.overlap = (rows_eval, judged)
        self.warnings: list[str] = []   # none: a run with an id that is not UTF-8 is not streamed

    def aligned(self, t_index: dict, T: int):
        """(present, counts, Piece, overlap), as align_run gives them."""
        local = np.array([t_index.get(nm, -1) for nm in self.names], dtype=np.int32)
        present = np.zeros(T, dtype=bool)
        counts = np.zeros(T, dtype=np.int64)
        ev = local >= 0
        present[local[ev]] = self.nrows[ev] > 0
        counts[local[ev]] = self.kept[ev]
        return present, counts, Piece(self.out, self.seg, self.kept, local, self.tout), self.overlap


def _qrels_topics(qi) -> np.ndarray:
    """The qrels topic ids as (Q, W) words, in the QrelsIndex's code order."""
    with _BUILD:
        qt = getattr(qi, "_core_topics", None)
        if qt is None:
            _, first = np.unique(qi.codes, return_index=True)
            qt = qi._core_topics = np.ascontiguousarray(qi.qrels.qid[first], dtype=np.uint64)
        return qt


# bytes of the shortest line that is a row: "q Q0 d 1 1 t" + newline, "q\td\t1" + newline
_MIN_ROW_BYTES = {0: 12, 1: 6}
PART_BYTES = 8 << 20     # a file this size or larger is read in parts, one per thread


def stream_run(path: str, run_format: str, name: str | None, qi, *, tie_break: str,
               judged_only: bool, depth: int | None):
    """A Streamed run, or None (declined: read the run, then align it).

    Only a file whose topics each occupy one block of lines is streamed,
    with the same qrels lookup, duplicate check, ranking and cut as
    align_run (one C function, align_topic, serves both).  A large plain
    file is cut at topic boundaries into parts read side by side; a
    compressed one is read as it is inflated."""
    if path == "-" or run_format not in ("auto", "trec", "msmarco"):
        return None
    qside = stream_qside(qi, tie_break=tie_break, judged_only=judged_only, depth=depth)
    if qside is None:
        return None
    got = probe(path)
    if got is None:
        return None
    size, mm = got
    if mm is None:
        got = _stream_blocks(path, size, run_format, qside)
    else:
        try:
            got = _stream_mapped(mm, size, run_format, qside)
        finally:
            mm.close()
    if got is None:
        return None
    fmt, (out, tout), parts = got
    return streamed(display_name(path), os.path.basename(path), name, fmt, out, tout, parts, qi)


def stream_qside(qi, *, tie_break: str, judged_only: bool, depth: int | None):
    """The qrels' half of a streamer's arguments (``_core.streamer``: the
    qrels topics, table and options, after its kind, long-id bound and drop
    flag), or None when the one-pass reader declines these options."""
    if tie_break not in _TIE or (depth is not None and depth < 1) or len(qi.qrels.qid) == 0:
        return None
    # a long qrels id (over LONG_ID bytes, stored by prefix and serial: ID_WORDS
    # words, the last one non-zero) never equals a run's: the run's longer ids decline
    tab, qdoc, qcodes, qlab, qorder, qstart = qrels_table(qi)
    qt = _qrels_topics(qi)
    d = 0 if depth is None else min(int(depth), 1 << 62)
    return (LONG_ID, qt, qt.shape[1], qdoc, qdoc.shape[1], qcodes, qlab, qorder, qstart, tab,
            _TIE[tie_break], int(bool(judged_only)), d)


def streamed(source: str, base: str, name: str | None, fmt: str, out, tout, parts, qi):
    """The Streamed run of the streamers' results ``parts`` (``_core.stream_result``,
    one per part of the run, in order), or None (declined: a topic in two parts,
    an id that is not UTF-8, no rows).  ``name`` None: the last tag (trec), else
    ``base``."""
    from ipsoeval.ids import decode_id, is_utf8
    names, raw = [], set()
    nrows, kept, seg = [], [], []
    rows = rows_eval = judged = 0
    tag = None
    q_pos = {t: i for i, t in enumerate(qi.topic_names)}
    for L, W, words, nr, sg, kp, qc, n, n_eval, n_judged, t, _, hi_line in parts:
        if hi_line:      # an id that is not UTF-8: read it whole (its line is warned)
            return None
        w = np.frombuffer(words, dtype=np.uint64).reshape(L, W)
        qc = np.frombuffer(qc, dtype=np.int32)
        for j in range(L):
            b = w[j].tobytes().rstrip(b"\0")
            nm = decode_id(b)
            # a topic in two parts, or one whose name maps otherwise: declined
            if b in raw or q_pos.get(nm, -1) != qc[j]:
                return None
            raw.add(b)
            names.append(nm)
        nrows.append(np.frombuffer(nr, dtype=np.int64))
        seg.append(np.frombuffer(sg, dtype=np.int64))
        kept.append(np.frombuffer(kp, dtype=np.int64))
        rows += n
        rows_eval += n_eval
        judged += n_judged
        tag = t if n and t is not None else tag
    if not rows or len(set(names)) != len(names):
        return None
    if fmt == "trec" and tag is not None and not is_utf8(decode_id(tag)):
        return None      # read it whole: the warning names the tag's line
    if name is None:
        name = decode_id(tag) if fmt == "trec" and tag is not None else base
    return Streamed(source, name, fmt, names, np.concatenate(nrows),
                    np.concatenate(kept), np.concatenate(seg), out, rows_eval, judged, tout)


def _format(head: bytes, run_format: str) -> str:
    return sniff_run_format(head) if run_format == "auto" else run_format


def _stream_mapped(mm, size: int, run_format: str, qside):
    """(format, out, part results) of a mapped plain file, or None."""
    if hasattr(mmap, "MADV_SEQUENTIAL"):
        mm.madvise(mmap.MADV_SEQUENTIAL)
    fmt = _format(mm[:65536], run_format)
    kind = _KIND[fmt]
    k = 1 if in_worker() or size < PART_BYTES else workers()
    cuts = [0]
    for i in range(1, k):
        nl = mm.find(b"\n", size * i // k)
        c = size if nl < 0 else _core.topic_cut(mm, nl + 1, size)
        if c > cuts[-1]:
            cuts.append(c)
    if cuts[-1] < size:
        cuts.append(size)
    spans = list(zip(cuts[:-1], cuts[1:]))
    # rows <= bytes / the shortest row line: out's pages past the rows are never touched
    ends = np.cumsum([(hi - lo + 1) // _MIN_ROW_BYTES[kind] + 1 for lo, hi in spans])
    out = np.empty(int(ends[-1]), dtype=np.int32)
    tout = np.empty(len(out), dtype=np.uint8)    # the labels' tie flags: one byte per row
    drop = int(hasattr(mmap, "MADV_DONTNEED"))
    got: list = [None] * len(spans)
    failed: list = []

    def part(i):
        lo, hi = spans[i]
        try:
            st = _core.streamer(kind, qside[0], drop, *qside[1:], int(ends[i - 1]) if i else 0)
            if _core.stream_feed(st, mm, lo, hi, 1, out[: int(ends[i])],
                                 tout[: int(ends[i])]) == 0:
                got[i] = _core.stream_result(st)
        except BaseException as exc:    # MemoryError: raised in the caller's thread
            failed.append(exc)

    threads = [threading.Thread(target=part, args=(i,)) for i in range(1, len(spans))]
    for t in threads:
        t.start()
    try:
        part(0)
    finally:                          # no part may outlive the mapping
        for t in threads:
            t.join()
    if failed:
        raise failed[0]
    return None if any(g is None for g in got) else (fmt, (out, tout), got)


def _stream_blocks(path: str, size: int, run_format: str, qside):
    """(format, out, [result]) of a compressed file, read as it is inflated, or None."""
    isize = inflated_size_hint(path, size)
    st = out = tout = fmt = None
    bound = 0
    blocks = inflated_blocks(path)
    try:
        for block in blocks:
            if st is None:
                fmt = _format(bytes(block[:65536]), run_format)
                kind = _KIND[fmt]
                per = _MIN_ROW_BYTES[kind]
                st = _core.streamer(kind, qside[0], 0, *qside[1:], 0)
                # pages never written cost no memory; a short hint grows in place
                out = np.empty(max(isize, size * 3) // per + 1024, dtype=np.int32)
                tout = np.empty(len(out), dtype=np.uint8)   # their tie flags
            bound += len(block) // per + 1
            if bound > len(out):
                out.resize(max(bound, len(out) * 3 // 2), refcheck=False)   # in place
                tout.resize(len(out), refcheck=False)
            if _core.stream_feed(st, block, 0, len(block), 0, out, tout) != 0:
                return None
    except (InputError, Declined):
        return None                       # corrupt data: the Python reader says so
    finally:
        blocks.close()
    if st is None or _core.stream_feed(st, b"", 0, 0, 1, out, tout) != 0:
        return None
    got = _core.stream_result(st)
    return None if got is None else (fmt, (out, tout), [got])


_NO_INTS = np.zeros(0, dtype=np.int64)
_NO_SCORES = np.zeros(0, dtype=np.float64)


def stream_columns(qside, total: int, batches):
    """Read and align a run held in columns (:mod:`ipsoeval.reading.arrow`'s
    record batches) in one pass: ``batches`` yields ``(n, qid, docno, score)``,
    each id column as ``(kind, a, b, W, offset)`` (``_core.stream_columns``
    says which buffers each kind takes) or None, the scores as (float64
    buffer, offset) or None; ``total`` bounds the rows.  ``(out, tout, result)`` for :func:`streamed`, or None
    (declined: a column the C pass does not take, a bad id, a topic in two
    blocks of rows, a duplicate docno)."""
    out = np.empty(max(total, 1), dtype=np.int32)
    tout = np.empty(len(out), dtype=np.uint8)    # the labels' tie flags
    st = _core.streamer(_KIND["trec"], qside[0], 0, *qside[1:], 0)
    for n, q, d, score in batches:
        if q is None or d is None or score is None:
            return None
        if _core.stream_columns(st, n, *q, *d, *score, 0, out, tout) != 0:
            return None
    none = (3, _NO_INTS, _NO_INTS, 1, 0)
    if _core.stream_columns(st, 0, *none, *none, _NO_SCORES, 0, 1, out, tout) != 0:
        return None
    got = _core.stream_result(st)
    return None if got is None else (out, tout, got)
