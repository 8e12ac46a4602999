"""``ipsoeval.power``: the command ``ipsoeval power`` (Sakai 2016)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import power as pipeline


@declared(pipeline.COMMAND)
def power(res, **kw):
    """``ipsoeval power``: topic set size design (Sakai 2016) from the per-topic
    scores of ``res`` (an :class:`EvalResult` or :func:`read_scores`' scores).
    ``delta``: a number or a list (default 0.05); ``designs``: among t, anova,
    ci (default all three)."""
    return pipeline.from_result(res, **kw)
