"""The options of ``ipsoeval leaderboard`` and their checks: the part of the
analysis that needs no numpy, so that ``ipsoeval leaderboard --help`` (and
every command that reuses these declarations) stays instant."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import options
from ipsoeval.errors import UsageError

MAX_SAMPLES = 10_000_000


@options
class Options:
    samples: int = co.samples(
        10_000, "Samples of the randomised Tukey HSD (each permutes every topic's scores across "
                "the runs).")
    seed: int = co.seed()
    alpha: float = co.alpha()
    ci: float = co.ci("Level of the t confidence interval of each run's mean.")

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
