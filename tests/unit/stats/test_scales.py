"""Defect 10: scale marks follow Ferrante et al. §3.2-3.4."""

import csv
import io
from fractions import Fraction

import pytest

from ipsoeval.stats.scales import graded_rbp_p
from tests.conftest import invoke


def test_graded_rbp_p():
    assert graded_rbp_p([1]) == Fraction(1, 2)
    assert graded_rbp_p([1, 3]) == Fraction(1, 4)
    assert graded_rbp_p([1, 2]) == Fraction(1, 3)


@pytest.fixture
def data(tmp_path):
    (tmp_path / "qrels").write_text(
        "".join(f"t{t} 0 d{d} {(d + t) % 3}\n" for t in range(6) for d in range(t + 4)))
    for name, shift in (("a", 0), ("b", 1)):
        (tmp_path / name).write_text("".join(
            f"t{t} Q0 d{(d + shift * t) % 12} {d + 1} {20 - d} {name}\n"
            for t in range(6) for d in range(10)))
    return tmp_path


def _perm(data, measure, *extra):
    code, out, err = invoke(["sigtest", "-m", measure, "--test", "t", *extra, "--format", "tsv",
                             data / "qrels", data / "a", data / "b"])
    assert code == 0, err
    (row,) = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    return row["permissible"], err


def test_graded_rbp_interval_only_at_g_over_g_plus_1(data):
    assert _perm(data, "RBP(p=0.25)@10", "--gains", "0:0,1:1,2:3")[0] == "true"
    assert _perm(data, "RBP(p=0.5)@10", "--gains", "0:0,1:1,2:3")[0] == "false"
    assert _perm(data, "RBP(p=0.5)@10")[0] == "true"


def test_recall_not_interval_across_different_R(data):
    perm, _ = _perm(data, "R@10")
    assert perm == "false"


def test_gate_default_test_is_permissible_for_the_scale(data):
    code, _, err = invoke(["sigtest", "-m", "nDCG@10", "--fail-if", "different", "--format", "tsv",
                           data / "qrels", data / "a", data / "b"])
    assert code in (0, 1), err
    gate = [ln for ln in err.splitlines() if "gate" in ln][-1]
    assert "(sign," in gate and "not permissible" not in gate


def test_gate_explicit_impermissible_test_warns(data):
    code, _, err = invoke(["sigtest", "-m", "nDCG@10", "--fail-if", "different", "--gate-test", "t",
                           "--format", "tsv", data / "qrels", data / "a", data / "b"])
    gate = [ln for ln in err.splitlines() if "gate" in ln][-1]
    assert "t is not permissible for nDCG@10's scale" in gate


def test_permissible_route_names_runnable_commands():
    # an ordinal measure gets the routes that are permissible
    from ipsoeval.stats.scales import permissible_route
    assert permissible_route("P@10", "interval") is None
    ap = permissible_route("AP", "ordinal", 12)
    assert "--scale interval -m 'AP@30'" in ap and "--test friedman -m 'AP'" in ap
    assert "--test sign -m 'RR@10'" in permissible_route("RR@10", "ordinal", 2)
    assert "--scale interval" not in permissible_route("bpref", "ordinal", 5)
