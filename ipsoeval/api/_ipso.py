"""``ipsoeval.ipso``: the command ``ipsoeval ipso`` (Moffat & Mackenzie 2024)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import ipso as pipeline


@declared(pipeline.COMMAND)
def ipso(res, **kw):
    """``ipsoeval ipso``: IPSO relations between rankings and the sign test of
    non-superior against non-inferior topics (Moffat & Mackenzie 2024).  On
    per-topic scores from :func:`read_scores`, the sign test over topics on
    each measure (what applies without the rankings)."""
    return pipeline.from_result(res, **kw)
