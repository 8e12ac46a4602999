"""Readers for in-memory inputs: dicts and pandas DataFrames → the model.

The Python API (:mod:`ipsoeval.api`) accepts qrels and runs as

- ``{qid: {docno: label}}`` / ``{qid: {docno: score}}`` dicts, and
- pandas DataFrames with the columns ``query_id, doc_id, relevance`` /
  ``query_id, doc_id, score`` (ir_measures' names) or ``qid, docno, label`` /
  ``qid, docno, score`` (trec_eval's); a run DataFrame with a ``rank`` column
  and no ``score`` is an MS MARCO run (rank 1 first, like the 3-field file).

They become the same :class:`~ipsoeval.model.Qrels` / :class:`~ipsoeval.model.Run`
the file readers build (ids as uint64 words, labels, scores, "line" numbers =
1-based row positions), so alignment is exactly the files' (ties by docno,
duplicates, ``-J``/``-M``/``-l``/``-c``).  What a file could not hold is an
error here too: an empty id or one with a blank or control character, a
non-integer label, a score that is not a finite number, a docno twice in a
topic (found by the alignment, as for files).

DataFrames are converted column-wise; no Python loop over rows.  A column of
str ids or of non-negative integer ids is encoded in one pass by the compiled
core (:func:`ipsoeval.reading.compiled.id_words` / ``int_words``), which accepts only
valid ids; anything else (and every column when the core is not built) takes
the Python path below (a long column with repeats factorised once, then
encoded per distinct value), which alone holds the error semantics.
"""

from __future__ import annotations

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_id, encode_id, is_utf8
from ipsoeval.model import Qrels, Run, SubtopicQrels
from ipsoeval.reading import compiled
from ipsoeval.reading.grammar import LABEL_MAX, LABEL_MIN
from ipsoeval.reading.words import load_words

QID_COLUMNS = ("query_id", "qid", "q_id", "topic")
DOCNO_COLUMNS = ("doc_id", "docno", "docid", "doc")
LABEL_COLUMNS = ("relevance", "label", "rel")
SCORE_COLUMNS = ("score",)
RANK_COLUMNS = ("rank",)
RUN_COLUMNS = ("run", "run_id", "tag", "name")
# diversity qrels' subtopic: ir_measures carries it in the qrels' iteration field
SUBTOPIC_COLUMNS = ("subtopic", "subtopic_id", "iteration")
JUDGMENT_COLUMNS = ("judgment",) + LABEL_COLUMNS


def is_dataframe(obj) -> bool:
    t = type(obj)
    return t.__name__ == "DataFrame" and t.__module__.split(".")[0] == "pandas"


def _column(df, names, what: str, source: str, required: bool = True):
    for n in names:
        if n in df.columns:
            return n
    if required:
        raise UsageError(f"{source}: no {what} column (expected one of {', '.join(names)}; "
                         f"found {', '.join(map(str, df.columns))})")
    return None


# --- ids ----------------------------------------------------------------------

def _encode_distinct(values, source: str, what: str, rows_of) -> np.ndarray:
    """(k, W) uint64 words of k distinct id values (str, int, bytes)."""
    k = len(values)
    if k == 0:
        return np.zeros((0, 1), dtype=np.uint64)
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.dtype.kind in "iu":
        enc = arr.astype(str).astype("S")
    else:
        try:
            enc = np.asarray(arr, dtype="U").astype("S")          # ASCII: vectorised
        except (UnicodeEncodeError, ValueError, TypeError):
            enc = np.array([_id_bytes(v, source, what, rows_of, i) for i, v in enumerate(arr)],
                           dtype="S")
        else:
            bad = np.flatnonzero([v is None or (isinstance(v, float) and v != v)
                                  for v in arr]) if arr.dtype == object else []
            if len(bad):
                _id_bytes(arr[bad[0]], source, what, rows_of, int(bad[0]))
    width = enc.dtype.itemsize
    lens = np.char.str_len(enc).astype(np.int64)
    u8 = enc.view(np.uint8).reshape(k, width) if width else np.zeros((k, 0), np.uint8)
    col = np.arange(width)
    blank = ((u8 <= 32) & (col[None, :] < lens[:, None])).any(axis=1) | (lens == 0)
    if width and (u8[:, :] == 0).any():
        # an embedded NUL: str_len stops at trailing NULs only
        inner = (u8 == 0) & (col[None, :] < lens[:, None])
        blank |= inner.any(axis=1)
    if blank.any():
        i = int(np.argmax(blank))
        raise InputError(f"{what} {arr[i]!r} is empty or holds a blank or control character "
                         f"(ids are single fields, as in a file)", path=source, line=rows_of(i))
    stride = max(8, (width + 7) // 8 * 8)
    buf = np.zeros((k, stride), dtype=np.uint8)
    if width:
        buf[:, :width] = u8
    return load_words(buf.reshape(-1), np.arange(k, dtype=np.int64) * stride, lens)


def _id_bytes(v, source, what, rows_of, i) -> bytes:
    if v is None or (isinstance(v, float) and v != v):
        raise InputError(f"missing {what}", path=source, line=rows_of(i))
    if isinstance(v, bytes):
        return v
    text = str(v)
    try:
        raw = encode_id(text)             # U+DC80..U+DCFF: a byte (ipsoeval.ids)
    except UnicodeEncodeError as exc:      # another lone surrogate: no byte spelling
        raise InputError(f"{what} is not valid text ({exc.reason} at character "
                         f"{exc.start + 1})", path=source, line=rows_of(i)) from None
    if not is_utf8(text) and decode_id(raw) != text:
        # escaped bytes that form valid UTF-8 ('\udcc3\udca9' is 'é'): the id
        # would come back as another str, and merge with that one
        raise InputError(f"{what} {text!r} is not the surrogateescape form of its bytes "
                         f"(write it as {decode_id(raw)!r})", path=source, line=rows_of(i))
    return raw


_FACTORIZE_MIN = 65_536      # rows from which a column with repeats is factorised


def _factorize_first(series) -> bool:
    """A long column whose first 65,536 values hold at most half distinct
    ones (topic ids: 6,980 in 7M rows) is encoded per distinct value."""
    if len(series) < _FACTORIZE_MIN or getattr(series.dtype, "name", "") == "category":
        return False
    head = series.iloc[:_FACTORIZE_MIN]
    try:
        return head.nunique(dropna=False) * 2 <= len(head)
    except TypeError:                  # unhashable values: the general path says why
        return False


def _series_words(series, source: str, what: str) -> np.ndarray:
    """Words of a DataFrame column of ids: integers are written in decimal with
    numpy, strings by the compiled core (ipsoeval/_core.c) when every value is
    a valid id, else joined into one buffer and cut like a file's tokens."""
    if getattr(series.dtype, "name", "") != "category" and compiled.enabled():
        arr = series.to_numpy()
        if arr.dtype.kind in "OU":
            words = compiled.id_words(arr.tolist())
            if words is not None:
                return words
    if _factorize_first(series):
        import pandas as pd
        codes, uniques = pd.factorize(series, sort=False, use_na_sentinel=True)
        if not (codes < 0).any():       # missing ids: the general path names the row
            series = pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(uniques)))
    if getattr(series.dtype, "name", "") == "category":     # distinct values once
        codes = np.asarray(series.cat.codes.to_numpy(), dtype=np.int64)
        if (codes < 0).any():
            raise InputError(f"missing {what}", path=source, line=int(np.argmax(codes < 0)) + 1)
        import pandas as pd
        try:
            cats = _series_words(pd.Series(series.cat.categories), source, what)
        except InputError as exc:           # name the frame's row, not the category's
            at = np.flatnonzero(codes == (exc.line or 1) - 1)
            raise InputError(exc.message, path=source,
                             line=int(at[0]) + 1 if len(at) else None) from None
        return cats[codes]
    arr = series.to_numpy()
    n = len(arr)
    if arr.dtype.kind in "iu":
        return _int_words(arr)
    if arr.dtype.kind == "f":          # integer ids read as floats (a column with a NaN)
        bad = np.isnan(arr)
        if bad.any():
            raise InputError(f"missing {what}", path=source, line=int(np.argmax(bad)) + 1)
        if (arr == np.round(arr)).all() and np.abs(arr).max(initial=0) < 2**53:
            return _int_words(arr.astype(np.int64))
    if arr.dtype.kind not in "OUS" or n == 0:
        arr = arr.astype(object)
    try:
        if arr.dtype.kind == "S":
            text = b"\n".join(arr.tolist())
        else:
            text = "\n".join(arr.tolist()).encode("utf-8")
    except (TypeError, UnicodeEncodeError):   # not every value is (encodable) text:
        return _words_list(list(arr), source, what)   # the general path names the row
    buf = np.frombuffer(text, dtype=np.uint8)
    low = np.flatnonzero(buf <= 32)
    if len(low) != n - 1 or (n > 1 and (buf[low] != 10).any()):
        # an id holding a blank, a control byte or a newline: find it exactly
        return _words_list(list(arr), source, what)
    st = np.empty(n, dtype=np.int64)
    st[0] = 0
    st[1:] = low + 1
    ends = np.append(low, len(buf))
    ln = ends - st
    if (ln == 0).any():
        i = int(np.argmax(ln == 0))
        raise InputError(f"{what} is empty (ids are single fields, as in a file)",
                         path=source, line=i + 1)
    return load_words(buf, st, ln)


def _int_words(x: np.ndarray) -> np.ndarray:
    """Words of integer ids written in decimal (as a file would hold them)."""
    x = x.astype(np.int64) if x.dtype.kind == "u" and x.max(initial=0) < 2**63 else x
    if x.dtype.kind == "i" and compiled.enabled():
        words = compiled.int_words(x)
        if words is not None:
            return words
    if x.dtype.kind == "u" or (len(x) and x.min() < 0):
        return _encode_distinct(np.asarray(x).astype(str), "<ids>", "id", lambda i: i + 1)
    r = x.astype(np.int64)
    width = len(str(int(r.max(initial=0))))
    right = np.empty((len(r), width), dtype=np.uint8)   # digits, right-aligned
    for j in range(width - 1, -1, -1):
        q = r // 10
        right[:, j] = (r - q * 10).astype(np.uint8)
        r = q
    right += np.uint8(48)
    nd = np.ones(len(x), dtype=np.int8)
    p = 10
    for _ in range(1, width):
        nd += x >= p
        p *= 10
    w8 = max(8, (width + 7) // 8 * 8)
    out = np.zeros((len(x), w8), dtype=np.uint8)
    counts = np.bincount(nd, minlength=width + 1)
    if counts[width] == len(x):
        out[:, :width] = right
    else:
        for k in np.flatnonzero(counts):
            rows = np.flatnonzero(nd == k)
            out[rows, :k] = right[rows, width - k:]
    return out.view("<u8").astype(np.uint64, copy=False)


# --- numbers ------------------------------------------------------------------

def _labels(values, source: str, rows=None) -> np.ndarray:
    a = np.asarray(values)
    if a.dtype == bool:
        a = a.astype(np.int64)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
    elif a.dtype.kind in "iu":
        bad = np.zeros(len(a), dtype=bool)
    else:
        out = np.zeros(len(a), dtype=np.int64)
        for i, v in enumerate(a):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                if isinstance(v, (float, np.floating)) and np.isfinite(v) and v == int(v):
                    out[i] = int(v)
                    continue
                raise InputError(f"label is not an integer ({v!r})", path=source,
                                 line=(rows[i] if rows is not None else i + 1))
            out[i] = int(v)
        a = out
        bad = np.zeros(len(a), dtype=bool)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(f"label is not an integer ({a[i]!r})", path=source,
                         line=(rows[i] if rows is not None else i + 1))
    lab = a.astype(np.int64) if a.dtype.kind == "f" else a
    if lab.dtype.kind == "u" and len(lab) and lab.max() > LABEL_MAX:
        lab = lab.astype(np.float64)
    out = (lab < LABEL_MIN) | (lab > LABEL_MAX)
    if out.any():
        i = int(np.argmax(out))
        raise InputError(f"label out of range ({lab[i]}; labels must lie between "
                         f"{LABEL_MIN} and {LABEL_MAX})", path=source,
                         line=(rows[i] if rows is not None else i + 1))
    return lab.astype(np.int64)


def _scores(values, source: str, what: str = "score") -> np.ndarray:
    try:
        s = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        s = None
    if s is None or s.ndim != 1:
        for i, v in enumerate(values):
            try:
                float(v)
            except (TypeError, ValueError):
                raise InputError(f"{what} is not a finite number ({v!r})", path=source,
                                 line=i + 1) from None
        raise InputError(f"{what}s are not numbers", path=source)
    bad = ~np.isfinite(s)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(f"{what} is not a finite number ({s[i]!r})", path=source, line=i + 1)
    return s


# --- qrels and runs -------------------------------------------------------------

def _flatten(d: dict, source: str):
    """{qid: {docno: value}} → (qids, docnos, values) lists in dict order."""
    qids, docs, vals = [], [], []
    for q, inner in d.items():
        if not isinstance(inner, dict):
            raise UsageError(f"{source}: expected {{qid: {{docno: value}}}}, found "
                             f"{type(inner).__name__} for topic {q!r}")
        n = len(inner)
        qids.extend([q] * n)
        docs.extend(inner.keys())
        vals.extend(inner.values())
    return qids, docs, vals


def _words_list(values: list, source: str, what: str) -> np.ndarray:
    """Words of a list of ids (dict input): by the compiled core when every
    value is a valid str id, else encoded per distinct value."""
    if compiled.enabled():
        words = compiled.id_words(values)
        if words is not None:
            return words
    index: dict = {}
    codes = np.empty(len(values), dtype=np.int64)
    for i, v in enumerate(values):
        c = index.get(v)
        if c is None:
            c = index[v] = len(index)
        codes[i] = c
    distinct = list(index)
    first = np.full(len(distinct), -1, dtype=np.int64)
    first[codes[::-1]] = np.arange(len(values) - 1, -1, -1)
    words = _encode_distinct(np.array(distinct + [None], dtype=object)[:-1], source, what,
                             lambda i: int(first[i]) + 1)
    return words[codes] if len(values) else np.zeros((0, 1), dtype=np.uint64)


def _frame_columns(df, source: str, value: tuple, empty: str) -> tuple:
    """The topic id, document id and value columns of a DataFrame (value:
    ``(names, what, required)``), checked in that order and before its rows."""
    names, what, required = value
    qc = _column(df, QID_COLUMNS, "topic id", source)
    dc = _column(df, DOCNO_COLUMNS, "document id", source)
    vc = _column(df, names, what, source, required=required)
    if len(df) == 0:
        raise InputError(empty, path=source)
    return qc, dc, vc


def _frame_ids(df, qc, dc, source: str) -> tuple[np.ndarray, np.ndarray]:
    return (_series_words(df[qc], source, "topic id"),
            _series_words(df[dc], source, "document id"))


def _dict_rows(obj: dict, source: str, empty: str) -> tuple[np.ndarray, np.ndarray, list]:
    """The topic and document id words and the values of a ``{qid: {docno:
    value}}`` dict, in dict order."""
    qids, docs, vals = _flatten(obj, source)
    if not qids:
        raise InputError(empty, path=source)
    return (_words_list(qids, source, "topic id"), _words_list(docs, source, "document id"),
            vals)


def qrels_from(obj, source: str = "<qrels>", labels: str = "integer") -> Qrels:
    """A Qrels from a ``{qid: {docno: label}}`` dict or a DataFrame; ``labels``
    gain/probability: real labels, coded (ipsoeval.labels)."""
    from ipsoeval.labels import check_mode, encode
    check_mode(labels)
    label_of = _labels if labels == "integer" else _reals
    if is_dataframe(obj):
        df = obj
        qc, dc, lc = _frame_columns(df, source, (LABEL_COLUMNS, "relevance label", True),
                                    "empty qrels (no rows)")
        qid, docno = _frame_ids(df, qc, dc, source)
        label = label_of(df[lc].to_numpy(), source)
    elif isinstance(obj, dict):
        qid, docno, vals = _dict_rows(obj, source, "empty qrels (no judgments)")
        label = label_of(np.array(vals + [None], dtype=object)[:-1], source)
    else:
        raise UsageError(f"qrels must be a path, a {{qid: {{docno: label}}}} dict or a pandas "
                         f"DataFrame (found {type(obj).__name__})")
    n = len(label)
    line = np.arange(1, n + 1, dtype=np.int64)
    if labels != "integer":
        codes, values = encode(label, line, source, labels)
        return Qrels(path=source, qid=qid, docno=docno, label=codes, line=line,
                     label_mode=labels, values=values)
    return Qrels(path=source, qid=qid, docno=docno, label=label, line=line)


def subtopic_qrels_from(obj, source: str = "<qrels>") -> SubtopicQrels:
    """Diversity qrels from a DataFrame (topic, subtopic -- ``subtopic`` or
    ir_measures' ``iteration`` --, document and judgment columns) or a
    ``{qid: {subtopic: {docno: judgment}}}`` dict; judgments whole numbers
    from 0, as in ndeval's file."""
    if is_dataframe(obj):
        df = obj
        qc = _column(df, QID_COLUMNS, "topic id", source)
        sc = _column(df, SUBTOPIC_COLUMNS, "subtopic", source)
        dc = _column(df, DOCNO_COLUMNS, "document id", source)
        jc = _column(df, JUDGMENT_COLUMNS, "judgment", source)
        if len(df) == 0:
            raise InputError("empty qrels (no judgments)", path=source)
        qid, docno = _frame_ids(df, qc, dc, source)
        sub = _series_words(df[sc].astype(str), source, "subtopic")
        judgment = _labels(df[jc].to_numpy(), source)
    elif isinstance(obj, dict):
        qids, subs, docs, vals = [], [], [], []
        for q, per_sub in obj.items():
            if not isinstance(per_sub, dict) or not all(isinstance(v, dict)
                                                        for v in per_sub.values()):
                raise UsageError(f"{source}: diversity qrels as a dict are "
                                 f"{{qid: {{subtopic: {{docno: judgment}}}}}} (topic {q!r})")
            for st, inner in per_sub.items():
                n = len(inner)
                qids.extend([q] * n)
                subs.extend([str(st)] * n)
                docs.extend(inner.keys())
                vals.extend(inner.values())
        if not qids:
            raise InputError("empty qrels (no judgments)", path=source)
        qid = _words_list(qids, source, "topic id")
        sub = _words_list(subs, source, "subtopic")
        docno = _words_list(docs, source, "document id")
        judgment = _labels(np.array(vals + [None], dtype=object)[:-1], source)
    else:
        raise UsageError(f"diversity qrels must be a path, a {{qid: {{subtopic: {{docno: "
                         f"judgment}}}}}} dict or a pandas DataFrame (found "
                         f"{type(obj).__name__})")
    bad = (judgment < 0) | (judgment > LABEL_MAX)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(f"a diversity judgment must be a whole number from 0 to {LABEL_MAX} "
                         f"(found {int(judgment[i])})", path=source, line=i + 1)
    n = len(judgment)
    return SubtopicQrels(path=source, qid=qid, subtopic=sub, docno=docno, judgment=judgment,
                         line=np.arange(1, n + 1, dtype=np.int64))


def _reals(values, source: str) -> np.ndarray:
    """Labels as reals (``--labels gain|probability``)."""
    out = np.zeros(len(values), dtype=np.float64)
    for i, v in enumerate(np.asarray(values, dtype=object)):
        try:
            if isinstance(v, (bool, np.bool_, str, bytes)):
                raise TypeError
            out[i] = float(v)
        except (TypeError, ValueError):
            raise InputError(f"label is not a number ({v!r})", path=source,
                             line=i + 1) from None
    return out


def run_from(obj, name: str, source: str | None = None) -> Run:
    """A Run from a ``{qid: {docno: score}}`` dict or a DataFrame (score, or rank)."""
    source = source or f"<run {name}>"
    fmt = "trec"
    if is_dataframe(obj):
        df = obj
        qc, dc, sc = _frame_columns(df, source, (SCORE_COLUMNS, "score", False),
                                    "empty run (no rows)")
        if sc is None:
            rc = _column(df, RANK_COLUMNS, "score (or rank)", source)
            ranks = _labels(df[rc].to_numpy(), source)      # integers, like the file's
            score = -ranks.astype(np.float64)
            fmt = "msmarco"
        else:
            score = _scores(df[sc].to_numpy(), source)
        qid, docno = _frame_ids(df, qc, dc, source)
    elif isinstance(obj, dict):
        qid, docno, vals = _dict_rows(obj, source, "empty run (no documents)")
        score = _scores(vals, source)
    else:
        raise UsageError(f"a run must be a path, a {{qid: {{docno: score}}}} dict or a pandas "
                         f"DataFrame (found {type(obj).__name__})")
    n = len(score)
    return Run(path=source, name=name, qid=qid, docno=docno, score=score,
               line=np.arange(1, n + 1, dtype=np.int64), fmt=fmt)


def split_runs(df, source: str = "<runs DataFrame>") -> dict | None:
    """A DataFrame with a run column as {run name: DataFrame} (first-appearance
    order), or None when it has no run column."""
    col = _column(df, RUN_COLUMNS, "run", source, required=False)
    if col is None:
        return None
    out = {}
    for key, part in df.groupby(col, sort=False):
        out[str(key)] = part.drop(columns=[col])
    return out
