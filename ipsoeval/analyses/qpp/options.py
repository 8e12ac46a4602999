"""The options of ``ipsoeval qpp`` and their checks, without numpy: the
command's declaration (:mod:`ipsoeval.pipeline.qpp`) and ``--help`` read them
before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import options

DEFAULT_SAMPLES = 1000


@options
class Options:
    alpha: float = co.alpha("Significance level; the intervals are at 1 - alpha.")
    samples: int = co.samples(DEFAULT_SAMPLES,
                              "Bootstrap resamples of the topics (the intervals of r, rho "
                              "and tau, and the paired comparison of two predictors' tau).")
    seed: int = co.seed()
    per_query: bool = co.per_query("Print each topic's ranks and sARE (table topics) instead "
                                   "of the correlations.")

    def check(self) -> None:
        validate.alpha(self.alpha)
