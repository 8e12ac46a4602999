"""``ipsoeval.leaderboard``: the command ``ipsoeval leaderboard``."""

from __future__ import annotations

from ipsoeval.api._common import (
    _common,
    _report,
    _requested,
    _score_set,
    _warn,
)
from ipsoeval.results import Report


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
        notes = list(ts.warnings)     # ts.notes: how the files were read, not warnings
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
