"""The options of ``ipsoeval compare`` and their checks: the part of the
analysis that needs no numpy (``ipsoeval compare --help`` stays instant).

The test vocabulary is sigtest's (``--test``, ``--correct``, ``--alpha``,
``--samples``, ``--seed``; without ``--test`` each measure gets the test its
scale permits), so that a cell's marks are sigtest's decisions for that
pair and measure.  The correction's family is the pairs marked within one
measure: the baseline pairs, or all pairs."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.leaderboard.options import MAX_SAMPLES as HSD_MAX_SAMPLES
from ipsoeval.analyses.leaderboard.options import Options as LeaderboardOptions
from ipsoeval.analyses.sigtest.common import MAX_SAMPLES as TEST_MAX_SAMPLES
from ipsoeval.analyses.sigtest.common import Options as SigtestOptions
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

# (sigtest's and leaderboard's options are imported from their modules, not
# through their packages, whose __getattr__ would load the analyses and numpy)
MARKS = ("baseline", "pairs", "groups", "none")
DEFAULT_MARKS_TEXT = "baseline with --baseline, else pairs"
# each procedure's samples, limit and level as the command that reports it
# alone declares them: sigtest's tests, leaderboard's randomised Tukey HSD
# and its t interval of a mean
TEST_SAMPLES = SigtestOptions.samples
HSD_SAMPLES = LeaderboardOptions.samples
CI_LEVEL = LeaderboardOptions.ci


def _test(value):
    if value is None:
        return value
    from ipsoeval.stats import registry
    names = registry.parse([value], allowed=registry.TWO_SAMPLE, command="compare")
    if len(names) != 1:
        raise UsageError(f"--test: compare marks with one test (found {value!r})")
    return names[0]


def _test_help() -> str:
    from ipsoeval.stats import registry
    return (f"Test deciding the marks of --marks baseline and pairs, as sigtest runs it: "
            f"{', '.join(registry.TWO_SAMPLE)}.")


def _default_text() -> str:
    from ipsoeval.stats import registry
    return registry.DEFAULT_TEXT


@options
class Options:
    marks: str | None = option(
        "--marks", kind="choice", choices=MARKS, default_text=DEFAULT_MARKS_TEXT,
        help="Marks on each cell: baseline (the pairs with the baseline), pairs (every pair; "
             "a cell lists, as superscript letters, the runs it is significantly better "
             "than), groups (the letter groups of the randomised Tukey HSD, as leaderboard "
             "prints them: runs sharing a letter are not significantly different) or none.")
    baseline: str | None = co.baseline("The run the other runs are compared with (--marks "
                                       "baseline).")
    test: str | None = option("--test", metavar="NAME", check=_test,
                              default_text=_default_text(), help=_test_help())
    correct: str = co.correct("Multiple-comparison correction over the pairs marked within "
                              "one measure (its baseline pairs, or all its pairs).")
    alpha: float = co.alpha()
    samples: int | None = option(
        "--samples", kind="int", low=1, metavar="N",
        default_text=f"{TEST_SAMPLES:,} for the randomization and bootstrap tests (as "
                     f"sigtest), {HSD_SAMPLES:,} for the randomised Tukey HSD (as "
                     f"leaderboard)",
        help="Resamples of the randomization and bootstrap tests, or samples of the "
             "randomised Tukey HSD of --marks groups.")
    seed: int = co.seed()
    ci: bool = option("--ci", kind="flag",
                      help=f"Add each mean's {CI_LEVEL:.0%} t confidence interval (leaderboard's "
                           f"interval).")
    transpose: bool = option("--transpose", kind="flag",
                             help="Turn the table: measures as rows, runs as columns (table, "
                                  "markdown, latex, html).")
    underline_second: bool = option("--underline-second", kind="flag",
                                    help="Underline the second best value of each column "
                                         "(the best is in bold).")

    def chosen_marks(self) -> str:
        """--marks as given, else baseline with --baseline, else pairs."""
        if self.marks is not None:
            return self.marks
        return "baseline" if self.baseline is not None else "pairs"

    def test_samples(self) -> int:
        return self.samples if self.samples is not None else TEST_SAMPLES

    def hsd_samples(self) -> int:
        return self.samples if self.samples is not None else HSD_SAMPLES

    def check(self, runs: list[str] | None = None) -> None:
        if self.marks is not None and self.marks not in MARKS:
            raise UsageError(f"--marks must be one of {', '.join(MARKS)} (found {self.marks!r})")
        if self.test is not None:
            self.test = _test(self.test)
        validate.correct(self.correct)
        validate.alpha(self.alpha)
        validate.seed(self.seed)
        marks = self.chosen_marks()
        if self.samples is not None:
            validate.samples(self.samples, HSD_MAX_SAMPLES if marks == "groups"
                             else TEST_MAX_SAMPLES)
        if marks in ("pairs", "groups", "none") and self.baseline is not None:
            raise UsageError(f"--baseline marks the pairs with the baseline: it conflicts "
                             f"with --marks {marks}")
        if marks in ("groups", "none"):
            what = ("the randomised Tukey HSD (family-wise over all pairs of a measure)"
                    if marks == "groups" else "no test")
            if self.test is not None:
                raise UsageError(f"--test does not apply to --marks {marks}: it uses {what}")
            if self.correct != "none":
                raise UsageError(f"--correct does not apply to --marks {marks}: it uses "
                                 f"{what}")
        if runs is not None:
            if len(runs) < 2 and marks != "none":
                raise UsageError(f"compare marks differences between runs: it needs at least "
                                 f"two (got {len(runs)}; --marks none tabulates one)")
            if len(set(runs)) != len(runs):
                dup = next(r for r in runs if list(runs).count(r) > 1)
                raise UsageError(f"two runs are named {dup!r}; give them distinct names with "
                                 f"--name")
            if self.baseline is not None:
                validate.baseline(self.baseline, runs)
