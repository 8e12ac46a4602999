"""``ipsoeval.evaluate``: per-topic scores of every measure on every run
(:class:`EvalResult`), and ``read_scores`` for scores computed elsewhere."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ipsoeval.api._declared import declared
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import evaluate as pipeline
from ipsoeval.pipeline.common import _is_path, _value, _warn
from ipsoeval.results import ResultSet


@dataclass
class EvalResult:
    """Per-topic scores of every measure on every run, and their means.

    ``matrix(m)`` is the (runs × topics) float array of measure ``m`` (NaN:
    undefined); ``mask`` says which topics each run is evaluated on (all of
    them unless ``queries="intersection"``).
    """

    aligned: Any                       # ipsoeval.model.Aligned
    scores: Any                        # ipsoeval.engine.Scores
    params: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    paths: list[str] | None = None     # the file of each run, when each came from one
    bounds: dict | None = None         # evaluate(bounds=True): {measure: (low, high)}

    @property
    def runs(self) -> list[str]:
        return list(self.aligned.runs)

    @property
    def topics(self) -> list[str]:
        return list(self.aligned.topics)

    @property
    def measures(self) -> list[str]:
        out: list[str] = []
        for m in self.scores.measures:
            if m.family != "runid" and m.name not in out:
                out.append(m.name)
        return out

    @property
    def mask(self) -> np.ndarray:
        return self.scores.mask()

    def _measure(self, name):
        for m in self.scores.measures:
            if m.name == name:
                return m
        from ipsoeval.measures import parse_measure
        want = parse_measure(name).name
        for m in self.scores.measures:
            if m.name == want:
                return m
        raise KeyError(f"{name!r} was not evaluated (measures: {', '.join(self.measures)})")

    def matrix(self, measure: str) -> np.ndarray:
        """(runs, topics) per-topic scores of ``measure`` (a copy; NaN = undefined)."""
        return np.array(self.scores.matrix(self._measure(measure).name), dtype=np.float64)

    def standard_error(self, measure: str) -> np.ndarray | None:
        """(runs, topics) standard errors of a Monte Carlo measure under
        ``labels="probability"`` or ``tie_break="expected"`` (0 for its exact
        topics there); None where every value is exact."""
        se = self.scores.stderr.get(self._measure(measure).name)
        return None if se is None else np.array(se, dtype=np.float64)

    @property
    def matrices(self) -> dict[str, np.ndarray]:
        return {m: self.matrix(m) for m in self.measures}

    def mean(self) -> dict[str, dict[str, Any]]:
        """{run: {measure: value}}: what ``ipsoeval eval`` prints as ``all``."""
        mask = self.mask
        out: dict[str, dict[str, Any]] = {r: {} for r in self.runs}
        for name in self.measures:
            m = self._measure(name)
            if m.agg == "none":
                continue
            agg = m.aggregate(self.scores.matrix(m.name), mask)
            for i, r in enumerate(self.runs):
                out[r][name] = _value(m.kind, agg[i])
        return out

    def matrix_bounds(self, measure: str) -> tuple[np.ndarray, np.ndarray]:
        """(low, high): (runs, topics) arrays of ``measure``'s smallest and largest
        value over the labellings of the unjudged retrieved documents
        (``evaluate(..., bounds=True)``; ipsoeval eval --bounds)."""
        if self.bounds is None:
            raise ValueError("bounds were not computed: evaluate(..., bounds=True)")
        lo, hi = self.bounds[self._measure(measure).name]
        return np.array(lo, dtype=np.float64), np.array(hi, dtype=np.float64)

    def mean_bounds(self) -> dict[str, dict[str, tuple[Any, Any]]]:
        """{run: {measure: (low, high)}}: the ``all`` rows' low and high (each
        aggregated by the measure's rule, as :meth:`mean`)."""
        if self.bounds is None:
            raise ValueError("bounds were not computed: evaluate(..., bounds=True)")
        mask = self.mask
        out: dict[str, dict[str, tuple[Any, Any]]] = {r: {} for r in self.runs}
        for name in self.measures:
            m = self._measure(name)
            if m.agg == "none" or m.name not in self.bounds:
                continue
            lo, hi = (m.aggregate(x, mask) for x in self.bounds[m.name])
            for i, r in enumerate(self.runs):
                out[r][name] = (_value(m.kind, lo[i]), _value(m.kind, hi[i]))
        return out

    def per_query(self) -> dict[str, dict[str, dict[str, Any]]]:
        """{run: {qid: {measure: value}}}: what ``ipsoeval eval -q`` prints per topic."""
        mask = self.mask
        ms = [self._measure(n) for n in self.measures]
        ms = [m for m in ms if m.fam.per_query]
        mats = [(m, self.scores.matrix(m.name).tolist()) for m in ms]
        out: dict[str, dict[str, dict[str, Any]]] = {}
        topics = self.topics
        for i, r in enumerate(self.runs):
            d: dict[str, dict[str, Any]] = {}
            for t in np.flatnonzero(mask[i]).tolist():
                d[topics[t]] = {m.name: _value(m.kind, mat[i][t]) for m, mat in mats}
            out[r] = d
        return out

    def to_table(self, per_query: bool = True) -> ResultSet:
        """The records ``ipsoeval eval`` prints (run, qid, measure, value; ``all`` rows last)."""
        from ipsoeval.analyses.evaluate import eval_results
        rs, _ = eval_results(self.scores, per_query=per_query, runid=False,
                             params=dict(self.params), bounds=self.bounds is not None)
        rs.id = "scores"
        return rs

    def to_frame(self, mean: bool = False):
        """A long pandas DataFrame ``run, qid, measure, value`` (per topic; with
        ``mean=True`` the ``all`` rows too), and ``low, high`` when evaluated
        with ``bounds=True``.  pandas is an optional extra."""
        from ipsoeval.results import _frame
        if self.bounds is not None:
            rs = self.to_table(per_query=True)
            recs = [{c: rec.get(c) for c in rs.columns} for rec in rs.records
                    if mean or rec["qid"] != "all"]
            return _frame(list(rs.columns), recs)
        recs = [{"run": r, "qid": q, "measure": m, "value": v}
                for r, qs in self.per_query().items() for q, ms in qs.items()
                for m, v in ms.items()]
        if mean:
            recs += [{"run": r, "qid": "all", "measure": m, "value": v}
                     for r, ms in self.mean().items() for m, v in ms.items()]
        return _frame(["run", "qid", "measure", "value"], recs)

    def __repr__(self) -> str:
        return (f"EvalResult({len(self.runs)} run(s), {len(self.topics)} topic(s), "
                f"measures {self.measures})")


@declared(pipeline.COMMAND, first=("qrels", "runs", ("measures", None)))
def evaluate(qrels, runs, measures=None, **kw) -> EvalResult:
    """Score ``runs`` against ``qrels`` on ``measures`` (names as ``-m`` takes them;
    None: trec_eval's default set).  ``bounds=True`` also computes each value's
    ``low`` and ``high`` over the labellings of the unjudged retrieved documents
    (``ipsoeval eval --bounds``): :meth:`EvalResult.matrix_bounds`,
    :meth:`EvalResult.mean_bounds`, and ``low``/``high`` columns in
    ``to_table``/``to_frame``.

    ``qrels``: a path, ``{qid: {docno: label}}`` or a DataFrame
    (``query_id, doc_id, relevance`` or ``qid, docno, label``).  ``runs``: a
    path or directory, ``{qid: {docno: score}}``, a DataFrame (``score``, or
    ``rank`` for an MS MARCO run; a ``run`` column holds several runs), a list
    of these or ``{name: run}``.  The keywords are the CLI's alignment options
    (``--queries``, ``-l``, ``-J``, ``--gains``, ``-M``, ``--tie-break``,
    ``--run-format``, ``--name``, ``--name-from-file``); the default topic
    set is the analyses' (docs/conventions.md, "Topic sets"): ``"qrels"``, every
    qrels topic, a missing one an empty ranking (trec_eval ``-c``); ``ipsoeval
    eval``'s own default is trec_eval's ``"intersection"``.  ``labels``
    (``--labels``): ``"integer"`` (trec_eval), ``"gain"`` (real gains >= 0) or
    ``"probability"`` (probabilities of relevance: every measure is its
    expectation, exact or Monte Carlo over ``samples`` labelings drawn with
    ``seed``; ``ipsoeval measures`` says which).  ``tie_break="expected"``:
    every measure is its exact expectation over all orders of the tied
    documents (``ipsoeval measures``, column ties).  ``engine``
    (``--engine``): ``"local"``, ``"ray"`` or ``"ray://HOST:PORT"`` scores
    run files one by one on a Ray cluster (:mod:`ipsoeval.distributed`;
    paths only), same numbers.
    """
    return EvalResult(*pipeline.from_inputs(qrels, runs, measures, **kw))


def _need_aligned(res, what: str) -> None:
    if not isinstance(res, EvalResult):
        raise UsageError(f"{what} needs the rankings: give the EvalResult of "
                         f"ipsoeval.evaluate (per-topic scores alone are not enough)")


def read_scores(paths, *, fmt: str = "auto", queries: str = "qrels", scale=None):
    """Per-topic scores from other tools (trec_eval ``-q``, ir_measures,
    ipsoeval TSV/JSON, long CSV/TSV): a :class:`ipsoeval.reading.scores.TopicScores`
    that :func:`sigtest`, :func:`bootstrap` and :func:`ipso` take."""
    from ipsoeval.reading.scores import read_scores as rd
    ts = rd([paths] if _is_path(paths) else list(paths), fmt=fmt, queries=queries, scale=scale)
    _warn(ts.warnings)           # the format notes stay in ts.notes
    return ts
