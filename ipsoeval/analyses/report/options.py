"""The options of ``ipsoeval report`` and their checks: the part of the
analysis that needs no numpy, so that ``ipsoeval report --help`` stays
instant.  The page's numbers are leaderboard's and sigtest's, so are most of
its options: :class:`Options` declares only the page's own (``--pair``,
``-k``, ``--title``, ``--manifest``); the command takes the others from
those commands' declarations (:mod:`ipsoeval.pipeline.report`)."""

from __future__ import annotations

from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

MAX_PAIRS = 6            # per-topic difference panels: pairs x measures, at most 12 drawn


def parse_pair(text: str) -> tuple[str, str]:
    """``A:B``, two run names; refused unless there is exactly one colon (a
    name with a colon would make the split a guess: rename the run with
    --name)."""
    a, sep, b = str(text).partition(":")
    if not sep or not a or not b:
        raise UsageError(f"--pair takes A:B, two run names (found {text!r})")
    if ":" in b:
        raise UsageError(f"--pair {text}: more than one ':' (A:B names two runs; give a run "
                         f"whose name holds a colon another with --name)")
    if a == b:
        raise UsageError(f"--pair {text}: a run compared with itself")
    return a, b


def parse_pairs(values) -> tuple:
    """``--pair`` values: "A:B" texts (or, from the API, (A, B) pairs)."""
    return tuple(parse_pair(p) if isinstance(p, str) else (str(p[0]), str(p[1]))
                 for p in values or ())


def parse_tests(values) -> list[str]:
    """``--test`` values for the pairs: sigtest's two-sample tests."""
    from ipsoeval.stats import registry
    return registry.parse(values, allowed=registry.TWO_SAMPLE, command="report")


def check_tests(values) -> tuple:
    """``--test`` as the command line keeps it: the pairs' tests, checked."""
    return tuple(parse_tests(values))


@options
class Options:
    samples: int = 10_000                 # leaderboard's --samples (and the pairs' tests')
    seed: int = 42
    alpha: float = 0.05
    ci: float = 0.95
    correct: str = "none"                 # sigtest's --correct
    baseline: str | None = None           # sigtest's --baseline
    pairs: list[tuple[str, str]] = option(
        "--pair", multiple=True, metavar="A:B", default=[], check=parse_pairs,
        default_text="the baseline and the best other run",
        help="Draw the per-topic differences B - A of this pair and test it as sigtest does "
             f"(repeatable, at most {MAX_PAIRS}).")
    tests: list[str] | None = None        # sigtest's tests for the pairs (its default)
    k: int = option("-k", "--cutoff", kind="int", low=1, default=100, show_default=True,
                    help="Rank cutoff of the outcomes breakdown: a run answers a topic when a "
                         "relevant document is in its top k.")     # breakdown's rank cutoff
    title: str = option("--title", default="ipsoeval report", show_default=True,
                        help="Title of the page.")
    manifest: str | None = option(
        "--manifest", metavar="MANIFEST", api=False,
        help="Add a collections section: the runs of this ipsoeval across manifest compared "
             "over its collections (forest plot of the pooled effects against --baseline, or "
             "the manifest's first run, and the cross-collection leaderboard; the same tables "
             "as ipsoeval across).")
    charts: bool = option(
        cli=False, kind="flag", default=True,
        help="Draw the charts (SVG drawn by ipsoeval itself; False: the page has the tables "
             "and the heat maps only).")

    def check(self, runs: list[str] | None = None) -> None:
        from ipsoeval.analyses import leaderboard
        if not self.title.strip():
            raise UsageError("--title must not be empty")
        if self.k < 1:
            raise UsageError(f"--cutoff must be at least 1 (found {self.k})")
        if len(self.pairs) > MAX_PAIRS:
            raise UsageError(f"--pair: at most {MAX_PAIRS} pairs (found {len(self.pairs)})")
        leaderboard.Options(samples=self.samples, seed=self.seed, alpha=self.alpha,
                            ci=self.ci).check(runs)
        self.sigtest_options().check()
        if runs is not None:
            for a, b in self.pairs:
                for r in (a, b):
                    if r not in runs:
                        raise UsageError(f"--pair {a}:{b}: no run named {r!r} (runs: "
                                         f"{', '.join(runs)})")

    def sigtest_options(self, baseline: str | None = None):
        from ipsoeval.analyses import sigtest
        return sigtest.make_options(self.tests, None, baseline=baseline, correct=self.correct,
                                    alpha=self.alpha, samples=self.samples, seed=self.seed)


_GIVEN = ("samples", "seed", "alpha", "ci", "correct", "k", "title")


def make_options(values: dict) -> Options:
    """Checked Options from what a user gives (the command line's values or the
    API's keywords): ``pairs`` as "A:B" texts or (A, B) pairs, ``tests`` as
    ``--test`` takes them; the baseline is checked once the runs are known."""
    tests = values.get("tests")
    options = Options(**{k: values[k] for k in _GIVEN if k in values},
                      pairs=list(parse_pairs(values.get("pairs"))),
                      tests=[tests] if isinstance(tests, str) else (list(tests or ()) or None))
    options.check()
    if options.tests:
        options.tests = parse_tests(options.tests)
    return options
