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
