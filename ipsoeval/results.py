"""Finished results: the only thing formatters ever see.

A :class:`ResultSet` (alias :class:`Table`) is one table: a stable ``id``,
columns (stable, documented lower_snake_case names) and records whose values
are Python scalars (str, int, float, bool or None for undefined).

A :class:`Report` is what one analysis returns: its named tables in output
order, the id of the primary one, the warnings met on the way and, for a
command with a CI gate, the gate's decision.  The CLI hands a Report to a
formatter; the Python API returns it to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ResultSet:
    command: str                      # subcommand name, e.g. "eval"
    columns: list[str]                # stable column names, in output order
    records: list[dict[str, Any]]     # one flat dict per row, keys = columns
    params: dict[str, Any] = field(default_factory=dict)  # echoed in JSON "params"
    title: str | None = None          # caption for the rich table
    # Optional hints for people's formats only (never for tsv/json); the
    # vocabulary is ipsoeval.formatters.table's docstring (KNOWN_HINTS)
    table_hints: dict[str, Any] = field(default_factory=dict)
    id: str = ""                      # stable table id (JSON key, --table ID)

    def to_frame(self):
        """The table as a pandas DataFrame (pandas is an optional extra)."""
        return _frame(self.columns, self.records)


Table = ResultSet


@dataclass
class Gate:
    """A CI gate's decision: ``passed`` False makes the CLI exit 1."""
    passed: bool
    reason: str = ""


@dataclass
class Report:
    command: str
    tables: list[Table]
    primary: str | None = None        # id of the table TSV prints; default the first
    warnings: list[str] = field(default_factory=list)
    gate: Gate | None = None
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        return [t.id for t in self.tables]

    def table(self, id: str | None = None) -> Table:
        """The table ``id`` (default: the primary table)."""
        want = id if id is not None else (self.primary or self.tables[0].id)
        for t in self.tables:
            if t.id == want:
                return t
        raise KeyError(f"no table {want!r} in this report (tables: {', '.join(self.ids)})")

    def to_frame(self, id: str | None = None):
        """Table ``id`` (default: the primary) as a pandas DataFrame."""
        return self.table(id).to_frame()


def _frame(columns, records):
    try:
        import pandas as pd
    except ImportError:
        from ipsoeval.errors import UsageError
        raise UsageError("to_frame() needs pandas: pip install 'ipsoeval[pandas]' "
                         "(or pip install pandas)") from None
    return pd.DataFrame.from_records([{c: r.get(c) for c in columns} for r in records],
                                     columns=columns)
