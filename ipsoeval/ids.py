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
           "non_utf8_warning"]


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


def non_utf8_warning(path: str, line: int | None, ident: str) -> str:
    """The one warning per file for its first id that is not UTF-8."""
    where = f"{path}:{line}" if line is not None else path
    return (f"{where}: identifier is not UTF-8 ({shown(ident)}); kept byte for byte "
            f"(see IDENTIFIERS in man ipsoeval)")
