"""The console script's entry (``ipsoeval = "ipsoeval._quick:main"``).

``ipsoeval --help``, ``ipsoeval COMMAND --help`` (or ``-h``) and ``ipsoeval
--version`` (or ``-V``), alone on the line, are printed without importing
click: the help is rendered from the commands' declarations
(:func:`ipsoeval.declare.render_help`), the same text the click command
prints.  ``ipsoeval eval ...`` and ``ipsoeval sigtest ...`` are first offered
to their quick paths (the compiled core, no numpy, no click), which read the
arguments with the parser made from the same declarations; whatever they
decline runs the full program (:mod:`ipsoeval.cli`).  The module keeps its
name because every installed ``ipsoeval`` script imports it; it holds nothing
else, so that start-up stays cheap.
"""

import os
import sys

HELP_FLAGS = ("--help", "-h")
VERSION_FLAGS = ("--version", "-V")


def stored_text(args: list[str]) -> str | None:
    """What the full program would print for ``args`` when that is help or
    the version, else None."""
    if len(args) == 1 and args[0] in VERSION_FLAGS:
        from ipsoeval._version import version_line
        return version_line() + "\n"
    if len(args) == 1 and args[0] in HELP_FLAGS:
        from ipsoeval.pipeline import group_help
        return group_help()
    if len(args) == 2 and args[1] in HELP_FLAGS and args[0][:1].isalpha():
        from ipsoeval.pipeline import COMMANDS, command
        if args[0] not in COMMANDS:
            return None
        from ipsoeval.declare import render_help
        try:
            decl = command(args[0])
        except (ImportError, AttributeError):
            return None
        return render_help(decl)
    return None


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
    if args[:1] == ["eval"]:
        from ipsoeval.pipeline.evaluate import quick
        if quick(args):
            return
    if args[:1] == ["sigtest"]:
        from ipsoeval.pipeline.sigtest import quick
        if quick(args):
            return
    # OpenBLAS's thread pool, started by `import numpy`, costs ~40 ms of CPU
    # (eval 0.14 -> 0.10 s); no command gains from it: their matrix products
    # are small (leaderboard's 10,000 resamples, across's mixed model: the same
    # CPU and wall time with one thread).  OPENBLAS_NUM_THREADS set wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ipsoeval.cli import main as cli_main
    cli_main()
