"""Defect 17: absurd analysis options give one clean usage/input error (or
finish quickly), never an internal error (exit 70) or a hang."""

import random

import pytest

from tests.conftest import invoke


@pytest.fixture
def data(tmp_path):
    rnd = random.Random(2)
    with open(tmp_path / "qrels", "w") as q, open(tmp_path / "a", "w") as a, \
            open(tmp_path / "b", "w") as b:
        for t in range(1, 31):
            for d in range(20):
                q.write(f"t{t} 0 d{d} {rnd.choice([0, 0, 1, 2])}\n")
            for f, tag in ((a, "A"), (b, "B")):
                for i, d in enumerate(rnd.sample(range(20), 20)):
                    f.write(f"t{t} Q0 d{d} {i + 1} {20 - i} {tag}\n")
    return tmp_path


def _usage(args, data, code=2, needle=None):
    rc, out, err = invoke([*args, data / "qrels", data / "a", data / "b"])
    assert rc == code, err
    lines = [ln for ln in err.splitlines() if ln.startswith("ipsoeval: error:")]
    assert len(lines) == 1, err
    assert "internal error" not in err
    if needle:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_ipso_huge_k(data):
    _usage(["ipso", "-l", "1", "-k", "99999999999999999999"], data, needle="-k")


def test_ipso_huge_depths(data):
    _usage(["ipso", "-l", "1", "--depths", "1..100000000"], data, needle="--depths")


def test_bootstrap_huge_trials(data):
    _usage(["bootstrap", "-m", "P@5", "--samples", "100000000000000000000"], data,
           needle="--samples")
    _usage(["bootstrap", "-m", "P@5", "--samples", "1e20"], data, needle="--samples")


@pytest.mark.parametrize("cmd", [["sigtest", "-m", "P@5"], ["ipso", "-l", "1", "-m", "P@5",
                                                            "--test", "randomization"]])
def test_negative_seed(data, cmd):
    _usage([*cmd, "--seed", "-1"], data, needle="--seed")


def test_bootstrap_stdin_twice(data):
    rc, _, err = invoke(["bootstrap", "-m", "P@5", "--queries-file", "-", "--queries-file",
                         "x=-", data / "qrels", data / "a"], input="t1\nt2\n")
    assert rc == 2 and "standard input" in err, err


def test_interval_map_huge_gain(data):
    _usage(["interval-map", "-m", "DCG@5", "--gains", "1:1e308"], data, needle="--gains")


def test_interval_map_esl_all_undefined(tmp_path):
    (tmp_path / "qrels").write_text("t1 0 zz 1\nt2 0 zz 1\n")
    (tmp_path / "a").write_text("t1 Q0 d1 1 2 A\nt2 Q0 d1 1 2 A\n")
    (tmp_path / "b").write_text("t1 Q0 d2 1 2 B\nt2 Q0 d2 1 2 B\n")
    for extra in ([], ["-m", "P@10"]):
        rc, _, err = invoke(["interval-map", "-m", "ESL@10", *extra, "--analyze",
                             tmp_path / "qrels", tmp_path / "a", tmp_path / "b"])
        assert rc == 0 and "internal error" not in err, err


def test_interval_map_huge_N_message(data):
    _usage(["interval-map", "-m", "P", "-N", "1e20"], data, needle="-N")
    line2 = _usage(["interval-map", "-m", "P", "-N", "100000000000000000000"], data,
                   needle="-N")
    assert "differs" not in line2


@pytest.mark.parametrize("m,N", [("P", 100000), ("RR", 200000)])
def test_interval_map_closed_forms_large_N(data, m, N):
    rc, out, err = invoke(["interval-map", "-m", m, "-N", str(N), data / "qrels", data / "a"])
    assert rc == 0, err
    assert f"\t{N + 1}" in out


# Defect 8: estimate the cost before starting; refuse what cannot finish.

def test_interval_map_refuses_huge_value_set(data):
    line = _usage(["interval-map", "-m", "RBP(p=0.8)@100"], data, needle="memory")
    assert "RBP(p=0.8)@100" in line


def test_interval_map_max_memory_names_option(data):
    line = _usage(["interval-map", "--max-memory", "1M", "-m", "RBP(p=0.8)@40"], data,
                  needle="--max-memory")
    assert "limit of 1 MiB" in line
    _usage(["interval-map", "--max-memory", "lots", "-m", "P@5"], data, needle="--max-memory")


def test_sigtest_interval_scale_refuses_huge_value_set(data):
    _usage(["sigtest", "--scale", "interval", "-m", "RBP(p=0.8)@100"], data, needle="memory")
