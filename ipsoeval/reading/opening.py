"""Opening inputs and inflating them into blocks of whole lines.

Two consumers, two ways:

- The Python reader (and every reader of small files: score files, queries
  files, trec_eval's other modes) takes :func:`iter_blocks`: a file or
  stdin, decompressed by magic bytes (gzip, bzip2, xz) with the standard
  library, cut into blocks of about ``BLOCK`` bytes of whole lines.  Errors
  are InputErrors naming the file (no such file, a directory, corrupt or
  truncated compressed data, a UTF-8 byte-order mark).
- The compiled core takes what :func:`probe` gives: a plain file mapped
  (mmap; parsed in place, never copied), or, for a compressed one,
  :func:`inflated_blocks`: gzip inflated by ISA-L (isal) straight into a
  ring of reused buffers, in a second thread when the process may use two
  CPUs (README "isal"); bzip2, xz, and gzip without isal go through
  :func:`iter_blocks`.  This side never raises on bad data: it declines
  (None or :class:`Declined`) and the Python reader reads the file again.

Compression is decided by the file's first bytes (``MAGIC``), never by its
name.  Nothing here parses lines.
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import sys
import threading

from ipsoeval.errors import InputError
from ipsoeval.reading.grammar import display_name


def stem(path: str) -> str:
    """A file's name without its folder, compression suffix and extension
    (a scores file's or a predictor file's default name; ``-``: stdin)."""
    if path == "-":
        return "stdin"
    base = os.path.basename(path)
    for ext in (".gz", ".bz2", ".xz"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return os.path.splitext(base)[0] or base


def _gzip(f):
    import gzip
    return gzip.GzipFile(fileobj=f, mode="rb")


def _bzip2(f):
    import bz2
    return bz2.BZ2File(f, mode="rb")


def _xz(f):
    import lzma
    return lzma.LZMAFile(f, mode="rb")


# the codecs are imported when a file needs one (~4 ms of CPU for the three)
MAGIC = (
    (b"\x1f\x8b", "gzip", _gzip),
    (b"BZh", "bzip2", _bzip2),
    (b"\xfd7zXZ\x00", "xz", _xz),
)


def _read_errors() -> tuple:
    """What a failed read of plain or compressed data raises (evaluated only
    when a read fails, so the codecs are not imported for it)."""
    import lzma
    import zlib
    return (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError)


TABLE_MAGIC = (
    (b"PAR1", "parquet"),             # Parquet (ipsoeval.reading.arrow)
    (b"ARROW1", "arrow"),             # Arrow IPC file (Feather v2)
    (b"\xff\xff\xff\xff", "arrow-stream"),   # Arrow IPC stream (continuation marker)
)


def table_kind(path: str, data: bytes | None = None) -> str | None:
    """'parquet', 'arrow' or 'arrow-stream' when the file's first bytes say it is
    a table (read by :mod:`ipsoeval.reading.arrow`), else None (stdin, text,
    compressed text, or a file that cannot be opened: the text readers say why)."""
    if data is not None:
        head = bytes(data[:8])
    else:
        if path == "-":
            return None
        try:
            with open(path, "rb") as fh:
                head = fh.read(8)
        except OSError:
            return None
    for magic, kind in TABLE_MAGIC:
        if head.startswith(magic):
            return kind
    return None


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
            except _read_errors() as exc:
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
    buffered = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    try:
        head = buffered.peek(8)[:8]
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", path=name) from None
    for magic, kind, opener in MAGIC:
        if head.startswith(magic):
            return opener(buffered), kind
    return buffered, "text"


# --- the compiled core's side ----------------------------------------------------

def _is_plain(f) -> bool:
    """The file (at offset 0) starts with no compression magic."""
    head = f.read(6)
    f.seek(0)
    return not any(head.startswith(m) for m, _, _ in MAGIC)


def probe(path: str):
    """(size, the file mapped) for a plain file, (size, None) for a
    compressed one, or None (declined: unreadable, empty)."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    with f:
        try:
            size = os.fstat(f.fileno()).st_size
            plain = _is_plain(f)
        except OSError:
            return None
        if size == 0:
            return None
        if not plain:
            return size, None
        try:
            return size, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None


INFLATE_BLOCK = 1 << 20   # bytes per inflated block of the compiled path
QUEUED = 3


def _inflated_lines(path: str, ring: list[bytearray], stop=None):
    """Blocks of whole lines of a gzip file inflated by ISA-L (isal, ~3x zlib's
    speed here) straight into the buffers of ``ring``, in turn: a block is
    valid until ``len(ring)`` more have been taken."""
    with _gzip_reader(path) as g:
        carry = b""
        turn = 0
        while stop is None or not stop.is_set():
            buf = ring[turn % len(ring)]
            turn += 1
            if len(buf) < len(carry) + INFLATE_BLOCK:      # a very long line
                buf = bytearray(len(carry) + INFLATE_BLOCK)
            buf[: len(carry)] = carry
            got = g.readinto(memoryview(buf)[len(carry): len(carry) + INFLATE_BLOCK])
            if not got:
                break
            end = len(carry) + got
            cut = buf.rfind(b"\n", 0, end) + 1
            if cut == 0:
                carry = bytes(buf[:end])
                continue
            carry = bytes(buf[cut:end])
            yield memoryview(buf)[:cut]
        if carry:
            yield carry


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _gzip_blocks(path: str):
    """The inflated blocks of _inflated_lines, inflated in a second thread so
    that inflating and parsing overlap -- when the process may use a second
    CPU: on one (taskset -c 0) the thread only costs switches (~2,000 for
    300 MB) and inflating in turn with the parse is as fast."""
    try:
        if _cpus() < 2:
            yield from _inflated_lines(path, [bytearray(INFLATE_BLOCK + (1 << 16))])
            return
    except Exception:               # corrupt data etc.: the Python reader reports it
        raise Declined from None

    import queue

    q: queue.Queue = queue.Queue(maxsize=QUEUED)
    stop = threading.Event()
    # a ring of buffers, reused (fresh ones cost the kernel's page zeroing):
    # at most QUEUED queued, 1 being parsed and 1 being filled
    ring = [bytearray(INFLATE_BLOCK + (1 << 16)) for _ in range(QUEUED + 3)]

    def produce():
        try:
            for block in _inflated_lines(path, ring, stop):
                q.put(block)
            q.put(None)
        except BaseException as exc:   # corrupt data etc.: the Python reader reports it
            q.put(exc)

    th = threading.Thread(target=produce, daemon=True)
    th.start()
    try:
        while True:
            item = q.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise Declined from None
            yield item
    finally:
        stop.set()
        while th.is_alive():          # unblock a producer waiting on a full queue
            try:
                q.get_nowait()
            except queue.Empty:
                th.join(0.01)


@contextlib.contextmanager
def _gzip_reader(path: str):
    """A reader of the inflated bytes whose readinto() inflates straight into
    the caller's buffer: isal's own reader, which igzip.open wraps in a
    BufferedReader whose readinto() inflates into a fresh bytes object and
    copies it (~0.05 s of CPU per 300 MB); igzip.open if isal lacks it."""
    from isal import igzip
    reader = getattr(igzip, "_IGzipReader", None)
    if reader is None:
        with igzip.open(path, "rb") as g:
            yield g
        return
    with open(path, "rb") as f:
        g = reader(f, igzip.READ_BUFFER_SIZE)
        try:
            yield g
        finally:
            g.close()


class Declined(Exception):
    """Corrupt compressed data met by the ISA-L path: the caller declines, and
    the Python reader reads the file again and names the error."""


def inflated_blocks(path: str):
    """Blocks of whole lines of a file for the compiled path: a gzip file
    inflated by ISA-L (:func:`_gzip_blocks`) when isal is installed, else
    :func:`iter_blocks` (the standard library's decompressors)."""
    try:
        import isal  # noqa: F401
        with open(path, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
    except (ImportError, OSError):
        gz = False
    return _gzip_blocks(path) if gz else iter_blocks(path)


DEFLATE_MAX_RATIO = 1032              # deflate's largest expansion factor


def inflated_size_hint(path: str, size: int) -> int:
    """gzip's trailer: the inflated size mod 2**32 (0 for other formats)."""
    try:
        with open(path, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
            f.seek(max(size - 4, 0))
            isize = int.from_bytes(f.read(4), "little") if gz else 0
    except OSError:
        return 0
    # only a hint: of a gzip file with trailing bytes it is noise -- never
    # trust more than deflate can expand
    return min(isize, size * DEFLATE_MAX_RATIO)
