"""ipsoeval.pipeline.ipso: ipso declared once; the CLI and the API meet in it."""

import inspect

import pytest
from conftest import TESTDATA, invoke

import ipsoeval
from ipsoeval.declare import parse, render_help
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import ipso as pipeline

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


def test_the_api_keeps_its_keywords_and_defaults():
    sig = inspect.signature(ipsoeval.ipso)
    assert str(sig) == (
        "(res, *, k=None, depths=None, measures=None, tests=None, correct='none', "
        "alpha=0.05, alternative='two-sided', samples=100000, seed=42, graded=None, "
        "baseline=None, all_pairs=False, per_query=False)")
    assert "enumerate_" not in sig.parameters      # the command line's alone


def test_help_is_the_declaration_in_its_order(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = invoke(["ipso", "--help"])
    assert code == 0 and out == render_help(pipeline.COMMAND, 78)
    flags = [o.flags[0] for o in pipeline.COMMAND.opts()][:4]
    assert flags == ["-k", "--depths", "-m", "--test"]
    assert "[default: 10, or the largest of --depths]  [x>=1]" in out.replace("\n", " ") \
        .replace("                                  ", "")


def test_k_defaults_to_the_largest_depth():
    from ipsoeval.analyses.ipso.options import Options, cutoff_and_depths
    assert cutoff_and_depths(None, "1..3,20") == (20, [1, 2, 3, 20])
    assert cutoff_and_depths(None, [3, 7]) == (7, [3, 7])
    assert cutoff_and_depths(None, "1..k") == (10, list(range(1, 11)))
    assert Options().k == 10 and Options(depths=[4, 9]).k == 9


def test_rel_level_given_at_its_default_binarises():
    v = parse(pipeline.COMMAND, ["-l", "1", *FILES])
    with pytest.raises(UsageError, match="graded labels"):
        pipeline.from_values(dict(v))
    report = pipeline.from_values(dict(v), given={"rel_level"})
    assert report.table("pairs").params["rel_level"] == 1


def test_tests_without_measures_worded_once():
    res = ipsoeval.evaluate(FILES[0], FILES[1:], measures=["P@10"], rel_level=2)
    with pytest.raises(UsageError, match=r"--test applies to a measure: give -m MEASURE too"):
        ipsoeval.ipso(res, tests=["t"])
    code, _, err = invoke(["ipso", "-l", "1", "--test", "t", *FILES])
    assert code == 2 and "--test applies to a measure: give -m MEASURE too" in err


def test_the_command_line_and_the_api_give_the_same_tables():
    v = parse(pipeline.COMMAND, ["-l", "2", "-m", "P@10", "--test", "t,sign", *FILES])
    v["tests"] = ("t", "sign")
    cli = pipeline.from_values(v, given={"rel_level"})
    api = ipsoeval.ipso(ipsoeval.evaluate(FILES[0], FILES[1:], measures=["P@10"],
                                          rel_level=2),
                        measures=["P@10"], tests="t,sign")
    assert cli.table("pairs").records == api.table("pairs").records
    assert {r["test"] for r in cli.table("pairs").records} == {"t", "sign"}


def test_enumerate_needs_no_files_and_table_list_reads_none(tmp_path):
    report = pipeline.from_values(parse(pipeline.COMMAND, ["--enumerate", "1,4"]))
    assert [r["k"] for r in report.table("enumerate").records] == [1, 4]
    missing = [str(tmp_path / "q"), str(tmp_path / "a"), str(tmp_path / "b")]
    code, out, err = invoke(["ipso", "--table", "list", *missing])
    assert code == 0 and "pairs\t" in out and err == ""
