"""The options of ``ipsoeval across``, declared once (:mod:`ipsoeval.declare`),
and their checks: no numpy here, so that ``ipsoeval across --help`` stays
instant."""

from __future__ import annotations

from ipsoeval.analyses import validate
from ipsoeval.analyses.across import EFFECTS, METHODS
from ipsoeval.analyses.validate import CORRECTIONS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

MAX_SAMPLES = 1_000_000


@options
class Options:
    baseline: str | None = option(      # None: the first run
        "--baseline", metavar="NAME|FILE", default_text="the first run",
        help="Effects are against this run (its name).  [default: the first run of the "
             "manifest]  NAME is a run name, FILE the path of one of the RUN arguments.")
    effect: str = option(
        "--effect", kind="choice", choices=EFFECTS, default="md", show_default=True,
        help="Effect on each collection: the mean paired difference (md, in the measure's "
             "units) or the standardized one, Hedges' g of the differences (smd).")
    method: str = option(
        "--method", kind="choice", choices=METHODS, default="reml", show_default=True,
        help="Estimator of the between-collection variance tau^2: restricted maximum "
             "likelihood, DerSimonian-Laird or Paule-Mandel.")
    alpha: float = option("--alpha", kind="float", low=0, high=1, low_open=True,
                          high_open=True, default=0.05, show_default=True,
                          help="Significance level.")
    samples: int = option("--samples", kind="int", low=1, default=1000, show_default=True,
                          metavar="N",
                          help="Bootstrap samples of the leaderboard's rank intervals (topics "
                               "resampled within each collection).")
    seed: int = option("--seed", kind="int", low=0, default=42, show_default=True,
                       help="Seed of the random generator (same seed, same output).")
    correct: str = option("--correct", kind="choice", choices=CORRECTIONS, default="holm",
                          show_default=True,
                          help="Correction of the mixed model's pairwise contrasts.")

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
