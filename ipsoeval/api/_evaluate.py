"""``ipsoeval.evaluate``: per-topic scores of every measure on every run
(:class:`EvalResult`), and ``read_scores`` for scores computed elsewhere."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ipsoeval.api._declared import declared
from ipsoeval.api._common import (
    _gains_text,
    _is_path,
    _run_items,
    _value,
    _warn,
    load_inputs,
)
from ipsoeval.errors import UsageError
from ipsoeval.interop import measure_names
from ipsoeval.pipeline import evaluate as pipeline
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


def _sweep(qrels, runs, requested, engine: str, *, names, name_from_file, gains, **opts):
    """:func:`evaluate`'s scores through :func:`ipsoeval.distributed.score_runs`
    (qrels and runs given as paths)."""
    from ipsoeval import reading
    from ipsoeval.distributed import SweepOptions, score_runs

    paths, given = [], []
    for obj, nm in _run_items(runs):
        if not _is_path(obj):
            raise UsageError(f"engine={engine!r} reads run files on its workers: give runs "
                             f"as paths")
        for p in reading.expand_run_paths([os.fspath(obj)]):
            paths.append(p)
            given.append(nm)
    if not _is_path(qrels):
        raise UsageError(f"engine={engine!r}: give the qrels as a path")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(paths):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(paths)}")
    elif name_from_file:
        names = [nm if nm is not None else reading.file_stem(p) for p, nm in zip(paths, given)]
    elif any(nm is not None for nm in given):
        names = given
    if gains is not None and not isinstance(gains, str):
        gains = ",".join(f"{int(k)}:{float(v)!r}" for k, v in dict(gains).items())
    scores, _ = score_runs(os.fspath(qrels), paths, requested, engine=engine,
                           options=SweepOptions(gains=gains, **opts), run_names=names)
    return scores


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
    from ipsoeval import engine as _engine
    from ipsoeval.analyses.evaluate.options import check_bounds
    from ipsoeval.distributed import parse_engine
    queries, rel_level, judged_only = kw["queries"], kw["rel_level"], kw["judged_only"]
    gains, depth, tie_break, run_format = kw["gains"], kw["depth"], kw["tie_break"], \
        kw["run_format"]
    names, name_from_file, bounds, labels = kw["names"], kw["name_from_file"], kw["bounds"], \
        kw["labels"]
    samples, seed, engine = kw["samples"], kw["seed"], kw["engine"]
    check_bounds(bounds, labels=labels, tie_break=tie_break)
    measures = measure_names(measures)          # ir_measures objects as their names
    requested = _engine.requested(measures or None)
    subtopics = any(r.measure.fam.subtopics for r in requested)
    if parse_engine(engine)[0] != "local":     # issue 21: a sweep over run files
        if subtopics:
            raise UsageError(f"diversity measures do not combine with engine={engine!r}")
        if bounds:
            raise UsageError(f"bounds=True does not combine with engine={engine!r} (it needs "
                             f"the rankings here)")
        scores = _sweep(qrels, runs, requested, engine, queries=queries, rel_level=rel_level,
                        judged_only=judged_only, gains=gains, depth=depth,
                        tie_break=tie_break, run_format=run_format, names=names,
                        name_from_file=name_from_file, labels=labels)
        aligned = scores.aligned
    else:
        aligned = load_inputs(qrels, runs, queries=queries, rel_level=rel_level,
                              judged_only=judged_only, gains=gains, depth=depth,
                              tie_break=tie_break, run_format=run_format, names=names,
                              name_from_file=name_from_file, labels=labels, samples=samples,
                              seed=seed, subtopics=subtopics)
        if subtopics:
            from ipsoeval.measures.names import diversity_collapse_warning
            w = diversity_collapse_warning(measures or [])
            if w and w not in aligned.warnings:
                aligned.warnings.append(w)
        scores = _engine.evaluate(aligned, requested)
    params = {"queries": queries, "rel_level": rel_level, "judged_only": judged_only,
              "gains": None if labels != "integer" else _gains_text(aligned.gain_map),
              "depth": depth, "tie_break": tie_break, "labels": labels}
    notes = _engine.score_warnings(scores)       # Monte Carlo means, ties the order moves
    bnd = None
    if bounds:
        from ipsoeval.analyses.evaluate import measure_bounds
        params["bounds"] = True
        bnd = measure_bounds(scores, aligned.warnings)
    _warn(list(aligned.warnings) + notes)
    given = [runs] if _is_path(runs) else runs
    paths = None
    if isinstance(given, (list, tuple)) and all(_is_path(r) for r in given) \
            and len(given) == len(aligned.runs):
        paths = [os.fspath(r) for r in given]
    return EvalResult(aligned, scores, params, list(aligned.warnings) + notes, paths, bnd)


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
