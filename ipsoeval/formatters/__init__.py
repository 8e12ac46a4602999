"""Output formatters (docs/conventions.md, "Outputs"): trec, tsv, json, table —
shared by every command.

Formatters see only finished :class:`~ipsoeval.results.ResultSet` records.
``auto`` is ``table`` when standard output is a terminal (decided by an
injectable ``isatty``, never by rich), else the command's pipe default.
"""

from __future__ import annotations

import sys
from typing import IO, Callable

from ipsoeval.errors import UsageError
from ipsoeval.results import ResultSet

FORMATS = ("auto", "trec", "tsv", "json", "table",
           "jsonl", "latex", "markdown")   # issue 13: paper-ready tables and JSON lines


def resolve(fmt: str, *, pipe_default: str = "tsv", isatty: Callable[[], bool] | None = None,
            stream: IO | None = None) -> str:
    """The concrete format for ``fmt`` ('auto' decided by isatty)."""
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)} (found {fmt!r})")
    if fmt != "auto":
        return fmt
    if isatty is None:
        s = stream if stream is not None else sys.stdout
        isatty = getattr(s, "isatty", lambda: False)
    try:
        tty = bool(isatty())
    except (ValueError, OSError):
        tty = False
    return "table" if tty else pipe_default


def render(results: ResultSet | list[ResultSet], fmt: str, *, width: int | None = None,
           color: bool = False) -> str:
    """The text of ``results`` in a concrete format."""
    sets = results if isinstance(results, list) else [results]
    if fmt == "trec":
        from ipsoeval.formatters import trec
        return "".join(trec.render(r) for r in sets)
    if fmt == "tsv":
        from ipsoeval.formatters import tsv
        return "".join(tsv.render(r) for r in sets)
    if fmt == "json":
        from ipsoeval.formatters import json_
        return json_.render(sets)
    if fmt == "table":
        from ipsoeval.formatters import table
        return table.render(sets, width=width, color=color)
    if fmt in ("latex", "markdown", "jsonl"):     # issue 13 (formatters/{latex,markdown,jsonl}.py)
        import importlib
        return importlib.import_module(f"ipsoeval.formatters.{fmt}").render(sets)
    raise UsageError(f"unknown format {fmt!r}")
