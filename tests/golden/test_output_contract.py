"""The output contract, for every subcommand.

- Golden files: each subcommand's TSV and JSON on the small inputs of
  testdata/adhoc, in tests/data/golden_output/.  After a deliberate change of
  output, regenerate them with

      IPSOEVAL_REGEN_GOLDEN=1 .venv/bin/python -m pytest -q tests/golden/test_output_contract.py

  and review the diff (``git diff tests/data/golden_output``).  The JSON's
  ``ipsoeval`` version field is compared as "VERSION".
- One loop over option combinations of every subcommand: the TSV parses with
  exactly one header (every row has the header's field count; pandas.read_csv
  agrees where pandas is installed), ``--table ID`` does the same for every
  table id, ``--table list`` names exactly the ids the JSON holds (decided
  from the options, without running the analysis), every JSON
  table has its columns as its records' keys, and jsonl is the primary table.
"""

from __future__ import annotations

import csv
import io
import json
import os

import pytest

from tests.conftest import ROOT, invoke
from tests.goldens import assert_same_output

GOLDEN = ROOT / "tests" / "data" / "golden_output"
REGEN = os.environ.get("IPSOEVAL_REGEN_GOLDEN", "") not in ("", "0")

AD = "testdata/adhoc"
Q, A, B = f"{AD}/qrels.txt", f"{AD}/run-bm25.txt", f"{AD}/run-neural.txt"
FILES = [Q, A, B]
QP = "testdata/qpp"         # qpp: qrels, one run, predictors (one missing a topic, a long file)
QPP = [f"{QP}/qrels.txt", f"{QP}/run.txt", f"{QP}/clarity.txt", f"{QP}/wig.txt",
       f"{QP}/long.tsv"]

# one golden case per subcommand: (name, arguments without --format)
GOLDEN_CASES = {
    "eval": ["eval", "-q", "-m", "AP", "-m", "P@5", "-m", "nDCG@10", *FILES],
    "measures": ["measures"],
    "breakdown": ["breakdown", "-k", "10", *FILES],
    "ipso": ["ipso", "-l", "1", "-m", "P@10", "--test", "t,sign", *FILES],
    "interval-map": ["interval-map", "-m", "P@10", "-m", "RR@10", *FILES],
    "sigtest": ["sigtest", "-m", "AP", "-m", "P@10", "--test", "t,sign,randomization",
                *FILES],
    "bootstrap": ["bootstrap", "-m", "AP", "-m", "P@10", "--seed", "1", *FILES],
    "ppi": ["ppi", "--human", "testdata/ppi/human.qrels", "--auto", "testdata/ppi/auto.qrels",
            "-m", "AP", "-m", "P@10", A, B],
    "agree": ["agree", Q, f"{AD}/qrels-b.txt", A, B, "-m", "AP", "-m", "P@5"],
    "leaderboard": ["leaderboard", "-m", "AP", "-m", "P@10", "--samples", "999", *FILES],
    "compare": ["compare", "-m", "AP", "-m", "P@10", "-m", "nDCG@10", "--correct", "holm",
                "--ci", *FILES],
    "power": ["power", "-m", "AP", "-m", "P@10", "--delta", "0.05,0.1", *FILES],
    # three runs: the adhoc pair and bm25 again under another name
    "meta": ["meta", "-m", "AP", "-m", "P@10", "--samples", "200", "--splits", "20",
             "--name", "bm25", "--name", "neural", "--name", "bm25b", *FILES, A],
    "nuggets": ["nuggets", "testdata/nuggets/human.tsv"],
    "across": ["across", "testdata/across/manifest.tsv", "-m", "AP", "-m", "nDCG@10",
               "--samples", "200"],
    "risk": ["risk", "-m", "AP", "-m", "nDCG@10", "--risk-alpha", "1,5", *FILES],
    "qpp": ["qpp", "-m", "AP", "-m", "nDCG@10", "--samples", "200", *QPP],
    "repro": ["repro", "-m", "AP", "-m", "P@10", "--samples", "999", "testdata/repro/qrels.txt",
              *(f"testdata/repro/{r}.run" for r in ("orig_base", "orig_adv", "rep_base",
                                                    "rep_adv"))],
}


# the commands whose tables are declared in cli/output.py's catalogue
TABLE_COMMANDS = {k: v for k, v in GOLDEN_CASES.items() if k != "across"}


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)          # relative paths: the same params on every machine


def _run(args):
    code, out, err = invoke(args)
    assert code == 0, (args, err)
    return out


def _normalise_json(text: str) -> str:
    doc = json.loads(text)
    doc["ipsoeval"] = "VERSION"
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


@pytest.mark.parametrize("fmt", ["tsv", "json"])
@pytest.mark.parametrize("case", sorted(GOLDEN_CASES))
def test_golden(case, fmt):
    args = GOLDEN_CASES[case]
    out = _run([args[0], "--format", fmt, *args[1:]])
    if fmt == "json":
        out = _normalise_json(out)
    path = GOLDEN / f"{case}.{fmt}"
    if REGEN:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(out)
    assert path.exists(), f"{path} missing: run with IPSOEVAL_REGEN_GOLDEN=1"
    # text exact, numbers to 1e-10 relative (tests/goldens.py says why)
    expected = path.read_text()
    if case == "across" and fmt == "json":
        expected, out = _mixed_model_apart(expected, out)
    assert_same_output(expected, out, name=f"{case}.{fmt}")


# The mixed model's variance ratios are found by BFGS on finite-difference
# gradients of the restricted likelihood (ipsoeval/stats/mixed.py): a
# last-bit change of its inputs moves its estimates by ~1e-11 relative and its
# variance components by up to ~1e-7 (measured by perturbing the scores by one
# ulp).  Its tables are compared to 1e-6, the rest of the file to goldens.REL.
MIXED_TABLES = ("mixed", "mixed_model", "contrasts")
MIXED_REL = 1e-6


def _mixed_model_apart(expected: str, actual: str) -> tuple[str, str]:
    e, a = json.loads(expected), json.loads(actual)
    for t in MIXED_TABLES:
        assert_same_output(json.dumps(e["tables"].get(t)), json.dumps(a["tables"].get(t)),
                           rel=MIXED_REL, name=f"across.json.tables.{t}")
        e["tables"].pop(t, None)
        a["tables"].pop(t, None)
    return json.dumps(e), json.dumps(a)


def test_every_subcommand_has_golden_files():
    from ipsoeval.cli import COMMANDS
    # report writes an HTML page, no TSV or JSON: tests/cli/test_report.py checks its
    # tables against leaderboard's, sigtest's and breakdown's
    assert set(GOLDEN_CASES) == set(COMMANDS) - {"report"}


# --- the option loop --------------------------------------------------------------------

L1 = ["-l", "1"]                      # ipso on graded qrels: binarise
COMBOS = {
    "eval": [[], ["-q"], ["-m", "AP", "-m", "P@5"], ["-q", "-c", "-m", "AP"]],
    "measures": [[]],
    "breakdown": [[], ["-q"], ["--naive"], ["--naive", "--correct", "holm"], ["-k", "5", "-q"],
                  ["--baseline", "neural"]],
    "ipso": [L1, L1 + ["-q"], L1 + ["--all-pairs"], L1 + ["--all-pairs", "-m", "P@10"],
             L1 + ["-q", "-m", "P@10", "--test", "t,sign"], L1 + ["--depths", "1..k"],
             L1 + ["--enumerate", "3,5"], L1 + ["-q", "--all-pairs", "-m", "AP@10"]],
    "ipso-enumerate": [["--enumerate", "1,4,8"]],
    "interval-map": [["-m", "P@10"], ["-m", "P@10", "-q"], ["-m", "P@10", "--values"],
                     ["-m", "P@10", "-m", "RR@10", "--analyze"],
                     ["-m", "P@10", "-m", "AP@10", "--values", "--analyze", "-q"]],
    "sigtest": [["-m", "AP"], ["-m", "AP@10", "-m", "P@10", "--scale", "both"],
                ["-m", "P@10", "--scale", "interval"], ["-m", "AP", "--all-pairs"],
                ["-m", "AP", "--correct", "bh", "--test", "t,sign"],
                ["-m", "AP", "--fail-if", "different", "--gate-test", "sign"]],
    "bootstrap": [["-m", "AP"], ["-m", "AP", "--ranks"], ["-m", "AP", "--split-half", "5"],
                  ["-m", "AP", "-m", "P@10", "--baseline", "bm25"],
                  ["-m", "AP", "--split-half", "4", "--test", "sign,t"]],
    "ppi": [["-m", "AP"], ["-m", "AP", "-m", "P@10", "--method", "ppi", "--correct", "holm"],
            ["-m", "P@5", "--all-pairs", "--alpha", "0.1"]],
    "leaderboard": [["-m", "AP", "--samples", "99"],
                    ["-m", "AP", "-m", "P@10", "--samples", "50", "--alpha", "0.5", "-c"]],
    "compare": [["-m", "AP"], ["-m", "AP", "-m", "P@10", "--baseline", "neural", "--ci"],
                ["-m", "AP", "--marks", "groups", "--samples", "99"],
                ["-m", "P@10", "--marks", "none", "--transpose"]],
    "power": [["-m", "AP"], ["-m", "AP", "--design", "ci", "--half-width", "0.1"],
              ["-m", "AP", "-m", "P@10", "--delta", "0.02,0.1", "--systems", "5"]],
    "risk": [["-m", "AP"], ["-m", "AP", "-m", "P@10", "--risk-alpha", "0,2", "--baseline",
                            "neural"], ["-m", "Compat", "-m", "INST(max_rel=2)"]],
}
# agree takes two qrels: whole argument lists
AGREE_COMBOS = [
    ["agree", Q, f"{AD}/qrels-b.txt"],
    ["agree", Q, f"{AD}/qrels-b.txt", A, B, "-m", "AP", "-m", "P@10", "--correct", "holm"],
    ["agree", f"{AD}/qrels-b.txt", Q, A, B, A, "--name", "x", "--name", "y", "--name", "z",
     "-m", "nDCG@10", "--test", "sign"],
]
QPP_SCORES = "testdata/qpp/scores.tsv"
SCORES = "{scores}"         # per-topic scores (eval -q --format tsv), made by a fixture
SCORES_COMBOS = [
    ["sigtest", "--scores", "-m", "AP", SCORES],
    ["risk", "--scores", "-m", "AP", SCORES],
    ["sigtest", "--scores", "-m", "P@10", "--all-pairs", "--test", "t,sign", SCORES],
    ["bootstrap", "--scores", "-m", "P@10", SCORES],
    ["bootstrap", "--scores", "--split-half", "3", SCORES],
    ["ipso", "--scores", SCORES],
    ["leaderboard", "--scores", "--samples", "99", SCORES],
    ["compare", "--scores", "--test", "t", SCORES],
    ["power", "--scores", SCORES],
    ["meta", "--scores", "--samples", "100", "--splits", "10", SCORES, SCORES, SCORES],
    ["interval-map", "--scores", "-m", "P@10", "-q", "--values", "--analyze", SCORES],
    ["qpp", "--scores", "-m", "AP", "--samples", "50", QPP_SCORES, QPP[2], QPP[4]],
]
QPP_COMBOS = [         # whole argument lists
    ["qpp", "-m", "AP", "--samples", "50", *QPP[:3]],
    ["qpp", "-m", "AP", "-q", "--samples", "50", *QPP],
    ["qpp", "-m", "AP", "-m", "P@10", "--samples", "50", "--alpha", "0.1", *QPP[:2], QPP[4]],
]
NG = "testdata/nuggets"     # nugget assignments: whole argument lists
NUGGETS_COMBOS = [
    ["nuggets", f"{NG}/auto.jsonl"],
    ["nuggets", "-q", "-m", "nugget_vital_strict", f"{NG}/human.tsv"],
    ["sigtest", "--nuggets", "-m", "nugget_all", f"{NG}/auto.jsonl"],
    ["leaderboard", "--nuggets", "--samples", "99", f"{NG}/auto.jsonl"],
    ["compare", "--nuggets", f"{NG}/auto.jsonl"],
    ["ppi", "--nuggets", "--human", f"{NG}/human.tsv", "--auto", f"{NG}/auto.jsonl"],
    ["agree", "--nuggets", f"{NG}/human.tsv", f"{NG}/auto.jsonl", "-m", "nugget_all"],
]


def _cases():
    for cmd, combos in COMBOS.items():
        for extra in combos:
            if cmd == "ipso-enumerate":
                yield pytest.param(["ipso", *extra], id="ipso " + " ".join(extra))
            elif cmd == "measures":
                yield pytest.param(["measures"], id="measures")
            elif cmd == "ppi":
                yield pytest.param(["ppi", "--human", "testdata/ppi/human.qrels", "--auto",
                                    "testdata/ppi/auto.qrels", *extra, A, B],
                                   id=" ".join([cmd, *extra]))
            else:
                yield pytest.param([cmd, *extra, *FILES], id=" ".join([cmd, *extra]))
    for args in AGREE_COMBOS:
        yield pytest.param(args, id=" ".join(args))
    for args in SCORES_COMBOS:
        yield pytest.param(args, id=" ".join(a for a in args if a != SCORES))
    for args in NUGGETS_COMBOS:
        yield pytest.param(args, id=" ".join(args))
    for args in QPP_COMBOS:
        yield pytest.param(args, id=" ".join(args))


@pytest.fixture(scope="module")
def scores_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("scores") / "scores.tsv"
    code, out, err = invoke(["eval", "-q", "-m", "AP", "-m", "P@10", "--format", "tsv",
                             *[str(ROOT / f) for f in FILES]])
    assert code == 0, err
    path.write_text(out)
    return str(path)


def check_tsv(text: str) -> list[str]:
    """Exactly one header: every row has the header's field count, no row
    repeats the header; pandas reads the same shape.  Returns the header."""
    rows = list(csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows, "no header"
    header = rows[0]
    assert header and all(h and h == h.lower() and " " not in h for h in header), header
    assert len(set(header)) == len(header), f"duplicate columns {header}"
    for i, row in enumerate(rows[1:], 2):
        assert len(row) == len(header), f"line {i}: {len(row)} fields, header {len(header)}"
        assert row != header, f"line {i} repeats the header"
    try:
        import pandas as pd
    except ImportError:
        return header
    df = pd.read_csv(io.StringIO(text), sep="\t", keep_default_na=False, dtype=str,
                     quoting=csv.QUOTE_NONE)
    assert list(df.columns) == header and len(df) == len(rows) - 1
    return header


@pytest.mark.parametrize("args", list(_cases()))
def test_one_table_per_tsv_and_every_table_in_json(args, scores_file):
    args = [scores_file if a == SCORES else a for a in args]
    code, text, err = invoke([*args, "--format", "json"])
    assert code in (0, 1), err            # 1: a gate decided
    doc = json.loads(text)
    ids = list(doc["tables"])
    assert ids and doc["primary"] in ids
    from ipsoeval.cli.output import TABLE_IDS
    assert set(ids) <= set(TABLE_IDS[args[0]])
    for tid, t in doc["tables"].items():
        assert t["description"], tid
        assert all(list(r) == t["columns"] for r in t["records"]), tid
    assert doc["results"] == doc["tables"][doc["primary"]]["records"]

    code, listing, _ = invoke([*args, "--table", "list"])
    assert code == 0
    # --table list answers from the command's catalogue, without the analysis: every
    # table the report holds is listed (in order), with its description, and the
    # primary is the report's
    from ipsoeval.cli.output import TABLES
    listed = [line.split("\t")[0] for line in listing.splitlines()]
    assert listed == ids
    assert [line.split("\t")[0] for line in listing.splitlines()
            if line.endswith("(primary)")] == [doc["primary"]]
    declared = {t[0]: t[1] for t in TABLES[args[0]]}
    for tid, t in doc["tables"].items():
        assert t["description"].startswith(declared[tid]), tid

    code, default, _ = invoke([*args, "--format", "tsv"])
    assert check_tsv(default) == doc["tables"][doc["primary"]]["columns"]
    for tid in ids:
        code, out, err = invoke([*args, "--format", "tsv", "--table", tid])
        assert code in (0, 1), err
        assert check_tsv(out) == doc["tables"][tid]["columns"], tid
        assert len(out.splitlines()) == 1 + len(doc["tables"][tid]["records"]), tid
        if tid == doc["primary"]:
            assert out == default

    code, lines, _ = invoke([*args, "--format", "jsonl"])
    recs = [json.loads(line) for line in lines.splitlines()]
    assert recs == doc["results"]


@pytest.mark.parametrize("command", sorted(TABLE_COMMANDS))
def test_table_list_does_not_run_the_analysis(command, monkeypatch, tmp_path):
    # leaderboard once spent 6 s before listing its tables.  Every analysis
    # function and the reading of inputs raise here: the list must not need them
    import ipsoeval.pipeline.inputs as cli_options  # the one input module
    from ipsoeval import engine
    from ipsoeval.cli import output

    def boom(*a, **k):
        raise AssertionError("the analysis ran for --table list")

    for mod in ("leaderboard", "bootstrap", "sigtest", "breakdown", "ipso", "interval_map",
                "ppi", "agree", "power", "meta", "qpp"):
        pkg = __import__(f"ipsoeval.analyses.{mod}", fromlist=["run"])
        for name in ("run", "run_aligned", "run_scores", "compose"):
            if hasattr(pkg, name):
                monkeypatch.setattr(pkg, name, boom)
    monkeypatch.setattr(engine, "evaluate", boom)
    for name in ("load_aligned", "aligned_and_warnings", "load_scores"):
        monkeypatch.setattr(cli_options, name, boom)
    args = TABLE_COMMANDS[command]
    code, out, err = invoke([*args, "--table", "list"])
    assert code == 0, err
    ids = [line.split("\t")[0] for line in out.splitlines()]
    assert ids and set(ids) <= set(output.TABLE_IDS[command])
    assert sum(line.endswith("(primary)") for line in out.splitlines()) == 1


def test_unknown_table_is_a_usage_error(tmp_path):
    out = tmp_path / "out.tsv"
    # a table this invocation does not have (flips needs --scale both)
    code, _, err = invoke(["sigtest", "-m", "AP", *FILES, "--table", "flips", "-o", out])
    assert code == 2 and "no table 'flips'" in err and "tests" in err
    assert not out.exists()
    # a table the command never has: refused before any input is read
    code, _, err = invoke(["sigtest", "-m", "AP", Q, "missing.run", "missing2.run",
                           "--table", "leaderboard"])
    assert code == 2 and "sigtest has no table 'leaderboard'" in err


def test_no_presentation_artefacts_in_data():
    """No bar columns, no numpy reprs, JSON keys are ids (no titles with data)."""
    for case, args in GOLDEN_CASES.items():
        for fmt in ("tsv", "json"):
            text = _run([args[0], "--format", fmt, *args[1:]])
            assert "np.float" not in text and "np.int" not in text, case
            assert "\tbar" not in text and '"bar"' not in text, case
    doc = json.loads(_run(["interval-map", "--format", "json", "-m", "P@10", "--values", *FILES]))
    assert list(doc["tables"]) == ["scores", "values", "value_quantiles"]
    assert "bar" not in doc["tables"]["value_quantiles"]["columns"]


def test_numpy_scalars_are_plain_numbers():
    import numpy as np

    from ipsoeval.formatters import render
    from ipsoeval.results import Report, Table
    t = Table("x", ["a", "b", "c"], [{"a": np.float64(0.5), "b": np.int64(3),
                                       "c": np.bool_(True)}], id="t", description="d")
    rep = Report("x", [t])
    assert render(rep, "tsv") == "a\tb\tc\n0.5\t3\ttrue\n"
    assert json.loads(render(rep, "json"))["results"] == [{"a": 0.5, "b": 3, "c": True}]
    assert json.loads(render(rep, "jsonl")) == {"a": 0.5, "b": 3, "c": True}
