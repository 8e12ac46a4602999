"""ipsoeval/pipeline/agree.py: ``ipsoeval agree`` declared once -- its --help
printed from the declaration without click or numpy, the Python API's
signature made from it (the keywords and defaults of docs/api.md); its positional parameters may be named."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[3]
E = inspect.Parameter.empty
P, K = "POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"


def test_help_comes_from_the_declaration_without_click_or_numpy():
    code = ("import sys; from ipsoeval._quick import stored_text; "
            "t = stored_text(['agree', '--help']); "
            "print(t is not None, 'numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "80", "PATH": ""}).stdout
    assert out.split() == ["True", "False", "False"]


def test_click_prints_the_declarations_help(monkeypatch):
    from ipsoeval.declare import render_help
    from ipsoeval.pipeline import command
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke(['agree', "--help"])
    assert code == 0
    assert out == render_help(command('agree'), 78)


def test_the_options_module_needs_no_numpy():
    code = "import sys, ipsoeval.analyses.agree.options; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


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
