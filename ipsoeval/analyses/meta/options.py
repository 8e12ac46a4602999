"""The options of ``ipsoeval meta``, declared once (:mod:`ipsoeval.declare`),
and their checks: no numpy here, so that ``ipsoeval meta --help`` stays
instant."""

from __future__ import annotations

import math

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.meta import DEFAULT_TESTS, TESTS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

MAX_SAMPLES = 100_000_000
MAX_SPLITS = 10_000_000


def parse_tests(values) -> tuple[str, ...]:
    return tuple(registry.parse(values, allowed=TESTS, command="meta"))


@options
class Options:
    tests: tuple[str, ...] = co.tests("Test of the discriminative power", TESTS, default=DEFAULT_TESTS,
                     check=parse_tests)
    alpha: float = co.alpha()
    correct: str = co.correct("Correction over the run pairs of each measure and test.")
    samples: int = co.samples(10_000, co.EXACT_RESAMPLES_HELP)
    seed: int = co.seed()
    splits: int = option("--splits", kind="int", low=1, default=1000, show_default=True,
                         metavar="S",
                         help="Random splits of the topics into two disjoint halves for the "
                              "swap rate.")
    bin_width: float = option("--bin-width", kind="float", default=0.01, show_default=True,
                              metavar="W",
                              help="Width of the bins of the difference on the first half.")
    set_size: int | None = option(          # topics per set of the swap rate; None: half
        "--set-size", kind="int", metavar="X", default_text="half of the topics",
        help="Topics in each of the two disjoint sets of the swap rate.")
    swap_limit: float = option("--swap-limit", kind="float", default=0.05, show_default=True,
                               metavar="RATE",
                               help="Swap rate the min_difference column keeps to.")

    def check(self) -> None:
        if self.tests:
            validate.tests(self.tests, TESTS, "meta")
        validate.alpha(self.alpha)
        validate.correct(self.correct)
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        if not 1 <= self.splits <= MAX_SPLITS:
            raise UsageError(f"--splits must be between 1 and {MAX_SPLITS:,} "
                             f"(found {self.splits})")
        if not (math.isfinite(self.bin_width) and self.bin_width > 0):
            raise UsageError(f"--bin-width must be a positive number (found {self.bin_width})")
        if self.set_size is not None and self.set_size < 1:
            raise UsageError(f"--set-size must be at least 1 (found {self.set_size})")
        if not 0.0 <= self.swap_limit <= 1.0:
            raise UsageError(f"--swap-limit must be between 0 and 1 (found {self.swap_limit})")
