"""The one registry of test statistics; tests/cli/test_options_vocabulary.py
checks the options vocabulary every command shares.

Adding a test is one entry in ipsoeval/stats/registry.py plus its check here.
"""

import numpy as np
import pytest
import scipy.stats as ss

from ipsoeval.errors import UsageError
from ipsoeval.stats import registry

# --- the registry -------------------------------------------------------------------

def test_every_entry_is_complete():
    for name, t in registry.REGISTRY.items():
        assert t.name == name and t.title and callable(t.function)
        assert t.requires in ("ordinal", "interval")
        assert t.kind in ("paired", "unpaired", "omnibus", "allpairs")
        for a in t.aliases:
            assert registry.get(a).name == name
    # the scale each test requires: Ferrante et al. 2021, §2.5
    want = {"t": "interval", "wilcoxon": "interval", "sign": "ordinal", "ranksum": "ordinal",
            "randomization": "interval", "bootstrap": "interval", "anova": "interval",
            "anova2": "interval", "kruskal": "ordinal", "friedman": "ordinal",
            "randhsd": "interval"}
    assert {n: t.requires for n, t in registry.REGISTRY.items()} == want


@pytest.mark.parametrize("name, ref", [
    ("t", lambda b, a, alt: ss.ttest_rel(b, a, alternative=alt).pvalue),
    ("wilcoxon", lambda b, a, alt: ss.wilcoxon(b, a, alternative=alt).pvalue),
    ("sign", lambda b, a, alt: ss.binomtest(int((b > a).sum()), int((b != a).sum()), 0.5,
                                            alternative=alt).pvalue),
    ("ranksum", lambda b, a, alt: ss.mannwhitneyu(b, a, alternative=alt).pvalue),
])
@pytest.mark.parametrize("alt", ["two-sided", "less", "greater"])
def test_functions_match_scipy(name, ref, alt):
    rng = np.random.default_rng(3)
    a = rng.random(30)
    b = a + rng.normal(0.05, 0.2, 30)
    got = float(registry.run(name, a, b, alternative=alt).pvalue)
    assert got == pytest.approx(ref(b, a, alt), rel=1e-9)


def test_resampling_tests_take_samples_and_seed():
    rng = np.random.default_rng(1)
    a, b = rng.random(40), rng.random(40)
    for name in ("randomization", "bootstrap"):
        assert registry.get(name).resampling
        p1 = registry.run(name, a, b, samples=999, seed=5).pvalue
        assert p1 == registry.run(name, a, b, samples=999, seed=5).pvalue
        assert (float(p1) * 1000) == pytest.approx(round(float(p1) * 1000))  # (c+1)/(B+1)


def test_omnibus_and_tukey():
    X = np.random.default_rng(2).random((3, 25))
    res = registry.omnibus("anova", X)
    assert res.pvalue == pytest.approx(ss.f_oneway(*X).pvalue)
    assert registry.tukey("anova", X, res).pvalue[0, 1] == pytest.approx(
        ss.tukey_hsd(*X).pvalue[0, 1], abs=1e-6)


def test_parse_aliases_order_and_errors():
    assert registry.parse(["t,permutation", "KW", "t"]) == ["t", "randomization", "kruskal"]
    with pytest.raises(UsageError, match="did you mean 'wilcoxon'"):
        registry.parse(["wilcoxn"])
    with pytest.raises(UsageError, match="not available in ipso"):
        registry.parse(["anova"], allowed=registry.TWO_SAMPLE, command="ipso")
