"""ipsoeval/pipeline/meta.py: ``ipsoeval meta`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md)."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_help_comes_from_the_declaration_without_click_or_numpy():
    code = ("import sys; from ipsoeval._quick import stored_text; "
            "t = stored_text(['meta', '--help']); "
            "print(t is not None, 'numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "80", "PATH": ""}).stdout
    assert out.split() == ["True", "False", "False"]


def test_click_prints_the_declarations_help(monkeypatch):
    from ipsoeval.declare import render_help
    from ipsoeval.pipeline import command
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke(['meta', "--help"])
    assert code == 0
    assert out == render_help(command('meta'), 78)


def test_the_options_module_needs_no_numpy():
    code = "import sys, ipsoeval.analyses.meta.options; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


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
