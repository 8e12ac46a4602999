"""JSON: {"ipsoeval": VERSION, "command": NAME, "params": {...}, "results": [...]}.

Several result sets of one invocation become one document whose ``results``
holds the records of the first set and ``tables`` names every set.
"""

from __future__ import annotations

import json

from ipsoeval import __version__
from ipsoeval.formatters.values import json_safe
from ipsoeval.results import ResultSet


def _records(rs: ResultSet) -> list[dict]:
    return [{c: json_safe(rec.get(c)) for c in rs.columns} for rec in rs.records]


def _clean(obj):
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, float):
        return json_safe(obj)
    if obj is None or isinstance(obj, (str, int, bool)):
        return obj
    return str(obj)


def render(sets: list[ResultSet]) -> str:
    first = sets[0]
    doc = {"ipsoeval": __version__, "command": first.command,
           "params": _clean(first.params), "results": _records(first)}
    if len(sets) > 1:
        doc["tables"] = {(rs.title or f"table{i}"): _records(rs) for i, rs in enumerate(sets)}
    return json.dumps(doc, indent=1, allow_nan=False) + "\n"
