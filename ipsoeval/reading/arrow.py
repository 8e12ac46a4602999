"""Runs and qrels as Parquet or Arrow IPC files (optional extra ``ipsoeval[arrow]``).

A file whose first bytes are Parquet's (``PAR1``), an Arrow IPC file's
(``ARROW1``) or an Arrow IPC stream's (the continuation marker
``FF FF FF FF``) is a table (:func:`ipsoeval.reading.opening.table_kind`
decides, from the content, never the name).  Its columns are found by name:

- run: topic id (``qid``, ``query_id``, ...), document id (``docno``,
  ``doc_id``, ...), ``score``; ``rank`` without ``score`` makes it an MS
  MARCO run (score = minus the rank, as for the 3-field file); a ``tag`` (or
  ``run``/``name``) column names the run by its last row, as the text
  file's last line does;
- qrels: topic id, document id, ``label`` (or ``relevance``/``rel``).

The names are those of :mod:`ipsoeval.reading.memory` (PyTerrier's
``qid/docno/score/rank``, ir_measures' ``query_id/doc_id/score/relevance``).
Ids are string, binary or integer columns (dictionary-encoded or not);
their bytes go straight from the Arrow buffers into the id words
(:func:`ipsoeval.reading.words.load_words`), numbers through numpy without a
text round trip (nor pandas: primitive columns are read from their
buffers).  The model built is the text reader's, "line" numbers being
1-based row numbers, so alignment and every number are the same.

A run to be aligned (:func:`stream_run`, from
:func:`ipsoeval.reading.entry.read_for_alignment`) is not built as a Run
at all when the compiled core takes it: its record batches' buffers are
read and aligned in one pass, as a text file's lines are (row groups one at
a time; see the map in :mod:`ipsoeval.reading`).  Whatever that pass
declines is read whole here, which alone says what is wrong.
What a text file could not hold is an error here too (``FILE:ROW: what``,
exit 3): a null, an empty id or one holding a blank or control byte, a
non-integer label, a score that is not finite, a missing column or one of
the wrong type.
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.model import Qrels, Run
from ipsoeval.reading import compiled
from ipsoeval.reading.grammar import display_name
from ipsoeval.reading.memory import (
    DOCNO_COLUMNS,
    LABEL_COLUMNS,
    QID_COLUMNS,
    RANK_COLUMNS,
    RUN_COLUMNS,
    SCORE_COLUMNS,
    _int_words,
    _labels,
)
from ipsoeval.reading.words import ID_WORDS, LONG_ID, load_words

KIND_NAMES = {"parquet": "Parquet", "arrow": "Arrow IPC", "arrow-stream": "Arrow IPC stream"}


def pyarrow(what: str = "reading Parquet/Arrow files"):
    """The pyarrow module, or a usage error naming the extra to install."""
    try:
        import pyarrow as pa
    except ImportError:
        raise UsageError(f"{what} needs pyarrow: pip install 'ipsoeval[arrow]'") from None
    return pa


# --- the table ------------------------------------------------------------------

def _read_table(path: str, kind: str, pick, dictionary=()):
    """The columns ``pick(names)`` chooses, as a pyarrow Table; a Parquet
    string column named in ``dictionary`` (topic ids, tags: few distinct
    values) is read dictionary-encoded (its ids are then encoded once per
    distinct value)."""
    pa = pyarrow()
    name = display_name(path)
    try:
        if kind == "parquet":
            pf = _Parquet(path, memory_map=True)
            schema = pf.schema_arrow
            cols = pick(schema.names)
            textual = [c for c in cols if c in dictionary and _textual(schema.field(c).type)]
            if textual:
                pf = _Parquet(path, memory_map=True, read_dictionary=textual)
            return pf.read(columns=cols, use_threads=True), pf
        import pyarrow.ipc as ipc
        source = pa.memory_map(path, "r")
        reader = ipc.open_file(source) if kind == "arrow" else ipc.open_stream(source)
        cols = pick(reader.schema.names)
        return reader.read_all().select(cols), None
    except (InputError, UsageError):
        raise
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise _unreadable(exc, kind, name) from None


class _Parquet:
    """A Parquet file opened with pyarrow's reader itself
    (``pyarrow._parquet.ParquetReader``; importing ``pyarrow.parquet`` costs
    more CPU than reading a small file), offering the few calls of
    ``pyarrow.parquet.ParquetFile`` used here; that class when the reader
    is not there."""

    def __init__(self, path: str, memory_map: bool, read_dictionary=None):
        try:
            from pyarrow._parquet import ParquetReader
        except ImportError:
            import pyarrow.parquet as pq
            self.file = pq.ParquetFile(path, memory_map=memory_map,
                                       read_dictionary=read_dictionary)
            self.reader = None
            self.schema_arrow = self.file.schema_arrow
            self.num_rows = self.file.metadata.num_rows
            self.num_row_groups = self.file.num_row_groups
            return
        self.reader = ParquetReader()
        self.reader.open(path, use_memory_map=memory_map, read_dictionary=read_dictionary)
        self.schema_arrow = self.reader.schema_arrow
        self.num_rows = self.reader.metadata.num_rows
        self.num_row_groups = self.reader.num_row_groups

    def _indices(self, columns):
        """The leaf columns of the named top-level columns, in their order
        (as ``ParquetFile`` selects them)."""
        paths = self.reader.column_paths
        return [i for c in columns for i, p in enumerate(paths) if p[0] == c]

    def read(self, columns, use_threads: bool):
        if self.reader is None:
            return self.file.read(columns=columns, use_threads=use_threads)
        return self.reader.read_all(column_indices=self._indices(columns),
                                    use_threads=use_threads)

    def read_row_group(self, g: int, columns, use_threads: bool = True):
        if self.reader is None:
            return self.file.read_row_group(g, columns=columns, use_threads=use_threads)
        return self.reader.read_row_group(g, column_indices=self._indices(columns),
                                          use_threads=use_threads)


def _unreadable(exc, kind: str, name: str) -> InputError:
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return InputError(f"not a readable {KIND_NAMES[kind]} file ({msg})", path=name)


def _find(names, wanted, what: str, source: str, required: bool = True):
    for n in wanted:
        if n in names:
            return n
    if required:
        raise InputError(f"no {what} column (expected one of {', '.join(wanted)}; found "
                         f"{', '.join(map(str, names)) or 'none'})", path=source)
    return None


def _chunks(column):
    return column.chunks if hasattr(column, "chunks") else [column]


def _first_null(column, source: str) -> int | None:
    if column.null_count == 0:
        return None
    base = 0
    for chunk in _chunks(column):
        if chunk.null_count:
            bits = chunk.buffers()[0]
            bits = np.frombuffer(bits, dtype=np.uint8) if bits is not None else \
                np.zeros(0, dtype=np.uint8)
            valid = np.unpackbits(bits, bitorder="little")[chunk.offset: chunk.offset + len(chunk)]
            if len(valid) < len(chunk) or valid.all():
                raise InputError("not a readable table (a column's null count does not match "
                                 "its validity bitmap)", path=source)
            return base + int(np.argmin(valid))
        base += len(chunk)
    return None


# --- ids ------------------------------------------------------------------------

def _spans(arr):
    """(value bytes, offsets) of a string/binary array (no copy for the bytes)."""
    import pyarrow as pa
    t = arr.type
    if not (pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t)
            or pa.types.is_large_binary(t)):
        arr = arr.cast(pa.large_binary())      # string_view, binary_view, fixed-size binary
        t = arr.type
    wide = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    n = len(arr)
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], dtype=np.int64 if wide else np.int32)
    offsets = offsets[arr.offset: arr.offset + n + 1]
    data = (np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None
            else np.zeros(0, dtype=np.uint8))
    return data, offsets


def _span_words(data, offsets, source: str, what: str, base: int) -> np.ndarray:
    """Words of the ids data[offsets[i]:offsets[i + 1]] in numpy; the one
    place that names a bad id (empty, a blank or control byte)."""
    offsets = offsets.astype(np.int64)
    n = len(offsets) - 1
    st = offsets[:-1]
    ln = offsets[1:] - st
    empty = ln == 0
    if empty.any():
        i = int(np.argmax(empty))
        raise InputError(f"{what} is empty (ids are single fields, as in a file)",
                         path=source, line=base + i + 1)
    lo, hi = (int(offsets[0]), int(offsets[-1])) if n else (0, 0)
    blank = np.flatnonzero(data[lo:hi] <= 32)
    if len(blank):
        i = int(np.searchsorted(offsets, lo + int(blank[0]), side="right")) - 1
        value = bytes(data[st[i]: st[i] + ln[i]])
        raise InputError(f"{what} {value!r} holds a blank or control character "
                         f"(ids are single fields, as in a file)", path=source,
                         line=base + i + 1)
    return load_words(data, st, ln)


def _words_of(data, offsets, source, what, base) -> np.ndarray:
    """Words of one array's ids: the compiled core's one pass, else numpy."""
    n = len(offsets) - 1
    most = int(np.max(np.diff(offsets))) if n > 0 else 0
    if compiled.enabled() and 0 < most <= LONG_ID:
        out = np.zeros((n, (most + 7) // 8), dtype=np.uint64)
        if compiled.span_fill(data, offsets, out):
            return out
    return _span_words(data, offsets, source, what, base)


def _id_words(column, source: str, what: str, colname: str) -> np.ndarray:
    """(n, W) id words of a column of ids: strings or binary (plain or
    dictionary-encoded) or integers written in decimal."""
    import pyarrow as pa
    row = _first_null(column, source)
    if row is not None:
        raise InputError(f"missing {what} (null in column {colname})", path=source,
                         line=row + 1)
    t = column.type
    vt = t.value_type if pa.types.is_dictionary(t) else t
    if pa.types.is_integer(vt):
        if pa.types.is_dictionary(t):
            column = column.cast(vt)
        x = _to_numpy(column, None)     # int64, or uint64 (its own encoding)
        if x.dtype.kind == "i":
            x = x.astype(np.int64, copy=False)
        if len(x) == 0:
            return np.zeros((0, 1), dtype=np.uint64)
        return _int_words(x)
    textual = (pa.types.is_string(vt) or pa.types.is_large_string(vt) or pa.types.is_binary(vt)
               or pa.types.is_large_binary(vt) or pa.types.is_fixed_size_binary(vt)
               or str(vt) in ("string_view", "binary_view"))
    if not textual:
        raise InputError(f"column {colname} ({what}) has type {t}; expected strings, "
                         f"binary or integers", path=source)
    # first every chunk's ids' width, then one (n, W) matrix filled in place
    parts, base, width = [], 0, 1
    for chunk in _chunks(column):
        if len(chunk) == 0:
            continue
        if pa.types.is_dictionary(chunk.type):
            idx = _primitive(chunk.indices)
            dwords = _dictionary_words(chunk, idx, source, what, base)
            parts.append(("dict", dwords, idx, base))
            width = max(width, dwords.shape[1])
        else:
            data, offsets = _spans(chunk)
            most = int(np.max(np.diff(offsets))) if len(offsets) > 1 else 0
            parts.append(("spans", data, offsets, base))
            width = max(width, ID_WORDS if most > LONG_ID else (most + 7) // 8)
        base += len(chunk)
    out = np.zeros((base, width), dtype=np.uint64)
    for kind, a, b, at in parts:
        if kind == "dict":
            rows = out[at: at + len(b)]
            if a.shape[1] == width:
                np.take(a, b, axis=0, out=rows)
            else:
                rows[:, : a.shape[1]] = a[b]
            continue
        rows = out[at: at + len(b) - 1]
        if not (compiled.enabled() and width < ID_WORDS and compiled.span_fill(a, b, rows)):
            rows[:] = 0
            w = _span_words(a, b, source, what, at)
            rows[:, : w.shape[1]] = w
    return out


def _dictionary_words(chunk, idx, source, what, base) -> np.ndarray:
    """Words of a dictionary chunk's values; a bad value is named by the first
    row holding it (a bad value no row uses is harmless: dropped)."""
    import pyarrow as pa
    dictionary = chunk.dictionary
    data, offsets = _spans(dictionary)
    try:
        return _words_of(data, offsets, source, what, 0)
    except InputError as exc:
        bad = (exc.line or 1) - 1
        at = np.flatnonzero(idx == bad)
        if len(at):
            raise InputError(exc.message, path=source, line=base + int(at[0]) + 1) from None
    used = np.zeros(len(dictionary), dtype=bool)
    used[idx] = True
    keep = dictionary.filter(pa.array(used))
    data, offsets = _spans(keep)
    words = _words_of(data, offsets, source, what, 0)
    out = np.zeros((len(dictionary), words.shape[1]), dtype=np.uint64)
    out[used] = words
    return out


# --- numbers --------------------------------------------------------------------

def _numbers(column, source: str, what: str, colname: str) -> np.ndarray:
    import pyarrow as pa
    t = column.type
    if pa.types.is_dictionary(t):
        column = column.cast(t.value_type)
        t = column.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
        raise InputError(f"column {colname} ({what}) has type {t}; expected numbers",
                         path=source)
    row = _first_null(column, source)
    if row is not None:
        raise InputError(f"missing {what} (null in column {colname})", path=source,
                         line=row + 1)
    if pa.types.is_decimal(t):
        column = column.cast(pa.float64())
    return _to_numpy(column, np.int64 if pa.types.is_integer(t) else np.float64)


_NUMPY = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
          "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
          "float": np.float32, "double": np.float64}


def _primitive(chunk) -> np.ndarray:
    """A chunk without nulls as numpy: an integer or float chunk read from its
    Arrow value buffer (no copy; ``to_numpy`` would import pandas), anything
    else through pyarrow."""
    dtype = _NUMPY.get(str(chunk.type))
    if dtype is None:
        return np.asarray(chunk.to_numpy(zero_copy_only=False))
    buf = chunk.buffers()[1]
    if buf is None:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype)[chunk.offset: chunk.offset + len(chunk)]


def _to_numpy(column, dtype) -> np.ndarray:
    """A column without nulls as one numpy array of ``dtype`` (zero-copy for
    one chunk of that type; no pyarrow.compute, whose import alone costs
    more than reading the column)."""
    parts = [_primitive(c) for c in _chunks(column)]
    if not parts:
        return np.zeros(0, dtype=dtype)
    x = parts[0] if len(parts) == 1 else np.concatenate(parts)
    if dtype is None:
        return x
    if x.dtype.kind == "u" and dtype == np.int64 and len(x) and x.max() >= 2**63:
        return x.astype(np.float64)     # beyond int64: the range check names it
    return x.astype(dtype, copy=False)


def _finite(x: np.ndarray, source: str, what: str) -> np.ndarray:
    s = np.asarray(x, dtype=np.float64)
    bad = ~np.isfinite(s)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(f"{what} is not a finite number ({float(s[i])!r})", path=source,
                         line=i + 1)
    return s


def _last_value(pf, table, col: str, kind: str, source: str):
    """The last row's value of ``col`` (a Parquet file: read from its last
    row group alone)."""
    if pf is None:
        return table.column(col)[table.num_rows - 1].as_py()
    import pyarrow as pa
    try:
        for g in range(pf.num_row_groups - 1, -1, -1):
            part = pf.read_row_group(g, columns=[col])
            if part.num_rows:
                return part.column(col)[part.num_rows - 1].as_py()
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise _unreadable(exc, kind, source) from None
    return None


# --- qrels and runs ---------------------------------------------------------------

def read_qrels(path: str, kind: str, labels: str = "integer") -> Qrels:
    """Qrels of a Parquet/Arrow file: topic id, document id and label columns."""
    source = display_name(path)
    chosen = {}

    def pick(names):
        chosen["q"] = _find(names, QID_COLUMNS, "topic id", source)
        chosen["d"] = _find(names, DOCNO_COLUMNS, "document id", source)
        chosen["l"] = _find(names, LABEL_COLUMNS, "relevance label", source)
        return [chosen["q"], chosen["d"], chosen["l"]]

    table, _ = _read_table(path, kind, pick, dictionary=QID_COLUMNS)
    if table.num_rows == 0:
        raise InputError("empty qrels (no rows)", path=source)
    qid = _id_words(table.column(chosen["q"]), source, "topic id", chosen["q"])
    docno = _id_words(table.column(chosen["d"]), source, "document id", chosen["d"])
    raw = _numbers(table.column(chosen["l"]), source, "label", chosen["l"])
    line = np.arange(1, len(raw) + 1, dtype=np.int64)
    if labels != "integer":
        from ipsoeval.labels import check_mode, encode
        check_mode(labels)
        codes, values = encode(_finite(raw, source, "label"), line, source, labels)
        return Qrels(path=source, qid=qid, docno=docno, label=codes, line=line,
                     label_mode=labels, values=values)
    return Qrels(path=source, qid=qid, docno=docno, label=_labels(raw, source), line=line)


def _run_columns(chosen: dict, source: str, kind: str, name: str | None):
    """The ``pick`` of a run's columns: it fills ``chosen`` (q, d, s or r, t)
    and returns the names to read (a Parquet file's tag is read apart, from
    its last row group)."""

    def pick(names):
        chosen["q"] = _find(names, QID_COLUMNS, "topic id", source)
        chosen["d"] = _find(names, DOCNO_COLUMNS, "document id", source)
        chosen["s"] = _find(names, SCORE_COLUMNS, "score", source, required=False)
        if chosen["s"] is None:
            chosen["r"] = _find(names, RANK_COLUMNS + SCORE_COLUMNS, "score (or rank)", source)
        chosen["t"] = _find(names, RUN_COLUMNS, "tag", source, required=False) \
            if name is None else None
        cols = [c for c in (chosen["q"], chosen["d"], chosen["s"], chosen.get("r"))
                if c is not None]
        if kind != "parquet" and chosen["t"] is not None:
            cols.append(chosen["t"])
        return cols

    return pick


def _tag_name(last) -> str:
    return last.decode("utf-8", "surrogateescape") if isinstance(last, bytes) else str(last)


def read_run(path: str, kind: str, name: str | None = None) -> Run:
    """A run of a Parquet/Arrow file: topic id, document id and score (or rank)
    columns, and optionally a tag naming the run."""
    source = display_name(path)
    chosen: dict = {}
    table, pf = _read_table(path, kind, _run_columns(chosen, source, kind, name),
                            dictionary=QID_COLUMNS)
    if table.num_rows == 0:
        raise InputError("empty run (no rows)", path=source)
    fmt = "trec"
    if chosen["s"] is not None:
        score = _finite(_numbers(table.column(chosen["s"]), source, "score", chosen["s"]),
                        source, "score")
    else:
        rank = _labels(_numbers(table.column(chosen["r"]), source, "rank", chosen["r"]), source)
        score = -rank.astype(np.float64)
        fmt = "msmarco"
    qid = _id_words(table.column(chosen["q"]), source, "topic id", chosen["q"])
    docno = _id_words(table.column(chosen["d"]), source, "document id", chosen["d"])
    if name is None:
        if chosen["t"] is not None:
            last = _last_value(pf, table, chosen["t"], kind, source)
            if last is None:
                raise InputError(f"missing tag (null in column {chosen['t']})", path=source,
                                 line=table.num_rows)
            name = _tag_name(last)
        else:
            name = os.path.basename(path)
    n = len(score)
    return Run(path=source, name=name, qid=qid, docno=docno, score=score,
               line=np.arange(1, n + 1, dtype=np.int64), fmt=fmt)


# --- reading and aligning in one pass ---------------------------------------------

def stream_run(path: str, kind: str, name: str | None, qi, *, tie_break: str,
               judged_only: bool, depth: int | None):
    """A run file read *and aligned* in one pass (a
    :class:`~ipsoeval.reading.compiled.Streamed`, as a text file's): a Parquet
    file row group by row group, an Arrow IPC file's record batches from its
    mapping (the plain layout parsed by :mod:`ipsoeval.reading.ipcfile`,
    without importing pyarrow), each batch's buffers handed to the compiled core
    (:func:`compiled.stream_columns`) -- no id matrices, no pandas.  None when
    it declines (no compiled core, a null, an id or a column type it does not
    take, a topic in two blocks of rows, an unreadable file, ...): then
    :func:`read_run` reads the table whole and says what is wrong, if anything."""
    if not compiled.enabled():
        return None
    qside = compiled.stream_qside(qi, tie_break=tie_break, judged_only=judged_only, depth=depth)
    if qside is None:
        return None
    source = display_name(path)
    chosen: dict = {}
    if kind == "arrow":     # the plain layout without pyarrow (its import costs more)
        if importlib.util.find_spec("pyarrow") is None:
            pyarrow()       # the same usage error as any table without it
        got = _stream_ipc(path, source, name, qi, qside, chosen)
        if got is not _NOT_PLAIN:
            return got
        chosen.clear()
    pa = pyarrow()
    try:
        total, batches, pf = _batches(path, kind, _run_columns(chosen, source, kind, name),
                                      chosen)
        if not total:
            return None
        if name is None and chosen["t"] is not None:
            last = _last_tag(pf, batches, chosen["t"], kind, source)
            if last is None:
                return None
            name = _tag_name(last)
        got = compiled.stream_columns(qside, total, _specs(batches, chosen))
    except (InputError, OSError, pa.ArrowException, ValueError):
        return None       # read_run decides (the one error message)
    if got is None:
        return None
    out, tout, result = got
    fmt = "trec" if chosen["s"] is not None else "msmarco"
    return compiled.streamed(source, os.path.basename(path),
                             name if name is not None else os.path.basename(path), fmt,
                             out, tout, [result], qi)


_NOT_PLAIN = object()


def _stream_ipc(path: str, source: str, name: str | None, qi, qside, chosen: dict):
    """:func:`stream_run` of an Arrow IPC file read by :mod:`ipcfile` (no
    pyarrow): the Streamed run, None (declined: :func:`read_run` decides) or
    ``_NOT_PLAIN`` when the file's layout is not the plain one it reads
    (then pyarrow reads it)."""
    from ipsoeval.reading import ipcfile
    f = ipcfile.open_file(path)
    if f is None:
        return _NOT_PLAIN
    try:
        _run_columns(chosen, source, "arrow", name)(f.names)
    except InputError:
        return None
    at = {k: f.names.index(chosen[k]) for k in ("q", "d", "s", "t") if chosen.get(k)}
    cols = f.columns
    if chosen["s"] is None or not cols[at["s"]].float64 or \
            not all(cols[at[k]].textual or cols[at[k]].int64 for k in ("q", "d")) or \
            ("t" in at and not cols[at["t"]].textual):
        return _NOT_PLAIN
    batches = [b for b in f.batches if b.num_rows]
    if not batches:
        return None
    if any(b.columns[at[k]][0] for b in batches for k in at):
        return _NOT_PLAIN       # a null: pyarrow's path names it (or declines)
    if name is None and "t" in at:
        name = _ipc_last(cols[at["t"]], batches[-1].columns[at["t"]][1])
        if name is None:
            return _NOT_PLAIN

    def ids(col, views):
        if col.int64:
            return 3, views[1], b"", 1, 0
        return (2 if col.wide else 1), views[1], views[2], 1, 0

    specs = ((b.num_rows, ids(cols[at["q"]], b.columns[at["q"]][1]),
              ids(cols[at["d"]], b.columns[at["d"]][1]), (b.columns[at["s"]][1][1], 0))
             for b in batches)
    try:
        got = compiled.stream_columns(qside, sum(b.num_rows for b in batches), specs)
    except ValueError:
        return None
    if got is None:
        return None
    out, tout, result = got
    base = os.path.basename(path)
    return compiled.streamed(source, base, name if name is not None else base, "trec",
                             out, tout, [result], qi)


def _ipc_last(col, views) -> str | None:
    """The last value of a string/binary column's batch (``views``: validity,
    offsets, data) as the tag names a run, or None (not UTF-8 text)."""
    offsets = np.frombuffer(views[1], dtype=np.int64 if col.wide else np.int32)
    if len(offsets) < 2 or not 0 <= offsets[-2] <= offsets[-1] <= len(views[2]):
        return None
    value = bytes(views[2][int(offsets[-2]): int(offsets[-1])])
    if col.tag in (5, 20):          # utf8: as pyarrow gives it, a str
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return _tag_name(value)


def _batches(path: str, kind: str, pick, chosen: dict):
    """(rows, record batches, ParquetFile or None) of the columns ``pick``
    chooses: a Parquet file's row groups read and decoded one at a time (its
    topic ids and tag as dictionaries; read, not mapped: the peak holds one row
    group, not the file's pages), an Arrow IPC file's batches zero-copy from
    its mapping."""
    pa = pyarrow()
    if kind == "parquet":
        pf = _Parquet(path, memory_map=False)
        cols = pick(pf.schema_arrow.names)
        # topic ids and the tag (few distinct values) as dictionaries: the
        # tag's last row group is then decoded to its dictionary, not its rows
        few = [chosen[k] for k in ("q", "t") if chosen[k] is not None and
               _textual(pf.schema_arrow.field(chosen[k]).type)]
        if few:
            pf = _Parquet(path, memory_map=False, read_dictionary=few)

        def groups():
            for g in range(pf.num_row_groups):
                yield from pf.read_row_group(g, columns=cols, use_threads=True).to_batches()

        return pf.num_rows, groups(), pf
    import pyarrow.ipc as ipc
    source = pa.memory_map(path, "r")
    if kind == "arrow":
        reader = ipc.open_file(source)
        pick(reader.schema.names)
        batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
    else:
        reader = ipc.open_stream(source)
        pick(reader.schema.names)
        batches = list(reader)
    return sum(b.num_rows for b in batches), batches, None


def _last_tag(pf, batches, col: str, kind: str, source: str):
    """The tag of the run's last row (None: a null, or no row)."""
    if pf is not None:
        return _last_value(pf, None, col, kind, source)
    for batch in reversed(batches):
        if batch.num_rows:
            return batch.column(col)[batch.num_rows - 1].as_py()
    return None


def _textual(t) -> bool:
    import pyarrow as pa
    return (pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t)
            or pa.types.is_large_binary(t))


def _specs(batches, chosen: dict):
    """Each batch as (rows, topic id column, docno column, scores) for
    :func:`compiled.stream_columns`: the Arrow buffers themselves, with the
    array's offset (None for a column it must decline)."""
    plans = None
    for batch in batches:
        n = batch.num_rows
        if not n:
            continue
        if plans is None:
            names = batch.schema.names
            at = [names.index(chosen[k]) for k in ("q", "d")]
            at.append(names.index(chosen["s"] if chosen["s"] is not None else chosen["r"]))
            plans = [_id_plan(batch.schema.types[at[0]]), _id_plan(batch.schema.types[at[1]]),
                     _score_plan(batch.schema.types[at[2]], chosen["s"] is None)]
        q, d, sc = (batch.column(k) for k in at)
        yield n, plans[0](q), plans[1](d), plans[2](sc)


def _decline(arr):
    return None


def _score_plan(t, rank: bool):
    """How a batch's scores (or an MS MARCO run's ranks) become (float64
    buffer, offset): the Arrow buffer itself for float64 scores."""
    tname = str(t)
    if tname not in _NUMPY or (rank and (tname in ("float", "double", "uint64"))):
        return _decline
    if tname == "double" and not rank:
        def scores(arr):
            return None if arr.null_count else (arr.buffers()[1], arr.offset)
        return scores
    if not rank:
        def converted(arr):
            if arr.null_count:
                return None
            return np.ascontiguousarray(_primitive(arr), dtype=np.float64), 0
        return converted

    def ranks(arr):
        """Minus the rank (integers, as the text file's), or None."""
        from ipsoeval.reading.grammar import LABEL_MAX, LABEL_MIN
        if arr.null_count:
            return None
        r = _primitive(arr).astype(np.int64)
        if len(r) and (int(r.min()) < LABEL_MIN or int(r.max()) > LABEL_MAX):
            return None
        return -r.astype(np.float64), 0
    return ranks


def _id_plan(t):
    """How a batch's id column becomes what ``_core.stream_columns`` takes:
    (0, indices, the dictionary's id words, W, offset), (1 | 2, offsets,
    value bytes, 1, offset) or (3, int64 values, b"", 1, offset); the plan
    returns None for a column it declines (a null, a dictionary value that
    is not a valid id), and the plan of another type declines always."""
    import pyarrow as pa
    if pa.types.is_dictionary(t):
        if not _textual(t.value_type):
            return _decline
        int32 = t.index_type == pa.int32()
        cache: dict = {}

        def dictionary(arr):
            if arr.null_count:
                return None
            values = arr.dictionary
            bufs = values.buffers()
            key = (bufs[1].address, values.offset, len(values))
            if key not in cache:      # a row group's batches share its dictionary
                cache.clear()         # (held: its buffers' addresses are not reused)
                cache[key] = (values, _dictionary_id_words(values))
            words = cache[key][1]
            if words is None:
                return None
            idx = arr.indices
            if int32:
                return 0, idx.buffers()[1], words, words.shape[1], idx.offset
            return 0, np.ascontiguousarray(_primitive(idx), dtype=np.int32), words, \
                words.shape[1], 0
        return dictionary
    if _textual(t):
        kind = 2 if pa.types.is_large_string(t) or pa.types.is_large_binary(t) else 1

        def strings(arr):
            if arr.null_count:
                return None
            bufs = arr.buffers()
            return kind, bufs[1], (bufs[2] if bufs[2] is not None else b""), 1, arr.offset
        return strings
    if pa.types.is_integer(t):
        if t == pa.int64():
            def int64(arr):
                return None if arr.null_count else (3, arr.buffers()[1], b"", 1, arr.offset)
            return int64

        def integers(arr):
            if arr.null_count:
                return None
            x = _primitive(arr)
            if x.dtype == np.uint64 and len(x) and int(x.max()) >= 2**63:
                return None
            return 3, np.ascontiguousarray(x, dtype=np.int64), b"", 1, 0
        return integers
    return _decline


def _dictionary_id_words(dictionary):
    """(K, W) id words of a dictionary's values, or None when one is not a
    valid id (empty, a blank or control byte, longer than LONG_ID bytes, not
    UTF-8): the whole table is then read by read_run."""
    if dictionary.null_count:
        return None
    data, offsets = _spans(dictionary)
    k = len(offsets) - 1
    if k == 0:
        return np.zeros((0, 1), dtype=np.uint64)
    offsets = offsets.astype(np.int64)
    most = int(np.max(np.diff(offsets)))
    if not 0 < most <= LONG_ID:
        return None
    lo, hi = int(offsets[0]), int(offsets[-1])
    if (data[lo:hi] >= 128).any():
        for i in range(k):
            try:
                bytes(data[offsets[i]: offsets[i + 1]]).decode("utf-8")
            except UnicodeDecodeError:
                return None
    out = np.zeros((k, (most + 7) // 8), dtype=np.uint64)
    return out if compiled.span_fill(data, offsets, out) else None
