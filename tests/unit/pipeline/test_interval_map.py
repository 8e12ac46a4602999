"""ipsoeval.pipeline.interval_map: interval-map declared once; the CLI and the API meet in it."""

import inspect

from conftest import TESTDATA, invoke

import ipsoeval
from ipsoeval.declare import parse
from ipsoeval.pipeline import interval_map as pipeline

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


def test_the_api_keeps_its_keywords_and_defaults():
    sig = inspect.signature(ipsoeval.interval_map)
    assert str(sig) == (
        "(res, measures=None, *, N=None, normalise=False, ties='unq', universe='all', "
        "per_query=False, values=False, analyze=False, tests=None, alpha=0.05, "
        "max_memory='2G', use_cache=True)")
    doc = ipsoeval.interval_map.__doc__
    assert "``N`` (--length)" in doc and "``use_cache``\n" in doc and "no_cache" not in doc


def test_measures_by_name_or_position():
    res = ipsoeval.evaluate(FILES[0], FILES[1:], measures=["P@10"])
    a = ipsoeval.interval_map(res, ["P@10"]).table("scores").records
    assert ipsoeval.interval_map(res, measures=["P@10"]).table("scores").records == a


def test_options_read_the_command_line_and_the_api_alike():
    from ipsoeval.analyses.interval_map import TESTS
    from ipsoeval.analyses.interval_map.options import Options
    cli = pipeline.options_of(parse(pipeline.COMMAND, ["-m", "P@10", "--no-cache",
                                                       "--max-memory", "1M", *FILES]))
    api = pipeline.options_of({"use_cache": False, "max_memory": "1M"})
    assert (cli.use_cache, cli.max_memory, cli.tests) == (False, 1 << 20, TESTS)
    assert (api.use_cache, api.max_memory) == (False, 1 << 20)
    assert Options(tests="t,sign").tests == ("t", "sign")


def test_the_command_line_and_the_api_give_the_same_tables():
    v = parse(pipeline.COMMAND, ["-m", "P@10", "-m", "RR@10", "-q", *FILES])
    cli = pipeline.from_values(v)
    api = ipsoeval.interval_map(ipsoeval.evaluate(FILES[0], FILES[1:], measures=["P@10"]),
                                ["P@10", "RR@10"], per_query=True)
    assert cli.table("scores").records == api.table("scores").records


def test_table_list_reads_nothing(tmp_path):
    missing = [str(tmp_path / "q"), str(tmp_path / "a")]
    code, out, err = invoke(["interval-map", "--table", "list", "-m", "P@10", "--values",
                             *missing])
    assert code == 0 and "values\t" in out and err == ""
