"""``ipsoeval --help``, ``ipsoeval COMMAND --help`` and ``ipsoeval --version``
served without click (issue 25): the console entry (ipsoeval/_quick.py)
prints the text stored in ipsoeval/_helptext.py, which must be what click
prints, byte for byte, at the same terminal width; any other width, and any
other call, goes to click.

When a command's option or docstring changes, regenerate the stored text::

    python -m ipsoeval.cli._helptext_gen      # or: make helptext
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ipsoeval import _helptext, _quick
from ipsoeval.cli import COMMANDS, _helptext_gen
from tests.conftest import ROOT

REGEN = "stale: run `python -m ipsoeval.cli._helptext_gen` (make helptext)"
HEAVY = ("click", "numpy", "scipy", "rich")

# the console entry, then the heavy packages it loaded (stderr's last line)
ENTRY = ("import sys\nfrom ipsoeval._quick import main\nmain()\n"
         "sys.stderr.write(' '.join(sorted(m for m in sys.modules "
         f"if m.split('.')[0] in {HEAVY!r})) + '\\n')\n")
FULL = "from ipsoeval.cli import main; main()"


def _run(code: str, args: list[str], columns: str | None = "80", **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("COLUMNS", None)
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          env=env, timeout=120, **kw)


@pytest.fixture(scope="module")
def rendered():
    return _helptext_gen.helptexts()


def test_stored_help_is_what_click_prints(rendered):
    assert sorted(rendered) == [78, 98]
    for width, texts in rendered.items():
        assert list(_helptext.HELP[width]) == ["", *COMMANDS], REGEN
        for name, text in texts.items():
            assert _helptext.HELP[width][name] == text, f"ipsoeval {name} --help: {REGEN}"
    assert _helptext_gen.TARGET.read_text(encoding="utf-8") == _helptext_gen.source(), REGEN
    assert _helptext.MAX_CONTENT_WIDTH == 100


def test_a_changed_docstring_is_caught(monkeypatch, rendered):
    from ipsoeval.cli.sigtest_cmd import command
    monkeypatch.setattr(command, "help", command.help + "\n\nA new paragraph.")
    now = _helptext_gen.render(["sigtest", "--help"], 80)
    assert "A new paragraph." in now and now != _helptext.HELP[78]["sigtest"]


@pytest.mark.parametrize("name", ["", *COMMANDS])
def test_short_help_flag_prints_the_same(name):
    args = [name] if name else []
    assert (_helptext_gen.render([*args, "-h"], 80)
            == _helptext_gen.render([*args, "--help"], 80))


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "abc", " 90 ", "1", "49", "51",
                                     "52", "60", "79", "80", "81", "99", "100", "101",
                                     "102", "250"])
def test_help_width_is_clicks(columns, monkeypatch):
    from click.formatting import HelpFormatter
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _quick.help_width(100) == HelpFormatter(max_width=100).width


def test_stored_text_only_for_help_alone(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert _quick.stored_text(["--help"]) == _helptext.HELP[78][""]
    assert _quick.stored_text(["ppi", "-h"]) == _helptext.HELP[78]["ppi"]
    for args in (["--debug", "--help"], ["nosuch", "--help"], ["-h", "sigtest"],
                 ["sigtest", "-m", "AP", "--help"], ["--help", "--help"], ["sigtest"], [],
                 ["eval", "--version"], ["--version", "--help"], ["", "--help"],
                 [" sigtest", "-h"]):
        assert _quick.stored_text(args) is None, args
    monkeypatch.setenv("COLUMNS", "70")
    assert _quick.stored_text(["--help"]) is None
    monkeypatch.setenv("COLUMNS", "140")
    assert _quick.stored_text(["--help"]) == _helptext.HELP[98][""]


@pytest.mark.parametrize("args,columns", [(["--help"], "80"), (["sigtest", "--help"], "80"),
                                          (["risk", "-h"], None), (["eval", "--help"], "120"),
                                          (["--version"], "80"), (["-V"], "80")])
def test_console_entry_serves_it_without_click_or_numpy(args, columns):
    p = _run(ENTRY, args, columns)
    assert p.returncode == 0, p.stderr
    assert p.stderr.decode().strip() == "", "loaded " + p.stderr.decode()
    full = _run(FULL, args, columns)
    assert full.returncode == 0
    assert p.stdout == full.stdout


def test_a_narrow_terminal_goes_to_click():
    p = _run(ENTRY, ["sigtest", "--help"], "60")
    assert p.returncode == 0
    assert p.stdout.decode() == _helptext_gen.render(["sigtest", "--help"], 60)
    assert p.stdout.decode() != _helptext.HELP[78]["sigtest"]


def test_other_calls_go_to_click():
    p = _run(ENTRY, ["nosuch", "--help"])
    assert p.returncode == 2
    assert p.stderr.decode().startswith("ipsoeval: error: no such command 'nosuch'")


def test_closed_pipe_is_quiet_and_zero():
    cmd = (f"{sys.executable} -c 'from ipsoeval._quick import main; main()' --help | head -1;"
           " echo ${PIPESTATUS[0]}")
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80"))
    assert p.stdout.splitlines() == ["Usage: ipsoeval [OPTIONS] COMMAND [ARGS]...", "0"]
    assert p.stderr == ""
    # the reader gone before the first write
    proc = subprocess.Popen([sys.executable, "-c", "from ipsoeval._quick import main; main()",
                             "report", "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""


@pytest.mark.parametrize("given", [None, "2"])
def test_console_entry_starts_one_blas_thread_unless_told(given, tmp_path):
    """OpenBLAS's thread pool costs ~40 ms of CPU at `import numpy` and no
    command gains from it: the console entry sets OPENBLAS_NUM_THREADS=1 for
    every command (before numpy is imported), unless it is set."""
    code = ("import atexit, os, sys\n"
            "atexit.register(lambda: sys.stderr.write("
            "'\\nOPENBLAS=' + os.environ.get('OPENBLAS_NUM_THREADS', '-') + '\\n'))\n"
            "from ipsoeval._quick import main\nmain()\n")
    qrels = ROOT / "testdata" / "adhoc"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("OPENBLAS_NUM_THREADS", None)
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    p = subprocess.run([sys.executable, "-c", code, "agree", "-o", str(tmp_path / "a.tsv"),
                        str(qrels / "qrels.txt"), str(qrels / "qrels-b.txt")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines()[-1] == f"OPENBLAS={given or '1'}"
    assert (tmp_path / "a.tsv").stat().st_size > 0
