"""--bounds' one-pass scoring of nDCG's ``sorted`` completions
(ipsoeval.measures.bounds_sorted), and the ``uniform`` completions of every
ranking scored at once: the bounds it gives against every
labelling (brute force) on small rankings with graded labels, --gains,
cutoffs and both discount and gain forms; against the per-ranking
enumeration it replaces on several runs and topics with tied scores, pooled
documents and topics without a relevant document; and a broken scorer is
caught."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ipsoeval import api
from ipsoeval.measures import bounds as B
from ipsoeval.measures import bounds_sorted as BS
from tests.unit.measures.test_bounds import check

NDCG = ["nDCG", "nDCG@1", "nDCG@3", "nDCG@5", "nDCG(b=2)@4", "nDCG(b=3)",
        "nDCG(dcg='exp-log2')@3", "nDCG(dcg='exp-log2')", "ndcg_cut.2"]


@st.composite
def cases(draw, max_labellings=400):
    top = draw(st.sampled_from([1, 2, 3]))
    label = st.one_of(st.none(), st.just(-1), st.integers(0, top))
    ranked = draw(st.lists(label, min_size=1, max_size=8))
    u = sum(1 for x in ranked if x is None or x < 0)
    assume((top + 1) ** u <= max_labellings)
    extra = draw(st.lists(st.integers(0, top), min_size=1, max_size=3))
    gains = draw(st.sampled_from([None, None, {1: 3, 2: 1, 3: 2}, {1: 1, 2: 1, 3: 0}]))
    return ranked, extra, gains


@settings(max_examples=150, deadline=None)
@given(cases())
def test_fast_ndcg_bounds_equal_every_labelling(case):
    """low and high are the smallest and the largest nDCG over all labellings,
    to the last bit (graded labels, gains that are not monotone in the
    label or that tie, no judged relevant document, unjudged documents
    below the cutoff)."""
    ranked, extra, gains = case
    check(ranked, extra, gains=gains, measures=NDCG)


def _random(seed: int, n_runs=3, n_topics=5, depth=25):
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {}
    for t in range(n_topics):
        q = f"q{t}"
        qrels[q] = {f"x{t}.{i}": int(rng.integers(0, 4)) for i in range(int(rng.integers(0, 4)))}
        for i in range(depth):
            x = rng.random()
            if x < 0.3:
                qrels[q][f"d{t}.{i}"] = int(rng.integers(0, 4))
            elif x < 0.35:
                qrels[q][f"d{t}.{i}"] = -1                          # pooled, unjudged
    qrels["q0"] = {d: 0 for d in qrels["q0"]}                       # no relevant document
    for r in range(n_runs):
        runs[f"r{r}"] = {q: {f"d{t}.{i}": float(rng.integers(0, 8))     # tied scores
                             for i in rng.permutation(depth)[:int(rng.integers(1, depth))]}
                         for t, q in enumerate(qrels)}
    return qrels, runs


@pytest.mark.parametrize("seed", range(6))
def test_fast_ndcg_bounds_equal_the_enumeration(seed, monkeypatch):
    """On several runs and topics (the rankings scored together, grouped by
    their number of unjudged documents within the cutoff) the bounds are
    those of the per-ranking enumeration of the same completions, to the
    last bit."""
    qrels, runs = _random(seed)
    measures = ["nDCG@5", "nDCG@10", "nDCG(dcg='exp-log2')@3", "nDCG(b=2)@6"]
    gains = {1: 1, 2: 4, 3: 2} if seed % 2 else None   # gdeval's exp-log2 takes gains <= 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, runs, measures, gains=gains)
    al = res.aligned
    fast = {m.name: B.bounds(al, m, res.scores.matrix(m.name)) for m in res.scores.measures
            if m.family == "nDCG"}
    monkeypatch.setattr(BS, "applies", lambda al, m: False)
    for m in res.scores.measures:
        if m.family != "nDCG":
            continue
        lo, hi = B.bounds(al, m, res.scores.matrix(m.name))
        assert np.array_equal(fast[m.name][0], lo, equal_nan=True), m.name
        assert np.array_equal(fast[m.name][1], hi, equal_nan=True), m.name
        assert np.all(lo <= hi)


@pytest.mark.parametrize("seed", range(3))
def test_uniform_bounds_all_rankings_at_once_equal_the_enumeration(seed, monkeypatch):
    """The ``uniform`` families (one completion per level, for every ranking
    at once) give the bounds of the per-ranking enumeration, to the last bit,
    on several runs and topics."""
    qrels, runs = _random(seed + 10)
    measures = ["P@5", "P@10", "RR", "ERR@20", "DCG@5", "Success@3", "RBP(p=0.5)@4",
                "utility", "SetP"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, runs, measures, gains={1: 1, 2: 5, 3: 2} if seed else None)
    al = res.aligned
    ms = [m for m in res.scores.measures if getattr(m.fam, "bounds", "") == "uniform"]
    assert len(ms) >= 6
    fast = {m.name: B.bounds(al, m, res.scores.matrix(m.name)) for m in ms}
    monkeypatch.setattr(B, "_uniform_bounds", lambda *a: False)
    for m in ms:
        lo, hi = B.bounds(al, m, res.scores.matrix(m.name))
        assert np.array_equal(fast[m.name][0], lo, equal_nan=True), m.name
        assert np.array_equal(fast[m.name][1], hi, equal_nan=True), m.name


def test_a_wrong_scorer_is_caught(monkeypatch):
    """The brute-force check fails when the scorer leaves out completions:
    with only the all-lowest multiset the largest nDCG@2 of [?, ?] is missed."""
    check([None, None], [1], measures=["nDCG@2"])
    monkeypatch.setattr(BS, "compositions",
                        lambda n, L: np.array([[n] + [0] * (L - 1)], dtype=np.int64))
    with pytest.raises(AssertionError):
        check([None, None], [1], measures=["nDCG@2"])


def test_many_unjudged_below_the_cutoff():
    """500 unjudged documents under one judged relevant one: nDCG@10's best
    completion keeps the unjudged at 0 (1.0), its worst makes all 500
    relevant; only the top 10 are scored and the ideal counts every one."""
    qrels = {"q": {"r": 1}}
    run = {"q": {"r": 1000.0, **{f"d{i}": 999.0 - i for i in range(500)}}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, run, ["nDCG@10"], bounds=True)
    lo, hi = res.matrix_bounds("nDCG@10")
    assert hi[0, 0] == 1.0
    disc = np.log2(np.arange(2, 12))
    # the worst: the 9 unjudged in the top 10 at 0, the ideal ten 1s
    assert lo[0, 0] == pytest.approx(1.0 / np.sum(1.0 / disc), abs=1e-14)
