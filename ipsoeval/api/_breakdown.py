"""``ipsoeval.breakdown``: the command ``ipsoeval breakdown`` (Lin et al. 2021)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.api._evaluate import _need_aligned
from ipsoeval.pipeline import breakdown as pipeline


@declared(pipeline.COMMAND)
def breakdown(res, **kw):
    """``ipsoeval breakdown``: answered / not answered outcomes of each run
    against the baseline (Lin et al. 2021)."""
    _need_aligned(res, "breakdown")
    return pipeline.from_result(res, **kw)
