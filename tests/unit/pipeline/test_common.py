"""Every command of ipsoeval/pipeline, the same checks (driven by the one
table of commands): --help printed from the declaration without click or
numpy, as click prints it, and each analysis's options module without numpy."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from ipsoeval.pipeline import COMMANDS
from tests.conftest import invoke


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_comes_from_the_declaration_without_click_or_numpy(name):
    code = ("import sys; from ipsoeval._quick import stored_text; "
            f"t = stored_text([{name!r}, '--help']); "
            "print(t is not None, 'numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "80", "PATH": ""}).stdout
    assert out.split() == ["True", "False", "False"]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_click_prints_the_declarations_help(name, monkeypatch):
    from ipsoeval.declare import render_help
    from ipsoeval.pipeline import command
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke([name, "--help"])
    assert code == 0 and out == render_help(command(name), 78)


def _option_modules() -> list[str]:
    out = []
    for m in COMMANDS.values():         # the pipeline modules are named as the analyses
        for leaf in ("options", "common"):
            try:
                if importlib.util.find_spec(f"ipsoeval.analyses.{m}.{leaf}") is not None:
                    out.append(f"ipsoeval.analyses.{m}.{leaf}")
                    break
            except ModuleNotFoundError:
                break
    return out


OPTION_MODULES = _option_modules()


@pytest.mark.parametrize("module", OPTION_MODULES)
def test_the_options_module_needs_no_numpy(module):
    code = f"import sys, {module}; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
