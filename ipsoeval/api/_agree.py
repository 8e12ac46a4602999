"""``ipsoeval.agree``: the command ``ipsoeval agree``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import agree as pipeline


@declared(pipeline.COMMAND, first=pipeline.API_FIRST)
def agree(qrels_a, qrels_b, runs=None, measures=None, **kw):
    """``ipsoeval agree``: how far apart two qrels are.  ``qrels_a``/``qrels_b``
    are paths or in-memory qrels (as :func:`evaluate` takes them); ``runs``
    (optional, two or more, as :func:`evaluate` takes them) with ``measures``
    add the rank correlations and the pairs whose significance changes.
    ``nuggets=True`` (``agree --nuggets``): ``qrels_a`` and ``qrels_b`` are
    the paths of two assigners' nugget assignments of the same answers."""
    return pipeline.from_result(qrels_a, qrels_b, runs, measures, **kw)
