"""ipsoeval/pipeline/meta.py: ``ipsoeval meta`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md)."""

from __future__ import annotations

import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_the_apis_signature_is_the_declarations():
    import ipsoeval
    func = getattr(ipsoeval, 'meta')
    got = [(p.name, p.kind.name, p.default) for p in inspect.signature(func).parameters.values()]
    assert got == API
    assert "Keyword arguments" in func.__doc__


API = [("res", P, E), ("measures", K, None), ("tests", K, None), ("alpha", K, 0.05),
       ("correct", K, "none"), ("samples", K, 10_000), ("seed", K, 42),
       ("splits", K, 1000), ("bin_width", K, 0.01), ("set_size", K, None),
       ("swap_limit", K, 0.05)]


def test_meta_and_power_share_the_api_path(monkeypatch):
    """ipsoeval.meta and ipsoeval.power on an EvalResult or scores: one helper,
    each passing its analysis and its scores path."""
    from ipsoeval.analyses import meta as me
    from ipsoeval.analyses import power as pa
    from ipsoeval.pipeline import common
    from ipsoeval.pipeline import meta as pm
    from ipsoeval.pipeline import power as pp
    seen = []
    monkeypatch.setattr(common, "_aligned_or_scores",
                        lambda res, measures, options, run, on_scores:
                        seen.append((res, measures, run, on_scores)) or "report")
    assert pm.from_result("res", measures=["AP"]) == "report"
    assert pp.from_result("res", measures=["AP"]) == "report"
    assert seen == [("res", ["AP"], me.run_aligned, pm._on_scores),
                    ("res", ["AP"], pa.run_aligned, pp._on_scores)]
