"""``--format jsonl``: one JSON object per record and line (streams into jq,
pandas.read_json(lines=True), DuckDB).  With several tables each record
carries a ``table`` key (the table's id, else its position)."""

from __future__ import annotations

import json

from ipsoeval.results import ResultSet


def render(sets: list[ResultSet]) -> str:
    out = []
    many = len(sets) > 1
    for i, rs in enumerate(sets):
        for rec in rs.records:
            row = {c: rec.get(c) for c in rs.columns}
            if many:
                row = {"table": rs.id or str(i + 1), **row}
            out.append(json.dumps(row, ensure_ascii=False, allow_nan=False,
                                  default=str))
    return "".join(line + "\n" for line in out)
