"""``--format jsonl``: one JSON object per record and line of one table (the
primary, or ``--table ID``); streams into jq, pandas.read_json(lines=True),
DuckDB."""

from __future__ import annotations

import json
import re

from ipsoeval.formatters.values import json_safe
from ipsoeval.results import ResultSet


def render(rs: ResultSet) -> str:
    out = []
    for rec in rs.records:
        row = {c: json_safe(rec.get(c)) for c in rs.columns}
        out.append(json.dumps(row, ensure_ascii=False, allow_nan=False, default=str))
    text = "".join(line + "\n" for line in out)
    if not text.isascii():
        # a byte of an id that is not UTF-8 (ipsoeval.ids) as \udcXX, as --format json has it
        text = _ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


_ESCAPED = re.compile("[\udc80-\udcff]")
