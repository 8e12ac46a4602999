"""The options of ``ipsoeval bootstrap`` and their checks: the part of the
analysis that needs no numpy, so that ``ipsoeval bootstrap --help`` stays
instant."""

from __future__ import annotations

from typing import Sequence

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.bootstrap import AGGREGATES, TESTS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

CI_METHODS = ("percentile", "bca")
MAX_SAMPLES = 10_000_000
MAX_SPLITS = 100_000


def parse_tests(values) -> tuple:
    """``--test`` values for --split-half: registry names or aliases; none
    (empty): each measure's test by scale, the one policy of every command."""
    return tuple(registry.parse(values, allowed=TESTS, command="bootstrap --split-half"))


def parse_list(values: Sequence[str] | str | None, default: Sequence[str],
               option: str = "--aggregate") -> tuple:
    """Comma-separated and/or repeated option values, in order, unique; values
    given with nothing in them (``,``) are a usage error, not the default."""
    if values is None:
        return tuple(default)
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        for item in v.split(","):
            item = item.strip().lower()
            if item and item not in out:
                out.append(item)
    if not out:
        raise UsageError(f"{option}: nothing given (found {', '.join(map(repr, values))})")
    return tuple(out)


@options
class Options:
    samples: int = co.samples(
        1000, "Bootstrap samples: resamples of the topics, with replacement, same size.")
    seed: int = co.seed()
    top: int = option("--top", kind="int", default=5, show_default=True,
                      help="Ranks shown in the rank-probability table (0 = all).")
    ci: float = co.ci("Level of the confidence intervals and of the rank interval.")
    ci_method: str = option("--ci-method", kind="choice", choices=CI_METHODS,
                            default="percentile", show_default=True,
                            help="Bootstrap confidence interval of the mean.")
    baseline: str | None = co.baseline(
        "Also give each run's paired difference to this run, with its CI.", default_text=None)
    ranks: bool = option("--ranks", kind="flag",
                         help="Print the rank probabilities (run, measure, rank, probability) "
                              "instead of the summary.")
    # the number of splits; None or 0: no split-half analysis
    split_half: int | None = option(
        "--split-half", kind="int", metavar="S",
        help="Split-half reliability of significance tests over S random splits of the "
             "topics (the paper uses 100); prints the agreement rates.")
    tests: tuple = co.tests(
        "Tests for --split-half", TESTS, default=(), check=parse_tests,
        default_text=registry.DEFAULT_TEXT + "; the paper's Table 4 compares all four: "
                                             "--test sign,ranksum,wilcoxon,t")
    aggregates: tuple = option(
        "--aggregate", multiple=True, metavar="LIST", default=(), default_text="mean",
        help="Which run is better on a half, for --split-half: mean, median or mean,median.")
    alpha: float = co.alpha()
    queries_files: tuple = option(
        "--queries-file", multiple=True, metavar="[NAME=]FILE", default=(), api=False,
        help="A named subset of topics (first field of each line); each run's expected rank "
             "on it is added side by side.  Repeatable.")
    subsets: list | None = option(    # [(name, [qid, ...]), ...]; the API: {name: [qid, ...]}
        cli=False, help="Named subsets of topics, {name: [qid, ...]} (as --queries-file).")

    def __post_init__(self) -> None:
        self.split_half = self.split_half or 0
        self.aggregates = tuple(self.aggregates) or ("mean",)
        self.subsets = list(self.subsets or [])

    def check(self, runs: list[str] | None = None) -> None:
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        validate.alpha(self.alpha)
        if self.split_half > MAX_SPLITS:
            raise UsageError(f"--split-half must be at most {MAX_SPLITS:,} "
                             f"(found {self.split_half})")
        if self.top < 0:
            raise UsageError(f"--top must be 0 (all ranks) or more (found {self.top})")
        if not 0.0 < self.ci < 1.0:
            raise UsageError(f"--ci must be between 0 and 1 (found {self.ci})")
        if self.ci_method not in CI_METHODS:
            raise UsageError(f"--ci-method must be percentile or bca (found {self.ci_method!r})")
        if self.split_half < 0:
            raise UsageError(f"--split-half must be at least 1 (found {self.split_half})")
        if self.tests:
            validate.tests(self.tests, TESTS, "bootstrap --split-half")
        bad = [a for a in self.aggregates if a not in AGGREGATES]
        if bad or not self.aggregates:
            raise UsageError(f"--aggregate takes mean, median or mean,median "
                             f"(found {','.join(bad) or 'nothing'})")
        if self.ranks and self.split_half:
            raise UsageError("--ranks and --split-half each choose the output table; give one")
        names = [n for n, _ in self.subsets]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise UsageError(f"--queries-file names must differ (found {dup[0]!r} twice)")
        if runs is not None and self.baseline is not None:
            validate.baseline(self.baseline, runs)

    def as_params(self) -> dict:
        p = {"samples": self.samples, "seed": self.seed, "top": self.top, "ci": self.ci,
             "ci_method": self.ci_method, "baseline": self.baseline,
             "ties": "share the better rank", "resampling": "numpy default_rng(seed).integers"}
        if self.split_half:
            p.update(split_half=self.split_half, tests=list(self.tests) or "by scale",
                     aggregates=list(self.aggregates), alpha=self.alpha)
        if self.subsets:
            p["subsets"] = {n: len(q) for n, q in self.subsets}
        return p


_GIVEN = ("samples", "seed", "top", "ci", "ci_method", "baseline", "ranks", "alpha")


def make_options(values: dict) -> Options:
    """Checked Options from what a user gives (the command line's values or the
    API's keywords): ``tests`` and ``aggregates`` as ``--test`` and
    ``--aggregate`` take them, ``split_half`` None when not given, ``subsets``
    {name: [qid, ...]}."""
    split_half, tests, aggregates = (values.get("split_half"), values.get("tests"),
                                     values.get("aggregates"))
    subsets = values.get("subsets") or {}
    options = Options(**{k: values[k] for k in _GIVEN if k in values},
                      split_half=split_half or 0, tests=parse_tests(tests or ()),
                      aggregates=parse_list(aggregates or None, ("mean",)),
                      subsets=[(str(k), [str(q) for q in v]) for k, v in subsets.items()])
    if split_half is not None and split_half < 1:
        raise UsageError(f"--split-half must be at least 1 (found {split_half})")
    if (tests or aggregates) and not split_half:
        raise UsageError("--test and --aggregate apply to --split-half: give --split-half too")
    options.check()
    return options
