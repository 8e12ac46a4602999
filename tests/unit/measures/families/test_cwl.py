"""Compat, Accuracy and the C/W/L measures: listed by
``ipsoeval measures`` with scale and source, usable in the analyses, with
--tie-break expected, --labels probability and --scores."""

import json

import numpy as np
import pytest

from ipsoeval import api
from tests.conftest import ROOT

Q = ROOT / "testdata/adhoc/qrels.txt"
RUNS = [ROOT / "testdata/adhoc/run-bm25.txt", ROOT / "testdata/adhoc/run-neural.txt"]
NEW = ["Compat", "Accuracy", "INST", "INSQ", "BPM", "SDCG", "NERR8", "NERR9", "NERR10",
       "NERR11", "INSTresid", "NERR11resid"]
SOME = ["Compat", "Accuracy@10", "INST(max_rel=2)", "SDCG(max_rel=2)@10",
        "NERR10(max_rel=2)", "INSTresid(max_rel=2)"]


def test_listed_with_scale_and_source(cli_invoke):
    code, out, _ = cli_invoke(["measures", "--format", "json"])
    assert code == 0
    rows = {r["measure"]: r for r in json.loads(out)["results"]}
    for name in NEW:
        assert rows[name]["scale"] == "ordinal", name
    assert "Clarke" in rows["Compat"]["definition"]
    assert "Moffat" in rows["INST"]["definition"]
    assert "Azzopardi" in rows["NERR8"]["definition"]


@pytest.mark.parametrize("cmd", [
    ["sigtest", "--test", "t"], ["leaderboard", "--samples", "99"],
    ["bootstrap", "--samples", "99"], ["risk"]])
def test_analyses_take_them(cli_invoke, cmd):
    args = [*cmd]
    for m in SOME[:-1]:
        args += ["-m", m]
    code, out, err = cli_invoke([*args, "--format", "tsv", Q, *RUNS])
    assert code == 0, err
    for m in ("Compat(p=0.95)", "INST(max_rel=2)"):
        assert m in out, (cmd, m)


def test_expected_tie_break_without_ties_is_the_value(tmp_path):
    qrels = {"1": {"a": 2, "b": 0, "c": 1, "z": 1}, "2": {"x": 1}}
    run = {"1": {"a": 3.0, "b": 2.0, "c": 1.0, "u": 0.5}, "2": {"y": 1.0, "x": 0.5}}
    plain = api.evaluate(qrels, run, SOME)
    exp = api.evaluate(qrels, run, SOME, tie_break="expected")
    for m in plain.measures:
        np.testing.assert_allclose(exp.matrix(m), plain.matrix(m), rtol=1e-12)


def test_expected_tie_break_averages_the_orders():
    # b and c tie: the expectation is the mean over the two orders
    qrels = {"1": {"a": 0, "b": 2, "c": 1}}
    tied = {"1": {"a": 3.0, "b": 1.0, "c": 1.0}}
    one = {"1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    two = {"1": {"a": 3.0, "c": 2.0, "b": 1.0}}
    for m in SOME:
        e = api.evaluate(qrels, tied, [m], tie_break="expected")
        a = api.evaluate(qrels, one, [m])
        b = api.evaluate(qrels, two, [m])
        got = e.matrix(e.measures[0])[0, 0]
        want = (a.matrix(a.measures[0])[0, 0] + b.matrix(b.measures[0])[0, 0]) / 2
        assert got == pytest.approx(want, rel=1e-12), m


def test_probability_labels_of_certain_judgments_are_the_integer_values():
    qrels = {"1": {"a": 1, "b": 0, "c": 1}, "2": {"x": 1, "y": 0}}
    run = {"1": {"a": 3.0, "b": 2.0, "c": 1.0, "u": 0.5}, "2": {"y": 1.0, "x": 0.5}}
    names = ["Compat", "INST(max_rel=1)", "SDCG(max_rel=1)@3"]
    plain = api.evaluate(qrels, run, names)
    prob = api.evaluate(qrels, run, names, labels="probability", samples=200, seed=1)
    for m in plain.measures:
        np.testing.assert_allclose(prob.matrix(m), plain.matrix(m), rtol=1e-12)


def test_scores_files_round_trip(cli_invoke, tmp_path):
    out = tmp_path / "s.tsv"
    code, _, err = cli_invoke(["eval", "-q", "-m", "INST(max_rel=2)", "--format", "tsv",
                               "-o", out, Q, *RUNS])
    assert code == 0, err
    code, text, err = cli_invoke(["sigtest", "--scores", "--test", "t", "--format", "tsv",
                                  out])
    assert code == 0, err
    assert "INST(max_rel=2)" in text
