"""Readers for TREC runs, qrels and MS MARCO runs (docs/conventions.md, "Inputs").

Files are read whole into memory (decompressed when gzip, bzip2 or xz magic
bytes say so) and tokenised with numpy in chunks: no Python loop over lines.
Every malformed case raises :class:`InputError` naming the file and line.

Input grammar (what both this reader and the compiled core accept):

- Fields are separated by runs of spaces, tabs and carriage returns; a line
  ends at LF (so CRLF files read like LF files, as in trec_eval).  Blank
  lines are skipped; a line whose first byte is ``#`` is a comment; a ``#``
  inside a field is data.  Any other control byte is "binary data".  A UTF-8
  byte-order mark at the start of a file is an error (it is not stripped).
- Runs: 6 or more fields (``qid Q0 docno rank score tag``), MS MARCO runs 3
  (``qid docno rank``).  A last line ``q Q0 d 1 1.0 `` has 5 fields: trailing
  blanks never make an empty field.  Qrels: exactly 4 fields.
- A label is ASCII: an optional sign and digits (``+1`` and ``01`` are 1),
  between -2147483646 and 2147483647 (the int32 label matrix keeps the two
  lowest values as sentinels).  ``1_0``, full-width digits, ``1e0`` and
  ``1.0`` are not labels.  A score is an ASCII decimal with an optional
  exponent (``1``, ``-.5``, ``5.``, ``1E+2``) that is finite as a double;
  NaN, infinities, ``1_0`` and hex floats are errors.
- Ids are compared by all their bytes, whatever their length; ids longer
  than LONG_ID bytes are stored by prefix and serial (see ``load_words``).
- A docno twice in one topic is an error (both lines named), in every topic
  of a run, evaluated or not.
- Alignment (``ipsoeval.align``): score descending, ties by docno descending
  (strcmp), cut at ``-M``, then ``-J`` drops unjudged documents.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import math
import os
import re
import sys
import threading
import zlib

import numpy as np

from ipsoeval.reading import compiled as _fast
from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_id, file_warning, is_utf8
from ipsoeval.model import Qrels, Run
from ipsoeval.parallel import parallel_map, workers

_MAGIC = (
    (b"\x1f\x8b", "gzip", lambda f: gzip.GzipFile(fileobj=f, mode="rb")),
    (b"BZh", "bzip2", lambda f: bz2.BZ2File(f, mode="rb")),
    (b"\xfd7zXZ\x00", "xz", lambda f: lzma.LZMAFile(f, mode="rb")),
)


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_bytes(path: str) -> bytes:
    """The whole file, decompressed by magic bytes; ``-`` is stdin."""
    return b"".join(bytes(b) for b in iter_blocks(path))


BLOCK = 1 << 22  # bytes per streamed block (whole lines); bounds temporary memory


def iter_blocks(path: str, data: bytes | None = None):
    """The input as blocks of whole lines (decompressed by magic bytes).

    Streams: at most a block or two of the file is in memory at a time.
    """
    name = display_name(path)
    if data is not None:
        src, kind = _Memory(data), "text"
    else:
        src, kind = _open_stream(path, name)
    try:
        carry = b""
        first = True
        while True:
            # read into a fresh buffer after the carried partial line: the
            # block is handed to a worker without further copies
            buf = bytearray(len(carry) + BLOCK)
            buf[: len(carry)] = carry
            view = memoryview(buf)
            try:
                got = _read_into(src, view[len(carry):])
            except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as exc:
                raise InputError(f"corrupt or truncated {kind} data ({exc})",
                                 path=name) from None
            if got == 0:
                break
            if first:
                first = False
                if bytes(view[:3]) == b"\xef\xbb\xbf":
                    # trec_eval would read it as part of the first qid
                    raise InputError("the file starts with a UTF-8 byte-order mark "
                                     "(save it without one)", path=name, line=1)
            end = len(carry) + got
            cut = buf.rfind(b"\n", 0, end)
            if cut < 0:
                carry = bytes(view[:end])
                continue
            carry = bytes(view[cut + 1: end])
            yield view[: cut + 1]
        if carry:
            yield carry
    finally:
        src.close()


def _read_into(src, view: memoryview) -> int:
    """Fill view as far as the stream allows (short reads are retried)."""
    total = 0
    while total < len(view):
        n = src.readinto(view[total:])
        if not n:
            break
        total += n
    return total


class _Memory:
    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def readinto(self, view: memoryview) -> int:
        chunk = self.data[self.pos: self.pos + len(view)]
        view[: len(chunk)] = chunk
        self.pos += len(chunk)
        return len(chunk)

    def close(self) -> None:
        pass


def _open_stream(path: str, name: str):
    try:
        raw = sys.stdin.buffer if path == "-" else open(path, "rb")
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    import io
    buffered = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    try:
        head = buffered.peek(8)[:8]
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    for magic, kind, opener in _MAGIC:
        if head.startswith(magic):
            return opener(buffered), kind
    return buffered, "text"


def check_stdin_once(paths) -> None:
    if sum(1 for p in paths if p == "-") > 1:
        raise UsageError("at most one input may be '-' (standard input)")


_U64 = np.dtype("<u8")
_KEEP = np.array([0] + [(1 << (8 * k)) - 1 for k in range(1, 8)] + [(1 << 64) - 1],
                 dtype=np.uint64)   # _KEEP[k]: the low k bytes of a word


def _word_view(buf: np.ndarray) -> np.ndarray:
    """Unaligned uint64 view: element i holds bytes buf[i:i+8] (little endian)."""
    return np.ndarray(shape=(max(len(buf) - 7, 0),), dtype=_U64, buffer=buf, strides=(1,))


def _read_words(buf: np.ndarray, view: np.ndarray, off: np.ndarray) -> np.ndarray:
    """The 8 bytes at each offset (bytes past either end of buf read as 0)."""
    n = len(buf)
    if len(off) == 0 or (int(off.min()) >= 0 and int(off.max()) <= n - 8):
        return view[off]
    safe = (off >= 0) & (off <= n - 8)
    out = np.zeros(len(off), dtype=np.uint64)
    ok = np.flatnonzero(safe)
    if len(view):
        out[ok] = view[off[ok]]
    for i in np.flatnonzero(~safe):
        o = int(off[i])
        chunk = bytes(buf[max(o, 0): max(min(o + 8, n), 0)])
        lead = max(0, -o)
        word = bytes(lead) + chunk
        word = word[:8] + bytes(8 - len(word[:8]))
        out[i] = int.from_bytes(word, "little")
    return out


# Ids longer than LONG_ID bytes ("long ids") would make every row of the
# (n, W) word matrix as wide as the longest one (a 1 MB docno: gigabytes).  A
# long id is stored as its first LONG_ID bytes in ID_WORDS - 1 words and, in
# the last word, its serial number (from 1) in a process-wide table of long
# ids; ids up to LONG_ID bytes have 0 there.  Equal ids still have equal
# words in every file; only the strcmp order of two long ids with the same
# first LONG_ID bytes needs the table (align orders ties with it).
ID_WORDS = 32
LONG_ID = (ID_WORDS - 1) * 8
_LONG_IDS: list[bytes] = []
_LONG_SERIAL: dict[bytes, int] = {}
_LONG_LOCK = threading.Lock()


def _long_serial(key: bytes) -> int:
    with _LONG_LOCK:
        s = _LONG_SERIAL.get(key)
        if s is None:
            _LONG_IDS.append(key)
            s = _LONG_SERIAL[key] = len(_LONG_IDS)
        return s


def id_bytes(row: np.ndarray) -> bytes:
    """The bytes of one id from its row of words (long ids from the table)."""
    if len(row) == ID_WORDS and row[-1]:
        return _LONG_IDS[int(row[-1]) - 1]
    return row.astype("<u8").tobytes().rstrip(b"\0")


def long_rows(words: np.ndarray) -> np.ndarray:
    """bool per row: the id is a long id."""
    if words.shape[1] != ID_WORDS:
        return np.zeros(len(words), dtype=bool)
    return words[:, -1] != 0


def load_words(buf: np.ndarray, st: np.ndarray, ln: np.ndarray) -> np.ndarray:
    """Tokens buf[st:st+ln] as (n, W) uint64 words, bytes past a token zeroed."""
    n = len(st)
    longest = int(ln.max()) if n else 0
    long = ln > LONG_ID if longest > LONG_ID else None
    full = ln
    if long is not None:
        ln = np.minimum(ln, LONG_ID)
    nw = max(1, (min(longest, LONG_ID) + 7) // 8)
    view = _word_view(buf)
    out = np.zeros((n, ID_WORDS if long is not None else nw), dtype=np.uint64)
    for j in range(nw):
        rem = np.minimum(np.maximum(ln - 8 * j, 0), 8)
        out[:, j] = _read_words(buf, view, st + 8 * j) & _KEEP[rem]
    if long is not None:
        for i in np.flatnonzero(long):
            a = int(st[i])
            out[i, -1] = _long_serial(bytes(buf[a:a + int(full[i])]))
    return out


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
    keep = _KEEP[k]
    return (x & keep) | (_ZEROS & ~keep)


def _fill_low(x: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Keep the high k bytes of each word, fill the others with '0'."""
    low = _KEEP[8 - k]
    return (x & ~low) | (_ZEROS & low)


# The number syntax of docs/conventions.md "Inputs", ASCII only: an integer label
# is an optional sign and digits; a score is a decimal with an optional exponent.
_INT_SYNTAX = re.compile(rb"[+-]?[0-9]+\Z")
_FLOAT_SYNTAX = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
# labels must fit int32 (the label matrix; model.py keeps -2^31 and -2^31+1
# as sentinels, and every negative label becomes POOLED there)
LABEL_MIN, LABEL_MAX = -(2**31) + 2, 2**31 - 1


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
    view = _word_view(buf)
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
    iw = _fill_low(_read_words(buf, view, int_end - 8), kk)
    ok = fast & _all_digits(iw)
    ival = _digits8(iw)
    if integer:
        vals = ival.astype(np.int64)
        vals = np.where(neg, -vals, vals)
    else:
        fr8 = np.minimum(fr, 8)
        fw = _fill_high(_read_words(buf, view, int_end + 1), fr8)
        ok &= _all_digits(fw)
        fval = _digits8(fw) // _IPOW10[8 - fr8]
        mant = ival * _IPOW10[fr8] + fval
        vals = mant.astype(np.float64) / _POW10[fr8]
        vals = np.where(neg, -vals, vals)
    vals[~ok] = 0
    pattern = _INT_SYNTAX if integer else _FLOAT_SYNTAX
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


def words_to_bytes(words: np.ndarray) -> np.ndarray:
    """View (n, W) uint64 words as a length-n bytes array (numpy ``S`` dtype)."""
    w = np.ascontiguousarray(words)
    return w.view(np.uint8).view(f"S{8 * w.shape[1]}").ravel()


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
                raise _ChunkError(int(lines[i]), f"{what} ({_text(buf, int(st[i]), int(ln[i]))!r})")
            out[f] = vals
    return out, lines, nlines


def _parse(blocks, name: str, spec: dict, check, what: str):
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


def _count_check(ok, expected: str, swapped=None):
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


def read_qrels(path: str, data: bytes | None = None, labels: str = "integer") -> Qrels:
    """The qrels; ``labels`` gain/probability (ipsoeval.labels): real labels, coded."""
    if labels != "integer":
        return _read_real_qrels(path, data, labels)
    if _fast.enabled():     # compiled core; None when it declines (the code below decides)
        got = _fast.read_qrels(path, data)
        if got is not None:
            return got
    name = display_name(path)
    fields, line = _parse(iter_blocks(path, data), name, {0: "words", 2: "words", 3: "int"},
                          _count_check(lambda c: c == 4, "4 fields (qid iter docno label)",
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


def _read_real_qrels(path: str, data: bytes | None, mode: str) -> Qrels:
    """``--labels gain|probability``: labels read as reals, then coded (ipsoeval.labels)."""
    from ipsoeval.labels import check_mode, encode
    check_mode(mode)
    name = display_name(path)
    fields, line = _parse(iter_blocks(path, data), name, {0: "words", 2: "words", 3: "real"},
                          _count_check(lambda c: c == 4, "4 fields (qid iter docno label)",
                                       swapped=lambda n: n >= 6 or n == 3),
                          "qrels")
    codes, values = encode(fields[3], line, name, mode)
    q = Qrels(path=name, qid=fields[0], docno=fields[2], label=codes, line=line,
              label_mode=mode, values=values)
    w = file_warning(name, q.qid, q.docno, q.line)
    if w is not None:
        q.warnings.append(w)
    return q


def sniff_run_format(data: bytes) -> str:
    """'msmarco' when the first data line has exactly 3 fields, else 'trec'."""
    for raw in bytes(data[:65536]).split(b"\n"):
        if not raw.strip() or raw.startswith(b"#"):
            continue
        return "msmarco" if len(raw.split()) == 3 else "trec"
    return "trec"


def read_run(path: str, run_format: str = "auto", name: str | None = None,
             data: bytes | None = None) -> Run:
    """Read a TREC (6+ fields) or MS MARCO (3 fields) run."""
    disp = display_name(path)
    blocks = iter_blocks(path, data)
    first = next(blocks, b"")
    fmt = sniff_run_format(first) if run_format == "auto" else run_format
    if _fast.enabled() and path != "-":   # compiled core; None: declined, the code below decides
        got = _fast.read_run(path, fmt, name, data)
        if got is not None:
            blocks.close()
            return got

    def all_blocks():
        if first:
            yield first
        yield from blocks

    if fmt == "msmarco":
        fields, line = _parse(all_blocks(), disp, {0: "words", 1: "words", 2: "rank"},
                              _explicit_check(lambda c: c == 3, "msmarco", "3 fields")
                              if run_format == "msmarco" else
                              _count_check(lambda c: c == 3,
                                           "3 fields (qid docno rank) in an MS MARCO run"),
                              "run")
        score = -fields[2].astype(np.float64)
        docno = fields[1]
        tag = None
    else:
        fields, line = _parse(all_blocks(), disp, {0: "words", 2: "words", 4: "float", 5: "last"},
                              _explicit_check(lambda c: c >= 6, "trec", "6 or more fields")
                              if run_format == "trec" else
                              _count_check(lambda c: c >= 6,
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
