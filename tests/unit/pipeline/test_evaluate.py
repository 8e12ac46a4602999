"""ipsoeval.pipeline.evaluate: eval declared once -- the click command, the
fast path's parser and the API's keywords all read COMMAND."""

import inspect
import subprocess
import sys

import pytest

import ipsoeval
from ipsoeval.declare import parse
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import evaluate as pipeline
from ipsoeval.reading.quick import SERVES
from tests.conftest import TESTDATA, invoke, run_quick

Q = TESTDATA / "adhoc" / "qrels.txt"
BM25 = TESTDATA / "adhoc" / "run-bm25.txt"


def test_the_click_command_is_the_declaration():
    from ipsoeval.cli.eval_cmd import command
    declared = [o for o in pipeline.COMMAND.opts() if o.cli]
    got = {tuple(p.opts): p for p in command.params if p.param_type_name == "option"}
    assert {tuple(o.flags) for o in declared} <= set(got) | {("-v",)}
    assert [p.name for p in command.params if p.param_type_name == "argument"] == \
        ["qrels", "runs"]


def test_importing_the_declaration_loads_neither_numpy_nor_click():
    code = ("import sys, ipsoeval.pipeline.evaluate; "
            "print('numpy' in sys.modules, 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False"]


def test_the_fast_parser_reads_eval_as_click_does():
    v = parse(pipeline.COMMAND, ["-q", "--format=tsv", "-m", "AP", "-M5", "q", "r1", "r2"],
              serve=SERVES)
    assert (v["per_query"], v["fmt"], v["measures"], v["depth"]) == (True, "tsv", ("AP",), 5)
    assert (v["qrels"], v["runs"]) == ("q", ("r1", "r2"))
    for argv in (["-J", "q", "r"], ["-c", "q", "r"], ["-o", "x", "q", "r"], ["-v"],
                 ["--nosummary", "q", "r"], ["-M", "0", "q", "r"], ["q"]):
        assert parse(pipeline.COMMAND, argv, serve=SERVES) is None, argv


def test_trec_eval_long_spellings_reach_the_fast_path(tmp_path):
    # --query_eval_wanted is -q, --Max_retrieved_per_topic=N is -M N, in both paths
    args = ["eval", "--query_eval_wanted", "--Max_retrieved_per_topic=5", "-m", "P@5",
            "-m", "AP", Q, BM25]
    served, out, err = run_quick([str(a) for a in args])
    assert served
    assert (0, out, err) == invoke(args)
    assert out == invoke(["eval", "-q", "-M", "5", "-m", "P@5", "-m", "AP", Q, BM25])[1]


@pytest.mark.parametrize("args", [["-M", "\u0665"], ["-M", "+5"], ["--depth= 5"], ["-"]])
def test_the_fast_path_still_declines(args):
    argv = ["eval", "-m", "AP", *args, str(Q)] + ([] if args == ["-"] else [str(BM25)])
    assert not pipeline.quick(argv)


@pytest.mark.parametrize("flag", ["-v", "--version"])
def test_dash_v_prints_the_version_first(flag):
    code, out, err = invoke(["eval", flag])
    assert code == 0 and out == ""
    assert err.startswith(f"ipsoeval eval {ipsoeval.__version__} (trec_eval 10.0 semantics")


def test_debug_level_is_checked_in_the_one_place():
    code, _, err = invoke(["eval", "-D", "x.1", Q, BM25])
    assert code == 2
    assert err == "ipsoeval: error: Invalid value for '-D': expected N or N.qid (found 'x.1')\n"


def test_the_api_keeps_its_keywords_and_defaults():
    sig = inspect.signature(ipsoeval.evaluate)
    want = {"queries": "qrels", "rel_level": 1, "judged_only": False, "gains": None,
            "depth": None, "tie_break": "trec", "run_format": "auto", "names": None,
            "name_from_file": False, "bounds": False, "labels": "integer", "samples": None,
            "seed": None, "engine": "local"}
    assert list(sig.parameters)[:3] == ["qrels", "runs", "measures"]
    assert sig.parameters["measures"].default is None
    assert {k: p.default for k, p in sig.parameters.items()
            if p.kind is p.KEYWORD_ONLY} == want
    with pytest.raises(TypeError, match="unexpected keyword argument 'per_query'"):
        ipsoeval.evaluate(str(Q), str(BM25), per_query=True)
    # the API's default topic set is qrels, the command line's intersection
    assert "[default: qrels]" in ipsoeval.evaluate.__doc__


def test_the_api_and_the_command_line_refuse_bounds_in_the_same_words():
    with pytest.raises(UsageError, match=r"^--bounds does not combine with --labels gain$"):
        ipsoeval.evaluate(str(Q), str(BM25), "AP", bounds=True, labels="gain")
    code, _, err = invoke(["eval", "--bounds", "--labels", "gain", Q, BM25])
    assert code == 2 and "--bounds does not combine with --labels gain" in err
