"""The public Python API: the engine and every analysis, without the shell.

::

    import ipsoeval
    res = ipsoeval.evaluate("qrels.txt", ["bm25.run", "neural.run"], ["AP", "nDCG@10"])
    res.mean()           # {run: {measure: value}}
    res.per_query()      # {run: {qid: {measure: value}}}
    res.to_frame()       # pandas DataFrame: run, qid, measure, value
    rep = ipsoeval.sigtest(res, baseline="bm25", tests=["t", "randomization"], correct="holm")
    rep.to_frame()       # the primary table; rep.table("...") / rep.ids for the others

Inputs go through the readers and the alignment the command line uses (same
ties, duplicates, ``-J``/``-M``/``-l``/``-c`` semantics), so the API and the
CLI give identical numbers.  Analyses return a :class:`~ipsoeval.results.Report`.
Per-topic scores from any tool (``ipsoeval.read_scores``) feed ``sigtest``,
``bootstrap``, ``leaderboard`` and ``ipso``'s sign test as well.  Nothing here prints:
input warnings are Python warnings (:class:`InputWarning`) and are kept in
``.warnings``.  See docs/api.md.
"""

from __future__ import annotations

import math
import os
import warnings as _warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet

__all__ = ["evaluate", "EvalResult", "sigtest", "bootstrap", "breakdown", "ipso",
           "interval_map", "InputWarning", "read_scores", "experiment", "ppi", "agree",
           "leaderboard", "power", "meta", "report", "Page", "nuggets", "read_nuggets",
           "across", "risk"]


class InputWarning(UserWarning):
    """Suspicious but valid input (what the CLI prints as ``ipsoeval: warning:``)."""


def _warn(messages) -> None:
    """One InputWarning per kind of warning (:mod:`ipsoeval.warntext`: the runs
    merged, as the CLI prints them; ``.warnings`` keeps each run's), every
    call.  Shown as one line, ``<ipsoeval>:0: InputWarning: TEXT``: no
    source line of the caller is echoed (the location names no file)."""
    from ipsoeval.warntext import merge
    for m in merge(messages):
        _warnings.warn_explicit(str(m), InputWarning, "<ipsoeval>", 0, module="ipsoeval")


# --- inputs -----------------------------------------------------------------------

def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def _run_items(runs) -> list[tuple[Any, str | None]]:
    """[(run input, name or None)] from a path, dict, DataFrame, list or {name: run}."""
    from ipsoeval.reading import is_dataframe, split_runs

    if _is_path(runs) or is_dataframe(runs):
        if is_dataframe(runs):
            parts = split_runs(runs)
            if parts is not None:
                return [(v, k) for k, v in parts.items()]
        return [(runs, None)]
    if isinstance(runs, dict):
        if not runs:
            raise UsageError("no runs given")
        first = next(iter(runs.values()))
        if isinstance(first, dict) and first and not isinstance(next(iter(first.values())), dict):
            return [(runs, None)]          # one run: {qid: {docno: score}}
        return [(v, str(k)) for k, v in runs.items()]
    if isinstance(runs, (list, tuple)):
        return [(r, None) for r in runs]
    raise UsageError(f"runs must be a path, a dict, a DataFrame, a list of these or a "
                     f"{{name: run}} dict (found {type(runs).__name__})")


def load_inputs(qrels, runs, *, queries: str = "qrels", rel_level: int = 1,
                judged_only: bool = False, gains=None, depth: int | None = None,
                tie_break: str = "trec", run_format: str = "auto", names=None,
                name_from_file: bool = False, labels: str = "integer",
                samples: int | None = None, seed: int | None = None,
                subtopics: bool = False):
    """Read (or convert) qrels and runs and align them: an :class:`~ipsoeval.model.Aligned`.
    ``labels``: integer, gain or probability (``--labels``); ``samples``/``seed``:
    the Monte Carlo draws under probability labels (``--samples``, ``--seed``);
    ``subtopics``: the qrels file is diversity qrels (``qid subtopic docno
    judgment``) for the diversity measures (:func:`ipsoeval.engine.load`)."""
    from ipsoeval import engine, reading
    from ipsoeval.align import QrelsIndex, parse_gains
    from ipsoeval.parallel import parallel_map

    if isinstance(gains, str):
        gains = parse_gains(gains)
    elif gains is not None:
        gains = parse_gains(",".join(f"{int(k)}:{float(v)!r}" for k, v in dict(gains).items()))
    if run_format not in ("auto", "trec", "msmarco"):
        raise UsageError(f"run_format must be auto, trec or msmarco (found {run_format!r})")
    items = []
    for obj, nm in _run_items(runs):
        if _is_path(obj):
            for p in reading.expand_run_paths([os.fspath(obj)]):
                items.append((p, nm))
        else:
            items.append((obj, nm))
    if not items:
        raise UsageError("at least one run is needed")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    paths = [os.fspath(x) for x in [qrels] + [o for o, _ in items] if _is_path(x)]
    reading.check_stdin_once(paths)
    table = None
    if subtopics:
        if not _is_path(qrels):
            raise UsageError("diversity measures read their qrels from a file "
                             "(qid subtopic docno judgment)")
        if labels != "integer" or tie_break == "expected":
            raise UsageError("diversity measures take integer judgments and do not combine "
                             "with tie_break='expected'")
        from ipsoeval.align import subtopic_qrels
        q, table = subtopic_qrels(reading.read_subtopic_qrels(os.fspath(qrels)))
    elif _is_path(qrels):
        q = reading.read_qrels(os.fspath(qrels), labels=labels)
    else:
        q = reading.qrels_from(qrels, labels=labels)
    qindex = QrelsIndex(q)

    def one(i):
        obj, nm = items[i]
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and name_from_file:
                nm = reading.file_stem(p)
            return reading.read_for_alignment(p, qindex, run_format=run_format, name=nm,
                                              tie_break=tie_break, judged_only=judged_only,
                                              depth=depth)
        return reading.run_from(obj, nm if nm is not None else f"run{i + 1}")

    run_models = parallel_map(one, range(len(items))) if len(items) > 1 else [one(0)]
    al = engine.align_read(q, run_models, qindex=qindex, queries=queries, rel_level=rel_level,
                           judged_only=judged_only, gains=gains, depth=depth,
                           tie_break=tie_break)   # run_models is ours, not the caller's
    if table is not None:
        from ipsoeval.align import attach_subtopics
        al = attach_subtopics(al, table)
    return engine.monte_carlo_options(al, samples, seed)


# --- evaluation --------------------------------------------------------------------

def _value(kind: str, v):
    v = float(v)
    if math.isnan(v):
        return None
    return int(v) if kind == "int" and v.is_integer() else v   # expected counts: reals


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


def evaluate(qrels, runs, measures=None, *, queries: str = "qrels", rel_level: int = 1,
             judged_only: bool = False, gains=None, depth: int | None = None,
             tie_break: str = "trec", run_format: str = "auto", names=None,
             name_from_file: bool = False, bounds: bool = False, labels: str = "integer",
             samples: int | None = None, seed: int | None = None,
             engine: str = "local") -> EvalResult:
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
    from ipsoeval.distributed import parse_engine
    from ipsoeval.interop import measure_names
    if bounds and tie_break == "expected":
        raise UsageError("bounds=True does not combine with tie_break='expected' (the bounds "
                         "range over labellings of one ranking)")
    if bounds and labels != "integer":
        raise UsageError(f"bounds=True does not combine with labels={labels!r} (the bounds "
                         f"range over integer labels)")
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
        scores = _engine.evaluate(aligned, requested)
    params = {"queries": queries, "rel_level": rel_level, "judged_only": judged_only,
              "gains": None if labels != "integer" else _gains_text(aligned.gain_map),
              "depth": depth, "tie_break": tie_break, "labels": labels}
    from ipsoeval.measures.expected import monte_carlo_notes
    notes = monte_carlo_notes(scores)
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


def _gains_text(gmap) -> str | None:
    if not gmap:
        return None
    return ",".join(f"{k}:{v:g}" for k, v in gmap.items())


# --- analyses ----------------------------------------------------------------------

def _report(report: Report, *, warnings=(), params=None) -> Report:
    """An analysis' Report with the input notes first among its warnings and the
    inputs' params in every table (the analysis' own params win)."""
    report.warnings[:0] = [w for w in warnings if w not in report.warnings]
    for t in report.tables:
        if params:
            t.params.update({k: v for k, v in params.items() if k not in t.params})
    report.params.update(params or {})
    return report


def _common(res: EvalResult, what: str | None = None):
    """The topics an analysis uses (topicset.select); the note when they differ
    from the evaluated ones (the alignment's own warnings were given by evaluate).
    ``what``: an analysis that counts relevant documents by their integer labels."""
    from ipsoeval.analyses.topicset import common_topics
    if what is not None and res.aligned.label_mode != "integer":
        raise UsageError(f"{what} needs integer labels (labels=\"integer\"): its analysis "
                         f"counts relevant documents by their labels")
    aligned, note = common_topics(res.aligned)
    notes = [note] if note else []
    _warn(notes)
    return aligned, notes


def _baseline(res, baseline):
    """baseline= NAME|FILE: a run name, or the path the run was read from."""
    from ipsoeval.analyses import validate
    return validate.baseline(baseline, res.runs, getattr(res, "paths", None))


def _requested(res, measures):
    from ipsoeval import engine
    from ipsoeval.interop import measure_names
    names = res.measures if measures is None else measure_names(measures)
    return engine.requested(names)


def _names(measures):
    """Measure names from names or ir_measures objects (None stays None)."""
    from ipsoeval.interop import measure_names
    return measure_names(measures)


def _score_set(res):
    from ipsoeval.reading.scores import TopicScores
    return res if isinstance(res, TopicScores) else None


def sigtest(res, *, measures=None, baseline: str | None = None, all_pairs: bool = False,
            tests=None, correct: str = "none", alpha: float = 0.05,
            alternative: str = "two-sided", samples: int = 100_000, seed: int = 42,
            scale: str = "original", fail_if: str | None = None,
            gate_test: str | None = None, bounds: bool = False) -> Report:
    """``ipsoeval sigtest`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`).  ``tests`` as ``--test`` takes them (default: each
    measure tested once, with the test its scale permits -- t for interval and
    ratio scales, sign for ordinal ones; the column ``why`` says which);
    ``report.gate`` is the ``--fail-if`` gate;
    ``bounds=True`` is ``--bounds`` (p_bounds, survives_bounds)."""
    from ipsoeval.analyses import sigtest as st

    options = st.make_options(tests, gate_test, baseline=baseline, all_pairs=all_pairs,
                              correct=correct, alpha=alpha, alternative=alternative,
                              samples=samples, seed=seed, scale=scale, fail_if=fail_if,
                              bounds=bounds)
    ts = _score_set(res)
    if ts is not None and bounds:
        raise UsageError("bounds=True needs runs and qrels (per-topic scores have no "
                         "unjudged documents to label)")
    if ts is not None:
        from ipsoeval.analyses.scores import sigtest_scores
        out = sigtest_scores(ts, options, measures=_names(measures))
        notes = list(ts.notes) + list(ts.warnings)
        params = dict(ts.params)
    else:
        if len(res.runs) < 2:
            raise UsageError(f"sigtest needs at least two runs (got {len(res.runs)})")
        requested = _requested(res, measures)
        options.baseline = _baseline(res, baseline)
        aligned, notes = _common(res)
        out = st.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)


def risk(res, *, measures=None, baseline: str | None = None, risk_alphas=(1.0, 5.0),
         alpha: float = 0.05) -> Report:
    """``ipsoeval risk`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`): URisk and TRisk of each run against ``baseline``
    (table ``urisk``), ZRisk and GeoRisk over all runs (table ``zrisk``), for
    each risk aversion of ``risk_alphas`` (``--risk-alpha``)."""
    from ipsoeval.analyses import risk as rk

    options = rk.Options(baseline=baseline, risk_alphas=[float(a) for a in risk_alphas],
                         alpha=alpha)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, _names(measures))
        if baseline is not None:
            from ipsoeval.analyses import validate
            options.baseline = validate.baseline(baseline, list(ts.runs))
        out = rk.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                     lower_better={m for m in names if not ts.higher_is_better[m]})
        notes = list(ts.notes) + list(ts.warnings)
        params = dict(ts.params)
    else:
        from ipsoeval import engine
        requested = _requested(res, measures)
        rk.refuse_lower_better({r.measure.name for r in requested
                                if not r.measure.higher_is_better})
        options.baseline = _baseline(res, baseline)
        aligned, notes = _common(res)
        out = rk.run_scores(engine.evaluate(aligned, requested), options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)


def bootstrap(res, *, measures=None, samples: int = 1000, seed: int = 42, top: int = 5,
              ci: float = 0.95, ci_method: str = "percentile", baseline: str | None = None,
              ranks: bool = False, split_half: int | None = None, tests=None,
              aggregates=None, alpha: float = 0.05, subsets=None) -> Report:
    """``ipsoeval bootstrap``: leaderboard stability over ``samples`` resamples of
    the topics.  ``subsets``: {name: [qid, ...]} (``--queries-file``)."""
    from ipsoeval.analyses import bootstrap as bs

    options = bs.Options(
        samples=samples, seed=seed, top=top, ci=ci, ci_method=ci_method, baseline=baseline,
        ranks=ranks, split_half=split_half or 0,
        tests=bs.parse_tests(tests),
        aggregates=bs.parse_list(aggregates or None, ("mean",)), alpha=alpha,
        subsets=[(str(k), [str(q) for q in v]) for k, v in (subsets or {}).items()])
    if split_half is not None and split_half < 1:
        raise UsageError(f"split_half must be at least 1 (found {split_half})")
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.analyses.scores import bootstrap_scores
        report = bootstrap_scores(ts, options, measures=_names(measures))
        notes = list(ts.notes) + list(ts.warnings)
        params = dict(ts.params)
    else:
        from ipsoeval import engine
        requested = _requested(res, measures)
        for r in requested:
            bs._check_measure(r.measure)
        options.baseline = _baseline(res, baseline)
        aligned, notes = _common(res)
        scores = engine.evaluate(aligned, requested)
        report = bs.run(scores, options)
        params = dict(res.params)
    _warn(report.warnings)
    return _report(report, warnings=notes, params=params)


def leaderboard(res, *, measures=None, samples: int = 10_000, seed: int = 42,
                alpha: float = 0.05, ci: float = 0.95, progress=None) -> Report:
    """``ipsoeval leaderboard``: each run's mean, CI and rank interval, every
    pair tested with the randomised Tukey HSD (``samples``, ``seed``) beside
    Tukey HSD from the two-way ANOVA, letter groups and the rank resolution.
    Tables ``leaderboard`` (primary), ``pairs`` and ``resolution``.
    ``progress``: an optional ``cb(done, total)``."""
    from ipsoeval.analyses import leaderboard as lb

    options = lb.Options(samples=samples, seed=seed, alpha=alpha, ci=ci)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.analyses.scores import leaderboard_scores
        report = leaderboard_scores(ts, options, measures=measures, progress=progress)
        notes = list(ts.notes) + list(ts.warnings)
        params = dict(ts.params)
    else:
        from ipsoeval import engine
        options.check(list(res.runs))
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        report = lb.run(engine.evaluate(aligned, requested), options, progress=progress)
        params = dict(res.params)
    _warn(report.warnings)
    return _report(report, warnings=notes, params=params)


@dataclass
class Page:
    """What :func:`report` returns: the page (``html``), the finished Reports
    it shows (by command: leaderboard, sigtest, breakdown when it ran,
    scales), its charts as SVG strings, and its warnings and notes."""

    html: str
    reports: dict
    figures: dict
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def save(self, path) -> None:
        """Write the page to ``path`` (replaced only once it is written)."""
        from ipsoeval.cli.output import write_output
        write_output(os.fspath(path), self.html)


def report(res, *, measures=None, baseline: str | None = None, pairs=None, tests=None,
           samples: int = 10_000, seed: int = 42, alpha: float = 0.05, ci: float = 0.95,
           correct: str = "none", k: int = 100, title: str = "ipsoeval report",
           charts: bool = True, progress=None) -> Page:
    """``ipsoeval report``: one self-contained HTML page (leaderboard with CIs
    and letters, significance heat map, per-topic differences of ``pairs``
    -- [(A, B), ...] or ["A:B", ...]; default the baseline and the best other
    run -- with sigtest's ``tests``, the outcomes breakdown of the best run
    against the baseline at cutoff ``k``, and the scale notes).  ``charts``:
    draw the matplotlib charts (the ``plot`` extra; without it the page has
    no charts and a warning says so)."""
    from ipsoeval import engine
    from ipsoeval.analyses import report as rp
    from ipsoeval.formatters import html

    _need_aligned(res, "report")
    parsed = [rp.parse_pair(p) if isinstance(p, str) else (str(p[0]), str(p[1]))
              for p in (pairs or [])]
    options = rp.Options(samples=samples, seed=seed, alpha=alpha, ci=ci, correct=correct,
                         pairs=parsed, tests=[tests] if isinstance(tests, str) else tests,
                         k=k, title=title)
    options.check()
    if options.tests:
        from ipsoeval.stats import registry
        options.tests = registry.parse(options.tests, allowed=registry.TWO_SAMPLE,
                                       command="report")
    requested = _requested(res, measures)
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res)
    options.check(list(aligned.runs))
    comp = rp.compose(aligned, engine.evaluate(aligned, requested), options, progress=progress)
    for rep in comp.reports.values():
        for t in rep.tables:
            t.params.update({k_: v for k_, v in res.params.items() if k_ not in t.params})
    figures = rp.figures(comp) if charts and rp.charts_available() else {}
    warnings = list(notes) + [w for w in comp.warnings if w not in notes]
    if charts and not figures:
        warnings.append(rp.CHARTS_MISSING)
    _warn(warnings)
    page = html.render(comp.reports, figures, title=title, meta=comp.meta(),
                       notes=comp.notes, warnings=warnings)
    return Page(html=page, reports=comp.reports, figures=figures, warnings=warnings,
                notes=list(comp.notes))


def breakdown(res, *, k: int = 100, baseline: str | None = None, naive: bool = False,
              correct: str = "none", alpha: float = 0.05, alternative: str = "two-sided",
              verdict_test: str = "esl-t", per_query: bool = False) -> Report:
    """``ipsoeval breakdown``: answered / not answered outcomes of each run
    against the baseline (Lin et al. 2021)."""
    from ipsoeval.analyses import breakdown as bd

    _need_aligned(res, "breakdown")
    if len(res.runs) < 2:
        raise UsageError(f"breakdown needs at least two runs (got {len(res.runs)})")
    options = bd.Options(k=k, baseline=baseline, naive=naive, correct=correct, alpha=alpha,
                         alternative=alternative, verdict_test=verdict_test,
                         per_query=per_query)
    options.check()
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res, "breakdown")
    out = bd.run(aligned, options)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=dict(res.params))


def ipso(res, *, k: int | None = None, depths=None, measures=None, tests=None,
         correct: str = "none", alpha: float = 0.05, alternative: str = "two-sided",
         samples: int = 100_000, seed: int = 42, graded: str | None = None,
         baseline: str | None = None, all_pairs: bool = False,
         per_query: bool = False) -> Report:
    """``ipsoeval ipso``: IPSO relations between rankings and the sign test of
    non-superior against non-inferior topics (Moffat & Mackenzie 2024).  On
    per-topic scores from :func:`read_scores`, the sign test over topics on
    each measure (what applies without the rankings)."""
    from ipsoeval.analyses import ipso as ip

    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.analyses.scores import ipso_scores
        rep, notes = ipso_scores(ts, alpha=alpha, measures=_names(measures),
                                 all_pairs=all_pairs,
                                 correct=correct, baseline=baseline)
        return _report(rep, warnings=notes, params=dict(ts.params))
    if len(res.runs) < 2:
        raise UsageError(f"ipso needs at least two runs (got {len(res.runs)})")
    cutoff = k if k is not None else 10
    depth_list = None
    if depths is not None:
        depth_list = ip.parse_depths(depths if isinstance(depths, str)
                                     else ",".join(map(str, depths)), cutoff)
        if k is None:
            cutoff = max(depth_list)
    names: list[str] = []
    if measures:
        for r in _requested(res, measures):
            if r.measure.name not in names:
                names.append(r.measure.name)
    from ipsoeval.stats import registry
    test_list = registry.parse(tests, allowed=ip.TESTS, command="ipso")
    if test_list and not names:
        raise UsageError("tests apply to a measure: give measures too")
    options = ip.Options(k=cutoff, depths=depth_list, graded=graded or "prefix",
                         measures=names, tests=test_list or ["t"], alpha=alpha,
                         alternative=alternative, correct=correct, baseline=baseline,
                         all_pairs=all_pairs,
                         per_query=per_query, samples=samples, seed=seed)
    options.check()
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res, "ipso")
    report = ip.run(aligned, options, gains_given=res.params.get("gains") is not None,
                    rel_level_given=res.params.get("rel_level", 1) != 1,
                    graded_given=graded is not None)
    return _report(report, warnings=notes, params=dict(res.params))


def interval_map(res, measures=None, *, N: int | None = None, ties: str = "unq",
                 normalise: bool = False, universe: str = "all", per_query: bool = False,
                 values: bool = False, analyze: bool = False, tests=None, alpha: float = 0.05,
                 max_memory: str | int = "2G", use_cache: bool = True) -> Report:
    """``ipsoeval interval-map``: the measures' scores mapped to an interval scale
    (Ferrante, Ferro & Fuhr 2021); means before and after, ``analyze`` for the
    paper's comparisons.  On per-topic scores (:func:`read_scores`): P@k, RR@k
    and Success@k, whose map is a function of the value alone."""
    from ipsoeval.analyses import interval_map as im

    mem = im.iv.parse_size(max_memory) if isinstance(max_memory, str) else int(max_memory)
    from ipsoeval.stats import registry
    options = im.Options(N=N, ties=ties, normalise=normalise, universe=universe,
                         per_query=per_query, values=values, analyze=analyze, alpha=alpha,
                         tests=tuple(registry.parse(tests, allowed=im.TESTS,
                                                    command="interval-map --analyze"))
                         or im.TESTS,
                         use_cache=use_cache, max_memory=mem)
    options.check()
    ts = _score_set(res)
    if ts is not None:          # P@k, RR@k, Success@k: the map is a function of the value
        from ipsoeval.analyses.scores import interval_map_scores
        report = interval_map_scores(ts, _names(measures), options)
        _warn(report.warnings)
        return _report(report, warnings=list(ts.notes), params=dict(ts.params))
    names = res.measures if measures is None else _names(measures)
    plain = [im.at_cutoff(m, N, default_N=30) for m in names]
    aligned, notes = _common(res, "interval-map")
    report = im.run(aligned, plain, options)
    _warn(report.warnings)
    return _report(report, warnings=notes, params=dict(res.params))


def ppi(human, auto, *, measures=None, method: str = "ppi++", baseline: str | None = None,
        all_pairs: bool = False, correct: str = "none", alpha: float = 0.05,
        nuggets: bool = False, nuggets_format: str = "auto") -> Report:
    """``ipsoeval ppi``: prediction-powered estimates of each run's mean over
    topics from ``human`` and ``auto``, two :class:`EvalResult` of the same
    runs, one under the human qrels and one under the machine-labelled qrels
    (every human topic among the auto ones).  ``method``: ``"ppi++"``
    (power-tuned, default) or ``"ppi"`` (classical).  ``nuggets=True``
    (``ppi --nuggets``): ``human`` and ``auto`` are the paths of the human and
    the automatic nugget assignments of the same answers; the estimates are
    of each run's mean nugget score."""
    from ipsoeval import engine
    from ipsoeval.analyses import ppi as pp

    options = pp.Options(method=method, baseline=baseline, all_pairs=all_pairs,
                         correct=correct, alpha=alpha)
    options.check()
    if nuggets:
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.analyses import validate
        from ipsoeval.reading.nuggets import failed_warnings
        from ipsoeval.reading.nuggets import read_nuggets as rd
        hj = rd([os.fspath(human)], nuggets_format)
        aj = rd([os.fspath(auto)], nuggets_format)
        inputs = ng.ppi_inputs(hj, aj, [m.name for m in ng.select(_names(measures))])
        options.baseline = validate.baseline(baseline, aj.runs) if baseline else None
        out = pp.analyse(list(aj.runs), list(hj.topics), list(aj.topics), inputs, options,
                         human_name=os.fspath(human), auto_name=os.fspath(auto))
        _warn(out.warnings)
        return _report(out, warnings=failed_warnings(hj) + failed_warnings(aj))
    _need_aligned(human, "ppi")
    _need_aligned(auto, "ppi")
    if list(human.runs) != list(auto.runs):
        raise UsageError(f"ppi needs the same runs under both qrels (human: "
                         f"{', '.join(human.runs)}; auto: {', '.join(auto.runs)})")
    requested = pp.select_measures(_requested(human, measures))
    options.baseline = _baseline(human, baseline)
    h_al, h_notes = _common(human)
    a_al, a_notes = _common(auto)
    out = pp.run(engine.evaluate(h_al, requested), engine.evaluate(a_al, requested), options)
    _warn(out.warnings)
    return _report(out, warnings=h_notes + a_notes, params=dict(auto.params))
def power(res, *, measures=None, delta=None, power: float = 0.8, alpha: float = 0.05,
          half_width: float | None = None, systems: int | None = None,
          designs=None) -> Report:
    """``ipsoeval power``: topic set size design (Sakai 2016) from the per-topic
    scores of ``res`` (an :class:`EvalResult` or :func:`read_scores`' scores).
    ``delta``: a number or a list (default 0.05); ``designs``: among t, anova,
    ci (default all three)."""
    from ipsoeval.analyses import power as pa

    options = pa.Options(deltas=pa.parse_deltas(delta) or (pa.DEFAULT_DELTA,), alpha=alpha,
                         power=power, half_width=half_width, systems=systems,
                         designs=pa.parse_designs(designs) or pa.DESIGNS)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, measures)
        out = pa.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options)
        notes, params = list(ts.notes) + list(ts.warnings), dict(ts.params)
    else:
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        out = pa.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)


def meta(res, *, measures=None, tests=None, alpha: float = 0.05, correct: str = "none",
         samples: int = 10_000, seed: int = 42, splits: int = 1000, bin_width: float = 0.01,
         swap_limit: float = 0.05, set_size: int | None = None) -> Report:
    """``ipsoeval meta``: discriminative power, swap rate and rank correlation of
    the measures of ``res`` over its runs.  ``tests`` as ``--test`` takes them
    (default t, randomization)."""
    from ipsoeval.analyses import meta as me

    options = me.Options(tests=me.parse_tests(tests) or me.DEFAULT_TESTS, alpha=alpha,
                         correct=correct, samples=samples, seed=seed, splits=splits,
                         bin_width=bin_width, swap_limit=swap_limit, set_size=set_size)
    options.check()
    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.reading.scores import select
        names = select(ts, measures)
        out = me.run(list(ts.runs), {m: ts.matrices[m] for m in names}, options,
                     higher_is_better={m: ts.higher_is_better[m] for m in names},
                     scales={m: ts.scales[m] for m in names})
        notes, params = list(ts.notes) + list(ts.warnings), dict(ts.params)
    else:
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        out = me.run_aligned(aligned, requested, options)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)


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


def read_nuggets(paths, *, fmt: str = "auto", measures=None):
    """Nugget assignment files of generated answers (nuggetizer's JSONL or the
    long TSV) as the per-topic nugget scores, a
    :class:`ipsoeval.reading.scores.TopicScores` that :func:`sigtest`,
    :func:`bootstrap`, :func:`leaderboard`, :func:`power`, :func:`meta` and
    :func:`ipso` take (what ``--nuggets`` does on the command line)."""
    from ipsoeval.analyses.nuggets import topic_scores
    from ipsoeval.reading.nuggets import read_nuggets as rd
    ts = topic_scores(rd([os.fspath(paths)] if _is_path(paths) else
                         [os.fspath(p) for p in paths], fmt), _names(measures))
    _warn(ts.warnings)           # the scale notes stay in ts.notes
    return ts


def nuggets(paths, *, measures=None, per_query: bool = False, fmt: str = "auto") -> Report:
    """``ipsoeval nuggets``: the nugget scores (nugget_vital_strict,
    nugget_all_strict, nugget_vital, nugget_all) of each run, the means over
    topics (with ``per_query`` each topic's too), table ``scores``."""
    from ipsoeval.analyses.nuggets import scores_report
    from ipsoeval.reading.nuggets import read_nuggets as rd
    out = scores_report(rd([os.fspath(paths)] if _is_path(paths) else
                           [os.fspath(p) for p in paths], fmt), _names(measures),
                        per_query=per_query)
    _warn(out.warnings)
    return out


def experiment(runs, qrels, measures, **kw):
    """``pyterrier.Experiment`` on result frames, by ipsoeval, plus permissibility,
    the sign test and the outcomes breakdown: see :func:`ipsoeval.interop.experiment`."""
    from ipsoeval.interop import experiment as _experiment
    return _experiment(runs, qrels, measures, **kw)
def agree(qrels_a, qrels_b, runs=None, measures=None, *, test: str = "t",
          correct: str = "none", alpha: float = 0.05, samples: int = 100_000, seed: int = 42,
          rbo_p: float = 0.9, queries: str = "qrels", rel_level: int = 1,
          judged_only: bool = False, gains=None, depth: int | None = None,
          tie_break: str = "trec", run_format: str = "auto", names=None,
          name_from_file: bool = False, nuggets: bool = False,
          nuggets_format: str = "auto") -> Report:
    """``ipsoeval agree``: how far apart two qrels are.  ``qrels_a``/``qrels_b``
    are paths or in-memory qrels (as :func:`evaluate` takes them); ``runs``
    (optional, two or more, as :func:`evaluate` takes them) with ``measures``
    add the rank correlations and the pairs whose significance changes.
    ``nuggets=True`` (``agree --nuggets``): ``qrels_a`` and ``qrels_b`` are
    the paths of two assigners' nugget assignments of the same answers."""
    from ipsoeval import engine, reading
    from ipsoeval.analyses import agree as ag

    options = ag.make_options(test, correct=correct, alpha=alpha, samples=samples, seed=seed,
                              rbo_p=rbo_p)
    if nuggets:             # agree --nuggets: two assigners' nugget assignments
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.reading.nuggets import read_nuggets as rd
        if runs is not None:
            raise UsageError("agree(nuggets=True): the answers are those of the assignment "
                             "files; give no runs")
        names_ = _names(measures)
        report = ng.agree_report(rd([os.fspath(qrels_a)], nuggets_format),
                                 rd([os.fspath(qrels_b)], nuggets_format),
                                 [m.name for m in ng.select(names_)], options)
        _warn(report.warnings)
        return report
    if measures is not None:
        measures = [measures] if isinstance(measures, str) else list(measures)
    items = []
    if runs is not None:
        for obj, nm in _run_items(runs):
            if _is_path(obj):
                items.extend((p, nm) for p in reading.expand_run_paths([os.fspath(obj)]))
            else:
                items.append((obj, nm))
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    options.check([nm or "" for _, nm in items] if items else None)
    requested = engine.requested(measures) if items and measures else measures
    reading.check_stdin_once([os.fspath(x) for x in [qrels_a, qrels_b] + [o for o, _ in items]
                              if _is_path(x)])
    qs = [reading.read_qrels(os.fspath(q)) if _is_path(q) else reading.qrels_from(q)
          for q in (qrels_a, qrels_b)]
    models = []
    for i, (obj, nm) in enumerate(items):
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and name_from_file:
                nm = reading.file_stem(p)
            models.append(reading.read_run(p, run_format=run_format, name=nm))
        else:
            models.append(reading.run_from(obj, nm if nm is not None else f"run{i + 1}"))
    if isinstance(gains, dict):
        gains = ",".join(f"{int(k)}:{float(v)!r}" for k, v in gains.items())
    align = {"queries": queries, "rel_level": rel_level, "judged_only": judged_only,
             "gains": gains, "depth": depth, "tie_break": tie_break}
    report = ag.run(qs[0], qs[1], models, requested, options, align=align)
    _warn(report.warnings)
    return report


def across(collections, measures=None, *, baseline: str | None = None, effect: str = "md",
           method: str = "reml", alpha: float = 0.05, samples: int = 1000, seed: int = 42,
           correct: str = "holm", queries: str = "qrels", engine: str = "local",
           progress=None) -> Report:
    """``ipsoeval across``: runs compared over several test collections.
    ``collections``: a manifest path (``collection qrels run`` lines), or a
    dict ``{name: (qrels, runs)}`` (anything :func:`evaluate` takes) or
    ``{name: EvalResult}``.  Tables ``pooled`` (primary), ``effects``,
    ``leaderboard``, ``notes``, ``collection_means``, ``mixed``,
    ``mixed_model`` and ``contrasts``."""
    from ipsoeval.analyses import across as ac
    from ipsoeval.analyses.across import inputs

    options = ac.Options(baseline=baseline, effect=effect, method=method, alpha=alpha,
                         samples=samples, seed=seed, correct=correct)
    options.check()
    names = _names(measures)
    if _is_path(collections):
        from ipsoeval.reading.manifest import read_manifest
        scored, names, notes = inputs.score(read_manifest(os.fspath(collections)), names,
                                            align=inputs.alignment(queries=queries),
                                            engine=engine)
    elif isinstance(collections, dict):
        scored, notes = [], []
        for cname, value in collections.items():
            res = value if isinstance(value, EvalResult) else \
                evaluate(value[0], value[1], names, queries=queries)
            if names is None:
                names = res.measures
            aligned, extra = _common(res)
            notes += [f"{cname}: {w}" for w in extra]
            sc = res.scores if aligned is res.aligned else None
            mats = {}
            for m in names:
                M = res.matrix(m)
                if sc is None:
                    pos = {t: i for i, t in enumerate(res.topics)}
                    M = M[:, [pos[t] for t in aligned.topics]]
                mats[res._measure(m).name] = M
            names = list(mats)
            hib = {m: bool(getattr(res._measure(m), "higher_is_better", True)) for m in mats}
            scored.append(ac.CollectionScores(str(cname), list(res.runs),
                                              list(aligned.topics), mats, hib))
    else:
        raise UsageError("across(collections=...): give a manifest path, {name: (qrels, "
                         "runs)} or {name: EvalResult}")
    _warn(notes)
    out = ac.analyse(scored, list(names or []), options, progress=progress)
    _warn(out.warnings)
    return _report(out, warnings=notes)

