"""The options of ``ipsoeval interval-map`` and their checks, without numpy:
the command's declaration (:mod:`ipsoeval.pipeline.interval_map`) and
``--help`` read them before the analysis (:mod:`.report`) is loaded."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.interval_map import TESTS
from ipsoeval.analyses.interval_map.common import TIES, parse_size
from ipsoeval.declare import option, options, value
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

UNIVERSES = ("attainable", "all")
MAX_N = 1_000_000      # longest run length (-N or a cutoff) the interval map accepts
DEFAULT_N = 30         # run length of a measure without a cutoff when -N is not given
TEST_COMMAND = "interval-map --analyze"


def _tests(value):
    return tuple(registry.parse(value, allowed=TESTS, command=TEST_COMMAND))


@options
class Options:
    N: int | None = option(     # run length for measures without a cutoff
        "-N", "--length", kind="int", default_text=str(DEFAULT_N),
        help="Run length N for measures given without a cutoff (runs are cut at N and "
             "padded with non-relevant documents).")
    normalise: bool = option("--normalise", "--normalize", kind="flag",
                             help="Print (phi - 1) / (|M(U)| - 1) in [0, 1] instead of phi.")
    ties: str = option("--ties", kind="choice", choices=TIES, default="unq", show_default=True,
                       help="unq: rank among the distinct values (the interval map); "
                            "min/max/mid: lowest/highest/mean rank among all runs of the "
                            "universe (the paper's Table 3 alternatives).")
    universe: str = option(     # the paper's: one universe REL^N for every topic
        "--universe", kind="choice", choices=UNIVERSES, default="all", show_default=True,
        help="For measures that depend on R (R, AP, nDCG): all runs of length N, one scale "
             "for every topic as in the paper (all), or per topic the runs it could produce, "
             "at most R relevant documents (attainable).")
    per_query: bool = co.per_query("Also print one row per run and topic.")
    values: bool = option("--values", kind="flag",
                          help="List the distinct values of the measure over all runs of "
                               "length N with how many runs reach each, and a text plot.")
    analyze: bool = option("--analyze", "--analyse", kind="flag",
                           help="Kendall's tau of run rankings, original vs mapped, among "
                                "measures, and significance decisions that change (the "
                                "paper's Tables 2, 4, 5-6).")
    tests: tuple = co.tests("Tests of --analyze (Tables 5-6)", TESTS, default=(), check=_tests,
                     default_text="all eight")
    alpha: float = co.alpha()
    max_memory: int | str | None = option(     # bytes (or a size as text); None: 2 GiB
        "--max-memory", metavar="SIZE", default="2G", show_default=True,
        help="Refuse value-set computations estimated to need more memory than this (e.g. "
             "512M, 8G).")
    no_cache: bool = option("--no-cache", kind="flag", api=False,
                            help="Neither read nor write the on-disk cache of computed maps.")
    use_cache: bool = option(cli=False, default=True,
                             help="Read and write the on-disk cache of computed maps "
                                  "(False: the command line's --no-cache).")
    warnings: list = value(factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.max_memory, str):
            self.max_memory = parse_size(self.max_memory)
        elif self.max_memory is not None:
            self.max_memory = int(self.max_memory)
        self.tests = tuple(registry.parse(self.tests, allowed=TESTS, command=TEST_COMMAND)
                           if self.tests else ()) or TESTS
        if self.no_cache:
            self.use_cache = False

    def check(self) -> None:
        validate.alpha(self.alpha)
        validate.tests(self.tests, TESTS, TEST_COMMAND)
        if self.ties not in TIES:
            raise UsageError(f"--ties must be one of {', '.join(TIES)} (found {self.ties!r})")
        if self.universe not in UNIVERSES:
            raise UsageError(f"--universe must be attainable or all (found {self.universe!r})")
        if self.N is not None and self.N < 1:
            raise UsageError(f"-N must be a positive integer (found {self.N})")
        if self.max_memory is not None and self.max_memory < 1:
            raise UsageError(f"--max-memory must be positive (found {self.max_memory})")
        if self.N is not None and self.N > MAX_N:
            raise UsageError(f"-N must be at most {MAX_N:,} (found {self.N})")
