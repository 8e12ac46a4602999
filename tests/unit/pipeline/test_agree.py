"""ipsoeval/pipeline/agree.py: ``ipsoeval agree`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md); its positional parameters may be named."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_the_apis_signature_is_the_declarations():
    import ipsoeval
    func = getattr(ipsoeval, 'agree')
    got = [(p.name, p.kind.name, p.default) for p in inspect.signature(func).parameters.values()]
    assert got == API
    assert "Keyword arguments" in func.__doc__


API = [("qrels_a", P, E), ("qrels_b", P, E), ("runs", P, None), ("measures", P, None),
       ("test", K, None), ("correct", K, "none"), ("alpha", K, 0.05),
       ("samples", K, 100_000), ("seed", K, 42), ("rbo_p", K, 0.9),
       ("nuggets", K, False), ("nuggets_format", K, "auto"), ("queries", K, "qrels"),
       ("rel_level", K, 1), ("judged_only", K, False), ("depth", K, None),
       ("tie_break", K, "trec"), ("run_format", K, "auto"), ("names", K, None),
       ("name_from_file", K, False), ("gains", K, None)]


def test_the_apis_positional_parameters_may_be_named(recwarn):
    import ipsoeval
    ad = ROOT / "testdata/adhoc"
    rep = ipsoeval.agree(qrels_a=ad / "qrels.txt", qrels_b=ad / "qrels-b.txt",
                         runs=[ad / "run-bm25.txt", ad / "run-neural.txt"], measures=["AP"],
                         samples=200)
    assert rep.table("rankings").records[0]["measure"] == "AP"
    with pytest.raises(TypeError, match="'samplez'"):
        ipsoeval.agree("a", "b", samplez=1)
