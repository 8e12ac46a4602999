"""ipsoeval/cli/build.py: the click command made from a declaration."""

from __future__ import annotations

from click.testing import CliRunner

from ipsoeval.declare import Arg, Command, option, options


@options
class _Needed:
    given: str | None = option("--given", metavar="FILE", required=True, help="Needed.")


def test_a_required_option_left_out_is_a_usage_error():
    # an explicit default of None counts as given for click 8.2 and later
    from ipsoeval.cli.build import click_command
    seen = {}
    cmd = click_command(Command("x", "X.", (Arg("rest", "REST...", many=True, required=False),),
                                (_Needed,)), lambda ctx, v: seen.update(v))
    r = CliRunner().invoke(cmd, ["a"])
    assert r.exit_code == 2 and "Missing option '--given'" in r.output and not seen
    r = CliRunner().invoke(cmd, ["--given", "f", "a"])
    assert r.exit_code == 0 and seen == {"given": "f", "rest": ("a",)}


def test_most_commands_are_one_line_of_command_for():
    # the run of a command (from_values with the command line's warnings,
    # notes and progress, then emit) is written once, in cli/build.py
    import ast
    import pathlib

    import ipsoeval.cli as cli_pkg
    own_run = set()
    for path in sorted(pathlib.Path(cli_pkg.__file__).parent.glob("*_cmd.py")):
        tree = ast.parse(path.read_text())
        if any(isinstance(n, ast.FunctionDef) and n.name == "run" for n in tree.body):
            own_run.add(path.stem)
    # ipso: which options were given; sigtest: --junit needs --fail-if;
    # report: a page, not a report; measures, nuggets: no warnings to route
    assert own_run == {"ipso_cmd", "sigtest_cmd", "report_cmd", "measures_cmd",
                       "nuggets_cmd"}


def test_command_for_passes_the_listing_only_where_the_pipeline_answers_it(monkeypatch):
    import types

    from ipsoeval.cli import build
    from ipsoeval.cli import output as out_
    from ipsoeval.pipeline import risk
    seen = {}

    def from_values(v, **kw):
        seen.update(kw)
        return None                     # --table list answered: nothing emitted

    monkeypatch.setattr(out_, "emit", lambda *a, **k: seen.setdefault("emitted", True))
    fake = types.SimpleNamespace(COMMAND=risk.COMMAND, from_values=from_values)
    build.run_pipeline(None, {"output": None, "fmt": None}, fake, lists_tables=True,
                       progress=False, given=1)
    assert set(seen) == {"warn", "note", "listing", "given"}
    seen.clear()
    build.run_pipeline(None, {"output": None, "fmt": None}, fake, progress=True)
    assert set(seen) == {"warn", "note", "progress"}
