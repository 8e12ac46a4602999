"""``ipsoeval.interval_map``: the command ``ipsoeval interval-map``
(Ferrante, Ferro & Fuhr 2021)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import interval_map as pipeline


@declared(pipeline.COMMAND, first=("res", ("measures", None)))
def interval_map(res, measures=None, **kw):
    """``ipsoeval interval-map``: the measures' scores mapped to an interval scale
    (Ferrante, Ferro & Fuhr 2021); means before and after, ``analyze`` for the
    paper's comparisons.  On per-topic scores (:func:`read_scores`): P@k, RR@k
    and Success@k, whose map is a function of the value alone."""
    return pipeline.from_result(res, measures, **kw)
