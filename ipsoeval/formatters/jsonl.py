"""``--format jsonl``: one JSON object per record and line of one table (the
primary, or ``--table ID``); streams into jq, pandas.read_json(lines=True),
DuckDB."""

from __future__ import annotations

import json

from ipsoeval.formatters.values import json_safe
from ipsoeval.results import ResultSet


def render(rs: ResultSet) -> str:
    out = []
    for rec in rs.records:
        row = {c: json_safe(rec.get(c)) for c in rs.columns}
        out.append(json.dumps(row, ensure_ascii=False, allow_nan=False, default=str))
    return "".join(line + "\n" for line in out)
