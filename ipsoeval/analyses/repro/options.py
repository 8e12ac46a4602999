"""The options of ``ipsoeval repro`` and their checks, without numpy: the
command's declaration (:mod:`ipsoeval.pipeline.repro`) and ``--help`` read
them before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

# repro_eval's defaults (repro_eval/__init__.py: RUN_LENGTH, RBO_P, RBO_DEPTH)
KTU_DEPTH = 1000
RBO_P = 0.95
RBO_DEPTH = 1000
# the measures without -m: the usual ones of reproducibility papers
DEFAULT_MEASURES = ("P@10", "nDCG@10", "nDCG", "AP", "RR")
ROLES = ("orig_baseline", "orig_advanced", "rep_baseline", "rep_advanced")


@options
class Options:
    rep_qrels: str | None = option(
        "--rep-qrels", metavar="FILE",
        help="Replicability: the reproduced runs are judged with these qrels (another "
             "collection); ER, Delta RI and unpaired t tests only.  Without it, "
             "reproducibility on QRELS.")
    replicated: bool = option(
        "--replicated", kind="flag", api=False,
        help="With --scores: the reproduced scores are on another collection "
             "(replicability), as --rep-qrels says for runs.")
    ktu_depth: int = option(
        "--ktu-depth", kind="int", low=1, default=KTU_DEPTH, show_default=True, metavar="K",
        help="Kendall's tau Union compares the first K documents of each ranking "
             "(repro_eval's trimming).")
    rbo_p: float = option(
        "--rbo-p", kind="float", low=0, high=1, low_open=True, high_open=True,
        default=RBO_P, show_default=True, metavar="P",
        help="RBO's persistence p (repro_eval's default).")
    rbo_depth: int = option(
        "--rbo-depth", kind="int", low=1, default=RBO_DEPTH, show_default=True, metavar="D",
        help="RBO's evaluation depth (repro_eval's default).")
    samples: int = co.samples(10_000, "Bootstrap resamples of the topics for the intervals "
                                      "of ER, Delta RI and the differences of means.")
    seed: int = co.seed()
    alpha: float = co.alpha("Level of the intervals (1 - alpha) and of the sentence saying "
                            "whether the reproduced effect is distinguishable from the "
                            "original one.")

    def check(self) -> None:
        validate.alpha(self.alpha)
        validate.samples(self.samples)
        validate.seed(self.seed)
        if not 0 < self.rbo_p < 1:
            raise UsageError(f"--rbo-p must be between 0 and 1 (found {self.rbo_p})")
        if self.ktu_depth < 1 or self.rbo_depth < 1:
            raise UsageError("--ktu-depth and --rbo-depth must be 1 or more")

    @property
    def paired(self) -> bool:
        """Reproducibility (the same topics, paired) or replicability."""
        return self.rep_qrels is None and not self.replicated
