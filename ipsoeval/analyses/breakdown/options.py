"""The options of ``ipsoeval breakdown`` and their checks, without numpy: the
command's declaration (:mod:`ipsoeval.pipeline.breakdown`) and ``--help``
read them before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

# Which case-3 test decides the ranking facet of the verdict: QUANTITY-TEST,
# the test a registry name (or alias) of one of the outcome-3 tests.
VERDICT_TESTS = {
    "esl-t": ("esl_t_p_value", "esl", "mean"),
    "esl-wilcoxon": ("esl_wilcoxon_p_value", "esl", "signed-rank"),
    "rr-t": ("rr_t_p_value", "rr", "mean"),
    "rr-wilcoxon": ("rr_wilcoxon_p_value", "rr", "signed-rank"),
}


@options
class Options:
    k: int = option("-k", "--cutoff", kind="int", low=1, default=100, show_default=True,
                    help="Rank cutoff: a run answers a topic when a relevant document is in "
                         "its top k.")
    baseline: str | None = co.baseline("Run A, compared with every other run.")
    naive: bool = option("--naive", kind="flag",
                         help="Also test per-topic RR@k over all topics with the Wilcoxon "
                              "rank-sum, signed-rank and t tests (Lin et al. Table 1).")
    correct: str = co.correct("Multiple-comparison correction across all p-values of the invocation.")
    alpha: float = co.alpha()
    alternative: str = co.alternative(
        "Alternative hypothesis about B - A of each tested quantity (answered, ESL, RR; a "
        "lower ESL is better).")
    verdict_test: str = option(
        "--verdict-test", metavar="QUANTITY-TEST", default="esl-t", show_default=True,
        help="Outcome-3 test that decides the ranking facet of the verdict: esl-t, "
             "esl-wilcoxon, rr-t or rr-wilcoxon (test names as --test takes them).")
    per_query: bool = co.per_query(
        "Print each topic's outcome and first-relevant ranks instead of the summary.")

    def check(self, runs: list[str] | None = None) -> None:
        if self.k < 1:
            raise UsageError(f"-k must be a positive integer (found {self.k})")
        validate.correct(self.correct)
        validate.alpha(self.alpha)
        validate.alternative(self.alternative)
        self.verdict_test = parse_verdict_test(self.verdict_test)
        if runs is not None:
            if len(runs) < 2:
                raise UsageError(f"breakdown compares runs: give at least two (found {len(runs)})")
            if self.baseline is not None:
                validate.baseline(self.baseline, runs)


def parse_verdict_test(text: str) -> str:
    """``QUANTITY-TEST`` (esl or rr; t or wilcoxon, or a registry alias such as
    signed-rank) as one of :data:`VERDICT_TESTS`."""
    quantity, _, test = str(text).strip().lower().partition("-")
    if quantity in ("esl", "rr") and test:
        name = registry.get(test, allowed=("t", "wilcoxon"), option="--verdict-test",
                            command="breakdown").name
        return f"{quantity}-{name}"
    raise UsageError(f"--verdict-test must be one of {', '.join(VERDICT_TESTS)} "
                     f"(found {text!r})")
