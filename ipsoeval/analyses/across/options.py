"""The options of ``ipsoeval across``, declared once (:mod:`ipsoeval.declare`),
and their checks: no numpy here, so that ``ipsoeval across --help`` stays
instant."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.across import EFFECTS, METHODS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

MAX_SAMPLES = 1_000_000


@options
class Options:
    baseline: str | None = co.baseline("Effects are against this run (its name).  [default: the first run of the "
        "manifest]")
    effect: str = option(
        "--effect", kind="choice", choices=EFFECTS, default="md", show_default=True,
        help="Effect on each collection: the mean paired difference (md, in the measure's "
             "units) or the standardized one, Hedges' g of the differences (smd).")
    method: str = option(
        "--method", kind="choice", choices=METHODS, default="reml", show_default=True,
        help="Estimator of the between-collection variance tau^2: restricted maximum "
             "likelihood, DerSimonian-Laird or Paule-Mandel.")
    alpha: float = co.alpha()
    samples: int = co.samples(
        1000, "Bootstrap samples of the leaderboard's rank intervals (topics resampled within "
              "each collection).")
    seed: int = co.seed()
    correct: str = co.correct("Correction of the mixed model's pairwise contrasts.", default="holm")

    def check(self) -> None:
        if self.effect not in EFFECTS:
            raise UsageError(f"--effect must be one of {', '.join(EFFECTS)} "
                             f"(found {self.effect!r})")
        if self.method not in METHODS:
            raise UsageError(f"--method must be one of {', '.join(METHODS)} "
                             f"(found {self.method!r})")
        validate.alpha(self.alpha)
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        validate.correct(self.correct)

    def as_params(self) -> dict:
        return {"baseline": self.baseline, "effect": self.effect, "method": self.method,
                "alpha": self.alpha, "samples": self.samples, "seed": self.seed,
                "correct": self.correct}
