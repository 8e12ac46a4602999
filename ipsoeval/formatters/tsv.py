"""Tab-separated values: one header row of stable column names, one row per
record -- one table, never more (a report's other tables: ``--table ID``).

Floats are their shortest round-trip text; with ``--digits N`` they are
rounded (:func:`ipsoeval.formatters.values.rounded`: N decimals, p-values N
significant digits), except the columns the table declares ``exact``
(parameters, degrees of freedom), which keep the number they are.  The
columns and their order never depend on ``--digits``."""

from __future__ import annotations

from ipsoeval.formatters.values import plain
from ipsoeval.results import ResultSet


def _cell(v, col: str = "", digits: int | None = None) -> str:
    return plain(v, col, digits).replace("\t", " ").replace("\r", " ").replace("\n", " ")


def render(rs: ResultSet, digits: int | None = None) -> str:
    cols = rs.columns
    lines = ["\t".join(cols)]
    if digits is None:
        for rec in rs.records:
            lines.append("\t".join(_cell(rec.get(c)) for c in cols))
        return "\n".join(lines) + "\n"
    hints = rs.table_hints if isinstance(rs.table_hints, dict) else {}
    exact = set(hints.get("exact", ()))
    per_col = [(c, None if c in exact else digits) for c in cols]
    for rec in rs.records:
        lines.append("\t".join(_cell(rec.get(c), c, d) for c, d in per_col))
    return "\n".join(lines) + "\n"
