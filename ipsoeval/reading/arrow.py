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
text round trip.  The model built is the text reader's, "line" numbers
being 1-based row numbers, so alignment and every number are the same.
What a text file could not hold is an error here too (``FILE:ROW: what``,
exit 3): a null, an empty id or one holding a blank or control byte, a
non-integer label, a score that is not finite, a missing column or one of
the wrong type.
"""

from __future__ import annotations

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
            import pyarrow.parquet as pq
            pf = pq.ParquetFile(path, memory_map=True)
            schema = pf.schema_arrow
            cols = pick(schema.names)
            textual = [c for c in cols if c in dictionary
                       and (pa.types.is_string(schema.field(c).type)
                            or pa.types.is_binary(schema.field(c).type)
                            or pa.types.is_large_string(schema.field(c).type)
                            or pa.types.is_large_binary(schema.field(c).type))]
            if textual:
                pf = pq.ParquetFile(path, memory_map=True, read_dictionary=textual)
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


def _first_null(column) -> int | None:
    if column.null_count == 0:
        return None
    mask = np.asarray(column.is_null().to_numpy(zero_copy_only=False))
    return int(np.argmax(mask))


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
    row = _first_null(column)
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
            idx = np.asarray(chunk.indices.to_numpy(zero_copy_only=False))
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
    row = _first_null(column)
    if row is not None:
        raise InputError(f"missing {what} (null in column {colname})", path=source,
                         line=row + 1)
    if pa.types.is_decimal(t):
        column = column.cast(pa.float64())
    return _to_numpy(column, np.int64 if pa.types.is_integer(t) else np.float64)


def _to_numpy(column, dtype) -> np.ndarray:
    """A column without nulls as one numpy array of ``dtype`` (zero-copy for
    one chunk of that type; no pyarrow.compute, whose import alone costs
    more than reading the column)."""
    parts = [np.asarray(c.to_numpy(zero_copy_only=False)) for c in _chunks(column)]
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


def read_run(path: str, kind: str, name: str | None = None) -> Run:
    """A run of a Parquet/Arrow file: topic id, document id and score (or rank)
    columns, and optionally a tag naming the run."""
    source = display_name(path)
    chosen = {}

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

    table, pf = _read_table(path, kind, pick, dictionary=QID_COLUMNS)
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
            name = last.decode("utf-8", "surrogateescape") if isinstance(last, bytes) \
                else str(last)
        else:
            name = os.path.basename(path)
    n = len(score)
    return Run(path=source, name=name, qid=qid, docno=docno, score=score,
               line=np.arange(1, n + 1, dtype=np.int64), fmt=fmt)
