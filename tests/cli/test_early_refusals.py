"""Refuse before working: a check that can fail runs before the
inputs are read or the analysis starts, and its error is one line on
standard error, alone, with exit status 2 (docs/conventions.md, Errors and exit status) and no output file.

In-process cases make reading and the analyses raise, so a check that came
after the work fails the test instead of taking its time."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, TESTDATA, invoke

AD = TESTDATA / "adhoc"
Q, A, B = str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")


@pytest.fixture
def no_work(monkeypatch):
    """Reading inputs and evaluating raise: the refusal must come first."""
    import ipsoeval.pipeline.inputs as cli_options  # the one input module
    from ipsoeval import engine

    def boom(*a, **k):
        raise AssertionError("the work started before the check")

    for name in ("load_aligned", "aligned_and_warnings", "load_scores"):
        monkeypatch.setattr(cli_options, name, boom)
    for name in ("load", "evaluate"):
        monkeypatch.setattr(engine, name, boom)


def one_error(code, err, status=2):
    lines = err.strip().splitlines()
    assert code == status, err
    assert len(lines) == 1 and lines[0].startswith("ipsoeval: error: "), err
    return lines[0]


CASES = {
    # once 26 s of mapping, then "2^30 runs, too many to list"
    "interval-map listing": (["interval-map", "-M", "79", "-m", "AP", "-q", "--values",
                              "--analyze", "--name", "r1", "--name", "r2", "--name", "r3",
                              Q, A, B, A], "2^30 runs, too many to list"),
    # AP@33's value-set pass ranks 6.9e9 candidate values, minutes of work
    "interval-map AP@33": (["interval-map", "-m", "AP@33", Q, A], "minutes of work"),
    "interval-map -N 36 -m AP": (["interval-map", "-N", "36", "-m", "AP", "-q", Q, A, B],
                                 "53,361,945,606 candidate values"),
    # split at the last colon instead of refused, after the runs were read
    "report --pair A:B:C": (["report", "-m", "AP", "--pair", "A:B:C", Q, A, B],
                            "more than one ':'"),
    # exited 0 with the default delta
    "power --delta ,": (["power", "-m", "AP", "--delta", ",", Q, A, B], "--delta"),
    "sigtest --test ,": (["sigtest", "-m", "AP", "--test", ",", Q, A, B], "no test given"),
    "bootstrap --aggregate ,": (["bootstrap", "-m", "AP", "--split-half", "2",
                                 "--aggregate", ",", Q, A, B], "--aggregate"),
    "power --design ,": (["power", "-m", "AP", "--design", ",", Q, A, B], "--design"),
    "sigtest --scale interval -m AP": (["sigtest", "-m", "AP", "--scale", "interval", Q, A, B],
                                       "needs a run length"),
    "sigtest --scale both --labels gain": (["sigtest", "-m", "AP", "--scale", "both",
                                            "--labels", "gain", Q, A, B], "--labels integer"),
}


@pytest.mark.parametrize("name", CASES)
def test_refused_before_the_work(name, no_work, tmp_path):
    args, what = CASES[name]
    out = tmp_path / "out.file"
    code, _, err = invoke([*args, "-o", out])
    assert what in one_error(code, err)
    assert not out.exists()


def _run(args, tmp_path):
    p = subprocess.run([sys.executable, "-m", "ipsoeval", *args], cwd=ROOT, text=True,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("extra, what", [
    (["-m", "P@"], "empty cutoff"),
    (["--bounds", "--labels", "gain"], "--bounds does not combine with --labels gain"),
    ("bom", "byte-order mark"),
])
def test_eval_trec_layout_refusals_are_one_line(extra, what, tmp_path):
    # the trec layout's note about -q with several runs came before these errors
    runs = [A, B]
    if extra == "bom":
        bom = tmp_path / "bom.run"
        bom.write_bytes(b"\xef\xbb\xbf" + (AD / "run-bm25.txt").read_bytes())
        runs, extra = [str(bom), B], []
    code, out, err = _run(["eval", "-q", "--format", "trec", *extra, Q, *runs], tmp_path)
    assert what in one_error(code, err, 3 if what == "byte-order mark" else 2)
    assert out == ""


def test_eval_trec_layout_names_each_run_block(tmp_path):
    code, out, err = _run(["eval", "-q", "--format", "trec", "-m", "P@5", Q, A, B], tmp_path)
    assert code == 0 and out
    assert sum(line.startswith("runid") for line in out.splitlines()) == 2


def test_ap_pass_estimate():
    """The candidate values of AP's value-set pass, counted by brute force
    over all 2^N runs (prefix sums and suffix values per number c of relevant
    documents in the prefix), bound |M(U)| from above; AP@30 and AP@32 are
    mapped, AP@33 refused (also through the API's phi_values)."""
    import math

    import numpy as np

    from ipsoeval.analyses.interval_map import valuesets as iv
    from ipsoeval.analyses.interval_map.ap import MAX_PAIRS, APSystem, ap_keys, check_pass
    from ipsoeval.errors import UsageError

    for N in range(1, 13):
        L, h = math.lcm(*range(1, N + 1)), N // 2
        pre: dict[int, set] = {}
        suf: dict[int, set] = {}
        for bits in range(1 << N):
            rel = [(bits >> (N - 1 - i)) & 1 for i in range(N)]
            c = sum(rel[:h])
            cnt, s_pre = 0, 0
            for i in range(h):
                cnt += rel[i]
                s_pre += rel[i] * cnt * (L // (i + 1))
            s_suf, cnt = 0, c
            for i in range(h, N):
                cnt += rel[i]
                s_suf += rel[i] * cnt * (L // (i + 1))
            pre.setdefault(c, set()).add(s_pre)
            suf.setdefault(c, set()).add(s_suf)
        brute = sum(len(pre[c]) * len(suf[c]) for c in pre)
        assert APSystem(N).pair_count() == brute, N
        runs = ((np.arange(1 << N)[:, None] >> np.arange(N - 1, -1, -1)) & 1).astype(bool)
        assert brute >= len(np.unique(ap_keys(N, runs)))
    assert APSystem(30).pair_count() == 900_166_612          # the module doc's 9.0e8
    check_pass(30)
    check_pass(32)
    assert APSystem(32).pair_count() <= MAX_PAIRS < APSystem(33).pair_count()
    with pytest.raises(UsageError, match="minutes of work"):
        iv.phi_values(iv.MapSpec("AP", 33, name="AP@33"), np.zeros((1, 33), np.int8))
