"""QRELS ``irds:DATASET_ID``: qrels through ir_datasets.

The real ir_datasets package reads a real data set's qrels from a temporary
``IR_DATASETS_HOME``.  There is no network here (nor should a test need it):
ir_datasets checks a download's md5 only while downloading, and a file
already at the data set's cache path (for msmarco-passage/trec-dl-2019:
``$IR_DATASETS_HOME/msmarco-passage/trec-dl-2019/qrels``, ir_datasets'
etc/downloads.json ``cache_path`` under the data set's directory) is read as
it is, so a small qrels in the real format placed there stands for the
download.  Each CLI call runs in a child process: ir_datasets reads
``IR_DATASETS_HOME`` once, on import.  The download-failure test points
ir_datasets at a closed local proxy with one try, so it fails at once
whether or not the machine has a network.
"""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# not imported here: importing ir_datasets creates its tree under IR_DATASETS_HOME
pytestmark = pytest.mark.skipif(importlib.util.find_spec("ir_datasets") is None,
                                reason="ir_datasets not installed (ipsoeval[irds])")

DL19 = "msmarco-passage/trec-dl-2019/judged"
# graded (0..3), two topics, ids as the real file writes them
QRELS = ("19335 0 1017759 0\n19335 0 1082489 3\n19335 0 109063 1\n19335 0 1160863 2\n"
         "47923 0 1030303 2\n47923 0 1030304 0\n47923 0 1030305 1\n")
RUN_A = ("19335 Q0 1082489 1 3.5 a\n19335 Q0 109063 2 2.0 a\n19335 Q0 777 3 2.0 a\n"
         "47923 Q0 1030303 1 1.0 a\n47923 Q0 1030305 2 0.5 a\n")
RUN_B = ("19335 Q0 1017759 1 9 b\n19335 Q0 1160863 2 8 b\n"
         "47923 Q0 1030304 1 1.0 b\n47923 Q0 1030303 2 0.5 b\n")


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "irds"
    (h / "msmarco-passage" / "trec-dl-2019").mkdir(parents=True)
    (h / "msmarco-passage" / "trec-dl-2019" / "qrels").write_text(QRELS)
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "a.txt").write_text(RUN_A)
    (tmp_path / "b.txt").write_text(RUN_B)
    return h


def cli(args, home, *, cwd, block=(), offline=True):
    """The CLI in a child with IR_DATASETS_HOME=home (modules in ``block`` not importable)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IR_DATASETS_HOME": str(home)}
    if offline:     # any download attempt fails at once: a closed local port, one try
        env.update(HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9",
                   https_proxy="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9",
                   NO_PROXY="", no_proxy="", IR_DATASETS_DL_TRIES="1",
                   IR_DATASETS_DL_TIMEOUT="5")
    code = ("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in block) +
            "from ipsoeval.cli import main\nsys.argv = ['ipsoeval'] + sys.argv[1:]\nmain()\n")
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def one_error(r, status):
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ipsoeval: error: "), r.stderr
    assert "Traceback" not in r.stderr
    return lines[0]


@pytest.mark.parametrize("args", [
    ["eval", "-q", "--format", "tsv", "-m", "all_trec", "-m", "nDCG@10", "-m", "RR"],
    ["eval", "-l", "2", "--format", "tsv", "-m", "AP", "-m", "P@2", "-m", "nDCG@3"],
    ["eval", "--labels", "gain", "--format", "tsv", "-m", "nDCG@3"],
    ["sigtest", "--format", "tsv", "-m", "nDCG@10", "-m", "AP"],
    ["bootstrap", "--format", "tsv", "-m", "AP", "--samples", "200", "--seed", "3"],
])
def test_same_numbers_as_the_text_qrels(args, home, tmp_path):
    """Graded labels kept: every number equals the same qrels read as a file
    (the text path is checked against trec_eval in tests/golden/test_golden.py)."""
    runs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    want = cli([*args, tmp_path / "q.txt", *runs], home, cwd=tmp_path)
    got = cli([*args, f"irds:{DL19}", *runs], home, cwd=tmp_path)
    assert want.returncode == 0, want.stderr
    assert got.returncode == 0 and got.stderr == want.stderr, got.stderr
    assert got.stdout == want.stdout


def test_ppi_human_and_agree_and_the_api(home, tmp_path):
    runs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    (tmp_path / "auto.txt").write_text(QRELS.replace(" 3\n", " 1\n"))
    ppi = ["ppi", "--format", "tsv", "-m", "AP", "--auto", tmp_path / "auto.txt", "--human"]
    want = cli([*ppi, tmp_path / "q.txt", *runs], home, cwd=tmp_path)
    got = cli([*ppi, f"irds:{DL19}", *runs], home, cwd=tmp_path)
    assert want.returncode == 0 and got.stdout == want.stdout, got.stderr
    agree = ["agree", "--format", "tsv"]
    want = cli([*agree, tmp_path / "q.txt", tmp_path / "auto.txt"], home, cwd=tmp_path)
    got = cli([*agree, f"irds:{DL19}", tmp_path / "auto.txt"], home, cwd=tmp_path)
    assert want.returncode == 0 and got.stdout == want.stdout, got.stderr
    code = ("import ipsoeval, numpy as np, sys\n"
            f"a = ipsoeval.evaluate('irds:{DL19}', sys.argv[2:], ['nDCG@10', 'AP'])\n"
            "b = ipsoeval.evaluate(sys.argv[1], sys.argv[2:], ['nDCG@10', 'AP'])\n"
            "assert a.topics == b.topics\n"
            "for m in ('nDCG@10', 'AP'): assert np.array_equal(a.matrix(m), b.matrix(m))\n"
            "print('same')\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "q.txt"), *map(str, runs)],
                       env={**os.environ, "PYTHONPATH": str(ROOT), "IR_DATASETS_HOME": str(home)},
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout == "same\n", r.stderr


def test_measures_dataset_documents_the_relevance_levels(home, tmp_path):
    code = ("import json, ir_datasets.datasets.msmarco_passage as mp\n"
            "print(json.dumps(sorted(mp.TREC_DL_QRELS_DEFS.items(), reverse=True)))\n")
    want = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                     text=True, timeout=120, check=True,
                                     env={**os.environ, "IR_DATASETS_HOME": str(home)}).stdout)
    r = cli(["measures", "--dataset", DL19, "--format", "tsv"], home, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "dataset\tlabel\tdefinition"
    assert lines[1:] == [f"{DL19}\t{k}\t{v}" for k, v in want]


def test_unknown_id_and_empty_id(home, tmp_path):
    line = one_error(cli(["eval", "-m", "AP", "irds:no-such/data-set", tmp_path / "a.txt"],
                         home, cwd=tmp_path), 3)
    assert "irds:no-such/data-set: unknown ir_datasets data set id 'no-such/data-set'" in line
    line = one_error(cli(["eval", "-m", "AP", "irds:", tmp_path / "a.txt"], home,
                         cwd=tmp_path), 2)
    assert "no data set id" in line
    line = one_error(cli(["measures", "--dataset", "nope"], home, cwd=tmp_path), 3)
    assert "unknown ir_datasets data set id 'nope'" in line


def test_download_failure_is_one_line_and_fast(home, tmp_path):
    """trec-dl-2020's qrels are not in IR_DATASETS_HOME: ir_datasets tries to
    download them and cannot (closed proxy): one line, exit 3, no hang, no
    file left as if downloaded."""
    r = cli(["eval", "-m", "AP", "irds:msmarco-passage/trec-dl-2020/judged", tmp_path / "a.txt"],
            home, cwd=tmp_path)
    line = one_error(r, 3)
    assert line.startswith("ipsoeval: error: irds:msmarco-passage/trec-dl-2020/judged: "
                           "download failed (")
    assert line.endswith("; ir_datasets needs the network once to fetch the qrels")
    assert not (home / "msmarco-passage" / "trec-dl-2020" / "qrels").exists()


def test_without_ir_datasets_exit_2_naming_the_extra(home, tmp_path):
    line = one_error(cli(["eval", "-m", "AP", f"irds:{DL19}", tmp_path / "a.txt"], home,
                         cwd=tmp_path, block=["ir_datasets"]), 2)
    assert "pip install 'ipsoeval[irds]'" in line
    line = one_error(cli(["measures", "--dataset", DL19], home, cwd=tmp_path,
                         block=["ir_datasets"]), 2)
    assert "ipsoeval[irds]" in line
