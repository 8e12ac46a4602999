"""``ipsoeval.across``: the command ``ipsoeval across`` (pooled effects across
test collections, mixed models)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import across as pipeline


@declared(pipeline.COMMAND, first=("collections", ("measures", None)))
def across(collections, measures=None, **kw):
    """``ipsoeval across``: runs compared over several test collections.
    ``collections``: a manifest path (``collection qrels run`` lines), or a
    dict ``{name: (qrels, runs)}`` (anything :func:`evaluate` takes) or
    ``{name: EvalResult}``.  Tables ``pooled`` (primary), ``effects``,
    ``leaderboard``, ``notes``, ``collection_means``, ``mixed``,
    ``mixed_model`` and ``contrasts``."""
    from ipsoeval.api._evaluate import evaluate
    return pipeline.from_result(collections, measures, evaluate=evaluate, **kw)
