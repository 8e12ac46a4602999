"""Writing a finished output to a file: replaced only once it is whole (a
temporary file beside it, then a rename), its mode kept; a device or a pipe
is written in place.  OS errors are InputErrors (exit 3).  Shared by the CLI
(``-o FILE``) and the API (:meth:`ipsoeval.Page.save`)."""

from __future__ import annotations

import os
import stat

from ipsoeval.errors import InputError

STDOUT = "-"          # -o -: standard output, as for every command's -o


def output_path(value: str | None) -> str | None:
    """An -o value as the file to write: None (standard output) for ``-``."""
    return None if value == STDOUT else value


def _output_error(path: str, why: str) -> InputError:
    return InputError(f"cannot write to {path}: {why}")


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def mkstemp(prefix: str, dir: str, suffix: str = "") -> tuple[int, str]:
    """A new file ``dir/prefix + 12 random hex digits + suffix`` opened for
    writing, mode 0600, never an existing one: ``(fd, path)``, as
    tempfile.mkstemp gives them.  The one way ipsoeval makes a temporary file.

    Why not tempfile.mkstemp: its import (with shutil's and random's) is
    ~4.6 ms, and ``sigtest -o FILE`` on its quick path (no numpy, no click)
    probes and writes FILE with this.  Measured whole-process CPU, median of
    40 interleaved runs, 2 runs x 50 topics: 0.078 s with this function,
    0.087 s with tempfile.mkstemp (paired ratio 1.14, +0.9 MiB peak)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = os.path.join(dir, prefix + os.urandom(6).hex() + suffix)
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no unused temporary name in {dir}")


def write_output(path: str, text: str | bytes) -> None:
    """Write ``text`` (str, or bytes of a binary format) to ``path`` (see
    above); OS errors are InputErrors (exit 3)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise _output_error(path, exc.strerror or str(exc)) from None
        return
    real = os.path.realpath(path)
    mode = (st.st_mode & 0o7777) if st is not None else (0o666 & ~_umask())
    tmp = None
    try:
        fd, tmp = mkstemp(".ipsoeval-", os.path.dirname(real) or ".")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            os.fchmod(fh.fileno(), mode)
        os.replace(tmp, real)
        tmp = None
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
