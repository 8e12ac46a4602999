"""Golden tests: ipsoeval eval --format trec against trec_eval's expected files."""

import re

import pytest

from tests.conftest import TE, invoke

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python")

# measures ipsoeval supports; lines of other measures are filtered from the files
SUPPORTED = re.compile(
    r"^(runid|num_q|num_ret|num_rel|num_rel_ret|num_nonrel_judged_ret|map|gm_map|Rprec|bpref|"
    r"recip_rank|iprec_at_recall_[0-9.]+|P_\d+|recall_\d+|ndcg|ndcg_cut_\d+|map_cut_\d+|"
    r"success_\d+)\s")


def expected(name, only_supported=False):
    text = (TE / name).read_text()
    if only_supported:
        text = "".join(ln for ln in text.splitlines(keepends=True) if SUPPORTED.match(ln))
    return text


def run(*args):
    code, out, err = invoke(["eval", "--format", "trec", *args])
    assert code == 0, err
    return out


@pytest.mark.parametrize("qrels", ["qrels.test", "qrels.test.with-comments"])
def test_default_measures_byte_for_byte(qrels):
    assert run(TE / qrels, TE / "results.test") == expected("out.test")


def test_default_is_trec_when_piped():
    code, out, _ = invoke(["eval", TE / "qrels.test", TE / "results.test"])
    assert code == 0 and out == expected("out.test")


def test_msmarco_v21_docids_with_hash_gzip_run():
    assert run(TE / "qrels.comment.test", TE / "results.comment.test.gz") == \
        expected("out.comment.test")


def test_all_trec():
    assert run("-m", "all_trec", TE / "qrels.test", TE / "results.test") == \
        expected("out.test.a")


def test_all_trec_per_query():
    assert run("-q", "-m", "all_trec", TE / "qrels.test", TE / "results.test") == \
        expected("out.test.aq")


def test_complete_per_query_truncated_run():
    assert run("-q", "-c", "-m", "all_trec", TE / "qrels.test", TE / "results.trunc") == \
        expected("out.test.aqc")


def test_complete_per_query_depth_100():
    assert run("-q", "-c", "-M100", "-m", "all_trec", TE / "qrels.test",
               TE / "results.trunc") == expected("out.test.aqcM")


def test_relevance_level_2():
    assert run("-m", "all_trec", "-mrelstring.20", "-q", "-l2", TE / "qrels.rel_level",
               TE / "results.test") == \
        expected("out.test.aql")


def test_measure_parameters_trec_eval_syntax():
    # the exact command of trec_eval's quicktest (every -m of its line)
    got = run("-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3",
              "-m", "recall.20,2000", "-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0",
              "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4",
              "-msuccess.2,5,20", TE / "qrels.test", TE / "results.test")
    assert got == expected("out.test.meas_params")
    assert "P_3 " in got and "ndcg_cut_23 " in got


def test_complete_alias_equals_queries_qrels():
    a = run("-c", TE / "qrels.test", TE / "results.trunc")
    b = run("--queries", "qrels", TE / "qrels.test", TE / "results.trunc")
    assert a == b


def test_several_runs_one_block_each():
    got = run(TE / "qrels.test", TE / "results.test", TE / "results.trunc")
    blocks = got.split("runid                 \tall\t")
    assert len(blocks) == 3
    assert blocks[1].startswith("STANDARD")
    # each block equals the single-run evaluation of its file
    single = run(TE / "qrels.test", TE / "results.trunc")
    assert got.endswith(single.split("\t", 2)[2].split("\n", 1)[1])
