"""ipsoeval.pipeline.nuggets: nuggets declared once; the CLI and the API meet in it."""

import inspect

import ipsoeval
from ipsoeval.pipeline import nuggets as pipeline
from tests.conftest import TESTDATA, invoke

AUTO = TESTDATA / "nuggets" / "auto.jsonl"


def test_the_api_keeps_its_keywords_and_defaults():
    sig = inspect.signature(ipsoeval.nuggets)
    assert str(sig) == "(paths, *, measures=None, per_query=False, fmt='auto')"
    # the API's fmt is the command line's --nuggets-format
    assert "``fmt`` (--nuggets-format)" in ipsoeval.nuggets.__doc__


def test_the_command_line_and_the_api_give_the_same_table():
    v = {"files": (str(AUTO),), "measures": ("nugget_all",), "per_query": True,
         "nuggets_format": "auto", "output": None}
    cli = pipeline.from_values(v).table("scores").records
    api = ipsoeval.nuggets(AUTO, measures=["nugget_all"], per_query=True).table("scores").records
    assert cli == api
    code, out, _ = invoke(["nuggets", "-q", "-m", "nugget_all", "--format", "jsonl", AUTO])
    assert code == 0 and len(out.splitlines()) == len(cli)


def test_table_list_reads_nothing(tmp_path):
    code, out, err = invoke(["nuggets", "--table", "list", tmp_path / "missing.jsonl"])
    assert code == 0 and out.split("\t")[0] == "scores", err
