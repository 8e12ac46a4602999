"""ipsoeval/pipeline/ppi.py: ``ipsoeval ppi`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md); both qrels options required."""

from __future__ import annotations

import inspect
from pathlib import Path

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_the_apis_signature_is_the_declarations():
    import ipsoeval
    func = getattr(ipsoeval, 'ppi')
    got = [(p.name, p.kind.name, p.default) for p in inspect.signature(func).parameters.values()]
    assert got == API
    assert "Keyword arguments" in func.__doc__


API = [("human", P, E), ("auto", P, E), ("measures", K, None), ("nuggets", K, False),
       ("nuggets_format", K, "auto"), ("method", K, "ppi++"), ("baseline", K, None),
       ("all_pairs", K, False), ("correct", K, "none"), ("alpha", K, 0.05)]


def test_ppi_needs_both_qrels_options():
    code, _, err = invoke(["ppi", "--human", str(ROOT / "testdata/ppi/human.qrels"), "-m", "AP",
                           str(ROOT / "testdata/adhoc/run-bm25.txt")])
    assert code == 2 and err == "ipsoeval: error: Missing option '--auto'.\n"
