"""Readers for TREC runs, qrels and MS MARCO runs (SPEC §1).

Files are read whole into memory (decompressed when gzip, bzip2 or xz magic
bytes say so) and tokenised with numpy in chunks: no Python loop over lines.
Every malformed case raises :class:`InputError` naming the file and line.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import math
import os
import sys

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.model import Qrels, Run

CHUNK = 1 << 24  # bytes per tokenising chunk (bounded temporary memory)

_MAGIC = (
    (b"\x1f\x8b", "gzip", gzip.decompress),
    (b"BZh", "bzip2", bz2.decompress),
    (b"\xfd7zXZ\x00", "xz", lzma.decompress),
)


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_bytes(path: str) -> bytes:
    """The file's content, decompressed by magic bytes; ``-`` is stdin."""
    name = display_name(path)
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise InputError("no such file", path=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    for magic, kind, decompress in _MAGIC:
        if data.startswith(magic):
            try:
                return decompress(data)
            except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
                raise InputError(f"corrupt {kind} data ({exc})", path=name) from None
    return data


def check_stdin_once(paths) -> None:
    if sum(1 for p in paths if p == "-") > 1:
        raise UsageError("at most one input may be '-' (standard input)")


class _Fields:
    """Selected whitespace-separated fields of the data lines of one file.

    For each wanted field ``f``: ``start[f]`` (byte offset in the file) and
    ``lens[f]`` (0 where the line has no such field); ``line`` holds the
    1-based line numbers, ``nfields`` the field count of each line.
    """

    def __init__(self, buf, start, lens, line, nfields):
        self.buf = buf
        self.start = start
        self.lens = lens
        self.line = line
        self.nfields = nfields

    def words(self, f: int) -> np.ndarray:
        """Field ``f`` as a (lines, W) uint64 matrix of its bytes, zero padded."""
        return load_words(self.buf, self.start[f], self.lens[f])

    def text(self, f: int, i: int) -> str:
        s = int(self.start[f][i])
        return bytes(self.buf[s: s + int(self.lens[f][i])]).decode("utf-8", "replace")


_U64 = np.dtype("<u8")
_KEEP = np.array([0] + [(1 << (8 * k)) - 1 for k in range(1, 8)] + [(1 << 64) - 1],
                 dtype=np.uint64)   # _KEEP[k]: the low k bytes of a word


def _word_view(buf: np.ndarray) -> np.ndarray:
    """Unaligned uint64 view: element i holds bytes buf[i:i+8] (little endian)."""
    return np.ndarray(shape=(max(len(buf) - 7, 0),), dtype=_U64, buffer=buf, strides=(1,))


def _read_words(buf: np.ndarray, view: np.ndarray, off: np.ndarray) -> np.ndarray:
    """The 8 bytes at each offset (bytes past either end of buf read as 0)."""
    n = len(buf)
    safe = (off >= 0) & (off <= n - 8)
    if safe.all():
        return view[off]
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


def load_words(buf: np.ndarray, st: np.ndarray, ln: np.ndarray) -> np.ndarray:
    """Tokens buf[st:st+ln] as (n, W) uint64 words, bytes past a token zeroed."""
    n = len(st)
    nw = max(1, (int(ln.max()) + 7) // 8) if n else 1
    view = _word_view(buf)
    out = np.zeros((n, nw), dtype=np.uint64)
    for j in range(nw):
        rem = np.clip(ln - 8 * j, 0, 8)
        out[:, j] = _read_words(buf, view, st + 8 * j) & _KEEP[rem]
    return out


def _split_fields(data: bytes, name: str, want: tuple[int, ...]) -> _Fields:
    """Tokenise ``data``; keep fields ``want`` of every non-blank, non-comment line."""
    buf = np.frombuffer(data, dtype=np.uint8)
    size = len(data)
    parts: list[tuple] = []
    line_base = 0
    pos = 0
    while pos < size:
        end = min(pos + CHUNK, size)
        if end < size:
            nl = data.rfind(b"\n", pos, end)
            end = nl + 1 if nl >= pos else (data.find(b"\n", end) + 1 or size)
        part, nlines = _split_chunk(buf, pos, end, name, want, line_base)
        parts.append(part)
        line_base += nlines
        pos = end
    if not parts:
        z = np.zeros(0, np.int64)
        return _Fields(buf, {f: z for f in want}, {f: z for f in want}, z, z)
    start = {f: np.concatenate([p[0][f] for p in parts]) for f in want}
    lens = {f: np.concatenate([p[1][f] for p in parts]) for f in want}
    line = np.concatenate([p[2] for p in parts])
    nf = np.concatenate([p[3] for p in parts])
    return _Fields(buf, start, lens, line, nf)


def _split_chunk(buf: np.ndarray, lo: int, hi: int, name: str, want, line_base: int):
    """Tokenise buf[lo:hi] (whole lines).  Returns ((start, lens, line, count), lines)."""
    b = buf[lo:hi]
    n = hi - lo
    sep = np.flatnonzero(b <= 32)          # every separator byte position
    if n and b[-1] != 10:                   # last line without a newline
        sep = np.append(sep, n)
        sepch = np.append(b[sep[:-1]], np.uint8(10))
    else:
        sepch = b[sep]
    is_nl = sepch == 10
    nlines = int(np.count_nonzero(is_nl))
    if not ((sepch == 32) | is_nl).all():
        bad = (sepch != 32) & (sepch != 9) & (sepch != 13) & ~is_nl
        if bad.any():
            i = int(np.argmax(bad))
            ln = line_base + int(np.count_nonzero(is_nl[:i])) + 1
            raise InputError(f"binary data, not a text file (byte 0x{int(sepch[i]):02x})",
                             path=name, line=ln)
    k = int(np.argmax(is_nl)) + 1 if nlines else 0
    regular = (
        nlines > 0 and len(sep) == nlines * k and sep[0] > 0
        and bool(is_nl.reshape(nlines, k)[:, -1].all())
        and bool((np.diff(sep) > 1).all())
    )
    if regular:
        # every line holds exactly k tokens, single separators: no search needed
        grid = sep.reshape(nlines, k)
        line_start = np.empty(nlines, dtype=np.int64)
        line_start[0] = 0
        line_start[1:] = grid[:-1, -1] + 1
        count = np.full(nlines, k, dtype=np.int64)
        idx = np.arange(nlines)
        keep_comment = b[line_start] == 35
        if keep_comment.any():
            regular = False
    if regular:
        lines = idx + (line_base + 1)
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


def _parse_numbers(fields: "_Fields", f: int, integer: bool):
    """Parse field ``f`` as integers or decimals: (values, ok).

    Plain numbers (optional sign, at most 8 integer digits, at most 8 decimals,
    at most 15 digits in all) are parsed with integer arithmetic on 64-bit
    words; a decimal is then one correctly rounded division of two exact
    doubles, which is what strtod returns.  Anything else (exponents, long
    numbers) goes through Python's int()/float().  ``ok`` is False where the
    text is not a finite number.
    """
    buf = fields.buf
    st, ln = fields.start[f], fields.lens[f]
    n = len(st)
    view = _word_view(buf)
    size = len(buf)
    firstc = buf[np.clip(st, 0, max(size - 1, 0))] if size else np.zeros(n, np.uint8)
    neg = firstc == 45
    sign = (neg | (firstc == 43)).astype(np.int64)
    end = st + ln
    # position of the decimal point, counted from the end (frac digits)
    frac = np.full(n, -1, dtype=np.int64)
    if not integer and n:
        todo = np.arange(n)
        guess = None
        for cand in range(0, 9):
            if not len(todo):
                break
            if guess is None and cand == 0:
                # try the layout of the first line for everyone first
                lastdot = bytes(buf[st[0]: end[0]]).rfind(b".")
                guess = ln[0] - lastdot - 1 if lastdot >= 0 else -1
                if 0 <= guess <= 8:
                    hit = buf[np.clip(end[todo] - guess - 1, 0, size - 1)] == 46
                    frac[todo[hit]] = guess
                    todo = todo[~hit]
            if cand == guess:
                continue
            hit = buf[np.clip(end[todo] - cand - 1, 0, size - 1)] == 46
            hit &= end[todo] - cand - 1 >= st[todo]
            frac[todo[hit]] = cand
            todo = todo[~hit]
    has_dot = frac >= 0
    fr = np.where(has_dot, frac, 0)
    k = ln - sign - np.where(has_dot, fr + 1, 0)        # integer digits
    fast = (k >= 0) & (k <= 8) & (k + fr >= 1) & (k + fr <= 15) & (ln >= 1)
    kk = np.clip(k, 0, 8)
    int_end = end - np.where(has_dot, fr + 1, 0)
    iw = _fill_low(_read_words(buf, view, int_end - 8), kk)
    ok = fast & _all_digits(iw)
    ival = _digits8(iw)
    if integer:
        vals = ival.astype(np.int64)
        vals = np.where(neg, -vals, vals)
    else:
        fw = _fill_high(_read_words(buf, view, int_end + 1), np.clip(fr, 0, 8))
        ok &= _all_digits(fw)
        fval = _digits8(fw) // _IPOW10[8 - np.clip(fr, 0, 8)]
        mant = ival * _IPOW10[np.clip(fr, 0, 8)] + fval
        vals = mant.astype(np.float64) / _POW10[np.clip(fr, 0, 8)]
        vals = np.where(neg, -vals, vals)
    vals[~ok] = 0
    for i in np.flatnonzero(~ok):   # unusual spellings: exponents, long numbers
        text = fields.text(f, i)
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


def _check_count(fields: _Fields, name: str, expected: str, bad: np.ndarray) -> None:
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(
            f"expected {expected}, found {int(fields.nfields[i])}",
            path=name, line=int(fields.line[i]))


def _check_empty(fields: _Fields, name: str, what: str) -> None:
    if len(fields.line) == 0:
        raise InputError(f"empty {what} file (no data lines)", path=name)


def read_qrels(path: str, data: bytes | None = None) -> Qrels:
    name = display_name(path)
    if data is None:
        data = read_bytes(path)
    fields = _split_fields(data, name, (0, 2, 3))
    _check_empty(fields, name, "qrels")
    _check_count(fields, name, "4 fields (qid iter docno label)", fields.nfields != 4)
    label, ok = _parse_numbers(fields, 3, integer=True)
    if not ok.all():
        i = int(np.argmax(~ok))
        raise InputError(f"label is not an integer ({fields.text(3, i)!r})",
                         path=name, line=int(fields.line[i]))
    q = Qrels(path=name, qid=fields.words(0), docno=fields.words(2), label=label,
              line=fields.line)
    return q


def sniff_run_format(data: bytes) -> str:
    """'msmarco' when the first data line has exactly 3 fields, else 'trec'."""
    for raw in data[:65536].split(b"\n"):
        if not raw.strip() or raw.startswith(b"#"):
            continue
        return "msmarco" if len(raw.split()) == 3 else "trec"
    return "trec"


def read_run(path: str, run_format: str = "auto", name: str | None = None,
             data: bytes | None = None) -> Run:
    """Read a TREC (6+ fields) or MS MARCO (3 fields) run."""
    disp = display_name(path)
    if data is None:
        data = read_bytes(path)
    fmt = sniff_run_format(data) if run_format == "auto" else run_format
    if fmt == "msmarco":
        fields = _split_fields(data, disp, (0, 1, 2))
        _check_empty(fields, disp, "run")
        _check_count(fields, disp, "3 fields (qid docno rank) in an MS MARCO run",
                     fields.nfields != 3)
        rank, ok = _parse_numbers(fields, 2, integer=True)
        if not ok.all():
            i = int(np.argmax(~ok))
            raise InputError(f"rank is not an integer ({fields.text(2, i)!r})",
                             path=disp, line=int(fields.line[i]))
        score = -rank.astype(np.float64)
        docf = 1
        tag = None
    else:
        fields = _split_fields(data, disp, (0, 2, 4, 5))
        _check_empty(fields, disp, "run")
        _check_count(fields, disp, "6 or more fields (qid Q0 docno rank score tag)",
                     fields.nfields < 6)
        score, ok = _parse_numbers(fields, 4, integer=False)
        if not ok.all():
            i = int(np.argmax(~ok))
            raise InputError(f"score is not a finite number ({fields.text(4, i)!r})",
                             path=disp, line=int(fields.line[i]))
        docf = 2
        tag = fields.text(5, len(fields.line) - 1)
    if name is None:
        name = tag if tag is not None else (
            os.path.basename(path) if path != "-" else "stdin")
    run = Run(path=disp, name=name, qid=fields.words(0), docno=fields.words(docf),
              score=score, line=fields.line, fmt=fmt)
    return run
