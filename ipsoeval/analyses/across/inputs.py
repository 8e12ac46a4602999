"""A manifest's collections (:mod:`ipsoeval.reading.manifest`) scored into the
per-topic matrices of :class:`~ipsoeval.analyses.across.report.CollectionScores`.

Each collection is read and scored on its own, exactly as ``ipsoeval
sigtest QRELS RUN...`` would (the same readers, alignment and topic set,
``--queries qrels`` by default: a topic a run lacks is an empty ranking);
with ``engine`` ``ray`` each collection's runs are scored by a sweep
(:mod:`ipsoeval.distributed`), same numbers.  A collection given as score
files (qrels ``-``) is read by :func:`ipsoeval.reading.scores.read_scores`.
Warnings are returned, each prefixed with its collection.
"""

from __future__ import annotations

from ipsoeval.analyses.across.report import CollectionScores
from ipsoeval.errors import IpsoevalError, UsageError


def alignment(**options):
    """The alignment options (:class:`ipsoeval.distributed.SweepOptions`, the
    keywords of ``ipsoeval.engine.load``) with across's topic set by default:
    ``queries="qrels"``, as every command that compares runs."""
    from ipsoeval.distributed import SweepOptions
    return SweepOptions(**{"queries": "qrels", **options})


def _prefix(exc: IpsoevalError, name: str) -> IpsoevalError:
    if exc.path is None:
        exc.message = f"collection {name}: {exc.message}"
        exc.args = (exc.format(),)
    return exc


def score(collections, measures, *, align=None, engine: str = "local",
          scores_format: str = "auto", progress=None):
    """``(list of CollectionScores, measure names, warnings)`` of manifest
    collections on ``measures`` (names as ``-m`` takes them)."""
    from ipsoeval import engine as _engine
    from ipsoeval.analyses.topicset import select

    a = align or alignment()
    if not measures:
        raise UsageError("across needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    requested = _engine.requested(measures)
    names: list[str] = []
    for r in requested:
        if r.measure.name not in names and r.measure.family != "runid":
            names.append(r.measure.name)
    hib = {r.measure.name: getattr(r.measure, "higher_is_better", True) for r in requested}
    out: list[CollectionScores] = []
    warnings: list[str] = []
    for i, c in enumerate(collections):
        try:
            if c.scores:
                from ipsoeval.reading.scores import read_scores
                from ipsoeval.reading.scores import select as pick
                ts = read_scores(c.runs, fmt=scores_format, queries=a.queries)
                got = pick(ts, names)
                mats = {n: ts.matrices[g] for n, g in zip(names, got)}
                h = {n: ts.higher_is_better.get(g, True) for n, g in zip(names, got)}
                out.append(CollectionScores(c.name, list(ts.runs), list(ts.topics), mats, h))
                warnings += [f"{c.name}: {w}" for w in ts.warnings]
            else:
                if engine != "local":
                    from ipsoeval.distributed import restrict, score_runs
                    sc, _ = score_runs(c.qrels, c.runs, requested, engine=engine, options=a)
                    al, w = select(sc.aligned, paired=True)
                    sc = restrict(sc, al)
                else:
                    al = _engine.load(c.qrels, c.runs, queries=a.queries,
                                      rel_level=a.rel_level, judged_only=a.judged_only,
                                      gains=a.gains, depth=a.depth, tie_break=a.tie_break,
                                      run_format=a.run_format, labels=a.labels)
                    al, w = select(al, paired=True)
                    sc = _engine.evaluate(al, requested)
                w = list(w) + _engine.score_warnings(sc)
                warnings += [f"{c.name}: {x}" for x in w]
                mats = {n: sc.matrix(n) for n in names}
                out.append(CollectionScores(c.name, list(sc.runs), list(sc.topics), mats,
                                            dict(hib)))
        except IpsoevalError as exc:
            raise _prefix(exc, c.name) from None
        if progress is not None:
            progress(i + 1, len(collections))
    return out, names, warnings
