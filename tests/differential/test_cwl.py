"""Differential test of the C/W/L measures against cwl_eval.

The cases are tests/data/compat/cases.json (220 seeded cases: odd docnos,
labels 0-3, unjudged documents, ties, topics without relevant documents, qrels
topics missing from the run); tests/data/cwl/golden.json holds cwl_eval's
per-topic values (through ir_measures' cwl_eval provider) and residuals
(cwl_eval -r on the same rankings), made by tests/differential/cwl_generate.py.
Every value and residual agrees to 1e-12 (the weights are summed in another
order).  The provider orders tied scores by input order (ipsoeval:
--tie-break input here).  A qrels topic missing from the run: the provider
reports 0 (ir_measures' default for a missing topic), and so does ipsoeval
(an empty ranking); its residual (no ranking for cwl_eval -r) must be the
value of 1000 items of gain 1, checked here to be positive.
"""

import json

import numpy as np
import pytest

from ipsoeval import api
from tests.conftest import ROOT

CASES = json.loads((ROOT / "tests/data/compat/cases.json").read_text())
GOLD = json.loads((ROOT / "tests/data/cwl/golden.json").read_text())
MEASURES = list(GOLD[0])
RESID = {m: m.replace("(", "resid(", 1) for m in MEASURES}


def _run_topics(text):
    return {line.split()[0] for line in text.splitlines()}


@pytest.mark.parametrize("i", range(0, len(CASES), 20))
def test_against_cwl_eval(i, tmp_path):
    failures = []
    names = MEASURES + [RESID[m] for m in MEASURES]
    for j in range(i, min(i + 20, len(CASES))):
        c, gold = CASES[j], GOLD[j]
        qp, rp = tmp_path / f"q{j}", tmp_path / f"r{j}"
        qp.write_text(c["qrels"])
        rp.write_text(c["run"])
        res = api.evaluate(str(qp), str(rp), names, tie_break="input")
        in_run = _run_topics(c["run"])
        for name in MEASURES:
            for kind, col in (("value", name), ("resid", RESID[name])):
                got = dict(zip(res.topics, res.matrix(res.measures[names.index(col)])[0]))
                want = gold[name][kind]
                assert set(want) <= set(got), (j, name)
                for q, v in got.items():
                    if q not in in_run:
                        ok = want.get(q, 0.0) == 0.0 and (v == 0.0 if kind == "value"
                                                          else v > 0)
                    else:
                        ok = float(v) == pytest.approx(want[q], rel=1e-12, abs=1e-14)
                    if not ok:
                        failures.append((j, col, q, float(v), want.get(q)))
    assert not failures, failures[:10]


def test_measures_need_max_rel(cli_invoke):
    code, _, err = cli_invoke(["eval", "-m", "INST", ROOT / "testdata/adhoc/qrels.txt",
                               ROOT / "testdata/adhoc/run-bm25.txt"])
    assert code == 2 and "max_rel" in err and "Traceback" not in err
    code, _, err = cli_invoke(["eval", "-m", "INST(min_rel=3,max_rel=3)",
                               ROOT / "testdata/adhoc/qrels.txt",
                               ROOT / "testdata/adhoc/run-bm25.txt"])
    assert code == 2 and "min_rel" in err


def test_sdcg_is_scaled_dcg_by_hand():
    # one topic, ranking gains (scaled, max_rel=1) 1, 0, 1: DCG@3 / Σ 1/log2(i+1)
    qrels = {"1": {"a": 1, "b": 0, "c": 1}}
    run = {"1": {"a": 3.0, "b": 2.0, "c": 1.0}}
    res = api.evaluate(qrels, run, ["SDCG(max_rel=1)@3", "NERR8(max_rel=1)@3"])
    disc = 1 / np.log2(np.arange(2, 5))
    want = (disc[0] + disc[2]) / disc.sum()
    assert res.matrix(res.measures[0])[0, 0] == pytest.approx(want, rel=1e-14)
    # NERR8: the user stops at the first relevant item (C_1 = 0): all weight on rank 1
    assert res.matrix(res.measures[1])[0, 0] == pytest.approx(1.0)
