"""``ipsoeval.bootstrap``: the command ``ipsoeval bootstrap``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import bootstrap as pipeline


@declared(pipeline.COMMAND)
def bootstrap(res, **kw):
    """``ipsoeval bootstrap``: leaderboard stability over ``samples`` resamples of
    the topics.  ``subsets``: {name: [qid, ...]} (``--queries-file``)."""
    return pipeline.from_result(res, **kw)
