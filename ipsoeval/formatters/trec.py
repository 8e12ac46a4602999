"""trec_eval's layout: ``%-22s\t%s\t%6.4f`` (integers plain, text as is).

Applies to result sets with ``measure``, ``qid`` and ``value`` columns (one
block per run, in record order).  A record's optional ``label`` key is the
name printed (trec_eval's spelling); undefined values are left out.  A
record with ``quoted`` true prints its text in single quotes (relstring).
A result set with ``low`` and ``high`` columns (``eval --bounds``) prints
them after each record's line as ``NAME_low`` and ``NAME_high`` lines.

Several runs with per-topic lines (``eval -q``): each run's block starts with
trec_eval's ``runid  all  NAME`` line (the run's own runid line, if asked for,
moves there), so ``awk '$1 == "runid"'`` splits the blocks.  One run prints
exactly trec_eval's lines.
"""

from __future__ import annotations

import math

from ipsoeval.errors import UsageError
from ipsoeval.results import ResultSet


def line(name: str, qid: str, value, quoted: bool = False) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        text = str(int(value))
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, float):
        text = f"{value:6.4f}"
    else:
        text = f"'{value}'" if quoted else str(value)
    return f"{name:<22s}\t{qid}\t{text}\n"


def render(rs: ResultSet) -> str:
    need = {"measure", "qid", "value"}
    if not need <= set(rs.columns):
        raise UsageError(f"--format trec is not available for {rs.command} (use tsv, json or table)")
    out = []
    extra = [c for c in ("low", "high") if c in rs.columns]
    runs = {rec.get("run") for rec in rs.records}
    several = len(runs) > 1 and any(rec["qid"] != "all" for rec in rs.records)
    current = object()
    for rec in rs.records:
        if several:
            if rec.get("run") != current:
                current = rec.get("run")
                out.append(line("runid", "all", current))
            if rec["measure"] == "runid":
                continue
        name = rec.get("label", rec["measure"])
        # an 'all' mean as trec_eval sums it (``trec_value``) where that
        # differs from the one mean in its last bits: trec_eval's digits win here
        text = line(name, rec["qid"], rec.get("trec_value", rec["value"]),
                    rec.get("quoted", False))
        if text is not None:
            out.append(text)
        for c in extra:
            text = line(f"{name}_{c}", rec["qid"], rec.get(c))
            if text is not None:
                out.append(text)
    return "".join(out)
