"""Output formatters (docs/conventions.md, "Outputs"): trec, tsv, json, table —
shared by every command.

Formatters see only finished :class:`~ipsoeval.results.Report` objects: which
table a format prints is decided here, after the report exists.
``auto`` is ``table`` when standard output is a terminal (decided by an
injectable ``isatty``, never by rich), else the command's pipe default.
"""

from __future__ import annotations

import sys
from typing import IO, Callable

from ipsoeval.errors import UsageError
from ipsoeval.output_options import BINARY_FORMATS, FORMATS  # noqa: F401  (declared once)
from ipsoeval.results import Report, ResultSet

PAGE_FORMATS = ("html",)        # a command's own (compare): not in every --format


def resolve(fmt: str, *, pipe_default: str = "tsv", isatty: Callable[[], bool] | None = None,
            stream: IO | None = None) -> str:
    """The concrete format for ``fmt`` ('auto' decided by isatty)."""
    if fmt not in FORMATS and fmt not in PAGE_FORMATS:
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


def render(report: Report, fmt: str, *, table: str | None = None, width: int | None = None,
           color: bool = False, color_system: str = "standard",
           digits: int | None = None) -> str:
    """The text of ``report`` in a concrete format.

    tsv, jsonl and trec print one table: ``table`` (an id) or the primary.
    json holds every table (only ``table`` when given).  table, latex and
    markdown show ``table`` or the report's display tables, each in its view
    for people where it has one.  ``digits`` (``--digits``) rounds the
    floats of tsv, table, latex and markdown (N decimals, p-values N
    significant digits: :func:`ipsoeval.formatters.values.rounded`); trec
    keeps trec_eval's ``%.4f`` and json, jsonl and parquet full precision,
    whatever ``digits`` says.  The report's notes go with json (its
    ``notes``) and the human formats (under the last table); tsv, jsonl and
    trec print one table and nothing else.
    """
    report = as_report(report)
    if table is not None:
        report.table(table)                    # KeyError for an unknown id
    if report.command == "compare":            # the paper's table: formatters/comparison.py
        from ipsoeval.formatters import comparison
        if comparison.handles(report, fmt, table):
            if fmt == "html":
                from ipsoeval.formatters.html import comparison_page
                return comparison_page(report, digits=digits, table=table)
            return comparison.render(report, fmt, width=width, color=color, digits=digits,
                                     table=table)
    if fmt == "trec":
        from ipsoeval.formatters import trec
        t = report.table(table)
        return trec.render(t.trec if t.trec is not None else t)
    if fmt == "tsv":
        from ipsoeval.formatters import tsv
        return tsv.render(report.table(table), digits=digits)
    if fmt == "jsonl":
        from ipsoeval.formatters import jsonl
        return jsonl.render(report.table(table))
    if fmt == "json":
        from ipsoeval.formatters import json_
        return json_.render(report, table)
    shown = [report.table(table).shown()] if table is not None else report.shown()
    if fmt == "table":
        from ipsoeval.formatters import table as table_fmt
        return table_fmt.render(shown, width=width, color=color, color_system=color_system,
                                notes=report.notes, digits=digits)
    if fmt in ("latex", "markdown"):           # formatters/{latex,markdown}.py
        import importlib
        return importlib.import_module(f"ipsoeval.formatters.{fmt}").render(
            shown, notes=report.notes, digits=digits)
    raise UsageError(f"unknown format {fmt!r}")


def render_bytes(report: Report, fmt: str, *, table: str | None = None) -> bytes:
    """The bytes of ``report`` in a binary format (parquet: one table, the
    primary or ``table``)."""
    report = as_report(report)
    if fmt == "parquet":
        from ipsoeval.formatters import parquet
        return parquet.render_bytes(report.table(table))
    raise UsageError(f"unknown binary format {fmt!r}")




def table_list(report: Report) -> str:
    """``--table list``: one line per table, ``ID<TAB>description``, the
    primary's description ending in ``(primary)``."""
    lines = []
    for t in report.tables:
        desc = t.description or t.id
        if t.id == report.primary:
            desc += " (primary)"
        lines.append(f"{t.id}\t{desc}")
    return "\n".join(lines) + "\n"


def as_report(x: Report | ResultSet) -> Report:
    """A Report; one table alone becomes the report of it (id: the command's)."""
    if isinstance(x, Report):
        return x
    if not x.id:
        import dataclasses
        x = dataclasses.replace(x, id=x.command.replace("-", "_") or "results")
    return Report(x.command, [x])
