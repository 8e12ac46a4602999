"""Text fixes (docs/api.md's editing leftovers, the ppi
and leaderboard man pages' formulas, agree's titles, eval's table without a
qid column of "all")."""

import re
import shutil
import subprocess

import pytest

from tests.conftest import ROOT, TESTDATA, invoke

ADHOC = TESTDATA / "adhoc"


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_api_md_has_no_editing_leftovers():
    text = (ROOT / "docs" / "api.md").read_text()
    lines = text.splitlines()
    assert sum(ln.endswith(" take an") for ln in lines) == 1
    assert not any(ln.lstrip().startswith("(`-M`), `tie_break`, `run_format`, `labels`")
                   for ln in lines)
    assert _flat(text).count("Note the default topic policy") == 1
    # nothing the fixes dropped: the options are still documented
    flat = _flat(text)
    for what in ("`labels` (`--labels`)", "`tie_break=\"expected\"`", "`engine=\"local\"`",
                 "`leaderboard`, `breakdown`, `ipso`, `interval_map`, `power`, `meta` take"):
        assert what in flat, what


def test_man_formulas():
    ppi = (ROOT / "man" / "ipsoeval-ppi.1").read_text()
    assert "\\(ts" not in ppi and "lambda^2 var(Yhat')" in ppi
    for page in (ROOT / "man").glob("*.1"):
        assert "\\(ts" not in page.read_text(), page    # groff's terminal sigma
    lb = _flat((ROOT / "man" / "ipsoeval-leaderboard.1").read_text())
    assert "mean_j| + 1)" not in lb
    assert "p(i, j) = (c + 1) / (B + 1), where c is the number of the B samples whose range " \
           "is at least |mean_i \\- mean_j|" in lb


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_ppi_man_page_renders_lambda_squared():
    out = subprocess.run(["man", "-l", str(ROOT / "man" / "ipsoeval-ppi.1")],
                         capture_output=True, text=True, env={"MANWIDTH": "100", "LANG": "C.UTF-8",
                                                              "PATH": "/usr/bin:/bin"})
    if out.returncode != 0 or not out.stdout:
        pytest.skip("man could not render")
    text = _flat(out.stdout)
    assert "sqrt(lambda^2 var(Yhat') / (N - n)" in text and "ς" not in text, text


def test_agree_titles_name_the_files():
    human, auto = TESTDATA / "ppi" / "human.qrels", TESTDATA / "ppi" / "auto.qrels"
    runs = [ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"]
    for table in ("agreement", "confusion", "rankings", "means"):
        code, out, _ = invoke(["agree", "--format", "table", "--table", table, "-m", "P@5",
                               human, auto, *runs], width=400)
        assert code == 0
        assert "QRELS_A" not in out and "QRELS_B" not in out, out
        assert f"{human} (A)" in out and f"{auto} (B)" in out, out


def test_eval_table_without_per_topic_rows_has_no_qid_column():
    qrels, runs = ADHOC / "qrels.txt", [ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"]
    code, out, _ = invoke(["eval", "--format", "table", "-m", "P@5", "-m", "AP", qrels, *runs],
                          width=200)
    assert code == 0
    head = next(ln for ln in out.splitlines() if "measure" in ln)
    assert head.split() == ["measure", "bm25", "neural"]
    assert not any(ln.split()[:1] == ["all"] for ln in out.splitlines())
    # with -q the topics need their column
    code, out, _ = invoke(["eval", "-q", "--format", "table", "-m", "P@5", qrels, runs[0]],
                          width=200)
    head = next(ln for ln in out.splitlines() if "measure" in ln)
    assert head.split()[:2] == ["qid", "measure"]
