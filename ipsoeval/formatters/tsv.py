"""Tab-separated values: one header row of stable column names, one row per
record -- one table, never more (a report's other tables: ``--table ID``)."""

from __future__ import annotations

from ipsoeval.formatters.values import plain
from ipsoeval.results import ResultSet


def _cell(v) -> str:
    return plain(v).replace("\t", " ").replace("\r", " ").replace("\n", " ")


def render(rs: ResultSet) -> str:
    cols = rs.columns
    lines = ["\t".join(cols)]
    for rec in rs.records:
        lines.append("\t".join(_cell(rec.get(c)) for c in cols))
    return "\n".join(lines) + "\n"
