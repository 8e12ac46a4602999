"""The console script's entry: ``ipsoeval eval [--format trec] QRELS RUN``
served by the compiled core without importing numpy or click.

The most common call (one run, trec_eval's official measures, trec layout)
costs less than ``import numpy`` when done in C (README "Speed").  Anything
else -- another option or subcommand, compressed or unusual input, a topic
in one file and not the other (a warning), any error -- runs the full
program, which alone prints warnings and errors.  ``IPSOEVAL_CORE=python``
turns this off.
"""

import os
import sys

_MAGIC = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")


def quick_eval(args) -> bool:
    """Print the scores and return True, or return False (nothing printed)."""
    if os.environ.get("IPSOEVAL_CORE", "auto") == "python" or not args or args[0] != "eval":
        return False
    rest = list(args[1:])
    fmt = "auto"
    if len(rest) >= 2 and rest[0] == "--format":
        fmt, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--format="):
        fmt, rest = rest[0][len("--format="):], rest[1:]
    if fmt not in ("auto", "trec") or len(rest) != 2 or any(a.startswith("-") for a in rest):
        return False
    if fmt == "auto":
        try:
            if sys.stdout.isatty():          # auto on a terminal is the table layout
                return False
        except (ValueError, OSError):
            pass
    try:
        from ipsoeval import _core
    except ImportError:
        return False
    try:
        data = []
        for path in rest:
            with open(path, "rb") as f:
                data.append(f.read())
    except OSError:
        return False
    if any(d.startswith(m) for d in data for m in _MAGIC):
        return False
    out = _core.eval_official(data[0], data[1])
    if out is None:
        return False
    try:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return True


def main() -> None:
    if quick_eval(sys.argv[1:]):
        return
    from ipsoeval.cli import main as cli_main
    cli_main()
