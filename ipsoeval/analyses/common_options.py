"""The options several analyses share, declared once: each function returns
the :func:`ipsoeval.declare.option` field of one option -- its flag, kind,
range and default, and the wording every command gives it -- with what a
command words its own way (which samples, which baseline, which family of
p-values) passed in.  No numpy here: the options modules that use these stay
light enough for ``--help``."""

from __future__ import annotations

from ipsoeval.analyses.validate import ALTERNATIVES, CORRECTIONS
from ipsoeval.declare import option

SEED_HELP = "Seed of the random generator (same seed, same output)."
ALPHA_HELP = "Significance level."
RESAMPLES_HELP = "Resamples of the randomization and bootstrap tests."
EXACT_RESAMPLES_HELP = ("Resamples of the randomization and bootstrap tests (randomization is "
                        "exact when 2^topics is not larger).")
ALL_PAIRS_HELP = "Compare every pair of runs."
# what every --baseline adds after the command's own sentence
BASELINE_FORMS = "  NAME is a run name, FILE the path of one of the RUN arguments."
FIRST_RUN = "the first run"


def seed(**kw):
    """``--seed``: the random generator's seed, 42 by default."""
    return option("--seed", kind="int", low=0, default=42, show_default=True, help=SEED_HELP,
                  **kw)


def alpha(help: str = ALPHA_HELP):
    """``--alpha``: a significance level strictly between 0 and 1, 0.05 by default."""
    return option("--alpha", kind="float", low=0, high=1, low_open=True, high_open=True,
                  default=0.05, show_default=True, help=help)


def samples(default: int, help: str = RESAMPLES_HELP, **kw):
    """``--samples N``: how many resamples (at least one)."""
    return option("--samples", kind="int", low=1, default=default, show_default=True,
                  metavar="N", help=help, **kw)


def baseline(help: str, default_text: str | None = FIRST_RUN):
    """``--baseline NAME|FILE``: a run, by name or by the path it was read from;
    ``help`` says what the command does with it."""
    return option("--baseline", metavar="NAME|FILE", default_text=default_text,
                  help=help + BASELINE_FORMS)


def correct(help: str, default: str = "none"):
    """``--correct``: the multiple-comparison correction; ``help`` names the family."""
    return option("--correct", kind="choice", choices=CORRECTIONS, default=default,
                  show_default=True, help=help)


def alternative(help: str):
    """``--alternative``: two-sided by default."""
    return option("--alternative", kind="choice", choices=ALTERNATIVES, default="two-sided",
                  show_default=True, help=help)


def all_pairs(help: str = ALL_PAIRS_HELP):
    """``--all-pairs``: every pair of runs rather than each against the baseline."""
    return option("--all-pairs", kind="flag", help=help)


def tests(what: str, names, *, default, check, default_text: str | None = None):
    """``--test NAME`` (repeatable or comma-separated): ``what`` the tests are
    for, ``names`` the tests the command takes (``default_text``: else the
    test policy's, by scale)."""
    if default_text is None:
        from ipsoeval.stats import registry  # (not on eval's quick path: ~25 ms)
        default_text = registry.DEFAULT_TEXT
    return option("--test", multiple=True, metavar="NAME", default=default, check=check,
                  default_text=default_text,
                  help=f"{what}: {', '.join(names)} (repeatable or comma-separated).")


def ci(help: str):
    """``--ci``: the level of confidence intervals, 0.95 by default."""
    return option("--ci", kind="float", default=0.95, show_default=True, help=help)


def per_query(help: str):
    """``-q``/``--per-query``: one row per topic."""
    return option("-q", "--per-query", kind="flag", help=help)
