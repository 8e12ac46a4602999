"""--bounds' one-pass search over the ``prefix`` completions
(ipsoeval.measures.bounds_scan): its values of every "first c" and "last c"
completion against the measure's own kernel on each of them, and the bounds
it gives against every labelling (brute force), on many random small
rankings with graded labels, relevance levels, cutoffs, tied scores and
topics with no judged relevant document."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ipsoeval import api
from ipsoeval.measures import bounds as B
from ipsoeval.measures import bounds_scan as S
from ipsoeval.measures import kernels as K
from tests.unit.measures.test_bounds import check

FAST = ["AP", "AP@3", "AP@1", "map_cut.2", "gm_map", "AP(rel=2)", "R", "R@3", "R@1",
        "recall.2", "R(rel=2)@4", "bpref", "bpref(rel=2)", "gm_bpref"]


@st.composite
def cases(draw, max_labellings=300):
    top = draw(st.sampled_from([1, 2, 3]))
    label = st.one_of(st.none(), st.just(-1), st.integers(0, top))
    ranked = draw(st.lists(label, min_size=1, max_size=8))
    u = sum(1 for x in ranked if x is None or x < 0)
    assume((top + 1) ** u <= max_labellings)
    extra = draw(st.lists(st.integers(0, top), min_size=1, max_size=3))
    rel_level = draw(st.sampled_from([1, 1, 2]))
    return ranked, extra, rel_level


@settings(max_examples=150, deadline=None)
@given(cases())
def test_fast_bounds_equal_every_labelling(case):
    """low and high are the smallest and the largest value over all labellings,
    to the last bit."""
    ranked, extra, rel_level = case
    check(ranked, extra, rel_level=rel_level, measures=FAST)


@settings(max_examples=20, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(0, 1)), min_size=8, max_size=14))
def test_fast_bounds_many_unjudged_no_relevant(ranked):
    """Up to 12 unjudged documents, the judged ones non-relevant only (R = 0
    until a completion makes some relevant: long runs of ties at 1)."""
    u = sum(1 for x in ranked if x is None)
    assume(5 <= u <= 12)
    check([0 if x == 1 else x for x in ranked], [0], measures=["AP", "bpref", "R@5", "AP@4"])


def _scan_values(qrels, run, measure):
    """The scan's values of every completion of each ranking, and the kernel's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, run, [measure])
    al, m = res.aligned, res.scores.measures[-1]
    unj = B.unjudged_mask(al)
    lv = B.levels(al)
    level = m.level(al.rel_level)
    k = m.k
    R_, T_, D = al.labels.shape
    cells = np.flatnonzero(unj.reshape(R_ * T_, D).any(axis=1))
    sc = S.Scan(al, unj, level, k, cells)
    ctx = K.Context(al)
    first, last = S.SCORERS[m.family](sc, al, m, level, ctx.num_rel(level),
                                      ctx.num_nonrel(level))
    for row, cell in enumerate(cells.tolist()):
        u = int(sc.u[row])
        pos = np.flatnonzero(unj.reshape(R_ * T_, D)[cell])
        labs = B._candidates("prefix", u, lv, None, None)       # first 0..u, last 0..u
        sub = B.completed(al, [divmod(cell, T_)], [pos], [labs])
        want = np.asarray(m.compute(sub), dtype=np.float64)[0]
        got = np.concatenate([first[row, :u + 1], last[row, :u + 1]])
        yield got, want


@pytest.mark.parametrize("measure", ["AP", "AP@4", "R@4", "bpref", "bpref(rel=2)",
                                     "AP(rel=2)"])
def test_scan_values_are_the_kernels(measure):
    """Every completion's value, not only the extremes: the scan agrees with the
    kernel to 1e-12 on random rankings of 30 documents, several topics and
    runs, graded labels."""
    rng = np.random.default_rng(7)
    for trial in range(6):
        qrels, run = {}, {}
        for t in range(4):
            q = f"q{t}"
            qrels[q] = {f"x{t}{i}": int(rng.integers(0, 3)) for i in range(3)}
            run_t = {}
            for i in range(30):
                doc = f"d{t}.{i}"
                run_t[doc] = float(rng.integers(0, 12))            # tied scores
                x = rng.random()
                if x < 0.4:
                    qrels[q][doc] = int(rng.integers(0, 3))
                elif x < 0.45:
                    qrels[q][doc] = -1                              # pooled, unjudged
            run[q] = run_t
        if trial == 0:
            qrels["q0"] = {k: 0 for k in qrels["q0"]}               # no relevant document
        for got, want in _scan_values(qrels, run, measure):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_a_wrong_scorer_is_caught(monkeypatch):
    """The brute-force check fails when the scan's values are wrong: R@2 of
    [rel, ?, ?] is smallest (1/2) with only the last unjudged document
    relevant; a scorer that leaves out the "last c" completions misses it."""
    real = S.SCORERS["R"]

    def wrong(*a):
        f, last = real(*a)
        return f, np.full_like(last, np.nan)
    check([1, None, None], [0], measures=["R@2"])
    monkeypatch.setitem(S.SCORERS, "R", wrong)
    with pytest.raises(AssertionError):
        check([1, None, None], [0], measures=["R@2"])


def test_many_ties_at_the_top_are_capped():
    """A judged relevant document first and 200 unjudged after it: AP = 1
    for every "first c"; only MAX_TIED of them are scored by the kernel and
    the bound is 1."""
    qrels = {"q": {"r": 1, "x": 0}}
    run = {"q": {"r": 1000.0, **{f"d{i}": 999.0 - i for i in range(200)}}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, run, ["AP", "bpref"], bounds=True)
    lo, hi = res.matrix_bounds("AP")
    assert hi[0, 0] == 1.0
    # the smallest: the last c relevant, AP = (1 + sum_j (1 + j)/(201 - c + j)) / (1 + c)
    want = min((1 + sum((1 + j) / (201 - c + j) for j in range(1, c + 1))) / (1 + c)
               for c in range(201))
    assert lo[0, 0] == pytest.approx(want, abs=1e-14)
