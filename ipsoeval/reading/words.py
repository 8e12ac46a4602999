"""Ids as the model holds them: (n, W) matrices of uint64 words ("id words").

Shared by every reader (the Python reader, the compiled core's results, the
in-memory inputs) and by the alignment, the one place after reading where
ids exist.  An id's bytes fill its row little endian, zero padded (ids hold
no NUL byte), so equal ids have equal rows whatever the matrix width, and
big-endian words compare like ``strcmp``.
"""

from __future__ import annotations

import threading

import numpy as np

from ipsoeval.ids import decode_id, is_utf8, non_utf8_warning

_U64 = np.dtype("<u8")
KEEP = np.array([0] + [(1 << (8 * k)) - 1 for k in range(1, 8)] + [(1 << 64) - 1],
                 dtype=np.uint64)   # KEEP[k]: the low k bytes of a word


def word_view(buf: np.ndarray) -> np.ndarray:
    """Unaligned uint64 view: element i holds bytes buf[i:i+8] (little endian)."""
    return np.ndarray(shape=(max(len(buf) - 7, 0),), dtype=_U64, buffer=buf, strides=(1,))


def read_words(buf: np.ndarray, view: np.ndarray, off: np.ndarray) -> np.ndarray:
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
    view = word_view(buf)
    out = np.zeros((n, ID_WORDS if long is not None else nw), dtype=np.uint64)
    for j in range(nw):
        rem = np.minimum(np.maximum(ln - 8 * j, 0), 8)
        out[:, j] = read_words(buf, view, st + 8 * j) & KEEP[rem]
    if long is not None:
        for i in np.flatnonzero(long):
            a = int(st[i])
            out[i, -1] = _long_serial(bytes(buf[a:a + int(full[i])]))
    return out


def words_to_bytes(words: np.ndarray) -> np.ndarray:
    """View (n, W) uint64 words as a length-n bytes array (numpy ``S`` dtype)."""
    w = np.ascontiguousarray(words)
    return w.view(np.uint8).view(f"S{8 * w.shape[1]}").ravel()


# --- identifiers that are not UTF-8 (ids are bytes): the one warning per file ----------

_HIGH = 0x8080808080808080
_ROWS = 1 << 20


def first_non_utf8_row(words) -> int | None:
    """Index of the first row of an (n, W) id-words matrix whose id is not
    valid UTF-8, or None.  Only rows holding a byte >= 0x80 are decoded,
    each distinct one once."""
    high_bits = np.uint64(_HIGH)
    n = len(words)
    if n == 0:
        return None
    seen: set = set()
    for lo in range(0, n, _ROWS):
        block = words[lo: lo + _ROWS]
        high = np.zeros(len(block), dtype=bool)
        for j in range(block.shape[1]):
            high |= (block[:, j] & high_bits) != 0
        for r in np.flatnonzero(high):
            key = block[r].tobytes()
            if key in seen:
                continue
            seen.add(key)
            try:
                id_bytes(block[r]).decode("utf-8")
            except UnicodeDecodeError:
                return lo + int(r)
    return None


def file_warning(path: str, qid, docno, line, tag: str | None = None,
                 tag_line: int | None = None, first_line: int | None = None) -> str | None:
    """The non-UTF-8 warning for a file read into words (or None): the first
    qid, docno or tag (the tag of line ``tag_line``) in file order.
    ``first_line``: no qid or docno before this line is not UTF-8 (the
    compiled reader says so); None: look everywhere."""
    best = None       # (line, text)
    for words in (qid, docno):
        if words is None or len(words) == 0:
            continue
        start = 0
        if first_line is not None and line is not None:
            start = int(np.searchsorted(line, first_line))
        r = first_non_utf8_row(words[start:])
        if r is not None:
            r += start
            ln = int(line[r]) if line is not None else r + 1
            if best is None or ln < best[0]:
                best = (ln, decode_id(id_bytes(words[r])))
    if tag is not None and not is_utf8(tag) and tag_line is not None:
        if best is None or tag_line < best[0]:
            best = (tag_line, tag)
    return None if best is None else non_utf8_warning(path, best[0], best[1])
