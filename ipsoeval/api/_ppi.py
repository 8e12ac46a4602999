"""``ipsoeval.ppi``: the command ``ipsoeval ppi``."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import ppi as pipeline


@declared(pipeline.COMMAND, first=("human", "auto"))
def ppi(human, auto, **kw):
    """``ipsoeval ppi``: prediction-powered estimates of each run's mean over
    topics from ``human`` and ``auto``, two :class:`EvalResult` of the same
    runs, one under the human qrels and one under the machine-labelled qrels
    (every human topic among the auto ones).  ``method``: ``"ppi++"``
    (power-tuned, default) or ``"ppi"`` (classical).  ``nuggets=True``
    (``ppi --nuggets``): ``human`` and ``auto`` are the paths of the human and
    the automatic nugget assignments of the same answers; the estimates are
    of each run's mean nugget score."""
    return pipeline.from_result(human, auto, **kw)
