"""``ipsoeval.risk``: the command ``ipsoeval risk`` (URisk, TRisk, ZRisk and
GeoRisk; Dinçer, Macdonald & Ounis 2014, 2016)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import risk as pipeline


@declared(pipeline.COMMAND)
def risk(res, **kw):
    """``ipsoeval risk`` on an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`): URisk and TRisk of each run against ``baseline``
    (table ``urisk``), ZRisk and GeoRisk over all runs (table ``zrisk``), for
    each risk aversion of ``risk_alphas`` (``--risk-alpha``)."""
    return pipeline.from_result(res, **kw)
