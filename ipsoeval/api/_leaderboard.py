"""``ipsoeval.leaderboard``: the command ``ipsoeval leaderboard``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import leaderboard as pipeline


@declared(pipeline.COMMAND)
def leaderboard(res, **kw):
    """``ipsoeval leaderboard``: each run's mean, CI and rank interval, every
    pair tested with the randomised Tukey HSD (``samples``, ``seed``) beside
    Tukey HSD from the two-way ANOVA, letter groups and the rank resolution.
    Tables ``leaderboard`` (primary), ``pairs`` and ``resolution``.
    ``progress``: an optional ``cb(done, total)``."""
    return pipeline.from_result(res, **kw)
