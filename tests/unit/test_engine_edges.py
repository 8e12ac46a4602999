"""Edge matrix: every measure × {empty ranking, no relevant docs, run shorter than k,
topic only in the run, topic only in the qrels} × every --queries policy."""

import math

import numpy as np
import pytest

from ipsoeval.align import align
from ipsoeval.engine import evaluate
from ipsoeval.errors import InputError
from ipsoeval.measures import FAMILIES
from tests import reference as ref
from tests.unit.test_engine import make_qrels, make_run

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python", "c-two-step")

QRELS = {("A", "a1"): 1, ("A", "a2"): 0, ("A", "a3"): 2,      # normal topic
         ("B", "b1"): 0, ("B", "b2"): 0,                      # no relevant documents
         ("C", "c1"): 1}                                      # only in the qrels
RUN = [("A", "a9", 3.0), ("A", "a3", 2.0),                    # shorter than every k
       ("B", "b1", 1.0), ("B", "b7", 0.5),
       ("D", "d1", 1.0)]                                      # only in the run

# one measure per family (and a few variants)
MEASURES = ["P@5", "R@5", "R", "AP", "AP@5", "RR", "RR@1", "ESL@5", "nDCG", "nDCG@5",
            "DCG@5", "DCG(b=2)@5", "nDCG(b=2)@5", "RBP(p=0.8)@5", "RBPresid(p=0.8)@5",
            "Success@5", "Rprec", "bpref", "gm_map", "IPrec@0.5", "NumQ", "NumRet", "NumRel",
            "NumRelRet", "NumNonRelJudgedRet",
            "Judged@5", "nDCG(dcg='exp-log2')@5", "AP(judged_only=True)"]


# trec_eval's measures beyond the official set: edge cases in tests/cli/test_trec_measures.py
TREC_MEASURES = {"relstring", "infAP", "gm_bpref", "RprecMult", "utility", "11pt_avg", "binG",
                 "G", "ideal_dcg", "ndcg_rel", "Rndcg", "RelP", "SetP", "SetRelP", "SetR",
                 "SetAP", "SetF", "yaap", "rbp", "rbp_resid", "Unjudged", "ERR"}
# edge cases (empty rankings, no relevant documents, unjudged) in the
# differential suites against their scorers (test_compat_differential.py,
# test_cwl_differential.py)
SCORER_MEASURES = {"Compat", "Accuracy"} | {f"{n}{s}" for n in ("INST", "INSQ", "BPM", "SDCG",
                                                                "NERR8", "NERR9", "NERR10",
                                                                "NERR11") for s in ("", "resid")}


# the diversity measures read diversity qrels: their edges (no relevant subtopic, run
# shorter than k, topics only in the run or the qrels) are in tests/unit/measures/families/test_diversity.py and
# tests/differential/test_ndeval.py
DIVERSITY = {name for name, f in FAMILIES.items() if f.subtopics}


def test_every_family_is_in_the_matrix():
    fams = {m.split("(")[0].split("@")[0] for m in MEASURES}
    assert fams | {"runid"} | TREC_MEASURES | DIVERSITY | SCORER_MEASURES == set(FAMILIES)


def _ndcg_exp(labels, jl, k):
    def g(x):
        return 2.0 ** x - 1 if x is not None and x > 0 else 0.0
    dcg = sum(g(x) / math.log2(i + 2) for i, x in enumerate(labels[:k]))
    ideal = sorted((g(x) for x in jl), reverse=True)[:k]
    idcg = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


EXPECTED_TOPICS = {"intersection": ["A", "B"], "qrels": ["A", "B", "C"]}


def expected(m, topic):
    labels = ref.ranking(RUN, QRELS, topic)
    jl = ref.judged(QRELS, topic)
    R = sum(1 for x in jl if x >= 1)
    N = sum(1 for x in jl if 0 <= x < 1)
    dcg_jk = sum(ref.gain(x) / (1 if i + 1 < 2 else math.log2(i + 1))
                 for i, x in enumerate(labels[:5]))
    ideal = sorted((ref.gain(x) for x in jl), reverse=True)[:5]
    idcg_jk = sum(g / (1 if i + 1 < 2 else math.log2(i + 1)) for i, g in enumerate(ideal))
    table = {
        "P@5": ref.P(labels, 5), "R@5": ref.R_at(labels, R, 5), "R": ref.R_at(labels, R),
        "AP": ref.AP(labels, R), "AP@5": ref.AP(labels, R, 5), "RR": ref.RR(labels),
        "RR@1": ref.RR(labels, 1), "ESL@5": ref.ESL(labels, 5), "nDCG": ref.nDCG(labels, jl),
        "nDCG@5": ref.nDCG(labels, jl, 5),
        "DCG@5": sum(ref.gain(x) / math.log2(i + 2) for i, x in enumerate(labels[:5])),
        "DCG(b=2)@5": dcg_jk, "nDCG(b=2)@5": dcg_jk / idcg_jk if idcg_jk else 0.0,
        "RBP(p=0.8)@5": ref.RBP(labels, 0.8, 5),
        "RBPresid(p=0.8)@5": 0.8 ** 5 + 0.2 * sum(0.8 ** i for i, x in enumerate(labels[:5])
                                                 if x is None),
        "Success@5": ref.success(labels, 5), "Rprec": ref.Rprec(labels, R),
        "bpref": ref.bpref(labels, R, N), "gm_map": ref.AP(labels, R),
        "IPrec@0.5": ref.iprec(labels, R, 0.5), "NumQ": 1.0, "NumRet": float(len(labels)),
        "NumRel": float(R), "NumRelRet": float(sum(ref.rel(x, 1) for x in labels)),
        "NumNonRelJudgedRet": float(sum(1 for x in labels if x is not None and x < 1)),
        "Judged@5": (sum(x is not None for x in labels[:5]) / min(5, len(labels))
                     if labels else 0.0),
        "nDCG(dcg='exp-log2')@5": _ndcg_exp(labels, jl, 5),
        "AP(judged_only=True)": ref.AP([x for x in labels if x is not None], R),
    }
    return table[m]


@pytest.mark.parametrize("queries", ["intersection", "qrels"])
@pytest.mark.parametrize("m", MEASURES)
def test_edge_values(queries, m):
    al = align(make_qrels(QRELS), [make_run(RUN)], queries=queries)
    assert al.topics == EXPECTED_TOPICS[queries]
    v = evaluate(al, [m]).matrix(m)[0]
    for ti, t in enumerate(al.topics):
        want = expected(m, t)
        got = float(v[ti])
        if math.isnan(want):
            assert math.isnan(got), (m, t)
        else:
            assert got == pytest.approx(want, abs=1e-12), (m, t, got, want)
    # the topic only in the qrels is an empty ranking: zero everywhere (ESL undefined)
    if queries == "qrels":
        c = float(v[al.topics.index("C")])
        if m == "ESL@5":
            assert math.isnan(c)
        elif m == "RBPresid(p=0.8)@5":
            assert c == pytest.approx(0.8 ** 5)
        elif m in ("NumQ",):
            assert c == 1
        elif m == "NumRel":
            assert c == 1
        else:
            assert c == 0, m
    # the topic with no relevant documents scores 0 on every relevance measure
    b = float(v[al.topics.index("B")])
    if m not in ("ESL@5", "RBPresid(p=0.8)@5", "NumQ", "NumRet", "NumNonRelJudgedRet",
                 "Judged@5"):
        assert b == 0, m


@pytest.mark.parametrize("m", MEASURES)
def test_strict_policy_refuses_different_topics(m):
    with pytest.raises(InputError, match="topics differ"):
        align(make_qrels(QRELS), [make_run(RUN)], queries="strict")
    same = [r for r in RUN if r[0] != "D"] + [("C", "c1", 1.0)]
    al = align(make_qrels(QRELS), [make_run(same)], queries="strict")
    assert al.topics == ["A", "B", "C"]
    assert np.isfinite(evaluate(al, [m]).matrix(m)[0, 0]) or m == "ESL@5"


def test_aggregate_over_policy():
    """gm_map floors AP at 1e-5; the mean counts filled topics under 'qrels' only."""
    a = evaluate(align(make_qrels(QRELS), [make_run(RUN)], queries="intersection"), ["AP", "gm_map"])
    b = evaluate(align(make_qrels(QRELS), [make_run(RUN)], queries="qrels"), ["AP", "gm_map"])
    ap_a = ref.AP(ref.ranking(RUN, QRELS, "A"), 2)
    assert a.aggregate("AP")[0] == pytest.approx(ap_a / 2)
    assert b.aggregate("AP")[0] == pytest.approx(ap_a / 3)
    assert b.aggregate("gm_map")[0] == pytest.approx(math.exp((math.log(ap_a) + 2 * math.log(1e-5)) / 3))
