"""``ipsoeval.bootstrap``: the command ``ipsoeval bootstrap``."""

from __future__ import annotations

from ipsoeval.api._common import (
    _baseline,
    _common,
    _names,
    _report,
    _requested,
    _score_set,
    _warn,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


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
        notes = list(ts.warnings)     # ts.notes: how the files were read, not warnings
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
