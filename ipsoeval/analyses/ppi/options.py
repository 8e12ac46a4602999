"""The options of ``ipsoeval ppi``, declared once (:mod:`ipsoeval.declare`),
and their checks: no numpy here, so that ``ipsoeval ppi --help`` stays
instant."""

from __future__ import annotations

from typing import Sequence

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.ppi import METHODS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError


@options
class Judgments:
    """The two sets of labels: on the command line options, in the API the
    function's two positional parameters."""

    human: str | None = option(
        "--human", metavar="HUMAN_QRELS", required=True, api=False,
        help="Qrels judged by people: the topics they cover are the labelled sample (assumed "
             "a random subset of the topics).  With --nuggets: the human nugget assignments.")
    auto: str | None = option(
        "--auto", metavar="AUTO_QRELS", required=True, api=False,
        help="Qrels from machine labels (e.g. an LLM), covering every human topic; their "
             "topics are the topics the mean is over.  With --nuggets: the automatic nugget "
             "assignments of the same runs' answers.")


@options
class Nuggets:
    nuggets: bool = option(
        "--nuggets", kind="flag",
        help="HUMAN and AUTO are nugget assignment files of generated answers (see `ipsoeval "
             "nuggets`; no RUN arguments): the estimates are of each run's mean nugget score.")


@options
class Options:
    method: str = option(
        "--method", kind="choice", choices=METHODS, default="ppi++", show_default=True,
        help="ppi++: the power-tuned estimate (lambda estimated; asymptotically never worse "
             "than the human topics alone); ppi: the classical prediction-powered one "
             "(lambda = 1).")
    baseline: str | None = co.baseline("Compare every other run against this run (paired differences).")
    all_pairs: bool = co.all_pairs()
    correct: str = co.correct("Multiple-comparison correction of the differences' p-values (family: "
                                "the pairs x measures of each method).")
    alpha: float = co.alpha("The intervals have level 1 - alpha; a difference is significant when its "
                            "(corrected) p-value is below alpha.")

    def check(self, runs: Sequence[str] | None = None) -> None:
        if self.method not in METHODS:
            raise UsageError(f"--method must be one of {', '.join(METHODS)} "
                             f"(found {self.method!r})")
        validate.correct(self.correct)
        validate.alpha(self.alpha)
        if self.baseline is not None and self.all_pairs:
            raise UsageError("--baseline conflicts with --all-pairs")
        if runs is not None and self.baseline is not None:
            validate.baseline(self.baseline, runs)

    def as_params(self) -> dict:
        return {"method": self.method, "alpha": self.alpha, "ci_level": 1.0 - self.alpha,
                "correct": self.correct, "baseline": self.baseline,
                "all_pairs": self.all_pairs}
