"""``ipsoeval.meta``: the command ``ipsoeval meta``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import meta as pipeline


@declared(pipeline.COMMAND)
def meta(res, **kw):
    """``ipsoeval meta``: discriminative power, swap rate and rank correlation of
    the measures of ``res`` over its runs.  ``tests`` as ``--test`` takes them
    (default: each measure's test by scale)."""
    return pipeline.from_result(res, **kw)
