"""The options of ``ipsoeval ipso`` and their checks, without numpy: the
command's declaration (:mod:`ipsoeval.pipeline.ipso`) and ``--help`` read them
before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

import re

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.ipso import TESTS
from ipsoeval.declare import option, options, value
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

GRADED_MODES = ("prefix", "threshold")
MAX_K = 100_000                 # deepest -k / --depths (SERPs are padded to k)
MAX_ENUMERATE_K = 5000
DEFAULT_K = 10


def _tests(value):
    return tuple(registry.parse(value, allowed=TESTS, command="ipso"))


@options
class Options:
    k: int | None = option(     # None: 10, or the largest of depths
        "-k", "--cutoff", kind="int", low=1,
        help="Evaluation depth k.  [default: 10, or the largest of --depths]")
    depths: list[int] | None = option(   # None: [k] (pair summaries), 1..k (Table 3)
        "--depths", metavar="LIST",
        help="Depths to report, e.g. 5,10,20 or 1..k (pair summaries: default k; "
             "--all-pairs depth table: default 1..k).")
    tests: list[str] = co.tests("Test of the -m measures", TESTS, default=[], check=_tests)
    correct: str = co.correct("Multiple-comparison correction across every p-value of the invocation "
                                "(IPSO sign tests and metric tests).")
    alpha: float = co.alpha()
    alternative: str = co.alternative(
        "Alternative hypothesis about B - A of the -m measures' tests (the IPSO sign test is "
        "two-sided, as in the paper).")
    samples: int = co.samples(100_000)
    seed: int = co.seed()
    graded: str | None = option(    # None: prefix, not chosen (ipso_gains' graded_given)
        "--graded", kind="choice", choices=GRADED_MODES, default_text="prefix",
        help="Graded gains: Algorithm 1 on the gains (prefix), or dominance at every "
             "relevance threshold (threshold; valid for ordinal labels).")
    baseline: str | None = co.baseline("Run A, compared with every other run.")
    all_pairs: bool = co.all_pairs("Compare every pair of runs: Table 3 and, with -m, Figure 7.")
    per_query: bool = co.per_query(
        "Per topic: SERPs, relation, trajectory and score differences (Figure 5).")
    enumerate_: str | None = option(
        "--enumerate", metavar="K[,K...]", api=False,
        help="Exact Table 2: equal / separable / non-separable among all 4^k binary SERP "
             "pairs, for each k (needs no files).")
    measures: list[str] = value(factory=list)  # the -m measures' names

    def __post_init__(self) -> None:
        if self.k is None:
            self.k = max(self.depths) if self.depths else DEFAULT_K
        if self.graded is None:
            self.graded = "prefix"

    def check(self, runs: list[str] | None = None) -> None:
        if self.k < 1:
            raise UsageError(f"-k must be at least 1 (got {self.k})")
        if self.k > MAX_K:
            raise UsageError(f"-k must be at most {MAX_K} (got {self.k})")
        validate.seed(self.seed)
        validate.samples(self.samples)
        validate.alpha(self.alpha)
        validate.alternative(self.alternative)
        validate.correct(self.correct)
        if self.tests:
            validate.tests(self.tests, TESTS, "ipso")
        if self.graded not in GRADED_MODES:
            raise UsageError(f"--graded must be prefix or threshold (got {self.graded!r})")
        if self.baseline is not None and self.all_pairs:
            raise UsageError("--baseline conflicts with --all-pairs")
        if self.depths is not None:
            if not self.depths:
                raise UsageError("--depths is empty")
            bad = [d for d in self.depths if not 1 <= d <= self.k]
            if bad:
                raise UsageError(f"--depths must lie in 1..k = 1..{self.k} (got {bad[0]})")
        if runs is not None and self.baseline is not None:
            validate.baseline(self.baseline, runs)


def measures_for_tests(tests, measures) -> None:
    """--test chooses the test of the -m measures: without one it has nothing to test."""
    if tests and not measures:
        raise UsageError("--test applies to a measure: give -m MEASURE too")


def cutoff_and_depths(k: int | None, depths) -> tuple[int, list[int] | None]:
    """-k and --depths as the analysis takes them: ``depths`` (text, or a list
    of depths) read with '..k' meaning -k (10 when not given), and k, when not
    given, the largest depth."""
    cutoff = k if k is not None else DEFAULT_K
    if depths is None:
        return cutoff, None
    depth_list = parse_depths(depths if isinstance(depths, str)
                              else ",".join(map(str, depths)), cutoff)
    if k is None and depth_list:
        cutoff = max(depth_list)
    return cutoff, depth_list


def parse_depths(text: str, k: int | None) -> list[int]:
    """``"5,10,20"``, ``"1..10"``, ``"1..k"``, ``"1..5,10"`` → sorted depths."""
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:\.\.(\d+|k))?", part)
        if not m:
            raise UsageError(f"--depths: cannot read {part!r} (use e.g. 5,10,20 or 1..k)")
        lo = int(m.group(1))
        if m.group(2) is None:
            hi = lo
        elif m.group(2) == "k":
            if k is None:
                raise UsageError("--depths: '..k' needs -k")
            hi = k
        else:
            hi = int(m.group(2))
        if lo < 1 or hi < lo:
            raise UsageError(f"--depths: bad range {part!r}")
        if hi > MAX_K:
            raise UsageError(f"--depths: depths must be at most {MAX_K} (got {hi})")
        out.update(range(lo, hi + 1))
    if not out:
        raise UsageError("--depths is empty")
    return sorted(out)


def parse_enumerate(text: str) -> list[int]:
    """``"5,10,15"`` → [5, 10, 15] (each 1..MAX_ENUMERATE_K)."""
    ks = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit():
            raise UsageError(f"--enumerate takes depths such as 5,10,100 (got {part!r})")
        k = int(part)
        if not 1 <= k <= MAX_ENUMERATE_K:
            raise UsageError(f"--enumerate: k must be in 1..{MAX_ENUMERATE_K} (got {k})")
        ks.append(k)
    if not ks:
        raise UsageError("--enumerate needs at least one depth")
    return ks


