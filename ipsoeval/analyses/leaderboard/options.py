"""The options of ``ipsoeval leaderboard`` and their checks: the part of the
analysis that needs no numpy, so that ``ipsoeval leaderboard --help`` (and
every command that reuses these declarations) stays instant."""

from __future__ import annotations

from ipsoeval.analyses import validate
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

MAX_SAMPLES = 10_000_000


@options
class Options:
    samples: int = option("--samples", kind="int", low=1, default=10_000, show_default=True,
                          metavar="N",
                          help="Samples of the randomised Tukey HSD (each permutes every "
                               "topic's scores across the runs).")
    seed: int = option("--seed", kind="int", low=0, default=42, show_default=True,
                       help="Seed of the random generator (same seed, same output).")
    alpha: float = option("--alpha", kind="float", low=0, high=1, low_open=True,
                          high_open=True, default=0.05, show_default=True,
                          help="Significance level.")
    ci: float = option("--ci", kind="float", default=0.95, show_default=True,
                       help="Level of the t confidence interval of each run's mean.")

    def check(self, runs: list[str] | None = None) -> None:
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        validate.alpha(self.alpha)
        if not 0.0 < self.ci < 1.0:
            raise UsageError(f"--ci must be between 0 and 1 (found {self.ci})")
        if runs is not None and len(runs) < 2:
            raise UsageError(f"leaderboard compares runs: it needs at least two "
                             f"(got {len(runs)})")
        if runs is not None and len(set(runs)) != len(runs):
            dup = next(r for r in runs if list(runs).count(r) > 1)
            raise UsageError(f"two runs are named {dup!r}; give them distinct names with "
                             f"--name")

    def as_params(self) -> dict:
        return {"samples": self.samples, "seed": self.seed, "alpha": self.alpha,
                "ci_level": self.ci}
