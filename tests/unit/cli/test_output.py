"""What a person at a terminal sees: the Environment decides
isatty, width and colour; tables fit the width; colour scales are monotonic
and readable; progress bars are labelled, on a terminal only, and erased.

Every test drives the terminal through an injected Environment (conftest's
``invoke(..., width=, color=, stderr_isatty=)``), never by patching ``os``.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from rich.cells import cell_len
from rich.color import Color, ColorSystem

from ipsoeval.cli.environment import Environment
from ipsoeval.cli.progress import make_progress
from ipsoeval.formatters import render
from ipsoeval.formatters import table as T
from ipsoeval.results import ResultSet
from tests.conftest import TESTDATA, environment, invoke

AD = TESTDATA / "adhoc"
FIG5 = TESTDATA / "ipso-fig5"
MS = TESTDATA / "msmarco"
QRELS, BM25, NEURAL = str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")
# three runs with names as long as msmarco's
THREE = ["--name", "baseline", "--name", "better-ranking", "--name", "more-answers",
         QRELS, BM25, NEURAL, BM25]
TWENTY = [a for i in range(1, 21) for a in ("--name", f"run{i:02d}")] + [QRELS] + [BM25] * 20
FIG5_FILES = [str(FIG5 / "qrels.txt"), str(FIG5 / "sysA.run"), str(FIG5 / "sysB.run")]

# every command's default table output (and the shapes the output contract names)
COMMANDS = {
    "measures": ["measures"],
    "eval-1": ["eval", QRELS, BM25],
    "eval-20": ["eval", *TWENTY],
    "eval-q": ["eval", "-q", QRELS, BM25, NEURAL],
    # four tests named (the default is one test per pair and measure): a wide table
    "sigtest": ["sigtest", "-m", "P@5", "-m", "AP", "--correct", "holm",
                "--test", "t,wilcoxon,sign,randomization", *THREE],
    "sigtest-default": ["sigtest", "-m", "P@5", "-m", "AP", "--correct", "holm", *THREE],
    "breakdown": ["breakdown", *THREE],
    "bootstrap": ["bootstrap", "-m", "AP", *THREE],
    "ipso": ["ipso", *FIG5_FILES],
    "ipso-q": ["ipso", "-q", *FIG5_FILES],
    "interval-map": ["interval-map", "-m", "P@10", "-m", "AP@10", QRELS, BM25, NEURAL],
    "interval-map-values": ["interval-map", "--values", "-m", "P@10", QRELS, BM25],
    # a few other shapes: several tables, per-topic rows
    "sigtest-both-scales": ["sigtest", "-m", "P@5", "--scale", "both", *THREE],
    "interval-map-analyze": ["interval-map", "--analyze", "-m", "P@10", "-m", "RR@10", *THREE],
    "breakdown-q": ["breakdown", "-q", *THREE],
    "ppi": ["ppi", "--human", str(TESTDATA / "ppi" / "human.qrels"), "--auto",
            str(TESTDATA / "ppi" / "auto.qrels"), "-m", "AP", "-m", "P@10", BM25, NEURAL],
    "nuggets-q": ["nuggets", "-q", str(TESTDATA / "nuggets" / "auto.jsonl")],
    "risk": ["risk", "-m", "AP", *THREE],
}


def table(args, width, **kw):
    code, out, err = invoke([args[0], "--format", "table", *args[1:]], width=width, **kw)
    assert code == 0, err
    return out


def widest(text: str) -> int:
    return max((cell_len(line) for line in text.splitlines()), default=0)


@pytest.fixture(scope="module")
def shown():
    """Each command's table at 80 and 200 columns (run once per module)."""
    return {(name, w): table(args, w) for name, args in COMMANDS.items() for w in (80, 200)}


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("width", [80, 200])
def test_no_line_is_wider_than_the_terminal(shown, name, width):
    out = shown[name, width]
    assert out.strip()
    assert widest(out) <= width, "\n".join(ln for ln in out.splitlines() if cell_len(ln) > width)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_wider_terminal_shows_more_per_line(shown, name):
    assert len(shown[name, 200].splitlines()) <= len(shown[name, 80].splitlines())


def test_the_demo_sigtest_fits_80_columns():
    out = table(["sigtest", "-m", "RR@10", "-m", "nDCG@10", "--correct", "holm",
                 str(MS / "qrels.txt"), *(str(MS / f"{r}.run.xz")
                                          for r in ("baseline", "more-answers",
                                                    "better-ranking"))], 80)
    assert widest(out) <= 80 and "better-ranking" in out


def test_many_runs_become_rows(shown):
    out = shown["eval-20", 80]
    # no qid column without -q (it once read "all" on every row)
    header = next(ln for ln in out.splitlines() if ln.split()[:1] == ["run"])
    assert "run01" not in header and "qid" not in header
    rows = [ln.split() for ln in out.splitlines() if re.match(r"\s+run\d\d\b", ln)]
    assert sorted({r[0] for r in rows}) == [f"run{i:02d}" for i in range(1, 21)]
    # one run: runs stay columns (measures down the side), as before
    one = shown["eval-1", 80].splitlines()
    assert any(ln.split() == ["measure", "bm25"] for ln in one)


def test_blocks_repeat_the_key_columns(shown):
    out = shown["sigtest", 80]
    parts = re.findall(r"part (\d+)/(\d+)", out)
    assert len(parts) > 1
    headers = [ln.split() for ln in out.splitlines() if ln.split()[:2] == ["run_a", "run_b"]]
    assert len(headers) == len(parts)
    shown_cols = {c for h in headers for c in h}
    for col in ("measure", "n", "mean_a", "mean_b", "diff", "t", "wilcoxon", "sign",
                "randomization"):
        assert col in shown_cols
    # at 200 columns the wide table is one table
    wide = shown["sigtest", 200]
    assert "part 1/" not in wide
    assert len([ln for ln in wide.splitlines() if ln.split()[:2] == ["run_a", "run_b"]]) == 1


def test_split_parts_repeat_the_row_labels():
    # bootstrap --split-half at 80 columns is two parts; part 2 once lost `rate`
    out = table(["bootstrap", "-m", "AP", "--split-half", "5", "--aggregate", "mean,median",
                 "--test", "sign,ranksum,wilcoxon,t", QRELS, BM25, NEURAL], 80)
    parts = out.split("part ")[1:]
    assert len(parts) == 2
    for part in parts:
        head = next(ln.split() for ln in part.splitlines() if ln.split()[:1] == ["measure"])
        assert head[:2] == ["measure", "rate"], head
        for label in ("agree", "part. agree", "disagree", "perc. signif"):
            assert re.search(rf"^\s+AP\s+{re.escape(label)}\s", part, re.M), (label, part)


def test_leading_text_columns_are_row_labels():
    # without a hint: identifier columns and then text columns, up to the first number
    recs = [{"measure": "AP", "rate": f"rate{i}", "note": 1.0 * i,
             **{f"column_{j}": 0.123456 * j for j in range(12)}} for i in range(3)]
    rs = ResultSet("x", list(recs[0]), recs, title="t")
    out = T.render([rs], width=60)
    heads = [ln.split() for ln in out.splitlines() if ln.split()[:1] == ["measure"]]
    assert len(heads) > 1 and all(h[:2] == ["measure", "rate"] for h in heads)
    assert all("note" not in h for h in heads[1:])


def test_sigtest_table_view_has_one_row_per_pair_and_measure(shown):
    for w in (80, 200):
        rows = [ln.split() for ln in shown["sigtest", w].splitlines()
                if ln.split()[:1] == ["baseline"]]
        pairs = {(r[1], r[2]) for r in rows if len(r) > 2 and r[2] in ("P@5", "AP")}
        assert pairs == {(b, m) for b in ("better-ranking", "more-answers")
                         for m in ("P@5", "AP")}


def test_value_set_listing_is_complete(shown):
    for w in (80, 200):
        rows = [ln.split() for ln in shown["interval-map-values", w].splitlines()
                if ln.split()[:1] == ["P@10"]]
        listing = [r for r in rows if len(r) >= 6]
        assert [r[1] for r in listing] == [f"{i / 10:.4f}" for i in range(11)]
        assert [int(r[3]) for r in listing] == [1, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1]


def test_group_header_is_one_title_over_its_columns(shown):
    out = shown["ipso-q", 200]
    assert out.count("score difference M(B) − M(A)") == 1
    assert out.count("IPSO groups (§3.4)") == 1
    # the Figure 5 table is one table at 200 columns
    assert "part " not in out.split("IPSO per topic")[1]


def test_headers_wrap_but_names_stay_whole():
    rs = ResultSet(command="x", columns=["run", "leaderboard_rank", "expected_rank"],
                   records=[{"run": "r", "leaderboard_rank": 1, "expected_rank": 1.0}])
    out = render(rs, "table", width=28)
    assert widest(out) <= 28
    lines = out.splitlines()
    # leaderboard_ over rank, expected_ over rank: pieces of the names, never cut inside
    assert any("leaderboard_" in ln for ln in lines) and any("expected_" in ln for ln in lines)
    assert "leaderbo" not in out.replace("leaderboard_", "")


def test_long_prose_goes_under_its_row_and_wraps_at_spaces():
    text = "precision after m times R documents, with nonrelevant fill past the end"
    rs = ResultSet(command="x", columns=["measure", "scale", "definition"],
                   records=[{"measure": "RprecMult", "scale": "ordinal", "definition": text},
                            {"measure": "P", "scale": "interval", "definition": "precision"}])
    out = render(rs, "table", width=40)
    assert widest(out) <= 40
    lines = out.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.split() == ["RprecMult", "ordinal"])
    under = []
    for ln in lines[first + 1:]:
        if not ln.startswith(" " * 6):
            break
        under.append(ln.strip())
    assert len(under) > 1 and " ".join(under) == text
    assert any(ln.split() == ["P", "interval"] for ln in lines)
    # wide enough: one line per row
    assert any(ln.split()[:2] == ["RprecMult", "ordinal"] and text in ln
               for ln in render(rs, "table", width=200).splitlines())


def test_text_cells_wrap_in_their_column():
    text = "better (do no harm)"
    rs = ResultSet(command="x", columns=["run_b", "delta", "p_value", "verdict"],
                   records=[{"run_b": "better-ranking", "delta": 0.0452, "p_value": 2e-7,
                             "verdict": text}])
    out = render(rs, "table", width=52)
    assert widest(out) <= 52
    lines = out.splitlines()
    at = next(ln.index("verdict") for ln in lines if "verdict" in ln)
    cells = [ln[at:].strip() for ln in lines[lines.index(next(
        ln for ln in lines if "━" in ln)) + 1:] if ln.strip()]
    assert len(cells) > 1 and " ".join(cells) == text


def test_control_characters_in_data_are_shown_escaped():
    rs = ResultSet(command="x", columns=["run", "value"],
                   records=[{"run": "a\x1b[31mb\tc\nd", "value": 1.0}], title="t\rx")
    for color in (False, True):
        out = render(rs, "table", width=80, color=color)
        assert "a\\x1b[31mb\\tc\\nd" in out and "t\\rx" in out
        assert "\x1b[31m" not in out and "\t" not in out and "\r" not in out


def test_markup_in_data_is_text():
    rs = ResultSet(command="x", columns=["run", "value"],
                   records=[{"run": "[bold]r[/bold]", "value": 0.5}], title="[i]t[/i]",
                   table_hints={"groups": [["[g]", ["value"]]], "labels": {"run": "[l]"}})
    out = render(rs, "table", width=80, color=True)
    for s in ("[bold]r[/bold]", "[i]t[/i]", "[g]", "[l]"):
        assert s in out


# --- colour -----------------------------------------------------------------

def _rgb(hex_color):
    return Color.parse(hex_color).get_truecolor()


def test_heat_ramp_grows_in_lightness_and_every_step_is_readable():
    lum = [T._luminance(_rgb(c)) for c in T.HEAT_RAMP]
    assert all(a < b for a, b in zip(lum, lum[1:]))
    for c in T.HEAT_RAMP:
        style = T.heat_style((T.HEAT_RAMP.index(c) + 0.5) / len(T.HEAT_RAMP), "truecolor")
        fg, _, bg = style.partition(" on ")
        assert bg == c
        ratio = T._contrast(T._luminance(_rgb(fg)), T._luminance(_rgb(bg)))
        assert ratio >= 4.5, (c, fg, ratio)
        # the 256-colour terminal shows exactly the same colour
        assert Color.parse(c).downgrade(ColorSystem.EIGHT_BIT).get_truecolor() == _rgb(c)


@pytest.mark.parametrize("system", ["standard", "256", "truecolor"])
def test_heat_style_is_monotonic_in_the_value(system):
    xs = [i / 100 for i in range(101)]
    if system == "standard":
        order = ["", "bold", "reverse bold"]
        ranks = [order.index(T.heat_style(x, system)) for x in xs]
    else:
        ranks = [-1 if not T.heat_style(x, system) else
                 T.HEAT_RAMP.index(T.heat_style(x, system).split(" on ")[1]) for x in xs]
    assert ranks == sorted(ranks) and ranks[0] < ranks[-1]
    assert T.heat_style(0.0, system) == ""


def test_bootstrap_heatmap_in_colour():
    out = table(["bootstrap", "-m", "AP", *THREE], 80, color=True, color_system="256")
    ramp = {Color.parse(c).downgrade(ColorSystem.EIGHT_BIT).number for c in T.HEAT_RAMP}
    backgrounds = {int(n) for n in re.findall(r"48;5;(\d+)m", out)}
    assert backgrounds and backgrounds <= ramp                # only the heat scale's shades
    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == table(["bootstrap", "-m", "AP", *THREE], 80)


def test_colour_only_on_standard_output_and_when_allowed(tmp_path):
    args = ["eval", "--format", "table", "-m", "P@5", QRELS, BM25]
    _, out, _ = invoke(args, isatty=True, color=True)
    assert "\x1b[" in out
    _, out, _ = invoke(args, isatty=True, color=False)
    assert "\x1b[" not in out
    dest = tmp_path / "t.txt"
    code, out, _ = invoke([*args, "-o", dest], isatty=True, color=True)
    assert code == 0 and out == "" and "\x1b[" not in dest.read_text()
    # auto on a terminal is a table, but not into -o FILE
    invoke(["eval", "-m", "P@5", "-o", dest, QRELS, BM25], isatty=True, color=True)
    assert dest.read_text().startswith("P@5")


# --- the Environment --------------------------------------------------------

class _Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("environ,tty,color", [
    ({}, True, True), ({}, False, False),
    ({"NO_COLOR": "1"}, True, False), ({"NO_COLOR": ""}, True, True),
    ({"FORCE_COLOR": "1"}, False, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, True, False),
    ({"TERM": "dumb"}, True, False),
])
def test_environment_colour_rules(environ, tty, color):
    out = _Tty() if tty else io.StringIO()
    env = Environment(stdout=out, stderr=io.StringIO(), environ=environ)
    assert env.stdout_isatty is tty and env.color is color


@pytest.mark.parametrize("environ,system", [
    ({}, "standard"), ({"TERM": "xterm-256color"}, "256"),
    ({"COLORTERM": "truecolor", "TERM": "xterm-256color"}, "truecolor"),
    ({"COLORTERM": "24bit"}, "truecolor"),
])
def test_environment_colour_system(environ, system):
    assert Environment(stdout=io.StringIO(), environ=environ).color_system == system


def test_environment_width():
    assert Environment(stdout=io.StringIO(), stderr=io.StringIO(), environ={}).width == 80
    assert Environment(stdout=io.StringIO(), environ={"COLUMNS": "132"}).width == 132
    assert Environment(stdout=io.StringIO(), environ={"COLUMNS": "x"}).width == 80
    assert Environment(width=200).width == 200
    with pytest.raises(ValueError):
        Environment(width=0)


def test_environment_is_made_once_by_the_cli_and_can_be_injected():
    from click.testing import CliRunner

    from ipsoeval.cli import cli
    env = environment(isatty=True, width=80)
    r = CliRunner().invoke(cli, ["eval", "-m", "P@5", QRELS, BM25], obj={"env": env})
    assert r.exit_code == 0 and "━" in r.stdout          # auto = table on "a terminal"
    obj = {}
    r = CliRunner().invoke(cli, ["eval", "-m", "P@5", QRELS, BM25], obj=obj)
    assert isinstance(obj["env"], Environment) and not obj["env"].stdout_isatty
    assert r.stdout.startswith("P@5")


# --- progress ---------------------------------------------------------------

def _screen(stream: str) -> str:
    """What a terminal shows on the last line after ``stream`` (\\r returns)."""
    line = ""
    for part in stream.split("\r"):
        line = part + line[len(part):]
    return line


def test_progress_bar_is_labelled_and_erased_on_a_terminal():
    code, out, err = invoke(["bootstrap", "--format", "tsv", "-m", "AP", *THREE],
                            stderr_isatty=True)
    assert code == 0
    # the warnings come when the output is written, after the bar
    bar, _, warnings = err.rpartition("\r")
    bar += "\r"
    assert all(ln.startswith("ipsoeval: warning: ") for ln in warnings.splitlines())
    assert "bootstrap: resampling topics [" in bar and "%" in bar
    assert _screen(bar).strip() == ""              # erased when done, no line left behind


def test_no_progress_bar_unless_stderr_is_a_terminal():
    code, out, err = invoke(["bootstrap", "--format", "tsv", "-m", "AP", *THREE],
                            stderr_isatty=False)
    assert code == 0 and "resampling" not in err and "\r" not in err


def test_progress_fits_the_width_and_is_drawn_at_most_ten_times_a_second():
    err = io.StringIO()
    now = [0.0]
    bar = make_progress("interval-map: AP@30 value set",
                        Environment(stderr=err, stderr_isatty=True, width=30),
                        clock=lambda: now[0])
    for done in range(10):
        bar(done, 10)
        now[0] += 0.03
    drawn = [p for p in err.getvalue().split("\r") if p.strip()]
    assert 1 < len(drawn) <= 4
    assert all(len(p) < 30 for p in drawn)
    bar(10, 10)
    bar(10, 10)                                    # the end reported twice: erased once
    assert _screen(err.getvalue()).strip() == "" and err.getvalue().count("\r") == \
        len(drawn) + 2
    silent = io.StringIO()
    make_progress("x", Environment(stderr=silent, stderr_isatty=False))(1, 2)
    assert silent.getvalue() == ""


# --- hints ------------------------------------------------------------------

def test_every_table_hint_is_one_the_formatter_reads(monkeypatch):
    seen = []
    real = T.render

    def spy(sets, **kw):
        seen.extend(sets)
        return real(sets, **kw)

    monkeypatch.setattr(T, "render", spy)
    for name in ("eval-1", "sigtest", "breakdown", "bootstrap", "ipso-q", "interval-map",
                 "interval-map-values"):
        table(COMMANDS[name], 80)
    assert seen
    for rs in seen:
        hints = rs.table_hints or {}
        assert set(hints) <= T.KNOWN_HINTS, (rs.title, set(hints) - T.KNOWN_HINTS)
        assert isinstance(hints.get("digits", 4), int)
        allowed = set(rs.columns)
        if "pivot" in hints:
            allowed |= {str(r.get(hints["pivot"]["columns"])) for r in rs.records}
        for key in ("cell_styles", "token_styles", "sign_styles"):
            assert set(hints.get(key, {})) <= allowed, (rs.title, key)


def test_a_warning_erases_the_bar_first():
    from ipsoeval.cli.output import warn

    err = io.StringIO()
    bar = make_progress("work", Environment(stderr=err, stderr_isatty=True, width=40))
    bar(1, 4)
    with contextlib.redirect_stderr(err):
        warn("something")
    text = err.getvalue()
    before, _, after = text.partition("ipsoeval: warning: something\n")
    assert _screen(before).strip() == ""           # erased before the warning
    bar(2, 4)                                      # and drawn again at the next step
    assert "work [" in err.getvalue()[len(before) + len("ipsoeval: warning: something\n"):]
    bar(4, 4)
