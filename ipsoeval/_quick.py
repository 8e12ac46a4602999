"""The console script's entry (``ipsoeval = "ipsoeval._quick:main"``).

``ipsoeval --help``, ``ipsoeval COMMAND --help`` (or ``-h``) and ``ipsoeval
--version`` (or ``-V``), alone on the line, print stored text without importing
click: the help as click renders it (:mod:`ipsoeval._helptext`, generated;
tests/unit/test_helptext.py keeps it in step), served only when click would lay it
out at the stored width.  ``ipsoeval eval [OPTIONS] QRELS RUN...`` is first
offered to the quick path (:mod:`ipsoeval.reading.quick`: the compiled core,
no numpy, no click); whatever they decline runs the full program
(:mod:`ipsoeval.cli`).  The module keeps its name because every installed
``ipsoeval`` script imports it; it holds nothing else, so that start-up stays
cheap.
"""

import os
import sys

HELP_FLAGS = ("--help", "-h")
VERSION_FLAGS = ("--version", "-V")


def help_width(max_content_width: int) -> int:
    """The width click's HelpFormatter lays help out at: ``max(min(columns,
    max_content_width) - 2, 50)``, the columns as ``shutil.get_terminal_size``
    finds them (COLUMNS if a positive integer, else standard output's
    terminal, else 80) -- without importing shutil (~15 ms)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
        columns = columns or 80
    return max(min(columns, max_content_width) - 2, 50)


def stored_text(args: list[str]) -> str | None:
    """What the full program would print for ``args`` when that is stored
    text (help or version), else None."""
    if len(args) == 1 and args[0] in VERSION_FLAGS:
        from ipsoeval._version import version_line
        return version_line() + "\n"
    if len(args) == 1 and args[0] in HELP_FLAGS:
        command = ""
    elif len(args) == 2 and args[1] in HELP_FLAGS and args[0][:1].isalpha():
        command = args[0]
    else:
        return None
    from ipsoeval._helptext import HELP, MAX_CONTENT_WIDTH
    return HELP.get(help_width(MAX_CONTENT_WIDTH), {}).get(command)


def _print_stored(args: list[str]) -> bool:
    text = stored_text(args)
    out = sys.stdout
    if text is None or out is None:
        return False
    if not text.isascii():          # click re-encodes a misconfigured stream
        import codecs
        try:
            if codecs.lookup(out.encoding or "ascii").name != "utf-8":
                return False
        except LookupError:
            return False
    from ipsoeval.stdio import write_stdout
    write_stdout(text)              # `ipsoeval --help | head -1`: a quiet exit
    return True


def main() -> None:
    args = sys.argv[1:]
    if len(args) <= 2 and _print_stored(args):
        return
    from ipsoeval.reading.quick import quick_eval
    if quick_eval(args):
        return
    if args[:1] == ["sigtest"]:
        from ipsoeval.analyses.sigtest.quick import quick_sigtest
        if quick_sigtest(args):
            return
    # OpenBLAS's thread pool, started by `import numpy`, costs ~40 ms of CPU
    # (eval 0.14 -> 0.10 s); no command gains from it: their matrix products
    # are small (leaderboard's 10,000 resamples, across's mixed model: the same
    # CPU and wall time with one thread).  OPENBLAS_NUM_THREADS set wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ipsoeval.cli import main as cli_main
    cli_main()
