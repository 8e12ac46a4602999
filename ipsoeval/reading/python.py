"""The reference Python reader: TREC runs, MS MARCO runs and qrels as blocks
of lines → the model (:class:`~ipsoeval.model.Qrels`, :class:`~ipsoeval.model.Run`).

It alone holds the error semantics: every malformed case raises
:class:`InputError` naming the file and line (the grammar is in
:mod:`ipsoeval.reading.grammar`).  The compiled core reads the same bytes
into the same arrays when it is sure the input is valid, and hands anything
else back here (:mod:`ipsoeval.reading.entry` decides).  It is also the
reader of stdin and the whole reader under ``IPSOEVAL_CORE=python``.

Blocks of whole lines (:func:`ipsoeval.reading.opening.iter_blocks`) are
tokenised with numpy, no Python loop over lines, in a small thread pool
(numpy releases the GIL).  :func:`parse_blocks` and :func:`count_check` also
serve trec_eval's other input modes (``ipsoeval/trecmodes/``).
"""

from __future__ import annotations

import math
import os

import numpy as np

from ipsoeval.errors import InputError
from ipsoeval.ids import decode_id, is_utf8
from ipsoeval.model import Qrels, Run, SubtopicQrels
from ipsoeval.parallel import parallel_map, workers
from ipsoeval.reading.grammar import FLOAT_SYNTAX, INT_SYNTAX, LABEL_MAX, LABEL_MIN, display_name
from ipsoeval.reading.opening import iter_blocks
from ipsoeval.reading.words import KEEP, file_warning, load_words, read_words, word_view


def _split_chunk(buf: np.ndarray, lo: int, hi: int, name: str, want, line_base: int):
    """Tokenise buf[lo:hi] (whole lines).  Returns ((start, lens, line, count), lines)."""
    b = buf[lo:hi]
    n = hi - lo
    le = b <= 32
    sep = np.flatnonzero(le)               # every separator byte position
    open_end = bool(n and b[-1] != 10)      # last line without a newline
    if open_end:
        sep = np.append(sep, n)
    n_nl = int(np.count_nonzero(b == 10))
    nlines = n_nl + open_end
    # Fast path: every line has the same number k of single-space separated
    # tokens and the only control bytes are the newlines.
    k = 0
    if nlines and len(sep):
        first_nl = int(np.argmax(b == 10)) if n_nl else n
        k = int(np.searchsorted(sep, first_nl)) + 1
    regular = (
        nlines > 0 and b[0] > 32 and len(sep) == nlines * k
        and int(np.count_nonzero(b < 32)) == n_nl
        and not (le[1:] & le[:-1]).any()
    )
    if regular and open_end and le[-1]:
        regular = False                     # "… 1.0 " at EOF: 5 fields, not 6
    if regular:
        nl = sep[k - 1::k]
        ends_ok = b[np.minimum(nl, n - 1)] == 10
        if open_end:
            ends_ok[-1] = True
        regular = bool(ends_ok.all())
    if regular:
        grid = sep.reshape(nlines, k)
        line_start = np.empty(nlines, dtype=np.int64)
        line_start[0] = 0
        line_start[1:] = grid[:-1, -1] + 1
        if (b[line_start] == 35).any():     # comment lines: general path
            regular = False
    if regular:
        lines = np.arange(1, nlines + 1, dtype=np.int64) + line_base
        count = np.full(nlines, k, dtype=np.int64)
        start, lens = {}, {}
        for f in want:
            if f < k:
                s_f = line_start if f == 0 else grid[:, f - 1] + 1
                start[f] = s_f + lo
                lens[f] = grid[:, f] - s_f
            else:
                start[f] = np.zeros(nlines, np.int64)
                lens[f] = np.zeros(nlines, np.int64)
        return (start, lens, lines, count), nlines
    sepch = b[np.minimum(sep, n - 1)]
    if n and b[-1] != 10:
        sepch[-1] = 10
    is_nl = sepch == 10
    nlines = int(np.count_nonzero(is_nl))
    bad = (sepch != 32) & (sepch != 9) & (sepch != 13) & ~is_nl
    if bad.any():
        i = int(np.argmax(bad))
        ln = line_base + int(np.count_nonzero(is_nl[:i])) + 1
        raise InputError(f"binary data, not a text file (byte 0x{int(sepch[i]):02x})",
                         path=name, line=ln)
    # General case: runs of blanks, blank lines, comments, varying field counts.
    prev = np.empty(len(sep), dtype=np.int64)
    prev[0] = -1
    prev[1:] = sep[:-1]
    tok = np.flatnonzero(sep - prev > 1)
    starts = prev[tok] + 1
    ends = sep[tok]
    nl_before = np.cumsum(is_nl) - is_nl
    tline = nl_before[tok]
    count = np.bincount(tline, minlength=nlines)
    first = np.cumsum(count) - count
    line_start = np.empty(nlines, dtype=np.int64)
    if nlines:
        line_start[0] = 0
        line_start[1:] = sep[np.flatnonzero(is_nl)[:-1]] + 1
    keep = count > 0
    if nlines:
        keep &= b[np.minimum(line_start, max(n - 1, 0))] != 35
    idx = np.flatnonzero(keep)
    first = first[idx]
    count = count[idx]
    lines = idx.astype(np.int64) + (line_base + 1)
    start, lens = {}, {}
    for f in want:
        has = count > f
        t = np.where(has, first + f, 0)
        if len(starts):
            st = starts[t]
            start[f] = st + lo
            lens[f] = np.where(has, ends[t] - st, 0)
        else:
            start[f] = np.zeros(len(t), np.int64)
            lens[f] = np.zeros(len(t), np.int64)
    return (start, lens, lines, count), nlines


# --- numbers -----------------------------------------------------------------

_POW10 = np.array([10.0 ** k for k in range(23)])
_IPOW10 = np.array([10 ** k for k in range(19)], dtype=np.uint64)
_ZEROS = np.uint64(0x3030303030303030)


def _digits8(x: np.ndarray) -> np.ndarray:
    """Value of 8 ASCII digits per word (first character in the lowest byte)."""
    x = x - _ZEROS
    x = (x * np.uint64(10) + (x >> np.uint64(8))) & np.uint64(0x00FF00FF00FF00FF)
    x = (x * np.uint64(100) + (x >> np.uint64(16))) & np.uint64(0x0000FFFF0000FFFF)
    return (x * np.uint64(10000) + (x >> np.uint64(32))) & np.uint64(0xFFFFFFFF)


def _all_digits(x: np.ndarray) -> np.ndarray:
    """True where every byte of the word is an ASCII digit."""
    hi = np.uint64(0xF0F0F0F0F0F0F0F0)
    return ((x & hi) | (((x + np.uint64(0x0606060606060606)) & hi) >> np.uint64(4))) == \
        np.uint64(0x3333333333333333)


def _fill_high(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Keep the low k bytes of each word, fill the others with '0'."""
    keep = KEEP[k]
    return (x & keep) | (_ZEROS & ~keep)


def _fill_low(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Keep the high k bytes of each word, fill the others with '0'."""
    low = KEEP[8 - k]
    return (x & ~low) | (_ZEROS & low)

def _parse_numbers(buf: np.ndarray, st: np.ndarray, ln: np.ndarray, integer: bool):
    """Parse the tokens buf[st:st+ln] as integers or decimals: (values, ok).

    Plain numbers (optional sign, at most 8 integer digits, at most 8 decimals,
    at most 15 digits in all) are parsed with integer arithmetic on 64-bit
    words; a decimal is then one correctly rounded division of two exact
    doubles, which is what strtod returns.  Anything else (exponents, long
    numbers) goes through Python's int()/float().  ``ok`` is False where the
    text is not a finite number.
    """
    n = len(st)
    view = word_view(buf)
    size = len(buf)
    if n == 0:
        return np.zeros(0, np.int64 if integer else np.float64), np.zeros(0, bool)
    firstc = buf[np.minimum(st, size - 1)]
    neg = firstc == 45
    sign = neg | (firstc == 43)
    end = st + ln
    frac = np.full(n, -1, dtype=np.int64)
    if not integer:
        todo = np.arange(n)
        # the layout of the first line first, for everyone; then the others
        lastdot = bytes(buf[st[0]: end[0]]).rfind(b".")
        guess = int(ln[0] - lastdot - 1) if lastdot >= 0 else -1
        cands = ([guess] if 0 <= guess <= 8 else []) + [c for c in range(9) if c != guess]
        for cand in cands:
            if not len(todo):
                break
            pos = end[todo] - cand - 1
            hit = (buf[np.clip(pos, 0, size - 1)] == 46) & (pos >= st[todo])
            frac[todo[hit]] = cand
            todo = todo[~hit]
    has_dot = frac >= 0
    fr = np.where(has_dot, frac, 0)
    cut = np.where(has_dot, fr + 1, 0)
    k = ln - sign - cut                       # integer digits
    fast = (k >= 0) & (k <= 8) & (k + fr >= 1) & (k + fr <= 15)
    kk = np.minimum(np.maximum(k, 0), 8)
    int_end = end - cut
    iw = _fill_low(read_words(buf, view, int_end - 8), kk)
    ok = fast & _all_digits(iw)
    ival = _digits8(iw)
    if integer:
        vals = ival.astype(np.int64)
        vals = np.where(neg, -vals, vals)
    else:
        fr8 = np.minimum(fr, 8)
        fw = _fill_high(read_words(buf, view, int_end + 1), fr8)
        ok &= _all_digits(fw)
        fval = _digits8(fw) // _IPOW10[8 - fr8]
        mant = ival * _IPOW10[fr8] + fval
        vals = mant.astype(np.float64) / _POW10[fr8]
        vals = np.where(neg, -vals, vals)
    vals[~ok] = 0
    pattern = INT_SYNTAX if integer else FLOAT_SYNTAX
    for i in np.flatnonzero(~ok):   # unusual spellings: exponents, long numbers
        raw = bytes(buf[st[i]: end[i]])
        if not pattern.match(raw):  # Python's int()/float() also take 1_0, ０, " 1"
            continue
        text = raw.decode("ascii")
        try:
            x = int(text) if integer else float(text)
        except ValueError:
            continue
        if integer and abs(x) < 2**62:
            vals[i] = x
            ok[i] = True
        elif not integer and math.isfinite(x):
            vals[i] = x
            ok[i] = True
    return vals, ok


def _text(buf: np.ndarray, st: int, ln: int) -> str:
    return decode_id(bytes(buf[st: st + ln]))


class _ChunkError(Exception):
    """An input error at a line counted from the start of its chunk."""

    def __init__(self, local_line: int, message: str, first_hint: str = ""):
        self.local_line = local_line
        self.message = message
        self.first_hint = first_hint   # added when this is the file's first data line


def _process_chunk(buf, lo, hi, name, spec, check):
    """Tokenise and convert one chunk.  Returns (fields, local lines, nlines)."""
    want = tuple(spec)
    try:
        (start, lens, lines, count), nlines = _split_chunk(buf, lo, hi, name, want, 0)
    except InputError as exc:
        raise _ChunkError(exc.line, exc.message) from None
    bad = check(count)
    if bad is not None:
        i, msg = bad[:2]
        raise _ChunkError(int(lines[i]), msg, bad[2] if len(bad) > 2 and i == 0 else "")
    out = {}
    for f, kind in spec.items():
        st, ln = start[f], lens[f]
        if kind == "words":
            out[f] = load_words(buf, st, ln)
        elif kind == "last":
            out[f] = _text(buf, int(st[-1]), int(ln[-1])) if len(st) else None
        else:
            vals, ok = _parse_numbers(buf, st, ln, integer=kind not in ("float", "real"))
            if not ok.all():
                i = int(np.argmax(~ok))
                what = {"float": "score is not a finite number",
                        "real": "label is not a finite number",
                        "int": "label is not an integer",
                        "rank": "rank is not an integer"}[kind]
                text = _text(buf, int(st[i]), int(ln[i]))
                raise _ChunkError(int(lines[i]), f"{what} ({text!r})"
                                  + header_hint(text, int(lines[i]), kind))
            out[f] = vals
    return out, lines, nlines


def header_hint(text: str, line: int, kind: str) -> str:
    """The hint for a column name where a number belongs on line 1: a header
    line, which trec_eval's formats do not have."""
    if line != 1 or not text.isidentifier() or text.lower() in ("inf", "infinity", "nan"):
        return ""
    files = "runs" if kind in ("float", "rank") else "qrels"
    return f"; is line 1 a header? TREC {files} have none"


def parse_blocks(blocks, name: str, spec: dict, check, what: str):
    """Parse a file given as blocks of whole lines: {field: array}, line numbers.

    Blocks are converted in a small thread pool (numpy releases the GIL),
    at most a few in flight, in order; raises InputError at the first bad
    line in file order.
    """
    def work(block):
        buf = np.frombuffer(block, dtype=np.uint8)
        try:
            return _process_chunk(buf, 0, len(block), name, spec, check)
        except _ChunkError as exc:
            return exc

    parts = []
    base = 0
    for part in parallel_map(work, blocks, max_in_flight=workers()):
        if isinstance(part, _ChunkError):
            hint = part.first_hint if base == 0 else ""
            raise InputError(part.message + hint, path=name, line=base + part.local_line)
        fields, lines, nlines = part
        parts.append((fields, (lines + base).astype(np.int64)))
        base += nlines
    if not parts or sum(len(p[1]) for p in parts) == 0:
        raise InputError(f"empty {what} file (no data lines)", path=name)
    line = np.concatenate([p[1] for p in parts])
    fields = {}
    for f, kind in spec.items():
        vals = [p[0][f] for p in parts]
        for p in parts:
            p[0][f] = None              # free each piece once copied
        if kind == "words":
            width = max(v.shape[1] for v in vals)
            fields[f] = np.concatenate(
                [v if v.shape[1] == width else np.pad(v, ((0, 0), (0, width - v.shape[1])))
                 for v in vals])
        elif kind == "last":
            fields[f] = [v for v in vals if v is not None][-1]
        else:
            fields[f] = np.concatenate(vals)
        del vals
    return fields, line


_SWAPPED = "; did you swap QRELS and RUN?"


def count_check(ok, expected: str, swapped=None):
    """A field-count check; ``swapped(n)`` says when a first line of n fields
    looks like the other kind of file (then the message asks)."""
    def check(count):
        bad = ~ok(count)
        if bad.any():
            i = int(np.argmax(bad))
            n = int(count[i])
            hint = _SWAPPED if swapped is not None and swapped(n) else ""
            return i, f"expected {expected}, found {n}", hint
        return None
    return check


def _explicit_check(ok, fmt: str, expected: str):
    """The field-count check of an explicit ``--run-format`` (a promise: a line
    that does not fit it is an input error, never read as the other format)."""
    def check(count):
        bad = ~ok(count)
        if bad.any():
            i = int(np.argmax(bad))
            return i, f"--run-format {fmt} expects {expected} (found {int(count[i])})"
        return None
    return check


def read_qrels(path: str, data: bytes | None = None, blocks=None) -> Qrels:
    """Qrels of 4 fields a line (``blocks``: the file's, when already opened)."""
    name = display_name(path)
    if blocks is None:
        blocks = iter_blocks(path, data)
    fields, line = parse_blocks(blocks, name, {0: "words", 2: "words", 3: "int"},
                                count_check(lambda c: c == 4, "4 fields (qid iter docno label)",
                                            swapped=lambda n: n >= 6 or n == 3),
                                "qrels")
    lab = fields[3]
    out = (lab < LABEL_MIN) | (lab > LABEL_MAX)
    if out.any():
        i = int(np.argmax(out))
        raise InputError(f"label out of range ({int(lab[i])}; labels must lie between "
                         f"{LABEL_MIN} and {LABEL_MAX})", path=name, line=int(line[i]))
    q = Qrels(path=name, qid=fields[0], docno=fields[2], label=lab, line=line)
    w = file_warning(name, q.qid, q.docno, q.line)
    if w is not None:
        q.warnings.append(w)
    return q


def read_subtopic_qrels(path: str, data: bytes | None = None) -> SubtopicQrels:
    """Diversity qrels, ndeval's layout: ``qid subtopic docno judgment``, the
    judgment a natural number (ndeval refuses a negative one)."""
    name = display_name(path)
    fields, line = parse_blocks(iter_blocks(path, data), name,
                                {0: "words", 1: "words", 2: "words", 3: "int"},
                                count_check(lambda c: c == 4,
                                            "4 fields (qid subtopic docno judgment)"),
                                "qrels")
    lab = fields[3]
    bad = (lab < 0) | (lab > LABEL_MAX)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(f"a diversity judgment must be a whole number from 0 to {LABEL_MAX} "
                         f"(found {int(lab[i])})", path=name, line=int(line[i]))
    if len(lab) == 0:
        raise InputError("empty qrels (no judgments)", path=name)
    q = SubtopicQrels(path=name, qid=fields[0], subtopic=fields[1], docno=fields[2],
                      judgment=lab, line=line)
    w = file_warning(name, q.qid, q.docno, q.line)
    if w is not None:
        q.warnings.append(w)
    return q


def read_real_qrels(path: str, data: bytes | None, mode: str) -> Qrels:
    """``--labels gain|probability``: labels read as reals, then coded
    (ipsoeval.labels).  Python only: the compiled core reads integer labels."""
    from ipsoeval.labels import check_mode, encode
    check_mode(mode)
    name = display_name(path)
    fields, line = parse_blocks(iter_blocks(path, data), name,
                                {0: "words", 2: "words", 3: "real"},
                                count_check(lambda c: c == 4, "4 fields (qid iter docno label)",
                                            swapped=lambda n: n >= 6 or n == 3),
                                "qrels")
    codes, values = encode(fields[3], line, name, mode)
    q = Qrels(path=name, qid=fields[0], docno=fields[2], label=codes, line=line,
              label_mode=mode, values=values)
    w = file_warning(name, q.qid, q.docno, q.line)
    if w is not None:
        q.warnings.append(w)
    return q


def read_run(path: str, fmt: str, name: str | None, blocks, explicit: bool = False) -> Run:
    """A TREC (6+ fields) or MS MARCO (3 fields) run from ``blocks`` of whole
    lines, ``fmt`` already decided (:func:`ipsoeval.reading.entry.read_run`);
    ``explicit``: ``fmt`` was given (``--run-format``), not sniffed."""
    disp = display_name(path)
    if fmt == "msmarco":
        fields, line = parse_blocks(blocks, disp, {0: "words", 1: "words", 2: "rank"},
                                    _explicit_check(lambda c: c == 3, "msmarco", "3 fields")
                                    if explicit else
                                    count_check(lambda c: c == 3,
                                                "3 fields (qid docno rank) in an MS MARCO run"),
                                    "run")
        score = -fields[2].astype(np.float64)
        docno = fields[1]
        tag = None
    else:
        fields, line = parse_blocks(blocks, disp,
                                    {0: "words", 2: "words", 4: "float", 5: "last"},
                                    _explicit_check(lambda c: c >= 6, "trec", "6 or more fields")
                                    if explicit else
                                    count_check(lambda c: c >= 6,
                                                "6 or more fields (qid Q0 docno rank score tag)",
                                                swapped=lambda n: n == 4),
                                    "run")
        score = fields[4]
        docno = fields[2]
        tag = fields[5]
    if name is None:
        name = tag if tag is not None else (
            os.path.basename(path) if path != "-" else "stdin")
    run = Run(path=disp, name=name, qid=fields[0], docno=docno, score=score, line=line,
              fmt=fmt)
    bad_tag = tag is not None and not is_utf8(tag)
    w = file_warning(disp, run.qid, docno, line, tag=tag if bad_tag else None,
                     tag_line=int(line[-1]) if bad_tag else None)
    if w is not None:
        run.warnings.append(w)
    return run
