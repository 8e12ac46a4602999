"""``ipsoeval.qpp``: the command ``ipsoeval qpp`` (query performance
predictors: correlations, sMARE, paired comparisons, ANOVA of sARE)."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import qpp as pipeline


@declared(pipeline.COMMAND, first=("res", "predictors"))
def qpp(res, predictors, **kw):
    """``ipsoeval qpp`` on an :class:`EvalResult` of one run (or its per-topic
    scores from :func:`read_scores`) and ``predictors``: the path of a
    predictor file, a list of paths, or ``{name: {qid: value}}``.  Tables
    ``correlations`` (r, rho, tau-b with p-values and intervals, sMARE),
    ``topics`` (with ``per_query=True``: ranks and sARE), and with two
    predictors or more ``pairs`` (Williams's t, Zou's interval, the paired
    bootstrap of tau), ``anova`` and ``tukey`` (sARE)."""
    return pipeline.from_result(res, predictors, **kw)
