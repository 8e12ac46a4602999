"""ipsoeval/declare.py: one declaration per option, and every door made from it.

The central test declares a throw-away option and finds it, with no other
edit, in the click command, the Python API's signature and its behaviour,
``--help``, the fast paths' parser and the man-page check."""

from __future__ import annotations

import inspect
import random

import click
import pytest
from click.testing import CliRunner

from ipsoeval import declare
from ipsoeval.declare import Arg, Command, Group, Opt, option, options
from ipsoeval.pipeline import COMMANDS, HELP, command


@options
class _Extra:
    frobnicate: int = option("--frobnicate", kind="int", low=2, default=3, show_default=True,
                             metavar="K", help="A throw-away option of this test.")


def _with_extra(base: Command) -> Command:
    return Command(base.name, base.help, base.arguments, (*base.groups, _Extra))


def test_a_throw_away_option_reaches_every_door():
    from ipsoeval.api._declared import declared
    from ipsoeval.cli.build import click_command

    cmd = _with_extra(command("sigtest"))
    seen = {}

    # click: the option exists, converts, range-checks and reaches the callback
    cli_cmd = click_command(cmd, lambda ctx, v: seen.update(v))
    assert "--frobnicate" in [f for p in cli_cmd.params for f in getattr(p, "opts", [])]
    r = CliRunner().invoke(cli_cmd, ["--frobnicate", "7", "-m", "AP", "q", "a", "b"])
    assert r.exit_code == 0, r.output
    assert seen["frobnicate"] == 7
    r = CliRunner().invoke(cli_cmd, ["--frobnicate", "1", "q", "a", "b"])
    assert r.exit_code == 2 and "1 is not in the range x>=2" in r.output

    # the API: a keyword with its default, documented, passed through
    api = declared(cmd)(lambda res, **kw: kw)
    param = inspect.signature(api).parameters["frobnicate"]
    assert param.default == 3 and param.kind is inspect.Parameter.KEYWORD_ONLY
    assert "``frobnicate`` (--frobnicate)" in api.__doc__
    assert api(None)["frobnicate"] == 3 and api(None, frobnicate=5)["frobnicate"] == 5
    with pytest.raises(TypeError, match="frobnicat"):
        api(None, frobnicat=5)

    # --help: the same line whether click or the fast path prints it
    text = declare.render_help(cmd, 78)
    line = next(ln for ln in text.splitlines() if "--frobnicate" in ln)
    assert "--frobnicate K" in line and "[default: 3; x>=2]" in " ".join(text.split())
    assert cli_cmd.get_help(click.Context(cli_cmd)) in (text.rstrip("\n"),
                                                        declare.render_help(cmd).rstrip("\n"))

    # the fast parser: converted, range-checked, declined outside `serve`
    got = declare.parse(cmd, ["-m", "AP", "--frobnicate=4", "q", "a", "b"])
    assert got["frobnicate"] == 4 and got["measures"] == ("AP",) and got["runs"] == ("a", "b")
    assert declare.parse(cmd, ["--frobnicate", "1", "q", "a"]) is None
    assert declare.parse(cmd, ["--frobnicate", "4", "q", "a"], serve={"measures"}) is None
    assert declare.parse(cmd, ["q", "a"])["frobnicate"] == 3

    # the man page: its SYNOPSIS (generated) and the OPTIONS check name it
    assert "\\-\\-frobnicate" in declare.man_synopsis(cmd)
    assert "--frobnicate" in declare.man_options(cmd)


def test_a_group_words_and_leaves_out_options_of_its_own():
    from ipsoeval.align_options import AlignOptions, align_group
    g = align_group(paired=False, gains=False)
    dests = [o.dest for o in g.opts()]
    assert "gains" not in dests and "queries" in dests
    q = next(o for o in g.opts() if o.dest == "queries")
    assert q.default_text == "intersection" and "the run has" in q.help
    # the declaration itself is not changed by a command's wording
    assert next(o for o in declare.opts_of(AlignOptions) if o.dest == "queries").default_text \
        == "qrels"
    with pytest.raises(ValueError, match="declares no option"):
        Group(AlignOptions, without=("nope",)).opts()


def test_an_option_declared_twice_in_one_command_is_refused():
    from ipsoeval.align_options import AlignOptions
    with pytest.raises(ValueError, match="declared twice"):
        Command("x", "X.", (), (AlignOptions, AlignOptions)).opts()


def test_help_records_follow_the_kinds():
    assert Opt("--a", kind="float", low=0, high=1, low_open=True, high_open=True,
               default=0.05, show_default=True, help="H.", dest="a").help_record() == \
        ("--a FLOAT RANGE", "H.  [default: 0.05; 0<x<1]")
    assert Opt("-x", "--xx", kind="choice", choices=("p", "q"), dest="x").help_record() == \
        ("-x, --xx [p|q]", "")
    assert Opt("--f", kind="flag", default=False, show_default=True, help="F.",
               dest="f").help_record() == ("--f", "F.")
    assert Opt("--r", kind="text", required=True, help="R.", dest="r").help_record() == \
        ("--r TEXT", "R.  [required]")


@pytest.mark.parametrize("width", [50, 78, 98])
def test_wrap_keeps_paragraphs_and_the_width(width):
    text = ("word " * 40).strip() + "\n\n" + "\b\nkept   as\n   it is"
    out = declare.wrap(text, width, "  ", "  ")
    first, second = out.split("\n\n")
    assert all(len(ln) <= width for ln in first.splitlines())
    assert second == "  kept   as\n     it is"


def test_short_help_stops_at_a_sentence_or_the_limit():
    assert declare.short_help("Score runs. More text here.", 45) == "Score runs."
    assert declare.short_help("a b c d e f g h", 7) == "a b..."
    assert declare.short_help("", 10) == ""


def _declared_commands():
    out = []
    for name in COMMANDS:
        try:
            out.append(command(name))
        except (ImportError, AttributeError):
            pass            # not yet declared: its click command is its own
    return out


@pytest.mark.parametrize("cmd", _declared_commands(), ids=lambda c: c.name)
def test_each_declared_command_has_one_help_text_and_a_summary(cmd):
    assert cmd.help == declare._dedent(HELP[cmd.name])
    assert cmd.summary()
    dests = [o.dest for o in cmd.opts()]
    assert len(dests) == len(set(dests))
    flags = [f for o in cmd.opts() if o.cli for f in o.flags]
    assert len(flags) == len(set(flags)), cmd.name


@pytest.mark.parametrize("cmd", _declared_commands(), ids=lambda c: c.name)
@pytest.mark.parametrize("columns", [40, 80, 200])
def test_click_prints_the_declarations_help(cmd, columns):
    from ipsoeval.cli import cli
    out = CliRunner().invoke(cli, [cmd.name, "--help"], terminal_width=columns,
                             env={"COLUMNS": str(columns)}).output
    assert out == declare.render_help(cmd, declare.help_width(columns))


def _random_argv(cmd: Command, rng: random.Random) -> list[str]:
    argv = []
    for o in rng.sample(cmd.opts(), k=min(len(cmd.opts()), rng.randint(0, 6))):
        # options whose values the command line checks against its own state
        # (table ids, writable files) are left to the command-line tests
        if not o.cli or o.hidden or o.check is not None or o.dest in (
                "fmt", "output", "plot", "table", "warnings_mode", "junit", "measures"):
            continue
        flag = rng.choice(o.flags)
        if o.kind == "flag":
            argv.append(flag)
            continue
        if o.kind == "choice":
            value = rng.choice(o.choices)
        elif o.kind == "int":
            value = str(rng.choice([o.low if o.low is not None else -3, 0, 1, 7, 10 ** 6]))
        elif o.kind == "float":
            value = rng.choice(["0.5", "0", "1", "1e-3", "2"])
        else:
            value = rng.choice(["x", "a b", "-"])
        if flag.startswith("--") and rng.random() < 0.3:
            argv.append(f"{flag}={value}")
        elif not flag.startswith("--") and rng.random() < 0.3:
            argv.append(flag + value)
        else:
            argv += [flag, value]
    return argv + ["qrels", "run-a", "run-b"][: rng.randint(1, 3)]


@pytest.mark.parametrize("cmd", _declared_commands(), ids=lambda c: c.name)
def test_the_fast_parser_reads_what_click_reads(cmd):
    """Where the fast parser takes a command line, it gives the values click
    gives; where click refuses one, the fast parser declines it."""
    from ipsoeval.cli.build import click_command
    rng = random.Random(34)
    got_click = {}
    cli_cmd = click_command(cmd, lambda ctx, v: got_click.update(v))
    for _ in range(150):
        argv = _random_argv(cmd, rng)
        got_click.clear()
        r = CliRunner().invoke(cli_cmd, argv)
        mine = declare.parse(cmd, argv)
        if r.exit_code != 0 or not got_click:
            assert mine is None or r.exit_code != 2 or "Invalid value" not in r.output, argv
            continue
        assert mine is not None, (argv, r.output)
        given = {o.dest for o in cmd.opts() if any(
            a == f or a.startswith(f + "=") or (not f.startswith("--") and a.startswith(f))
            for f in o.flags for a in argv)}
        for k, v in got_click.items():      # what was given, and the arguments
            if k in given or k in {a.dest for a in cmd.arguments}:
                assert mine[k] == v, (argv, k, mine[k], v)


def test_arguments_take_the_rest():
    cmd = Command("x", "X.", (Arg("a", "A"), Arg("rest", "R...", many=True)), ())
    assert declare.parse(cmd, ["1", "2", "3"]) == {"a": "1", "rest": ("2", "3")}
    assert declare.parse(cmd, ["1"]) is None
    assert declare.parse(cmd, ["1", "--", "2"]) is None
