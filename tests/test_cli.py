"""CLI: exact error lines and exit statuses, formats, pipes, output files."""

import json
import os
import subprocess
import sys

import pytest
from conftest import TE, TESTDATA, invoke

QRELS = TESTDATA / "adhoc" / "qrels.txt"
BM25 = TESTDATA / "adhoc" / "run-bm25.txt"
NEURAL = TESTDATA / "adhoc" / "run-neural.txt"


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


@pytest.mark.parametrize("content,line,msg", [
    ("401 Q0 a 1 1.0 t\n401 Q0 b 2\n", 2,
     "expected 6 or more fields (qid Q0 docno rank score tag), found 4"),
    ("401 Q0 a 1 1.0 t\n401 Q0 b 2 high t\n", 2, "score is not a finite number ('high')"),
    ("401 Q0 a 1 1.0 t\n401 Q0 c 2 0.5 t\n401 Q0 a 3 0.2 t\n", 3,
     "duplicate docno 'a' in topic '401' (also at line 1)"),
    (b"401 Q0 a 1 1.0 t\n\x00\xff\x13garbage\n", 2, "binary data, not a text file (byte 0x00)"),
])
def test_input_errors_exact_line(tmp_path, content, line, msg):
    run = write(tmp_path, "run", content)
    code, out, err = invoke(["eval", QRELS, run])
    assert code == 3
    assert out == ""
    assert err == f"ipsoeval: error: {run}:{line}: {msg}\n"


def test_empty_file(tmp_path):
    run = write(tmp_path, "run", "")
    code, out, err = invoke(["eval", QRELS, run])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: {run}: empty run file (no data lines)\n"


def test_missing_file(tmp_path):
    code, out, err = invoke(["eval", QRELS, tmp_path / "nope"])
    assert (code, out) == (3, "")
    assert err == f"ipsoeval: error: {tmp_path / 'nope'}: no such file\n"


def test_duplicate_in_qrels(tmp_path):
    q = write(tmp_path, "q", "1 0 a 1\n1 0 b 0\n1 0 a 0\n")
    code, _, err = invoke(["eval", q, BM25])
    assert code == 3
    assert err == f"ipsoeval: error: {q}:3: duplicate docno 'a' in topic '1' (also at line 1)\n"


def test_unknown_measure_suggests():
    code, out, err = invoke(["eval", "-m", "nDGC@10", QRELS, BM25])
    assert (code, out) == (2, "")
    assert err == "ipsoeval: error: unknown measure 'nDGC@10' (did you mean 'nDCG@10'?)\n"


def test_unknown_option_and_command():
    code, _, err = invoke(["eval", "--bogus", QRELS, BM25])
    assert code == 2 and err.startswith("ipsoeval: error: ")
    code, _, err = invoke(["evl", QRELS, BM25])
    assert code == 2 and "did you mean 'eval'" in err


def test_conflicting_options():
    code, _, err = invoke(["eval", "-c", "--queries", "strict", QRELS, BM25])
    assert code == 2 and err == "ipsoeval: error: -c/--complete conflicts with --queries strict\n"


def test_two_stdin_arguments_is_usage_error():
    code, _, err = invoke(["eval", "-", "-"], input="")
    assert code == 2 and "at most one input may be '-'" in err


def test_strict_topics_differ_is_input_error():
    code, _, err = invoke(["eval", "--queries", "strict", QRELS, NEURAL])
    assert code == 3 and "--queries strict: topics differ" in err


def test_warnings_for_dropped_and_filled_topics():
    code, out, err = invoke(["eval", "-m", "P@5", QRELS, NEURAL])
    assert code == 0
    assert "1 topic(s) not in the qrels ignored" in err
    assert "1 qrels topic(s) missing from the run skipped" in err
    code, out, err = invoke(["eval", "-c", "-m", "P@5", QRELS, NEURAL])
    assert "evaluated as empty rankings" in err
    assert "num_q" not in out


def test_format_auto_uses_isatty():
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, BM25], isatty=False)
    assert out.startswith("P@5                   \tall\t")
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, BM25], isatty=True)
    assert "P@5" in out and "\t" not in out          # a rich table


def test_tsv_and_json_exact():
    code, out, _ = invoke(["eval", "--format", "tsv", "-m", "P@5", "-m", "NumRet", QRELS, BM25])
    assert out == "run\tqid\tmeasure\tvalue\nbm25\tall\tP@5\t0.35000000000000003\nbm25\tall\tNumRet\t60\n"
    code, out, _ = invoke(["eval", "--format", "json", "-m", "ESL@1", QRELS, BM25])
    doc = json.loads(out)
    assert doc["command"] == "eval" and doc["ipsoeval"]
    assert doc["results"][0]["measure"] == "ESL@1"
    assert set(doc["results"][0]) == {"run", "qid", "measure", "value"}


def test_json_null_for_undefined():
    code, out, _ = invoke(["eval", "--format", "json", "-q", "-m", "ESL@1", QRELS, BM25])
    vals = [r["value"] for r in json.loads(out)["results"] if r["qid"] != "all"]
    assert None in vals


def test_output_file_written_only_on_success(tmp_path):
    dest = tmp_path / "out.tsv"
    code, out, _ = invoke(["eval", "-o", dest, "-m", "P@5", QRELS, BM25])
    assert code == 0 and out == "" and dest.read_text().startswith("P@5")
    bad = write(tmp_path, "bad", "401 Q0 a 1 x t\n")
    dest2 = tmp_path / "out2.tsv"
    code, _, _ = invoke(["eval", "-o", dest2, QRELS, bad])
    assert code == 3 and not dest2.exists()


def test_trec_names_keep_trec_order_canonical_keep_request_order():
    _, out, _ = invoke(["eval", "-m", "P.5", "-m", "map", QRELS, BM25])
    assert [ln.split()[0] for ln in out.splitlines()] == ["map", "P_5"]
    _, out, _ = invoke(["eval", "-m", "P@5", "-m", "AP", QRELS, BM25])
    assert [ln.split()[0] for ln in out.splitlines()] == ["P@5", "AP"]


def test_measures_command_lists_scales():
    code, out, _ = invoke(["measures", "--format", "tsv"])
    assert code == 0
    rows = [ln.split("\t") for ln in out.splitlines()]
    assert rows[0][:3] == ["measure", "example", "scale"]
    scale = {r[0]: r[2] for r in rows[1:]}
    assert scale["P"] == "interval" and scale["AP"] == "ordinal" and scale["ESL"] == "ratio"


def _subprocess(args, **kw):
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    return subprocess.run([sys.executable, "-m", "ipsoeval", *map(str, args)],
                          capture_output=True, env=env, **kw)


def test_broken_pipe_is_quiet_and_zero():
    env = dict(os.environ, PYTHONPATH=str(TE.parent.parent.parent))
    cmd = (f"{sys.executable} -m ipsoeval eval -q -m all_trec {TE / 'qrels.test'} "
           f"{TE / 'results.test'} | head -1")
    p = subprocess.run(["bash", "-c", cmd + "; echo ${PIPESTATUS[0]}"], capture_output=True,
                       env=env, text=True)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("num_ret") and lines[-1] == "0"
    assert p.stderr == ""


def test_internal_error_one_line(monkeypatch):
    import ipsoeval.engine as engine

    def boom(*a, **k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(engine, "evaluate", boom)
    code, _, err = invoke(["eval", QRELS, BM25])
    assert code == 70
    assert err.count("\n") == 1 and "internal error: RuntimeError: kaboom" in err


def test_stdin_run():
    code, out, _ = invoke(["eval", "-m", "P@5", QRELS, "-"], input=BM25.read_text())
    code2, out2, _ = invoke(["eval", "-m", "P@5", QRELS, BM25])
    assert code == 0 and out == out2


def test_python_dash_m_and_version():
    p = _subprocess(["--version"])
    assert p.returncode == 0 and b"ipsoeval" in p.stdout
