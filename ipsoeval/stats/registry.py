"""The one registry of test statistics: name, aliases, the scale a test
requires, and the function computing it.

Every command that names a test (``sigtest --test``, ``breakdown``'s
outcome tests and ``--verdict-test``, ``ipso --test``, ``interval-map
--analyze --test``, ``bootstrap --split-half --test``) resolves the name
here, and every p-value they report comes from the function declared here.
Adding a test is one entry below plus its test in tests/unit/stats/test_registry.py;
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

from ipsoeval.errors import UsageError

TYPE_CHECKING = False      # typing costs ~3 ms to import; annotations only
if TYPE_CHECKING:
    from typing import Callable, Iterable

__all__ = ["TestStatistic", "REGISTRY", "get", "parse", "names", "requirement",
           "permissible", "default_test", "DEFAULT_BY_SCALE", "DEFAULT_TEXT", "default_for", "describe_choice", "test_note",
           "vocabulary", "run", "p_t_sums", "p_sign_counts", "omnibus", "tukey", "PAIRED", "TWO_SAMPLE", "OMNIBUS"]


class TestStatistic:
    """One test: its name (the spelling every output uses), aliases accepted
    on input, a title for people, the scale it requires, its kind and whether
    it draws random resamples (``--samples``, ``--seed``).  An immutable
    record (a plain class: a dataclass would cost every command's --help the
    ~20 ms of importing dataclasses)."""

    __test__ = False  # not a pytest test class
    __slots__ = ("name", "title", "requires", "kind", "aliases", "resampling", "function",
                 "from_sums")

    def __init__(self, name: str, title: str, requires: str, kind: str,
                 aliases: tuple[str, ...] = (), resampling: bool = False,
                 function: Callable | None = None, from_sums: Callable | None = None):
        # requires: "ordinal" | "interval"; kind: "paired" | "unpaired" |
        # "omnibus" | "allpairs"; from_sums: the same test's p-values from
        # sufficient statistics, vectorised over many comparisons (t: n, Σd,
        # Σd²; sign: k, m); None where there is none
        for attr, value in zip(self.__slots__, (name, title, requires, kind, aliases,
                                                resampling, function, from_sums)):
            object.__setattr__(self, attr, value)

    def __setattr__(self, attr, value):
        raise AttributeError(f"TestStatistic is immutable (cannot set {attr!r})")

    def _key(self) -> tuple:
        return tuple(getattr(self, a) for a in self.__slots__)

    def __eq__(self, other):
        return self._key() == other._key() if isinstance(other, TestStatistic) \
            else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"TestStatistic({self.name!r}, {self.title!r}, {self.requires!r}, {self.kind!r})"


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
                  ("ttest", "t-test", "student", "paired-t"), function=_paired_t,
                  from_sums=lambda n, s1, s2: p_t_sums(n, s1, s2)),
    TestStatistic("wilcoxon", "Wilcoxon signed-rank (zero differences dropped)", "interval",
                  "paired", ("signed-rank", "signrank", "wsr"), function=_wilcoxon),
    TestStatistic("sign", "sign test, exact binomial (zero differences dropped)", "ordinal",
                  "paired", ("binomial",), function=_sign,
                  from_sums=lambda k, m: p_sign_counts(k, m)),
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

# the [default: ...] of every command's --test that follows the policy
DEFAULT_TEXT = "per measure, the test its scale permits: t (interval, ratio), sign (ordinal)"

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


def default_for(scale: str | None, pool: Iterable[str] | None = None) -> str:
    """The policy's test for a measure on ``scale`` (:data:`DEFAULT_BY_SCALE`),
    for every command that tests or decides "differs" without --test
    (sigtest, agree, meta, bootstrap's split-half, report's pairs)."""
    test = default_test(scale)[0]
    if pool is not None and test not in tuple(pool):
        raise ValueError(f"the default test {test} is not in {tuple(pool)}")
    return test


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe_choice(choices, *, given: bool = False, fixed_by: str | None = None) -> str:
    """The one sentence an output prints to name its test.

    ``choices``: ``{measure: (test, scale)}`` (or one ``(test, measure, scale)``
    tuple).  By default the tests are the policy's (:func:`default_test`);
    ``given``: named with --test; ``fixed_by``: the method fixes the test by
    definition (e.g. "leaderboard's randomised Tukey HSD").

    "Test: sign test (nDCG@10 is ordinal; Ferrante et al. 2021 §2.5)."
    """
    if isinstance(choices, tuple):
        test, measure, scale = choices
        choices = {measure: (test, scale)}
    by_test: dict[str, list[str]] = {}
    scales: dict[str, dict[str, list[str]]] = {}
    for m, (test, scale) in choices.items():
        by_test.setdefault(test, []).append(m)
        scales.setdefault(test, {}).setdefault(scale or "of unknown scale", []).append(m)
    parts = []
    for test, ms in by_test.items():
        title = _SHORT.get(test, get(test).title)
        if fixed_by or given:
            parts.append(f"{title} for {_join(ms)}" if len(by_test) > 1 else title)
            continue
        why = "; ".join(f"{_join(v)} {'are' if len(v) > 1 else 'is'} {sc}"
                        for sc, v in scales[test].items())
        parts.append(f"{title} ({why})")
    body = "; ".join(parts)
    if fixed_by:
        return f"Test: {body} ({fixed_by}; not the default by scale)."
    if given:
        return f"Test: {body} (named by --test)."
    return f"Test: {body}; the default by scale (Ferrante et al. 2021 §2.5)."


def test_note(given, scales: dict, pool: Iterable[str] | None = None) -> str:
    """The sentence naming the tests of a command on measures with these
    ``scales`` ({measure: scale}): ``given`` the tests named by --test (empty:
    each measure's default by scale)."""
    given = list(given or ())
    if len(given) > 1:
        return f"Tests: {', '.join(_SHORT.get(t, t) for t in given)} (named by --test)."
    if given:
        return describe_choice({m: (given[0], sc) for m, sc in scales.items()}, given=True)
    return describe_choice({m: (default_for(sc, pool), sc) for m, sc in scales.items()})


_SHORT = {"t": "paired t test", "sign": "sign test", "wilcoxon": "Wilcoxon signed-rank test",
          "randomization": "paired randomization test", "bootstrap": "paired bootstrap test",
          "ranksum": "Wilcoxon rank-sum test", "randhsd": "randomised Tukey HSD"}


# What each command's rank interval is, in one sentence each: two different
# quantities under two different column names.
RANK_BEST_WORST_NOTE = ("rank_best..rank_worst: the ranks consistent with the randomised "
                        "Tukey HSD groups (1 + runs significantly better .. runs - runs "
                        "significantly worse); not a bootstrap interval.")


def rank_ci_note(level: float) -> str:
    return (f"rank_ci_low..rank_ci_high: the {level:.0%} percentile bootstrap interval of the "
            f"rank over topic resamples (Craswell et al. 2021); not the ranks the tests allow.")


def vocabulary(allowed: Iterable[str] | None = None) -> list[str]:
    """Every spelling ``--test`` accepts among ``allowed`` (default all):
    the registry's names, then their aliases -- the one vocabulary every
    command's --test choices come from."""
    pool = tuple(allowed) if allowed is not None else names()
    return list(pool) + [a for a, n in _ALIASES.items() if n in pool]


# -- vectorised p-values from sufficient statistics ------------------------
# The same tests as the functions above, on many comparisons at once from
# their sums (bootstrap's split-half computes them for every half of every
# split with matrix products); numpy's kernels of stats.dist.

def p_t_sums(n, s1, s2):
    """Two-sided paired t p-values from n, Σd and Σd² of the differences
    (NaN below 2 topics or for 0/0), as :func:`ipsoeval.stats.tests.paired_t`."""
    import numpy as np

    from ipsoeval.special import dist
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s1 / n
        var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1.0)
        t = mean / (np.sqrt(var) / np.sqrt(n))
        p = 2.0 * dist.np_stdtr(n - 1.0, -np.abs(t))
    return np.where(np.isnan(t) | (n < 2), np.nan, p)


def p_sign_counts(k, m):
    """Two-sided exact sign test p-values from k positive of m non-zero
    differences, as :func:`ipsoeval.stats.tests.sign_test`."""
    import numpy as np

    from ipsoeval.special import dist
    k = np.asarray(k, dtype=np.int64)
    m = np.asarray(m, dtype=np.int64)
    less = np.where(m > 0, dist.np_bdtr(k, np.maximum(m, 1), 0.5), 1.0)
    greater = np.where(k > 0, dist.np_bdtrc(np.maximum(k - 1, 0), np.maximum(m, 1), 0.5), 1.0)
    return np.where(2 * k == m, 1.0, np.minimum(1.0, 2.0 * np.minimum(less, greater)))


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
