"""ipsoeval.pipeline.bootstrap: the command's one declaration, its checks worded
once for the command line and the API, and its values (--queries-file,
--split-half, --scores) turned into the Report without click."""

import warnings

import pytest

import ipsoeval
from ipsoeval.declare import parse
from ipsoeval.errors import UsageError
from ipsoeval.formatters import render
from ipsoeval.pipeline import bootstrap as pipeline
from tests.conftest import TESTDATA, invoke

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


@pytest.fixture(scope="module")
def res():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ipsoeval.InputWarning)
        return ipsoeval.evaluate(FILES[0], FILES[1:], ["AP"])


def test_from_values_is_the_command_line(tmp_path):
    subset = tmp_path / "hard.txt"
    subset.write_text("401\n402\n403\n404\n")
    argv = ["-m", "AP", "--samples", "60", "--seed", "3", "--split-half", "4",
            "--test", "t,sign", "--queries-file", f"hard={subset}", *FILES]
    report = pipeline.from_values(parse(pipeline.COMMAND, argv))
    for table in ("leaderboard", "split_half"):
        code, out, _ = invoke(["bootstrap", "--format", "tsv", "--table", table, *argv])
        assert code == 0 and render(report, "tsv", table=table) == out


def test_score_files_are_the_command_line(tmp_path):
    scores = tmp_path / "scores.tsv"
    code, out, _ = invoke(["eval", "-q", "-m", "AP", "--format", "tsv", *FILES])
    scores.write_text(out)
    argv = ["--scores", str(scores), "--samples", "60", "--baseline", "bm25"]
    notes = []
    report = pipeline.from_values(parse(pipeline.COMMAND, argv), note=notes.append)
    code, out, err = invoke(["bootstrap", "--format", "tsv", *argv])
    assert code == 0 and render(report, "tsv") == out
    assert notes and all(f"ipsoeval: note: {n}" in err for n in notes)


@pytest.mark.parametrize("kw, words", [
    ({"split_half": 0}, "--split-half must be at least 1 (found 0)"),
    ({"tests": "t"}, "--test and --aggregate apply to --split-half: give --split-half too"),
    ({"aggregates": "median"}, "--test and --aggregate apply to --split-half"),
])
def test_the_api_refuses_in_the_command_lines_words(res, kw, words):
    with pytest.raises(UsageError, match=words.replace("(", r"\(").replace(")", r"\)")):
        ipsoeval.bootstrap(res, samples=50, **kw)
    argv = {"split_half": ["--split-half", "0"], "tests": ["--test", "t"],
            "aggregates": ["--aggregate", "median"]}[next(iter(kw))]
    code, _, err = invoke(["bootstrap", "-m", "AP", "--samples", "50", *argv, *FILES])
    assert code == 2 and words in err


def test_subsets_are_the_apis_queries_file(res, tmp_path):
    subset = tmp_path / "hard.txt"
    subset.write_text("401\n402\n403\n404\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ipsoeval.InputWarning)
        report = ipsoeval.bootstrap(res, samples=60,
                                    subsets={"hard": ["401", "402", "403", "404"]})
    code, out, _ = invoke(["bootstrap", "--format", "tsv", "-m", "AP", "--samples", "60",
                           "--queries-file", f"hard={subset}", *FILES])
    assert code == 0 and render(report, "tsv") == out
    assert "subsets" not in [o.dest for o in pipeline.COMMAND.opts() if o.cli]
    assert "queries_files" not in [o.dest for o in pipeline.COMMAND.opts() if o.api]
