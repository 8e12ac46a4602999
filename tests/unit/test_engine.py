"""Engine vs a plain per-query reference, and invariants (hypothesis)."""

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipsoeval.align import align
from ipsoeval.engine import evaluate
from ipsoeval.errors import InputError
from ipsoeval.model import Qrels, Run
from tests import reference as ref

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python", "c-two-step")

DOCS = [f"d{i}" for i in range(12)]


def words(strings):
    width = max(8, (max(len(s) for s in strings) + 7) // 8 * 8) if strings else 8
    raw = b"".join(s.encode().ljust(width, b"\0") for s in strings)
    return np.frombuffer(raw, dtype="<u8").reshape(len(strings), width // 8).copy()


def make_qrels(q):
    keys = list(q)
    return Qrels(path="qrels", qid=words([t for t, _ in keys]), docno=words([d for _, d in keys]),
                 label=np.array([q[k] for k in keys], dtype=np.int64),
                 line=np.arange(1, len(keys) + 1))


def make_run(rows, name="r"):
    return Run(path=name, name=name, qid=words([t for t, _, _ in rows]),
               docno=words([d for _, d, _ in rows]),
               score=np.array([s for _, _, s in rows], dtype=np.float64),
               line=np.arange(1, len(rows) + 1))


@st.composite
def data(draw):
    topics = draw(st.lists(st.sampled_from(["1", "2", "3", "10"]), min_size=1, max_size=3,
                           unique=True))
    qrels = {}
    for t in topics:
        for d in draw(st.lists(st.sampled_from(DOCS), max_size=10, unique=True)):
            qrels[(t, d)] = draw(st.integers(-1, 3))
    if not qrels:
        qrels[(topics[0], "d0")] = 1
    rows = []
    run_topics = draw(st.lists(st.sampled_from(["1", "2", "3", "10", "99"]), min_size=1,
                               max_size=4, unique=True))
    for t in run_topics:
        for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=12, unique=True)):
            rows.append((t, d, float(draw(st.integers(0, 6)))))  # many ties
    return qrels, rows


MEASURES = ["P@1", "P@5", "P@20", "R@5", "AP", "AP@5", "RR", "RR@3", "ESL@10", "nDCG",
            "nDCG@5", "Success@5", "Rprec", "bpref", "RBP(p=0.8)@10", "IPrec@0.3", "IPrec@0",
            "NumRet", "NumRel", "NumRelRet"]


def reference_value(m, labels, jl, level=1):
    R = sum(1 for x in jl if x >= level)
    N = sum(1 for x in jl if 0 <= x < level)
    return {
        "P@1": lambda: ref.P(labels, 1), "P@5": lambda: ref.P(labels, 5),
        "P@20": lambda: ref.P(labels, 20), "R@5": lambda: ref.R_at(labels, R, 5),
        "AP": lambda: ref.AP(labels, R), "AP@5": lambda: ref.AP(labels, R, 5),
        "RR": lambda: ref.RR(labels), "RR@3": lambda: ref.RR(labels, 3),
        "ESL@10": lambda: ref.ESL(labels, 10), "nDCG": lambda: ref.nDCG(labels, jl),
        "nDCG@5": lambda: ref.nDCG(labels, jl, 5), "Success@5": lambda: ref.success(labels, 5),
        "Rprec": lambda: ref.Rprec(labels, R), "bpref": lambda: ref.bpref(labels, R, N),
        "RBP(p=0.8)@10": lambda: ref.RBP(labels, 0.8, 10),
        "IPrec@0.3": lambda: ref.iprec(labels, R, 0.3), "IPrec@0": lambda: ref.iprec(labels, R, 0.0),
        "NumRet": lambda: float(len(labels)), "NumRel": lambda: float(R),
        "NumRelRet": lambda: float(sum(ref.rel(x, 1) for x in labels)),
    }[m]()


def close(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data(), st.sampled_from(["intersection", "qrels"]), st.booleans(),
       st.sampled_from([None, 3, 7]))
def test_engine_matches_reference(d, queries, judged_only, depth):
    qrels, rows = d
    run_topics = {t for t, _, _ in rows}
    qrel_topics = {t for t, _ in qrels}
    expected_topics = sorted(qrel_topics if queries == "qrels" else qrel_topics & run_topics,
                             key=str.encode)
    if not expected_topics:
        with pytest.raises(InputError, match="no topic in common"):
            align(make_qrels(qrels), [make_run(rows)], queries=queries)
        return
    al = align(make_qrels(qrels), [make_run(rows)], queries=queries, judged_only=judged_only,
               depth=depth)
    sc = evaluate(al, MEASURES)
    assert al.topics == expected_topics
    for ti, t in enumerate(al.topics):
        labels = ref.ranking(rows, qrels, t, depth=depth, judged_only=judged_only)
        jl = ref.judged(qrels, t)
        for m in MEASURES:
            got = float(sc.matrix(m)[0, ti])
            want = reference_value(m, labels, jl)
            assert close(got, want), (m, t, labels, got, want)


@settings(max_examples=100, deadline=None)
@given(data())
def test_ranges_and_integrality(d):
    qrels, rows = d
    al = align(make_qrels(qrels), [make_run(rows)], queries="qrels")
    sc = evaluate(al, MEASURES)
    for m in ["P@1", "P@5", "R@5", "AP", "RR", "nDCG", "nDCG@5", "Success@5", "Rprec",
              "bpref", "RBP(p=0.8)@10", "IPrec@0.3"]:
        v = sc.matrix(m)
        assert ((v >= 0) & (v <= 1 + 1e-12)).all(), m
    for k in (1, 5, 20):
        pk = sc.matrix(f"P@{k}") * k
        assert np.allclose(pk, np.round(pk))
    rr3, rr = sc.matrix("RR@3"), sc.matrix("RR")
    assert (rr >= rr3).all()


@settings(max_examples=80, deadline=None)
@given(data(), st.randoms(use_true_random=False))
def test_shuffling_lines_changes_nothing(d, rnd):
    qrels, rows = d
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    a = evaluate(align(make_qrels(qrels), [make_run(rows)], queries="qrels"), MEASURES)
    b = evaluate(align(make_qrels(qrels), [make_run(shuffled)], queries="qrels"), MEASURES)
    for m in MEASURES:
        assert np.array_equal(a.matrix(m), b.matrix(m), equal_nan=True), m


@settings(max_examples=80, deadline=None)
@given(data(), st.integers(0, 11))
def test_promoting_a_relevant_document_never_lowers(d, pick):
    qrels, rows = d
    t = rows[0][0]
    labels = ref.ranking(rows, qrels, t)
    rel_positions = [i for i, x in enumerate(labels) if ref.rel(x, 1)]
    if not rel_positions:
        return
    i = rel_positions[pick % len(rel_positions)]
    if i == 0:
        return
    # swap the relevant doc at rank i with the doc at rank i-1, via scores
    ordered = sorted([r for r in rows if r[0] == t],
                     key=lambda x: (-x[2], [-c for c in x[1].encode()] + [1]))
    above = ordered[i - 1]
    if ref.rel(qrels.get((t, above[1])), 1):
        return
    new = [r for r in rows if r[0] != t] + [
        (t, r[1], float(len(ordered) - j)) for j, r in enumerate(ordered)]
    promoted = [r for r in new if r[0] != t] + [
        (t, r[1], float(len(ordered) - (j if j not in (i - 1, i) else (2 * i - 1 - j))))
        for j, r in enumerate(ordered)]
    before = evaluate(align(make_qrels(qrels), [make_run(new)], queries="qrels"),
                      ["AP", "nDCG", "RR", "nDCG@5"])
    after = evaluate(align(make_qrels(qrels), [make_run(promoted)], queries="qrels"),
                     ["AP", "nDCG", "RR", "nDCG@5"])
    ti = before.topics.index(t) if t in before.topics else None
    if ti is None:
        return
    for m in ["AP", "nDCG", "RR", "nDCG@5"]:
        assert after.matrix(m)[0, ti] >= before.matrix(m)[0, ti] - 1e-15, m


def test_ideal_ranking_scores_one():
    qrels = {("1", f"d{i}"): lab for i, lab in enumerate([2, 2, 1, 1, 0, 0])}
    rows = [("1", f"d{i}", float(10 - i)) for i in range(6)]
    sc = evaluate(align(make_qrels(qrels), [make_run(rows)]),
                  ["AP", "nDCG", "nDCG@3", "RR", "Rprec", "bpref", "R@4", "Success@1", "P@4"])
    for m in ["AP", "nDCG", "nDCG@3", "RR", "Rprec", "bpref", "R@4", "Success@1", "P@4"]:
        assert sc.matrix(m)[0, 0] == pytest.approx(1.0), m


def test_many_runs_at_once_equal_one_at_a_time():
    rnd = random.Random(3)
    qrels = {(t, d): rnd.randint(0, 2) for t in "123" for d in DOCS[:8]}
    runs = [[(t, d, float(rnd.randint(0, 9))) for t in "123" for d in DOCS] for _ in range(4)]
    together = evaluate(align(make_qrels(qrels), [make_run(r, f"r{i}") for i, r in enumerate(runs)]),
                        MEASURES)
    for i, r in enumerate(runs):
        alone = evaluate(align(make_qrels(qrels), [make_run(r, f"r{i}")]), MEASURES)
        for m in MEASURES:
            assert np.array_equal(together.matrix(m)[i], alone.matrix(m)[0], equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(data(), st.booleans())
def test_large_runs_cut_into_pieces_align_the_same(d, grouped):
    """Big runs are aligned in pieces cut at topic boundaries; same result."""
    import ipsoeval.align as A

    qrels, rows = d
    if grouped:
        rows = sorted(rows, key=lambda r: r[0])
    whole = align(make_qrels(qrels), [make_run(rows)], queries="qrels")
    old = A.PIECE_ROWS
    A.PIECE_ROWS = 2
    try:
        pieces = align(make_qrels(qrels), [make_run(rows)], queries="qrels")
    finally:
        A.PIECE_ROWS = old
    assert np.array_equal(whole.labels, pieces.labels)
    assert np.array_equal(whole.n_ret, pieces.n_ret)
    assert np.array_equal(whole.in_run, pieces.in_run)


def test_duplicate_found_across_pieces():
    import ipsoeval.align as A

    rows = [("1", "d1", 3.0), ("1", "d2", 2.0), ("2", "d1", 1.0), ("2", "d1", 0.5)]
    old = A.PIECE_ROWS
    A.PIECE_ROWS = 1
    try:
        with pytest.raises(InputError, match="duplicate docno 'd1' in topic '2'"):
            align(make_qrels({("1", "d1"): 1, ("2", "d1"): 1}), [make_run(rows)])
    finally:
        A.PIECE_ROWS = old
