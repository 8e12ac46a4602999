"""--digits N on every command that prints numbers, over the table of commands
(ipsoeval.pipeline.COMMANDS) and each one's golden case
(tests/golden/test_output_contract.py): tsv, table, markdown and latex round
their floats, trec and json keep theirs (--digits with them is refused
before any work), the quick paths give the full path's bytes, and without
--digits nothing changes (the goldens)."""

from __future__ import annotations

import csv
import io
import math
import re
import subprocess
import sys

import pytest

from ipsoeval.pipeline import COMMANDS, command
from tests.conftest import ROOT, invoke, run_quick, run_quick_sigtest
from tests.golden.test_output_contract import GOLDEN_CASES

# the commands that print no number to round (measures: names and definitions)
NO_DIGITS = {"measures"}
# parameters and degrees of freedom: the number they are, whatever --digits
EXACT = {"risk_alpha", "f_df1", "f_df2"}
HUMAN = ("table", "markdown", "latex")
# a number with three decimals or more, not part of a word or a longer number
LONG = re.compile(r"(?<![\w.])[-+]?\d+\.\d{3,}(?![\w.])")
# a p-value of two significant digits below 0.1 (0.031, 0.0012): longer on purpose
P2 = re.compile(r"[-+]?0\.0*[1-9]\d?")

NUMERIC = [c for c in sorted(GOLDEN_CASES) if c not in NO_DIGITS]


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _run(args):
    code, out, err = invoke(args)
    assert code == 0, (args, err)
    return out


def _with(case, *more):
    args = GOLDEN_CASES[case]
    return [args[0], *more, *args[1:]]


def _rows(text):
    return list(csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def _float_text(s: str) -> bool:
    """A cell that is a float (not an integer, a word or empty)."""
    if s in ("", "inf", "-inf", "nan") or re.fullmatch(r"-?\d+", s):
        return False
    try:
        float(s)
    except ValueError:
        return False
    return True


def _is_p(col: str) -> bool:
    return (col in ("p", "p_value", "p_adjusted") or "_p_value" in col
            or col.endswith("_p_adjusted"))


def test_every_command_that_prints_numbers_takes_digits():
    for name in COMMANDS:
        dests = {o.dest for o in command(name).opts()}
        assert ("digits" in dests) == (name not in NO_DIGITS), name
    assert set(NUMERIC) == set(COMMANDS) - NO_DIGITS - {"report"}     # report: below


def test_help_offers_digits_only_where_it_applies():
    for name in ("eval", "sigtest", "nuggets"):
        assert "--digits" in _run([name, "--help"])
    assert "--digits" not in _run(["measures", "--help"])
    code, _, err = invoke(["measures", "--digits", "2"])
    assert code == 2 and "--digits" in err


@pytest.mark.parametrize("case", NUMERIC)
def test_tsv_floats_rounded(case):
    full = _rows(_run(_with(case, "--format", "tsv")))
    two = _rows(_run(_with(case, "--format", "tsv", "--digits", "2")))
    assert full[0] == two[0] and len(full) == len(two)     # the same columns, rows
    changed = 0
    for a, b in zip(full[1:], two[1:]):
        assert len(a) == len(b)
        for col, x, y in zip(full[0], a, b):
            if not _float_text(x) or col in EXACT:
                assert y == x, (case, col, x, y)
                continue
            v, w = float(x), float(y)
            changed += x != y
            if _is_p(col):
                # two significant digits, never shown as 0 unless it is 0
                assert v == 0 or w != 0, (col, x, y)
                assert math.isclose(w, v, rel_tol=0.05), (col, x, y)
                assert v == 0 or len(y.split("e")[0].replace("-", "").replace(".", "")
                                     .lstrip("0")) >= 2, (col, x, y)
            elif re.fullmatch(r"-?\d+\.\d\d", y):
                assert abs(w - v) <= 0.005 + 1e-12, (col, x, y)
                assert v == 0 or w != 0, (col, x, y)
            else:
                # scientific: a nonzero value two decimals would print as 0
                assert "e" in y and abs(v) < 0.005 and math.isclose(w, v, rel_tol=0.05), \
                    (col, x, y)
    assert changed, f"{case}: no float changed under --digits 2"


@pytest.mark.parametrize("fmt", HUMAN)
@pytest.mark.parametrize("case", NUMERIC)
def test_human_formats_rounded(case, fmt):
    full = _run(_with(case, "--format", fmt))
    two = _run(_with(case, "--format", fmt, "--digits", "2"))
    assert LONG.search(full), f"{case} {fmt}: no number of 3+ decimals to round"
    left = [t for t in LONG.findall(two) if not P2.fullmatch(t)]
    assert not left, (case, fmt, left[:10])
    assert two != full


@pytest.mark.parametrize("fmt", ["trec", "json", "jsonl"])
def test_formats_keeping_their_digits_refuse_it(fmt, tmp_path):
    out = tmp_path / "out"
    cmd = "eval" if fmt == "trec" else "sigtest"
    args = ["eval", "-m", "AP"] if cmd == "eval" else ["sigtest", "-m", "AP"]
    code, stdout, err = invoke([*args, "--format", fmt, "--digits", "2", "-o", out,
                                *GOLDEN_CASES["eval"][-3:]])
    assert code == 2 and stdout == "" and not out.exists()
    assert err.startswith("ipsoeval: error: --digits") and err.count("\n") == 1
    assert f"--format {fmt}" in err


def test_auto_in_a_pipe_is_trec_for_eval_and_refuses_digits():
    code, _, err = invoke(["eval", "-m", "AP", "--digits", "2", *GOLDEN_CASES["eval"][-3:]])
    assert code == 2 and "--format auto (trec here)" in err
    # a terminal: auto is table, which --digits sets
    code, out, err = invoke(["eval", "-m", "AP", "--digits", "2",
                             *GOLDEN_CASES["eval"][-3:]], isatty=True)
    assert code == 0 and "0.29" in out and "0.2899" not in out


def test_formatters_leave_trec_and_json_alone():
    from ipsoeval.declare import parse
    from ipsoeval.formatters import render
    from ipsoeval.pipeline import evaluate
    v = parse(evaluate.COMMAND, ["-m", "AP", *GOLDEN_CASES["eval"][-3:]])
    report = evaluate.from_values(v)
    for fmt in ("trec", "json", "jsonl"):
        assert render(report, fmt, digits=2) == render(report, fmt)
    assert render(report, "tsv", digits=2) != render(report, "tsv")


@pytest.mark.parametrize("quick, args", [
    (run_quick, ["eval", "-m", "AP", "-m", "P@5", "--format", "tsv", "--digits", "2"]),
    (run_quick_sigtest, ["sigtest", "-m", "AP", "--format", "tsv", "--digits", "2"]),
])
def test_quick_paths_give_the_full_paths_bytes(quick, args, plain_env):
    files = GOLDEN_CASES["eval"][-3:]
    served = quick([*args, *files])[0]
    assert served is False          # declined: the full path prints --digits
    code, full, _ = invoke([*args, *files])
    assert code == 0 and full
    # the console script (its quick path first) prints the same bytes
    p = subprocess.run([sys.executable, "-c", "import sys; from ipsoeval._quick import main; "
                        "sys.exit(main())", *args, *files], cwd=ROOT, capture_output=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode() == full


def test_sigtest_tsv_digits_and_why():
    """sigtest piped: --digits shortens the floats; ``why`` stays a column
    (it differs per measure: the scale's test), the table and paper views
    put it once in the caption."""
    out = _run(["sigtest", "-m", "AP", "-m", "P@10", "--format", "tsv", "--digits", "3",
                *GOLDEN_CASES["eval"][-3:]])
    rows = _rows(out)
    assert rows[0][-1] == "why"
    assert len({r[-1] for r in rows[1:]}) == 2          # ordinal AP, interval P@10
    assert not LONG.sub("", out).count("0000000")
    latex = _run(["sigtest", "-m", "AP", "-m", "P@10", "--format", "latex", "--digits", "3",
                  *GOLDEN_CASES["eval"][-3:]])
    assert "ordinal scale: sign test" in latex.split(r"\begin{tabular}")[0]


def test_report_page_tables_rounded_data_kept():
    files = GOLDEN_CASES["eval"][-3:]
    args = ["report", "-m", "AP", "--samples", "200", *files]
    full, two = _run(args), _run([*args, "--digits", "2"])
    cells = re.compile(r'<td data-value="([^"]*)"[^>]*>([^<]*)</td>')
    pairs = cells.findall(two)
    assert len(pairs) == len(cells.findall(full)) > 10
    floats = [(v, t) for v, t in pairs if _float_text(v)]
    assert floats and any(len(v) > 6 for v, _ in floats)     # data-value: full precision
    for v, t in floats:
        assert not LONG.fullmatch(t) or P2.fullmatch(t), (v, t)
        assert math.isclose(float(t), float(v), rel_tol=0.05, abs_tol=0.005), (v, t)
    assert LONG.search("".join(t for _, t in cells.findall(full)))
