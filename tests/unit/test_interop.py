"""ir_measures interop: ir_measures objects as measures, with ir_measures' own
numbers.  ipsoeval.Experiment against the real pyterrier.Experiment:
tests/unit/api/test_experiment.py."""

from __future__ import annotations

import random
import warnings

import pytest

pd = pytest.importorskip("pandas")

import ipsoeval  # noqa: E402


def _frames(seed: int, systems: int = 4, topics: int = 12, ties: bool = True):
    """Qrels and result frames in PyTerrier's layout: graded labels, ties in the
    scores, a topic some runs lack, documents no qrels mention."""
    rnd = random.Random(seed)
    qids = [str(100 + t) for t in range(topics)]
    qrels = []
    for q in qids:
        for d in range(rnd.randint(1, 8)):
            qrels.append((q, f"d{d}", rnd.choice([0, 0, 1, 1, 2])))
    qrels_df = pd.DataFrame(qrels, columns=["qid", "docno", "label"])
    runs = {}
    for s in range(systems):
        rows = []
        for q in qids:
            if rnd.random() < 0.1:
                continue                        # a topic this run lacks
            docs = rnd.sample([f"d{d}" for d in range(12)], rnd.randint(1, 12))
            for r, d in enumerate(docs):
                tied = ties and s % 2
                rows.append((q, d, float(rnd.choice([1, 2, 3, 4, 5]) if tied else 20 - r), r))
        runs[f"sys{s}"] = pd.DataFrame(rows, columns=["qid", "docno", "score", "rank"])
    return qrels_df, runs


def test_rr_at_k_ties_follow_trec_eval():
    """ir_measures' RR (pytrec_eval) and RR@k disagree on tied scores; ipsoeval's
    RR and RR@k both follow trec_eval (ties by docno descending)."""
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import RR
    q = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "label": [1, 0, 0]})
    r = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "score": [1.0] * 3})
    theirs = ir_measures.calc_aggregate(
        [RR, RR @ 5], q.rename(columns={"qid": "query_id", "docno": "doc_id",
                                        "label": "relevance"}),
        r.rename(columns={"qid": "query_id", "docno": "doc_id"}))
    ours = ipsoeval.evaluate(q, {"r": r}, [RR, RR @ 5]).mean()["r"]
    assert ours == {"RR": pytest.approx(1 / 3), "RR@5": pytest.approx(1 / 3)}
    assert theirs[RR] == pytest.approx(1 / 3)         # as trec_eval


def test_ir_measures_objects_everywhere_in_the_api():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, nDCG
    qrels, runs = _frames(1, systems=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_obj = ipsoeval.evaluate(qrels, runs, [nDCG @ 10, AP(rel=2), RR])
        by_name = ipsoeval.evaluate(qrels, runs, ["nDCG@10", "AP(rel=2)", "RR"])
        assert by_obj.mean() == by_name.mean()
        # ir_measures' own numbers on the same frames
        irq = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
        for name, df in runs.items():
            irr = df.rename(columns={"qid": "query_id", "docno": "doc_id"})
            theirs = ir_measures.calc_aggregate([nDCG @ 10, AP(rel=2), RR], irq, irr)
            for m, v in theirs.items():      # a qrels topic the run lacks counts 0
                assert by_obj.mean()[name][str(m)] == pytest.approx(v, abs=1e-12), (name, m)
        s1 = ipsoeval.sigtest(by_obj, measures=[RR], tests=["sign"]).table("tests")
        s2 = ipsoeval.sigtest(by_obj, measures=["RR"], tests=["sign"]).table("tests")
    assert s1.records == s2.records
