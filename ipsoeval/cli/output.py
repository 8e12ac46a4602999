"""Where results go: ``--format``, ``-o FILE``, standard output and warnings.

:func:`emit` renders finished results in the chosen format and writes them;
:func:`warn` writes one warning line to standard error.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile

import click

from ipsoeval.errors import InputError, UsageError
from ipsoeval.formatters import FORMATS, render, resolve

__all__ = ["format_option", "emit", "warn", "check_output", "write_output", "write_stdout",
           "quiet_stdout"]


def format_option(f=None, *, pipe_default: str = "tsv"):
    """-o and --format, offering only the formats the command accepts: trec
    (trec_eval's layout) is eval's alone."""
    accepted = [x for x in FORMATS if x != "trec" or pipe_default == "trec"]

    def deco(g):
        g = click.option("-o", "--output", metavar="FILE", default=None,
                         callback=_check_output_option,
                         help="Write to this file (only when everything succeeded) instead "
                              "of standard output.")(g)
        g = click.option("--format", "fmt", type=click.Choice(accepted), default="auto",
                         show_default=True,
                         help=f"Output format; auto = table on a terminal, else "
                              f"{pipe_default}.")(g)
        return g
    return deco(f) if f is not None else deco


def warn(message: str) -> None:
    try:
        sys.stderr.write(f"ipsoeval: warning: {message}\n")
    except (BrokenPipeError, OSError):
        pass


def emit(ctx: click.Context, results, fmt: str, output: str | None = None, *,
         pipe_default: str = "tsv") -> str:
    """Render results (a ResultSet or a list) and write them; returns the format used."""
    obj = ctx.find_root().obj or {}
    isatty = obj.get("isatty")
    stream = sys.stdout
    if output is not None:
        concrete = resolve(fmt, pipe_default=pipe_default, isatty=isatty or (lambda: False))
    else:
        concrete = resolve(fmt, pipe_default=pipe_default, isatty=isatty, stream=stream)
    color = False
    if concrete == "table" and output is None and "NO_COLOR" not in os.environ:
        try:
            color = bool(isatty()) if isatty is not None else stream.isatty()
        except (ValueError, OSError, AttributeError):
            color = False
    width = None
    if concrete == "table":
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            width = 120
    text = render(results, concrete, width=width, color=color)
    if output is not None:
        write_output(output, text)
    else:
        write_stdout(ctx, stream, text)
    return concrete


# --- where the output goes ---------------------------------------------------
#
# -o FILE: a regular file (or a path that does not exist yet) is written to a
# temporary file in the same directory and renamed over it only when
# everything succeeded, so a failed run never leaves a half-written or empty
# file; the new file gets the mode the umask allows (an existing file keeps its
# mode).  A symlink is followed: its target is replaced, the link stays.
# Anything that is not a regular file (/dev/null, /dev/stdout, a fifo, a
# terminal) is opened and written directly, never replaced.  Whether the
# target can be written is checked when the option is parsed, before any
# input is read.

def _output_error(path: str, why: str) -> InputError:
    return InputError(f"cannot write to {path}: {why}")


def _check_output_option(ctx, param, value):
    if value is not None:
        check_output(value)
    return value


def check_output(path: str) -> None:
    """Raise UsageError/InputError now when ``path`` cannot be written later."""
    if path == "":
        raise UsageError("-o/--output: empty file name")
    try:
        st = os.stat(path)      # follows links, even /proc's (/dev/stdout)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _output_error(path, "is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(path, os.W_OK):
            raise _output_error(path, "permission denied")
        return
    d = os.path.dirname(os.path.realpath(path)) or "."
    if not os.path.isdir(d):
        shown = os.path.dirname(path) if not os.path.islink(path) else d
        raise _output_error(path, f"no such directory {shown or '.'}")
    try:                       # the only sure test (root, read-only mounts, /proc)
        fd, probe = tempfile.mkstemp(prefix=".ipsoeval-", dir=d)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (see above); OS errors are InputErrors (exit 3)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None
    data = text.encode("utf-8", "surrogateescape")
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
        fd, tmp = tempfile.mkstemp(prefix=".ipsoeval-", dir=os.path.dirname(real) or ".")
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


def quiet_stdout() -> None:
    """Point standard output at /dev/null (after a closed pipe or a write error)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def write_stdout(ctx: click.Context | None, stream, text: str) -> None:
    """Write to standard output.  A closed pipe ends the output quietly (the
    command goes on, so a gate still decides the exit status); any other
    write error (a full disk) is an I/O error, exit 3."""
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        quiet_stdout()
        if ctx is not None:
            obj = ctx.find_root().obj
            if isinstance(obj, dict):
                obj["stdout_closed"] = True
    except OSError as exc:
        quiet_stdout()
        raise InputError(f"cannot write to standard output: {exc.strerror or exc}") from None
