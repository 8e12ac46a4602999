"""ipsoeval.pipeline.breakdown: breakdown declared once; the CLI and the API meet in it."""

import inspect

from conftest import TESTDATA, invoke

import ipsoeval
from ipsoeval.declare import parse
from ipsoeval.pipeline import breakdown as pipeline

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


def test_the_api_keeps_its_keywords_and_defaults():
    assert str(inspect.signature(ipsoeval.breakdown)) == (
        "(res, *, k=100, baseline=None, naive=False, correct='none', alpha=0.05, "
        "alternative='two-sided', verdict_test='esl-t', per_query=False)")
    assert "``verdict_test`` (--verdict-test)" in ipsoeval.breakdown.__doc__


def test_the_command_line_and_the_api_give_the_same_tables():
    v = parse(pipeline.COMMAND, ["-k", "10", "--naive", *FILES])
    cli = pipeline.from_values(v)
    api = ipsoeval.breakdown(ipsoeval.evaluate(FILES[0], FILES[1:], measures=["AP"]), k=10,
                             naive=True)
    assert cli.table("summary").records == api.table("summary").records


def test_table_list_after_the_option_checks_before_reading(tmp_path):
    missing = [str(tmp_path / "q"), str(tmp_path / "a"), str(tmp_path / "b")]
    code, out, err = invoke(["breakdown", "--table", "list", *missing])
    assert code == 0 and out.startswith("summary\t") and err == ""
    code, _, err = invoke(["breakdown", "--table", "list", "--labels", "gain", *missing])
    assert code == 2 and "breakdown needs integer labels" in err
