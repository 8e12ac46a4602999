"""JSON: one document holding every table of a report under its id.

::

    {"ipsoeval": VERSION, "command": NAME, "params": {...},
     "primary": ID, "results": [records of the primary table],
     "tables": {ID: {"description": TEXT, "columns": [...], "params": {...},
                     "records": [...]}, ...},
     "warnings": [...], "notes": [...], "gate": {"passed": BOOL, "reason": TEXT}}

``results`` repeats the primary table's records (the layout of 0.1, which
``--scores`` and scripts read); ``gate`` only for a command with a CI gate.
``warnings``: what these inputs may make wrong or surprising (each run's
detail); ``notes``: what the method always implies (a measure's scale, the
test chosen), always present, empty when there is none.
Records have exactly the table's columns as keys; ``null`` is undefined.
With ``--table ID`` the document holds that table only (and it is primary).
"""

from __future__ import annotations

import json

from ipsoeval._version import __version__
from ipsoeval.formatters.values import json_safe
from ipsoeval.results import Report, ResultSet


def _records(rs: ResultSet) -> list[dict]:
    return [{c: json_safe(rec.get(c)) for c in rs.columns} for rec in rs.records]


def _clean(obj):
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    obj = json_safe(obj)
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def render(report: Report, table_id: str | None = None) -> str:
    tables = [report.table(table_id)] if table_id is not None else list(report.tables)
    primary = report.table(table_id)
    records = {t.id: _records(t) for t in tables}      # the primary's list is shared
    doc = {"ipsoeval": __version__, "command": report.command,
           "params": _clean({**report.params, **primary.params}),
           "primary": primary.id, "results": records[primary.id],
           "tables": {t.id: {"description": t.description, "columns": list(t.columns),
                             "params": _clean(t.params), "records": records[t.id]}
                      for t in tables},
           "warnings": list(report.warnings),
           "notes": [str(n) for n in report.notes]}
    if report.gate is not None:
        doc["gate"] = {"passed": report.gate.passed, "reason": report.gate.reason}
    return json.dumps(doc, indent=1, allow_nan=False) + "\n"
