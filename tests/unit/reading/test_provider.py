"""The compiled core as a provider (ipsoeval/reading/provider.py): it serves
exactly the families the registry gives a core code (and the run's name),
says why it declines every other request, and its codes are the core's."""

import pytest

from ipsoeval.measures import parse_measure
from ipsoeval.measures.registry import FAMILIES
from ipsoeval.reading import provider
from ipsoeval.reading.core import CORE

SERVED = [f for f in FAMILIES.values() if f.core or f.agg == "text"]   # runid: the layout's
DECLINED = [f for f in FAMILIES.values() if f not in SERVED]


def test_the_codes_are_the_cores():
    """The one binding of the Python declarations to _core.c's G_* enum."""
    if CORE is None:
        pytest.skip("compiled core not built")
    assert {f.name: f.core for f in FAMILIES.values() if f.core} == CORE.family_codes()


def test_codes_are_declared_once_each():
    codes = [f.core for f in FAMILIES.values() if f.core]
    assert len(codes) == len(set(codes)) and all(c > 0 for c in codes)


def test_the_core_assumes_errs_default_gmax():
    # _core.c's G_ERR_GMAX: ERR at its default gmax, a larger label declines
    assert FAMILIES["ERR"].param("gmax").default == 4


@pytest.mark.parametrize("fam", SERVED, ids=lambda f: f.name)
def test_served_families(fam):
    at = fam.cutoff == "required" or fam.name in provider.CUTOFF_ONLY
    m = parse_measure(fam.name + ("@10" if at else ""))
    assert provider.supports(m) is None
    assert provider.kind(fam.name) in ("float", "int", "count", "text")
    assert provider.moved_by_ties(fam.name) == (not fam.tie_invariant)
    if fam.cutoff != "none":
        assert provider.supports(parse_measure(f"{fam.name}@1000")) is None
    if "rel" in fam.param_names and fam.respell is None:
        for rel in (0, 1, 2):
            m = parse_measure(f"{fam.name}(rel={rel})" + ("@10" if at else ""))
            assert provider.supports(m) is None
            assert provider.spec(m) == (fam.core, m.cutoff or 0, rel)
    # every other parameter: declined, with its reason
    for p in fam.params:
        if p.name == "rel" or p.default is None:
            continue
        other = type(m)(fam.name, m.cutoff, ((p.name, p.default),))
        why = provider.supports(other)
        assert why and fam.name in why


def test_judged_without_a_cutoff_is_the_full_programs():
    """Plain Judged (the whole ranking) is declined: the core's kernel takes
    a cutoff; Judged@k is served."""
    why = provider.supports(parse_measure("Judged"))
    assert why == "Judged without a cutoff: the compiled core computes it at a cutoff only"
    assert provider.supports(parse_measure("Judged@10")) is None


@pytest.mark.parametrize("fam", DECLINED, ids=lambda f: f.name)
def test_declined_families_say_why(fam):
    m = parse_measure(fam.example_name())
    why = provider.supports(m)
    assert isinstance(why, str) and why.startswith(m.family)


def test_options_the_core_does_not_take():
    m = parse_measure("nDCG@10")
    assert provider.supports(m) is None
    assert "integer labels" in provider.supports(m, labels="gain")
    assert "ties" in provider.supports(m, tie_break="expected")


def test_unknown_family():
    class Req:
        family, cutoff, params = "Nope", None, ()
    assert provider.supports(Req()) == "Nope: no such measure family"
