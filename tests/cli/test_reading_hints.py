"""Reading errors that point at their cause: a header line in a run or qrels
file (TREC formats have none) is named as the likely cause."""

import pytest

from tests.conftest import invoke

RUN = "1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n"
QRELS = "1 0 d1 1\n1 0 d2 0\n"


@pytest.mark.parametrize("fmt", [[], ["--format", "json"]])
def test_run_header_line_gets_a_hint(tmp_path, fmt):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text("qid Q0 docno rank score tag\n" + RUN)
    code, out, err = invoke(["eval", "-m", "P@5", *fmt, str(q), str(r)])
    assert code != 0 and out == ""
    assert err.strip().endswith("r:1: score is not a finite number ('score'); is line 1 a "
                                "header? TREC runs have none")


@pytest.mark.parametrize("extra", [[], ["--labels", "gain"]])
def test_qrels_header_line_gets_a_hint(tmp_path, extra):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("qid iter docno label\n" + QRELS)
    r.write_text(RUN)
    code, out, err = invoke(["eval", "-m", "P@5", *extra, str(q), str(r)])
    assert code != 0 and out == ""
    assert "q:1: label is not" in err and "is line 1 a header? TREC qrels have none" in err


def test_a_bad_number_elsewhere_gets_no_header_hint(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN + "1 Q0 d3 3 abc r\n")
    code, _, err = invoke(["eval", "-m", "P@5", str(q), str(r)])
    assert code != 0 and "r:3: score is not a finite number ('abc')" in err
    assert "header" not in err


# --- diversity qrels read by an ordinary measure -----------------------------------------

DIV = "1 1 x 0\n1 1 y 1\n1 1 d1 1\n1 2 d1 0\n" + "".join(
    f"1 {s} z{i} 1\n" for i in range(200) for s in (1, 2))
DIV_RUN = "1 Q0 d1 1 3 r\n1 Q0 y 2 2 r\n1 Q0 z7 3 1 r\n"


def test_duplicate_docno_names_the_first_duplicate_lines(tmp_path):
    q, r = tmp_path / "div.qrels", tmp_path / "r"
    q.write_text(DIV)
    r.write_text(DIV_RUN)
    code, out, err = invoke(["eval", "-m", "nDCG@10", str(q), str(r)])
    assert code == 3 and out == ""
    assert "div.qrels:4: duplicate docno 'd1' in topic '1' (also at line 3)" in err
    assert "column 2 differs ('1', '2'): diversity qrels" in err


def test_duplicate_in_trec_qrels_gets_no_diversity_hint(tmp_path):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 1\n1 0 c 1\n1 0 b 0\n1 0 a 0\n")
    r.write_text(DIV_RUN)
    code, _, err = invoke(["eval", "-m", "P@5", str(q), str(r)])
    assert code == 3 and "q:4: duplicate docno 'b' in topic '1' (also at line 2)" in err
    assert "diversity" not in err


def test_ordinary_measure_beside_a_diversity_one_is_warned(tmp_path):
    import ipsoeval.api as api
    q, r = tmp_path / "div.qrels", tmp_path / "r"
    q.write_text(DIV)
    r.write_text(DIV_RUN)
    code, out, err = invoke(["eval", "-m", "alpha_nDCG@20", "-m", "nDCG@10", str(q), str(r)])
    assert code == 0 and "nDCG@10" in out
    assert "nDCG@10 is not a diversity measure" in err and "largest judgment" in err
    code, out, err = invoke(["eval", "-W", "error", "-m", "alpha_nDCG@20", "-m", "nDCG@10",
                             str(q), str(r)])
    assert code == 3 and out == ""
    code, out, err = invoke(["eval", "-m", "alpha_nDCG@20", str(q), str(r)])
    assert code == 0 and "diversity measure" not in err
    with pytest.warns(UserWarning, match="nDCG@10 is not a diversity measure"):
        api.evaluate(str(q), str(r), ["alpha_nDCG@20", "nDCG@10"])


# --- eval -q with several runs in the trec layout: one runid line heads each block ------

def test_several_runs_q_blocks_split_by_runid(tmp_path):
    from tests.conftest import ROOT
    q = ROOT / "testdata/adhoc/qrels.txt"
    a, b = ROOT / "testdata/adhoc/run-bm25.txt", ROOT / "testdata/adhoc/run-neural.txt"
    code, out, err = invoke(["eval", "-q", "--format", "trec", "-m", "P@5", "-m", "runid",
                             str(q), str(a), str(b)])
    assert code == 0
    blocks, run = {}, None
    for line in out.splitlines():
        f = line.split("\t")
        if f[0].strip() == "runid":
            run = f[2]
            assert run not in blocks          # the runid line is not repeated in a block
            blocks[run] = []
            continue
        blocks[run].append(f)
    assert list(blocks) == ["bm25", "neural"]
    code, tsv, _ = invoke(["eval", "-q", "--format", "tsv", "-m", "P@5", str(q), str(a),
                           str(b)])
    rows = [r.split("\t") for r in tsv.splitlines()[1:]]
    for run, lines in blocks.items():
        want = [(qid, round(float(v), 4)) for r_, qid, m, v in rows if r_ == run]
        assert [(f[1], float(f[2])) for f in lines] == want


def test_one_run_q_is_trec_eval_byte_for_byte(tmp_path):
    from tests.conftest import ROOT
    q, a = ROOT / "testdata/adhoc/qrels.txt", ROOT / "testdata/adhoc/run-bm25.txt"
    code, out, _ = invoke(["eval", "-q", "--format", "trec", "-m", "P@5", str(q), str(a)])
    assert code == 0 and not out.startswith("runid")
    assert all(line.startswith("P@5") for line in out.splitlines())


# --- a directory of runs: the default baseline is named --------------------------------

def test_directory_default_baseline_is_named_in_a_note(tmp_path):
    from tests.conftest import ROOT
    d = tmp_path / "runs"
    d.mkdir()
    for name in ("web-dense.run", "web-bm25.run"):
        (d / name).write_bytes((ROOT / "testdata/across" / name).read_bytes())
    q = str(ROOT / "testdata/across/web.qrels")
    code, out, err = invoke(["sigtest", "-m", "P@5", q, str(d)])
    assert code == 0 and out.splitlines()[1].startswith("bm25\tdense")
    assert f"note: baseline: {d / 'web-bm25.run'} (the first run: the first file of {d}" in err
    code, out, err = invoke(["sigtest", "-W", "error", "-m", "P@5", q, str(d)])
    assert code == 0 and out                 # a note: never fatal
    for extra in (["--baseline", "dense"], ["--all-pairs"]):
        code, out, err = invoke(["sigtest", *extra, "-m", "P@5", q, str(d)])
        assert code == 0 and "note: baseline" not in err
    code, out, err = invoke(["sigtest", "-m", "P@5", q, str(d / "web-bm25.run"),
                             str(d / "web-dense.run")])
    assert code == 0 and "note: baseline" not in err
