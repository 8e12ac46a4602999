"""Where results go: ``--format``, ``-o FILE``, standard output and warnings.

:func:`emit` renders a finished :class:`~ipsoeval.results.Report` in the
chosen format (one table for tsv/jsonl, ``--table ID`` or ``--table list``),
writes it and applies the report's gate;
:func:`warn` writes one warning line to standard error.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile

import click

from ipsoeval.cli import quiet_stdout
from ipsoeval.cli.environment import get_env
from ipsoeval.cli.progress import clear_bars
from ipsoeval.errors import GateFailed, InputError, UsageError
from ipsoeval.formatters import (
    BINARY_FORMATS,
    FORMATS,
    as_report,
    render,
    render_bytes,
    resolve,
    table_list,
)
from ipsoeval.writing import _output_error, write_output

__all__ = ["format_option", "concrete_format", "emit", "warn", "check_output", "write_output",
           "write_stdout", "quiet_stdout"]


TABLE_KEY = "ipsoeval.table"

# Every table id a command's report can hold (which ones it holds depends on the
# options: --table list).  Checked when --table is parsed, before any input is
# read; tests/test_output_contract.py checks the reports against this list.
TABLE_IDS = {
    "eval": ("scores",),
    "measures": ("measures", "relevance_levels"),
    "breakdown": ("summary", "topics"),
    "ipso": ("pairs", "topics", "depths", "agreement", "enumerate", "sign_test"),
    "interval-map": ("scores", "values", "value_quantiles", "tau", "tau_measures", "flips"),
    "sigtest": ("tests", "flips"),
    "bootstrap": ("leaderboard", "rank_probabilities", "split_half"),
    "ppi": ("estimates", "differences", "selection"),
    "agree": ("agreement", "confusion", "rankings", "means", "changes"),
    "leaderboard": ("leaderboard", "pairs", "resolution"),
    "power": ("power", "curve"),
    "meta": ("summary", "asl", "swap", "correlation"),
}


def _remember_table(ctx, param, value):
    if value is not None:
        known = TABLE_IDS.get(ctx.command.name)
        if value != "list" and known is not None and value not in known:
            raise click.BadParameter(f"{ctx.command.name} has no table {value!r} (tables: "
                                     f"{', '.join(known)}; 'list' names those of an "
                                     f"invocation)", ctx, param)
        ctx.meta[TABLE_KEY] = value
    return value


_FMT_KEY, _OUT_KEY = "ipsoeval.fmt", "ipsoeval.output"


def _check_binary(ctx) -> None:
    """--format parquet (binary) needs -o FILE and pyarrow: refused (usage error,
    exit 2) as soon as both options are parsed, before any input is read."""
    if _FMT_KEY not in ctx.meta or _OUT_KEY not in ctx.meta:
        return
    fmt, output = ctx.meta[_FMT_KEY], ctx.meta[_OUT_KEY]
    if fmt not in BINARY_FORMATS:
        return
    if output is None or output == "-":
        raise UsageError(f"--format {fmt} writes a binary file: give it with -o FILE "
                         f"(never to a terminal or a pipe)")
    from ipsoeval.formatters.parquet import need_pyarrow
    need_pyarrow()


def _remember_format(ctx, param, value):
    ctx.meta[_FMT_KEY] = value
    _check_binary(ctx)
    return value


def format_option(f=None, *, pipe_default: str = "tsv"):
    """-o and --format, offering only the formats the command accepts: trec
    (trec_eval's layout) is eval's alone."""
    accepted = [x for x in FORMATS if x != "trec" or pipe_default == "trec"]

    def deco(g):
        g = click.option("--table", "table", metavar="ID", default=None, expose_value=False,
                         callback=_remember_table,
                         help="Print table ID of the report instead of its primary table "
                              "(tsv, jsonl, json, table); 'list' lists the ids.")(g)
        g = click.option("-o", "--output", metavar="FILE", default=None,
                         callback=_check_output_option,
                         help="Write to this file (only when everything succeeded) instead "
                              "of standard output.")(g)
        g = click.option("--format", "fmt", type=click.Choice(accepted), default="auto",
                         show_default=True, callback=_remember_format,
                         help=f"Output format; auto = table on a terminal, else "
                              f"{pipe_default}; parquet needs -o FILE.")(g)
        return g
    return deco(f) if f is not None else deco


def warn(message: str) -> None:
    clear_bars()
    try:
        sys.stderr.write(f"ipsoeval: warning: {message}\n")
    except (BrokenPipeError, OSError):
        pass


def concrete_format(ctx: click.Context | None, fmt: str, output: str | None = None, *,
                    pipe_default: str = "tsv") -> str:
    """The format ``fmt`` stands for: ``auto`` is table when the output is
    standard output and the Environment says it is a terminal, else
    ``pipe_default``."""
    tty = output is None and get_env(ctx).stdout_isatty
    return resolve(fmt, pipe_default=pipe_default, isatty=lambda: tty)


def emit(ctx: click.Context, report, fmt: str, output: str | None = None, *,
         pipe_default: str = "tsv") -> str:
    """The one way out of a command: print the report's warnings on stderr,
    render the report (``--table ID`` or its primary table; ``--table list``:
    the ids) in the concrete format, write it (stdout or -o FILE), then apply
    the report's gate (exit 1 when it failed).  Returns the format used.

    Tables are laid out for the Environment's width and coloured only when
    they go to standard output and the Environment allows colour."""
    report = as_report(report)
    for w in report.warnings:
        warn(w)
    env = get_env(ctx)
    want = ctx.meta.get(TABLE_KEY)
    concrete = concrete_format(ctx, fmt, output, pipe_default=pipe_default)
    if want == "list":
        _write(ctx, env, output, table_list(report))
        return concrete
    if want is not None and want not in report.ids:
        raise UsageError(f"--table: no table {want!r} here (tables: {', '.join(report.ids)}; "
                         f"--table list describes them)")
    if concrete in BINARY_FORMATS:
        if output is None or output == "-":
            raise UsageError(f"--format {concrete} writes a binary file: give it with -o FILE")
        write_output(output, render_bytes(report, concrete, table=want))
    else:
        text = render(report, concrete, table=want, width=env.width,
                      color=env.color and output is None, color_system=env.color_system)
        _write(ctx, env, output, text)
    if report.gate is not None:
        if not report.gate.passed:
            raise GateFailed(report.gate.reason)
        try:
            env.stdout.flush()
            env.stderr.write(f"ipsoeval: gate passed: {report.gate.reason}\n")
            env.stderr.flush()
        except (BrokenPipeError, OSError):
            pass
    return concrete


def _write(ctx, env, output, text: str) -> None:
    if output is not None:
        write_output(output, text)
    else:
        write_stdout(ctx, env.stdout, text)


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

def _check_output_option(ctx, param, value):
    if value is not None:
        check_output(value)
    ctx.meta[_OUT_KEY] = value
    _check_binary(ctx)
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


def _write_text(stream, text: str) -> None:
    """Write text; ids that are not UTF-8 (surrogateescape strs, ipsoeval.ids)
    are written as their original bytes, as -o FILE writes them."""
    if text.isascii():
        stream.write(text)
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:           # raised before anything is written
        buf = getattr(stream, "buffer", None)
        if buf is None:
            raise
        stream.flush()
        buf.write(text.encode(getattr(stream, "encoding", None) or "utf-8", "surrogateescape"))


def write_stdout(ctx: click.Context | None, stream, text: str) -> None:
    """Write to standard output.  A closed pipe ends the output quietly (the
    command goes on, so a gate still decides the exit status); any other
    write error (a full disk) is an I/O error, exit 3."""
    try:
        _write_text(stream, text)
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
