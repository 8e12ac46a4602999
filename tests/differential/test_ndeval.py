"""Differential suite: the diversity measures against ndeval (pyndeval, ndeval.c
4.5), on the committed cases of tests/differential/generate_ndeval.py and
pyndeval's committed outputs (tests/data/ndeval/golden.json).

Every per-topic value must equal ndeval's (to 1e-12: the sums are formed in
ndeval's order; only the last bits of a logarithm may differ); the one known
difference is KNOWN below.  With pyndeval installed (the test extra) the
golden outputs are also checked against it live."""

import importlib.util
import json
import math
from pathlib import Path

import pytest

from ipsoeval import engine

ROOT = Path(__file__).resolve().parents[2]
D = ROOT / "tests" / "data" / "ndeval"
CASES = json.loads((D / "cases.json").read_text())
GOLD = json.loads((D / "golden.json").read_text())

# ndeval's name -> ours (ir_measures' spelling); the case's alpha/beta go to these
ALPHA_NAMES = {"alpha-nDCG": "alpha_nDCG", "alpha-DCG": "alpha_DCG"}
FIXED_NAMES = {"ERR-IA": "ERR_IA", "nERR-IA": "nERR_IA", "P-IA": "P_IA", "strec": "StRecall"}

# Known difference, with its reason: nNRBP of a topic without a relevant subtopic
# (S = 0) is 0/0 in ndeval (printed nan); ipsoeval gives 0, as every other measure
# of such a topic (ndeval's and trec_eval's), so that the topic counts in the means.
KNOWN = {"nNRBP": "S = 0: ndeval nan, ipsoeval 0"}


def _ours(case) -> dict:
    a, b, rel = case["alpha"], case["beta"], case["rel"]
    names = {}
    for nd, ours in ALPHA_NAMES.items():
        for k in (1, 2, 3, 5, 10, 20):
            names[f"{nd}@{k}"] = f"{ours}(alpha={a})@{k}"
    for nd, ours in FIXED_NAMES.items():
        for k in (1, 2, 3, 5, 10, 20):
            names[f"{nd}@{k}"] = f"{ours}@{k}"
    names["NRBP"] = f"NRBP(alpha={a},beta={b})"
    names["nNRBP"] = f"nNRBP(alpha={a},beta={b})"
    names["MAP-IA"] = "AP_IA"
    al = engine.load(str(D / f"{case['input']}.qrels"), [str(D / f"{case['input']}.run")],
                     rel_level=rel, tie_break="docno-asc", subtopics=True)
    sc = engine.evaluate(al, list(dict.fromkeys(names.values())))
    out = {}
    for t, qid in enumerate(al.topics):
        out[qid] = {nd: float(sc.matrix(ours)[0, t]) for nd, ours in names.items()}
    return out


@pytest.mark.parametrize("i", range(len(CASES)))
def test_case(i):
    case, gold = CASES[i], GOLD[i]
    ours = _ours(case)
    assert sorted(ours) == sorted(gold)            # the same topics evaluated
    for qid, values in gold.items():
        for m, v in values.items():
            got = ours[qid][m]
            if v is None:
                assert m in KNOWN and got == 0.0, (qid, m, got)
                continue
            assert math.isclose(got, v, rel_tol=1e-12, abs_tol=1e-15), (case, qid, m, got, v)


def test_corpus():
    assert len(CASES) >= 200
    topics = [q for g in GOLD for q in g]
    assert len(topics) > 500
    # the cases reach what they claim: topics with S = 0, every alpha, both rel levels
    assert any(v is None for g in GOLD for t in g.values() for v in t.values())
    assert {c["alpha"] for c in CASES} >= {0.0, 0.5, 1.0}
    assert {c["rel"] for c in CASES} == {1, 2}


def test_generator_reproduces_the_committed_inputs(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "ndeval_generate", ROOT / "tests" / "differential" / "generate_ndeval.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    cases = gen.generate(gen.SEED, tmp_path)
    assert cases == CASES
    for p in sorted(tmp_path.iterdir()):
        assert p.read_bytes() == (D / p.name).read_bytes(), p.name


def test_golden_is_pyndeval_live(tmp_path):
    pytest.importorskip("pyndeval")
    spec = importlib.util.spec_from_file_location(
        "ndeval_generate2", ROOT / "tests" / "differential" / "generate_ndeval.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    sample = CASES[:20]
    out = tmp_path / "g"
    out.mkdir()
    for c in sample:
        for ext in ("qrels", "run"):
            (out / f"{c['input']}.{ext}").write_bytes((D / f"{c['input']}.{ext}").read_bytes())
    gen.golden(out, sample)
    assert json.loads((out / "golden.json").read_text()) == GOLD[:20]
