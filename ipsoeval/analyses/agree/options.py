"""The options of ``ipsoeval agree``, declared once (:mod:`ipsoeval.declare`),
and their checks: no numpy here, so that ``ipsoeval agree --help`` stays
instant."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.analyses import validate
from ipsoeval.analyses.agree import DEFAULT_TEST, TESTS
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

MAX_SAMPLES = 100_000_000


def parse_tests(values) -> tuple[str, ...]:
    """--test as given: registry names or aliases, repeatable or comma-separated."""
    return tuple(registry.parse(values, allowed=TESTS, command="agree"))


@options
class Nuggets:
    nuggets: bool = option(
        "--nuggets", kind="flag",
        help="QRELS_A and QRELS_B are two assigners' nugget assignments of the same answers "
             "(see `ipsoeval nuggets`; no RUN arguments): agreement on the support labels (0 "
             "not_support < 1 partial_support < 2 support) and, with two or more runs, on the "
             "rankings by the nugget scores (-m: default every nugget score).")


@options
class Options:
    # one test (make_options refuses more); None: each measure's test by scale
    test: str | None = co.tests(
        "The paired test deciding which pairs of runs differ significantly (one)", TESTS,
        default=DEFAULT_TEST, check=parse_tests)
    correct: str = co.correct("Multiple-comparison correction over all pairs of runs and measures, "
                                "under each qrels separately.")
    alpha: float = co.alpha()
    samples: int = co.samples(100_000)
    seed: int = co.seed()
    rbo_p: float = option("--rbo-p", kind="float", low=0, high=1, low_open=True,
                          high_open=True, default=0.9, show_default=True, metavar="P",
                          help="Persistence p of rank-biased overlap (RBO_ext).")

    def check(self, runs: list[str] | None = None) -> None:
        if self.test is not None:
            validate.tests([self.test], TESTS, "agree")
        validate.correct(self.correct)
        validate.alpha(self.alpha)
        validate.samples(self.samples, MAX_SAMPLES)
        validate.seed(self.seed)
        if not 0.0 < self.rbo_p < 1.0:
            raise UsageError(f"--rbo-p must lie strictly between 0 and 1 (found {self.rbo_p})")
        if runs is not None and len(runs) == 1:
            raise UsageError("agree compares the rankings of two or more runs (got 1 run); "
                             "give none for the label statistics alone")


def make_options(test=None, **kw) -> Options:
    """Validated Options; ``test`` is one name or alias of a paired test
    (``--test``), default each measure's test by scale
    (:func:`ipsoeval.stats.registry.default_for`, as sigtest)."""
    names = registry.parse([test] if isinstance(test, str) else list(test or []),
                           allowed=TESTS, command="agree")
    if len(names) > 1:
        raise UsageError(f"agree takes one --test (found {', '.join(names)})")
    options = Options(test=names[0] if names else DEFAULT_TEST, **kw)
    options.check()
    return options
