"""ipsoeval/pipeline/sigtest.py: the declaration and the two doors of sigtest."""

from __future__ import annotations

import inspect

import pytest

import ipsoeval
from ipsoeval.declare import api_opts
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import sigtest as pipeline
from tests.conftest import ROOT, invoke

AD = ROOT / "testdata" / "adhoc"
SC = ROOT / "tests" / "data" / "scores"
Q, A, B = str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")
SA, SB = str(SC / "bm25.treceval-q.txt"), str(SC / "neural.treceval-q.txt")


def _usage(args) -> str:
    code, out, err = invoke(args)
    assert code == 2 and out == "", err
    return err.strip().removeprefix("ipsoeval: error: ")


def test_the_api_takes_the_declared_keywords_with_their_defaults():
    params = inspect.signature(ipsoeval.sigtest).parameters
    for o in api_opts(pipeline.COMMAND):
        assert params[o.keyword].default == o.api_empty(), o.dest
    assert "queries" not in params      # the alignment options are evaluate's


def test_bounds_on_score_files_is_refused_in_the_same_words_by_both_doors():
    cli = _usage(["sigtest", "--scores", SA, SB, "-m", "AP", "--bounds"])
    scores = ipsoeval.read_scores([SA, SB])
    with pytest.raises(UsageError) as api:
        ipsoeval.sigtest(scores, measures=["AP"], bounds=True)
    assert str(api.value) == cli


def test_bounds_with_gain_labels_is_refused_in_the_same_words_by_both_doors(tmp_path):
    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_text("".join(f"t{i} 0 d{j} {(i + j) % 3}\n" for i in range(4) for j in range(5)))
    for run, tag in ((a, "a"), (b, "b")):
        run.write_text("".join(f"t{i} Q0 d{j} {j} {(j * 7 + len(tag)) % 5}.5 {tag}\n"
                               for i in range(4) for j in range(5)))
    cli = _usage(["sigtest", "-m", "AP", "--bounds", "--labels", "gain", str(q), str(a), str(b)])
    res = ipsoeval.evaluate(str(q), [str(a), str(b)], measures=["AP"], labels="gain")
    with pytest.raises(UsageError) as api:
        ipsoeval.sigtest(res, bounds=True)
    assert str(api.value) == cli


def test_a_directory_of_runs_counts_its_files(tmp_path):
    d = tmp_path / "runs"
    d.mkdir()
    for p in (A, B):
        (d / p.rsplit("/", 1)[1]).write_text(open(p).read())
    code, out, err = invoke(["sigtest", "-m", "P@5", "--test", "t", Q, str(d)])
    assert code == 0 and out.startswith("run_a\t"), err
