"""ipsoeval/analyses/common_options.py: the options several analyses share,
each declared once and worded the same in every command that takes it."""

from __future__ import annotations

import importlib

import pytest

from ipsoeval.analyses import common_options as co
from ipsoeval.declare import options, opts_of

# every options dataclass that takes a shared option
OPTIONS = ["across", "agree", "bootstrap", "breakdown", "evaluate", "interval_map", "ipso",
           "leaderboard", "meta", "power", "ppi", "risk"]


def _options_classes():
    for name in OPTIONS:
        mod = importlib.import_module(f"ipsoeval.analyses.{name}.options")
        yield name, getattr(mod, "Options", None) or mod.EvalOptions
    yield "sigtest", importlib.import_module("ipsoeval.analyses.sigtest.common").Options


def _all_opts():
    for name, cls in _options_classes():
        for o in opts_of(cls):
            yield name, o


def _field(make):
    @options
    class One:
        x: object = make
    return opts_of(One)[0]


def test_each_shared_option_reads_the_same_in_every_command():
    seen = {"--seed": [], "--alpha": [], "--samples": [], "--baseline": [], "--correct": [],
            "--alternative": [], "--test": [], "--all-pairs": []}
    for name, o in _all_opts():
        if o.flags and o.flags[0] in seen:
            seen[o.flags[0]].append((name, o))
    assert all(seen.values())
    for name, o in seen["--seed"]:
        assert (o.kind, o.low, o.default, o.help) == ("int", 0, 42, co.SEED_HELP), name
    for name, o in seen["--alpha"]:
        assert (o.kind, o.low, o.high, o.low_open, o.high_open, o.default) == (
            "float", 0, 1, True, True, 0.05), name
    for name, o in seen["--samples"]:
        assert (o.kind, o.low, o.metavar) == ("int", 1, "N"), name
    for name, o in seen["--baseline"]:
        assert o.metavar == "NAME|FILE" and o.help.endswith(co.BASELINE_FORMS), name
    for name, o in seen["--correct"]:
        assert o.choices == ("none", "bonferroni", "holm", "bh"), name
    for name, o in seen["--alternative"]:
        assert (o.choices, o.default) == (("two-sided", "less", "greater"), "two-sided"), name
    for name, o in seen["--test"]:
        assert o.multiple and o.help.endswith("(repeatable or comma-separated)."), name


def test_no_options_module_spells_a_shared_option_itself():
    # the flag of a shared option is written in common_options alone
    import inspect
    import re
    shared = ("--seed", "--alpha", "--samples", "--baseline", "--correct", "--alternative",
              "--all-pairs", "--test", "--ci", "--per-query")
    for name, cls in _options_classes():
        text = inspect.getsource(inspect.getmodule(cls))
        spelled = re.findall(r'option\(\s*(?:"-\w", )?"(--[\w-]+)"', text)
        assert not set(spelled) & set(shared), (name, spelled)


def test_the_command_words_its_own_part():
    o = _field(co.baseline("Run A."))
    assert o.help == "Run A." + co.BASELINE_FORMS and o.default_text == "the first run"
    assert _field(co.baseline("B.", default_text=None)).default_text is None
    o = _field(co.tests("Tests of X", ("t", "sign"), default=(), check=None))
    assert o.help == "Tests of X: t, sign (repeatable or comma-separated)."
    assert _field(co.samples(7)).default == 7
    assert _field(co.correct("Family.", default="holm")).default == "holm"
    assert _field(co.seed(api_default=None)).api_default is None


@pytest.mark.parametrize("make", [co.seed(), co.alpha(), co.samples(10), co.all_pairs()])
def test_defaults_without_wording(make):
    o = _field(make)
    assert o.help
