"""ipsoeval/pipeline/ppi.py: ``ipsoeval ppi`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md); both qrels options required."""

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
            "t = stored_text(['ppi', '--help']); "
            "print(t is not None, 'numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "80", "PATH": ""}).stdout
    assert out.split() == ["True", "False", "False"]


def test_click_prints_the_declarations_help(monkeypatch):
    from ipsoeval.declare import render_help
    from ipsoeval.pipeline import command
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke(['ppi', "--help"])
    assert code == 0
    assert out == render_help(command('ppi'), 78)


def test_the_options_module_needs_no_numpy():
    code = "import sys, ipsoeval.analyses.ppi.options; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


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
