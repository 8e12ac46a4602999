"""Identifiers (qid, docno, run tag, run name) as bytes, faithfully
(docs/conventions.md "Identifiers"; man ipsoeval, IDENTIFIERS).

trec_eval compares ids as byte strings.  ipsoeval keeps them as bytes
wherever they are compared (the readers' words, the compiled core) and, in
Python, as ``str`` decoded from UTF-8 with ``errors="surrogateescape"``: a
byte that is not part of valid UTF-8 becomes the lone surrogate U+DC80 +
(byte - 0x80), so ``encode_id(decode_id(b)) == b`` for every id and two ids
differ exactly when their bytes do.  Every place that turns id bytes into a
str goes through :func:`decode_id`.

Order: trec_eval sorts by strcmp (bytes); :func:`id_sort_key` gives that
order for such strs (Python's str order differs when escaped bytes and valid
non-ASCII UTF-8 mix).

Rendering: trec and tsv write the original bytes; json writes the escaped
bytes as ``\\udcXX`` (``json.loads`` returns the same str, whose
:func:`encode_id` is the original bytes); the formats for people (table,
latex, markdown) show them as ``\\xNN`` (:func:`render_id`).
"""

from __future__ import annotations

import re

__all__ = ["decode_id", "decode_text", "encode_id", "id_sort_key", "is_utf8", "render_id", "shown",
           "first_non_utf8_row", "non_utf8_warning"]


def decode_id(raw: bytes) -> str:
    """The str of an id's bytes (undecodable bytes as U+DC80..U+DCFF)."""
    return raw.decode("utf-8", "surrogateescape")


def decode_text(data: bytes) -> str:
    """A whole text file of ids (a scores file), decoded as :func:`decode_id`
    does (a UTF-8 byte-order mark at its start is dropped)."""
    return data.decode("utf-8-sig", "surrogateescape")


def encode_id(s: str) -> bytes:
    """The bytes of an id str (inverse of :func:`decode_id`); raises
    UnicodeEncodeError for a surrogate no byte stands for (U+D800..U+DC7F,
    U+DD00..U+DFFF)."""
    return s.encode("utf-8", "surrogateescape")


def id_sort_key(s: str) -> bytes:
    """Sort key giving trec_eval's order (strcmp on the bytes)."""
    return s.encode("utf-8", "surrogateescape")


def is_utf8(s: str) -> bool:
    """The id's bytes are valid UTF-8 (no escaped byte in it)."""
    return s.isascii() or not _ESCAPED.search(s)


_ESCAPED = re.compile("[\udc80-\udcff]")


def render_id(s: str, fmt: str = "table") -> str:
    """An id for a format: trec, tsv (written as bytes) and json (escaped by
    the encoder) get it unchanged; table, markdown and latex show each escaped
    byte as ``\\xNN`` (latex then escapes the backslash)."""
    if fmt in ("trec", "tsv", "json", "jsonl") or is_utf8(s):
        return s
    return _ESCAPED.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", s)


def shown(text: str) -> str:
    """Text for people (a warning, a table cell): escaped bytes as ``\\xNN``."""
    return render_id(text, "table")


_HIGH = 0x8080808080808080
_ROWS = 1 << 20


def first_non_utf8_row(words, id_bytes=None) -> int | None:
    """Index of the first row of an (n, W) id-words matrix whose id is not
    valid UTF-8, or None.  Only rows holding a byte >= 0x80 are decoded,
    each distinct one once."""
    import numpy as np
    if id_bytes is None:
        from ipsoeval.reading.words import id_bytes
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


def non_utf8_warning(path: str, line: int | None, ident: str) -> str:
    """The one warning per file for its first id that is not UTF-8."""
    where = f"{path}:{line}" if line is not None else path
    return (f"{where}: identifier is not UTF-8 ({shown(ident)}); kept byte for byte "
            f"(see IDENTIFIERS in man ipsoeval)")


def file_warning(path: str, qid, docno, line, tag: str | None = None,
                 tag_line: int | None = None, first_line: int | None = None) -> str | None:
    """The non-UTF-8 warning for a file read into words (or None): the first
    qid, docno or tag (the tag of line ``tag_line``) in file order.
    ``first_line``: no qid or docno before this line is not UTF-8 (the
    compiled reader says so); None: look everywhere."""
    import numpy as np

    from ipsoeval.reading.words import id_bytes
    best = None       # (line, text)
    for words in (qid, docno):
        if words is None or len(words) == 0:
            continue
        start = 0
        if first_line is not None and line is not None:
            start = int(np.searchsorted(line, first_line))
        r = first_non_utf8_row(words[start:], id_bytes)
        if r is not None:
            r += start
            ln = int(line[r]) if line is not None else r + 1
            if best is None or ln < best[0]:
                best = (ln, decode_id(id_bytes(words[r])))
    if tag is not None and not is_utf8(tag) and tag_line is not None:
        if best is None or tag_line < best[0]:
            best = (tag_line, tag)
    return None if best is None else non_utf8_warning(path, best[0], best[1])
