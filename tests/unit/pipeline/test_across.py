"""ipsoeval/pipeline/across.py: ``ipsoeval across`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md); -l checked as every command checks it."""

from __future__ import annotations

import inspect
from pathlib import Path

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_the_apis_signature_is_the_declarations():
    import ipsoeval
    func = getattr(ipsoeval, 'across')
    got = [(p.name, p.kind.name, p.default) for p in inspect.signature(func).parameters.values()]
    assert got == API
    assert "Keyword arguments" in func.__doc__


API = [("collections", P, E), ("measures", P, None), ("baseline", K, None),
       ("effect", K, "md"), ("method", K, "reml"), ("alpha", K, 0.05),
       ("samples", K, 1000), ("seed", K, 42), ("correct", K, "holm"),
       ("queries", K, "qrels"), ("engine", K, "local"), ("progress", K, None)]


def test_across_refuses_a_relevance_level_beyond_64_bits():
    # as every command: a usage error, not an internal error in the scoring
    code, out, err = invoke(["across", str(ROOT / "testdata/across/manifest.tsv"), "-m", "AP",
                             "-l", str(2 ** 63)])
    assert code == 2 and out == ""
    assert err == (f"ipsoeval: error: Invalid value for '-l' / '--rel-level': {2 ** 63} is "
                   f"not a 64-bit integer.\n")


def test_across_offers_the_meta_analysis_effects_and_methods():
    from ipsoeval.analyses import across
    from ipsoeval.stats import meta_analysis as ma
    assert (across.EFFECTS, across.METHODS) == (ma.EFFECTS, ma.METHODS)
