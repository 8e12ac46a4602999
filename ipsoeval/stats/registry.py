"""The one registry of test statistics: name, aliases, the scale a test
requires, and the function computing it.

Every command that names a test (``sigtest --test``, ``breakdown``'s
outcome tests and ``--verdict-test``, ``ipso --test``, ``interval-map
--analyze --test``, ``bootstrap --split-half --test``) resolves the name
here, and every p-value they report comes from the function declared here.
Adding a test is one entry below plus its test in tests/test_stats_registry.py;
each command states which kinds of test it can use (``allowed``).

Kinds:

- ``paired``    -- two samples of the same topics, ``fn(a, b, alternative=,
  samples=, seed=)`` → :class:`~ipsoeval.stats.tests.TestResult`, about b − a;
- ``unpaired``  -- two samples compared as groups (same call);
- ``omnibus``   -- k ≥ 3 runs on the same topics, ``fn(X)`` →
  :class:`~ipsoeval.stats.omnibus.OmnibusResult`, followed by Tukey HSD for
  the pairs (:func:`tukey`);
- ``allpairs``  -- k ≥ 2 runs on the same topics, every pair at once with one
  null distribution (``leaderboard``): ``fn(X, samples=, seed=, progress=)``
  → the null distribution's samples (:mod:`ipsoeval.stats.randhsd`).

The scale each test requires is Ferrante et al. (2021) §2.5's (see
docs/conventions.md, "Statistics"): a test is permissible for a measure
whose scale is at least the required one (ratio ⊃ interval ⊃ ordinal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ipsoeval.errors import UsageError

__all__ = ["TestStatistic", "REGISTRY", "get", "parse", "names", "requirement",
           "permissible", "default_test", "DEFAULT_BY_SCALE", "run", "omnibus", "tukey", "PAIRED", "TWO_SAMPLE", "OMNIBUS"]


@dataclass(frozen=True)
class TestStatistic:
    """One test: its name (the spelling every output uses), aliases accepted
    on input, a title for people, the scale it requires, its kind and whether
    it draws random resamples (``--samples``, ``--seed``)."""

    __test__ = False  # not a pytest test class

    name: str
    title: str
    requires: str                 # "ordinal" | "interval"
    kind: str                     # "paired" | "unpaired" | "omnibus" | "allpairs"
    aliases: tuple[str, ...] = ()
    resampling: bool = False
    function: Callable | None = None


# -- the functions (imported lazily: scipy is not needed to parse options) ----

def _paired_t(a, b, *, alternative="two-sided", samples=None, seed=None):
    from ipsoeval.stats import tests
    return tests.paired_t(a, b, alternative)


def _wilcoxon(a, b, *, alternative="two-sided", samples=None, seed=None):
    from ipsoeval.stats import tests
    return tests.wilcoxon(a, b, alternative)


def _sign(a, b, *, alternative="two-sided", samples=None, seed=None):
    from ipsoeval.stats import tests
    return tests.sign_test(a, b, alternative)


def _ranksum(a, b, *, alternative="two-sided", samples=None, seed=None):
    from ipsoeval.stats import tests
    return tests.ranksum(a, b, alternative)


def _randomization(a, b, *, alternative="two-sided", samples=100_000, seed=42):
    from ipsoeval.stats import tests
    return tests.randomization(a, b, n_resamples=samples, seed=seed, alternative=alternative)


def _bootstrap(a, b, *, alternative="two-sided", samples=100_000, seed=42):
    from ipsoeval.stats import tests
    return tests.bootstrap_shift(a, b, n_resamples=samples, seed=seed, alternative=alternative)


def _randhsd(X, *, samples=10_000, seed=42, progress=None):
    from ipsoeval.stats import randhsd
    return randhsd.ranges(X, samples, seed, progress)


def _omnibus(name):
    def fn(X):
        from ipsoeval.stats import omnibus as om
        return om.OMNIBUS[name](X)
    fn.__name__ = name
    return fn


_ENTRIES = (
    TestStatistic("t", "paired Student's t", "interval", "paired",
                  ("ttest", "t-test", "student", "paired-t"), function=_paired_t),
    TestStatistic("wilcoxon", "Wilcoxon signed-rank (zero differences dropped)", "interval",
                  "paired", ("signed-rank", "signrank", "wsr"), function=_wilcoxon),
    TestStatistic("sign", "sign test, exact binomial (zero differences dropped)", "ordinal",
                  "paired", ("binomial",), function=_sign),
    TestStatistic("ranksum", "Wilcoxon rank-sum / Mann-Whitney U", "ordinal", "unpaired",
                  ("rank-sum", "mannwhitney", "mann-whitney", "mwu", "wrs"),
                  function=_ranksum),
    TestStatistic("randomization", "paired randomization (sign-flip) test of the mean",
                  "interval", "paired", ("permutation", "perm", "fisher"), resampling=True,
                  function=_randomization),
    TestStatistic("bootstrap", "paired bootstrap test of the mean, shift method", "interval",
                  "paired", ("boot",), resampling=True, function=_bootstrap),
    TestStatistic("anova", "one-way ANOVA + Tukey HSD", "interval", "omnibus",
                  ("anova1", "one-way-anova"), function=_omnibus("anova")),
    TestStatistic("kruskal", "Kruskal-Wallis + Tukey HSD on ranks", "ordinal", "omnibus",
                  ("kruskal-wallis", "kw"), function=_omnibus("kruskal")),
    TestStatistic("anova2", "two-way ANOVA (runs x topics) + Tukey HSD", "interval", "omnibus",
                  ("two-way-anova",), function=_omnibus("anova2")),
    TestStatistic("friedman", "Friedman + Tukey HSD on ranks", "ordinal", "omnibus",
                  (), function=_omnibus("friedman")),
    TestStatistic("randhsd", "randomised Tukey HSD (range of the run means under "
                  "within-topic permutations)", "interval", "allpairs",
                  ("randomised-hsd", "randomized-hsd"), resampling=True, function=_randhsd),
)

REGISTRY: dict[str, TestStatistic] = {t.name: t for t in _ENTRIES}
_ALIASES: dict[str, str] = {a: t.name for t in _ENTRIES for a in t.aliases}

PAIRED = tuple(t.name for t in _ENTRIES if t.kind == "paired")
TWO_SAMPLE = tuple(t.name for t in _ENTRIES if t.kind in ("paired", "unpaired"))
OMNIBUS = tuple(t.name for t in _ENTRIES if t.kind == "omnibus")

_SCALE_ORDER = {"nominal": 0, "ordinal": 1, "interval": 2, "ratio": 3}


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get(name: str, *, allowed: Iterable[str] | None = None, option: str = "--test",
        command: str | None = None) -> TestStatistic:
    """The test called ``name`` (or one of its aliases; case-insensitive).
    Unknown names and tests the caller cannot use are usage errors."""
    key = str(name).strip().lower()
    canon = _ALIASES.get(key, key)
    pool = tuple(allowed) if allowed is not None else names()
    if canon not in REGISTRY:
        import difflib
        close = difflib.get_close_matches(key, list(REGISTRY) + list(_ALIASES), n=1)
        hint = f" (did you mean {_ALIASES.get(close[0], close[0])!r}?)" if close else ""
        raise UsageError(f"{option}: unknown test {name!r}{hint}; tests: {', '.join(pool)}")
    if canon not in pool:
        where = f" in {command}" if command else ""
        raise UsageError(f"{option} {canon} is not available{where} (tests: {', '.join(pool)})")
    return REGISTRY[canon]


def parse(values, *, allowed: Iterable[str] | None = None, option: str = "--test",
          command: str | None = None) -> list[str]:
    """Canonical names, in order and without repeats, from repeatable and/or
    comma-separated values (``["t,sign", "wilcoxon"]``)."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        for part in str(v).split(","):
            if not part.strip():
                continue
            name = get(part, allowed=allowed, option=option, command=command).name
            if name not in out:
                out.append(name)
    if values and not out:          # "--test ," is a mistake, not the default
        raise UsageError(f"{option}: no test given (found {', '.join(map(repr, values))})")
    return out


def requirement(name: str) -> str:
    """The scale test ``name`` requires: "ordinal" or "interval"."""
    return get(name).requires


def permissible(measure_scale: str | None, test: str) -> bool | None:
    """Whether a measure on ``measure_scale`` permits ``test``; None when the
    measure's scale is unknown."""
    if measure_scale is None or measure_scale not in _SCALE_ORDER:
        return None
    return _SCALE_ORDER[measure_scale] >= _SCALE_ORDER[requirement(test)]


# The paired test a measure gets when none is named (``sigtest`` without
# --test, ``report``): the most powerful paired test its scale permits
# (Ferrante et al. 2021 §2.5).  Interval and ratio scales: Student's t (the
# randomization and bootstrap tests are permissible too, but are random and
# slower, and agree with t on IR topic sets).  Ordinal: the sign test -- the
# Wilcoxon signed-rank test ranks the differences, which needs equal
# intervals, so it requires an interval scale like t.  Unknown (per-topic
# --scores files without --scores-scale): the sign test, which asks least.
DEFAULT_BY_SCALE = {"ratio": "t", "interval": "t", "ordinal": "sign", None: "sign",
                    "nominal": "sign"}

_DEFAULT_WHY = {
    "ratio": "ratio scale: paired t is permissible",
    "interval": "interval scale: paired t is permissible",
    "ordinal": "ordinal scale: sign test (t, wilcoxon and randomization need an interval "
               "scale)",
    None: "scale unknown: sign test (needs only an ordinal scale)",
    "nominal": "nominal scale: no test is permissible",
}


def default_test(scale: str | None) -> tuple[str, str]:
    """``(test, why)``: the paired test for a measure on ``scale`` when no
    test is named, and one line saying why (see :data:`DEFAULT_BY_SCALE`)."""
    key = scale if scale in DEFAULT_BY_SCALE else None
    return DEFAULT_BY_SCALE[key], _DEFAULT_WHY[key]


def run(name: str, a, b, *, alternative: str = "two-sided", samples: int = 100_000,
        seed: int = 42):
    """p-values of the two-sample test ``name`` on rows of a and b (about b − a)."""
    t = get(name, allowed=TWO_SAMPLE)
    return t.function(a, b, alternative=alternative, samples=samples, seed=seed)


def omnibus(name: str, X):
    """The omnibus test ``name`` on X (runs × topics)."""
    return get(name, allowed=OMNIBUS).function(X)


def tukey(name: str, X, result=None):
    """Tukey HSD for every pair of runs after the omnibus test ``name``."""
    from ipsoeval.stats import omnibus as om
    return om.tukey_hsd(X, get(name, allowed=OMNIBUS).name, result)
