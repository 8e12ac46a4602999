"""``eval``: per-topic and aggregate scores as result records (trec_eval semantics)."""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.engine import Scores
from ipsoeval.results import ResultSet

COLUMNS = ["run", "qid", "measure", "value"]
BOUNDS_COLUMNS = ["low", "high"]
DESCRIPTION = "one row per run, topic (qid all: the aggregate) and measure"
BOUNDS_DESCRIPTION = ("; low and high: the smallest and largest value over every labelling "
                      "of the unjudged retrieved documents (--bounds)")


def _value(kind: str, v):
    if kind == "text":                 # relstring: a string per topic
        return str(v)
    v = float(v)
    if kind == "int" and v.is_integer():   # an expected count (--labels probability) is not
        return int(v)
    if math.isnan(v):
        return None
    return float(v)


def measure_bounds(scores: Scores, warnings: list[str] | None = None) -> dict:
    """{measure name: (low, high)} per-topic matrices of every requested
    measure (ipsoeval.measures.bounds); text measures are left out."""
    from ipsoeval.measures.bounds import bounds
    out: dict = {}
    for m in scores.measures:
        if m.name not in out and m.kind != "text":
            out[m.name] = bounds(scores.aligned, m, scores.matrix(m), warnings)
    return out


def eval_results(scores: Scores, *, per_query: bool = False, runid: bool = True,
                 params: dict | None = None, bounds: bool = False
                 ) -> tuple[ResultSet, list[str]]:
    """Records ``run, qid, measure, value`` (and ``label``: trec_eval's name);
    with ``bounds`` also ``low, high`` (:func:`measure_bounds`; the ``all``
    rows aggregate the lows and the highs by the measure's own rule).

    Per run: the per-topic records (with ``per_query``) topic by topic, then
    the ``all`` records.  ``runid`` rows only when ``runid`` (trec layout).
    Returns the result set and warnings (e.g. undefined ESL topics).
    """
    al = scores.aligned
    mask = scores.mask()
    warnings: list[str] = []
    records: list[dict] = []
    reqs = [r for r in scores.requested if runid or r.measure.family != "runid"]
    bnd = measure_bounds(scores, warnings) if bounds else {}
    aggs = {}
    for r in reqs:
        m = r.measure
        if m.family != "runid" and m.agg != "none" and m.name not in aggs:
            aggs[m.name] = m.aggregate(scores.matrix(m), mask)
            if m.agg in ("mean", "mean_defined"):
                aggs[("trec", m.name)] = m.aggregate(scores.matrix(m), mask, trec=True)
            if m.name in bnd:
                lo, hi = bnd[m.name]
                aggs[("low", m.name)] = m.aggregate(lo, mask)
                aggs[("high", m.name)] = m.aggregate(hi, mask)
            if m.agg == "mean_defined":
                vals = scores.matrix(m)
                for i, run in enumerate(al.runs):
                    undefined = int(np.count_nonzero(mask[i] & np.isnan(vals[i])))
                    if undefined:
                        warnings.append(
                            f"{run}: {m.name} undefined for {undefined} of "
                            f"{int(mask[i].sum())} topics (no relevant document); "
                            f"the mean is over the other topics")
    for i, run in enumerate(al.runs):
        if per_query:
            rows = np.flatnonzero(mask[i])
            mats = [(r, scores.matrix(r.measure)) for r in reqs if r.measure.fam.per_query]
            for t in rows:
                qid = al.topics[t]
                for r, mat in mats:
                    rec = {"run": run, "qid": qid, "measure": r.measure.name,
                           "label": r.label, "value": _value(r.measure.kind, mat[i, t])}
                    if r.measure.kind == "text":
                        rec["quoted"] = True
                    if bounds:
                        lo_hi = bnd.get(r.measure.name)
                        rec["low"] = None if lo_hi is None else _value(r.measure.kind,
                                                                       lo_hi[0][i, t])
                        rec["high"] = None if lo_hi is None else _value(r.measure.kind,
                                                                        lo_hi[1][i, t])
                    records.append(rec)
        for r in reqs:
            m = r.measure
            if m.agg == "none":        # per topic only (trec_eval's relstring)
                continue
            if m.family == "runid":
                v = run
            else:
                v = _value(m.kind, aggs[m.name][i])
            rec = {"run": run, "qid": "all", "measure": m.name, "label": r.label, "value": v}
            te = aggs.get(("trec", m.name))
            if te is not None and _value(m.kind, te[i]) != v:
                rec["trec_value"] = _value(m.kind, te[i])   # --format trec's digits
            if bounds:
                lo, hi = aggs.get(("low", m.name)), aggs.get(("high", m.name))
                rec["low"] = None if lo is None else _value(m.kind, lo[i])
                rec["high"] = None if hi is None else _value(m.kind, hi[i])
            records.append(rec)
    # the table layout shows a qid column only when there are per-topic rows
    # (without -q every row's qid is "all")
    index = ["qid", "measure"] if any(r["qid"] != "all" for r in records) else ["measure"]
    hints = {} if bounds else {"pivot": {"index": index, "columns": "run", "values": "value"}}
    rs = ResultSet(command="eval", columns=list(COLUMNS) + (BOUNDS_COLUMNS if bounds else []),
                   records=records, params=params or {}, title="ipsoeval eval",
                   id="scores", description=DESCRIPTION + (BOUNDS_DESCRIPTION if bounds else ""),
                   table_hints=hints)
    return rs, warnings


def without_runid(rs: ResultSet) -> ResultSet:
    """The table without trec_eval's ``runid`` lines (a run's name is its ``run``
    column); the table with them becomes its trec layout (``rs.trec``), which
    ``--format trec`` prints.  The table itself when there are none."""
    import dataclasses

    recs = [r for r in rs.records if r["measure"] != "runid"]
    if len(recs) == len(rs.records):
        return rs
    return dataclasses.replace(rs, records=recs, trec=rs)
