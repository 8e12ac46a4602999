"""Every command of ipsoeval/pipeline, the same checks (driven by the one
table of commands): --help printed from the declaration without click or
numpy, and each analysis's options module without numpy.  (That click prints
the declaration's help, at three widths: tests/unit/test_declare.py.)"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from ipsoeval.pipeline import COMMANDS


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_comes_from_the_declaration_without_click_or_numpy(name):
    code = ("import sys; from ipsoeval._quick import stored_text; "
            f"t = stored_text([{name!r}, '--help']); "
            "print(t is not None, 'numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"COLUMNS": "80", "PATH": ""}).stdout
    assert out.split() == ["True", "False", "False"]


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
