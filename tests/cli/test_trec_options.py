"""trec_eval's option spellings: the long getopt names, -T, and -o.

Golden outputs are trec_eval 10.0's own (tests/data/trec_eval, NIST notice)."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import TE, invoke


def _eval(*args):
    return invoke(["eval", *args])


@pytest.mark.parametrize("args", [
    ["-q", "-c", "-M100", "-m", "all_trec"],
    ["--query_eval_wanted", "--complete_rel_info_wanted", "--Max_retrieved_per_topic=100",
     "-m", "all_trec"],
    ["--query_eval_wanted", "--complete_rel_info_wanted", "--Max_retrieved_per_topic", "100",
     "--measure", "all_trec", "-T", "trec_results"],
    ["--query_eval_wanted", "--complete_rel_info_wanted", "-M", "100", "-m", "all_trec",
     "--Results_format=trec_results"],
])
def test_long_spellings_are_trec_evals(args):
    # trec_eval -m all_trec -q -c -M100 qrels.test results.trunc (make quicktest's .aqcM)
    code, out, err = _eval(*args, TE / "qrels.test", TE / "results.trunc")
    assert code == 0, err
    assert out == (TE / "out.test.aqcM").read_text()


def test_nosummary_and_level_for_rel():
    code, a, _ = _eval("-q", "-n", "-l", "2", "-m", "P.5", TE / "qrels.test", TE / "results.test")
    code2, b, _ = _eval("--query_eval_wanted", "--nosummary", "--level_for_rel=2", "-m", "P.5",
                        TE / "qrels.test", TE / "results.test")
    assert code == code2 == 0 and a == b and "\tall\t" not in a


def test_results_format_other_than_trec_results_is_refused():
    code, _, err = _eval("-T", "msmarco", TE / "qrels.test", TE / "results.test")
    assert code == 2 and "-T" in err


def test_output_naming_an_input_is_refused_and_the_input_kept(tmp_path):
    # trec_eval's obsolete -o takes no argument: `-o qrels` must never replace the qrels
    q = tmp_path / "qrels"
    r = tmp_path / "run"
    shutil.copy(TE / "qrels.test", q)
    shutil.copy(TE / "results.test", r)
    before = q.read_bytes(), r.read_bytes()
    for target in (q, r):
        code, out, err = _eval("-o", target, q, r)
        assert code == 2, err
        assert "is the" in err and "input" in err
    assert (q.read_bytes(), r.read_bytes()) == before
