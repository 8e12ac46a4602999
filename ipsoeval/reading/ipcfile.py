"""An Arrow IPC file (Feather v2) read without pyarrow, for the one-pass reader.

An uncompressed IPC file is a footer (a flatbuffer naming the schema and
each record batch's place) and record batches (a flatbuffer message giving
each column's row and null counts and its buffers' places, then the raw
buffers, 8-byte aligned).  :func:`open_file` parses those few tables over
a mapping of the file and hands out the buffers as views of it (no copy,
and no pyarrow import, which alone costs about a tenth of a second).

Only the plain layout is taken: little-endian, no compression, no
dictionary-encoded column, flat columns of fixed-width, string or binary
types.  For anything else, or anything that does not add up (a buffer
past its body, a block past the file), :func:`open_file` returns None and
the caller reads the file with pyarrow, which says what is wrong if
anything.  The format is the Arrow columnar format's (``File.fbs``,
``Schema.fbs``, ``Message.fbs``).
"""

from __future__ import annotations

import mmap
import os
import struct

MAGIC = b"ARROW1"

# Schema.fbs's Type union: the types whose arrays are (validity, values) or
# (validity, offsets, data); any other declines
_FIXED = {2: "int", 3: "float", 6: "bool", 7: "decimal", 8: "date", 9: "time",
          10: "timestamp", 11: "interval", 15: "fixed_size_binary", 18: "duration"}
_VARIABLE = {4: "binary", 5: "utf8", 19: "large_binary", 20: "large_utf8"}
_RECORD_BATCH = 3        # Message.fbs's MessageHeader


class _Declined(Exception):
    """Not the plain layout (or not a well-formed file): pyarrow reads it."""


class _Buf:
    """Flatbuffer tables over bytes (a mapping): each read bounds-checked."""

    def __init__(self, data, base: int = 0, end: int | None = None):
        self.data = data
        self.base = base
        self.end = len(data) if end is None else end

    def _unpack(self, fmt: str, at: int):
        size = struct.calcsize(fmt)
        if at < self.base or at + size > self.end:
            raise _Declined
        return struct.unpack_from(fmt, self.data, at)[0]

    def root(self) -> int:
        return self.base + self._unpack("<I", self.base)

    def field(self, table: int, i: int) -> int:
        """The position of field ``i`` of the table at ``table``, or 0 (absent)."""
        vtable = table - self._unpack("<i", table)
        vsize = self._unpack("<H", vtable)
        if 4 + 2 * i + 2 > vsize:
            return 0
        off = self._unpack("<H", vtable + 4 + 2 * i)
        return table + off if off else 0

    def scalar(self, table: int, i: int, fmt: str, default=0):
        at = self.field(table, i)
        return self._unpack(fmt, at) if at else default

    def table(self, table: int, i: int) -> int:
        """The table (or vector, or string) field ``i`` refers to, or 0."""
        at = self.field(table, i)
        return at + self._unpack("<I", at) if at else 0

    def vector(self, table: int, i: int) -> tuple[int, int]:
        """(first element's position, length) of vector field ``i``."""
        at = self.table(table, i)
        if not at:
            return 0, 0
        return at + 4, self._unpack("<I", at)

    def string(self, table: int, i: int) -> bytes:
        start, n = self.vector(table, i)
        if start + n > self.end:
            raise _Declined
        return bytes(self.data[start: start + n])

    def tables(self, table: int, i: int) -> list[int]:
        start, n = self.vector(table, i)
        return [start + 4 * k + self._unpack("<I", start + 4 * k) for k in range(n)]


class Column:
    """One column's type: its name, the Type union tag, the Int bit width
    and signedness or the FloatingPoint precision."""

    def __init__(self, name: str, tag: int, bits: int = 0, signed: bool = False,
                 precision: int = 0):
        self.name, self.tag, self.bits, self.signed = name, tag, bits, signed
        self.precision = precision

    def nbuffers(self) -> int:
        return 3 if self.tag in _VARIABLE else 2

    @property
    def int64(self) -> bool:
        return self.tag == 2 and self.bits == 64 and self.signed

    @property
    def float64(self) -> bool:
        return self.tag == 3 and self.precision == 2

    @property
    def textual(self) -> bool:
        return self.tag in _VARIABLE

    @property
    def wide(self) -> bool:
        return self.tag in (19, 20)


def _schema(buf: _Buf, schema: int) -> list[Column]:
    if not schema or buf.scalar(schema, 0, "<h") != 0:      # endianness: Little
        raise _Declined
    cols = []
    for f in buf.tables(schema, 1):
        name = buf.string(f, 0).decode("utf-8")
        tag = buf.scalar(f, 2, "<B")
        if buf.field(f, 4) or buf.vector(f, 5)[1] or (tag not in _FIXED and tag not in _VARIABLE):
            raise _Declined      # dictionary-encoded, nested or another type
        t = buf.table(f, 3)
        if tag == 2:
            cols.append(Column(name, tag, bits=buf.scalar(t, 0, "<i") if t else 0,
                               signed=bool(buf.scalar(t, 1, "<B") if t else 0)))
        elif tag == 3:
            cols.append(Column(name, tag, precision=buf.scalar(t, 0, "<h") if t else 0))
        else:
            cols.append(Column(name, tag))
    return cols


class Batch:
    """One record batch: its rows and each column's (null count, buffers)
    (views of the mapping; a buffer of length 0 is an empty view)."""

    def __init__(self, num_rows: int, columns: list):
        self.num_rows = num_rows
        self.columns = columns


class IpcFile:
    """An Arrow IPC file's schema (``columns``) and record batches."""

    def __init__(self, columns: list[Column], batches: list[Batch], mapping):
        self.columns = columns
        self.names = [c.name for c in columns]
        self.batches = batches
        self._mapping = mapping


def _batch(buf: _Buf, view, size: int, offset: int, meta_len: int, body_len: int,
           columns: list[Column]) -> Batch:
    if offset < 0 or meta_len < 8 or body_len < 0 or offset + meta_len + body_len > size:
        raise _Declined
    at = offset
    if buf._unpack("<I", at) == 0xFFFFFFFF:        # the continuation marker
        at += 4
    flat = buf._unpack("<i", at)
    if flat < 0 or at + 4 + flat > offset + meta_len:
        raise _Declined
    msg = _Buf(buf.data, at + 4, at + 4 + flat)
    m = msg.root()
    if msg.scalar(m, 1, "<B") != _RECORD_BATCH:
        raise _Declined
    rb = msg.table(m, 2)
    if not rb or msg.field(rb, 3) or msg.vector(rb, 4)[1]:
        raise _Declined       # compressed, or views' variadic buffers
    rows = msg.scalar(rb, 0, "<q")
    nodes_at, nnodes = msg.vector(rb, 1)
    bufs_at, nbufs = msg.vector(rb, 2)
    if nnodes != len(columns) or nbufs != sum(c.nbuffers() for c in columns):
        raise _Declined
    body = offset + meta_len
    out, b = [], 0
    for k, col in enumerate(columns):
        length = msg._unpack("<q", nodes_at + 16 * k)
        nulls = msg._unpack("<q", nodes_at + 16 * k + 8)
        if length != rows:
            raise _Declined
        views = []
        for _ in range(col.nbuffers()):
            boff = msg._unpack("<q", bufs_at + 16 * b)
            blen = msg._unpack("<q", bufs_at + 16 * b + 8)
            b += 1
            if boff < 0 or blen < 0 or boff + blen > body_len:
                raise _Declined
            views.append(view[body + boff: body + boff + blen])
        out.append((nulls, views))
    return Batch(rows, out)


def open_file(path: str) -> IpcFile | None:
    """The file's schema and record batches, or None when it is not an
    uncompressed, little-endian IPC file of flat, plain columns."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 18:
                return None
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    try:
        if mapping[:6] != MAGIC or mapping[size - 6:] != MAGIC:
            raise _Declined
        flen = struct.unpack_from("<i", mapping, size - 10)[0]
        start = size - 10 - flen
        if flen <= 0 or start < 8:
            raise _Declined
        foot = _Buf(mapping, start, size - 10)
        root = foot.root()
        columns = _schema(foot, foot.table(root, 1))
        if foot.vector(root, 2)[1]:
            raise _Declined       # dictionaries
        blocks_at, nblocks = foot.vector(root, 3)
        whole = _Buf(mapping)
        view = memoryview(mapping)
        batches = []
        for k in range(nblocks):
            at = blocks_at + 24 * k
            offset = foot._unpack("<q", at)
            meta_len = foot._unpack("<i", at + 8)
            body_len = foot._unpack("<q", at + 16)
            batches.append(_batch(whole, view, size, offset, meta_len, body_len, columns))
        return IpcFile(columns, batches, mapping)
    except (_Declined, struct.error, UnicodeDecodeError):
        return None
