"""--tie-break expected (ipsoeval/measures/ties.py): every measure is its
expectation over all orders of the tied documents.

The outside reference is brute force: every permutation of every tie group
(all n! of each, not only the distinct label orders), each written as a
ranking with distinct scores and scored by the ordinary integer path
(``--tie-break trec`` cannot matter then), averaged."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipsoeval import api
from ipsoeval.errors import UsageError
from tests.conftest import invoke

MEASURES = ["P@1", "P@3", "P@5", "RelP@3", "R@4", "R", "Rprec", "RprecMult@0.6", "AP",
            "AP@4", "RR", "RR@3", "Success@1", "Success@4", "nDCG", "nDCG@3", "DCG@4",
            "nDCG(b=3)@5", "DCG(dcg='exp-log2')@4", "RBP", "RBP(p=0.5)@5", "Judged@3",
            "Unjudged@5", "bpref", "infAP", "ERR@5", "ESL@3", "IPrec@0.5", "binG",
            "ndcg_rel", "Rndcg", "rbp", "RBPresid@4", "SetP", "NumRelRet", "G", "rbp_resid",
            "yaap", "11pt_avg", "ideal_dcg", "gm_bpref", "ERR", "NumNonRelJudgedRet",
            "AP(judged_only=True)", "P(judged_only=True)@3"]


def _brute(qrels, groups, measures, **kw):
    """Mean over every permutation of every group (groups: lists of docnos,
    in rank order of the groups).  Permutations giving the same sequence of
    qrels labels score alike (a measure sees labels, and the scores here are
    distinct): each sequence is scored once and weighted by its permutations."""
    seen = {}
    for perm in itertools.product(*(itertools.permutations(g) for g in groups)):
        docs = [d for g in perm for d in g]
        key = tuple(qrels.get(d, "unjudged") for d in docs)
        if key in seen:
            seen[key][1] += 1
        else:
            seen[key] = [docs, 1]
    run, tags, weights = {}, [], []
    for b, (docs, w) in enumerate(seen.values()):
        run[f"q{b}"] = {d: float(len(docs) - i) for i, d in enumerate(docs)}
        tags.append(f"q{b}")
        weights.append(w)
    topics = {t: qrels for t in tags}
    res = api.evaluate(topics, run, measures, queries="qrels", **kw)
    idx = [res.topics.index(t) for t in tags]
    w = np.array(weights, dtype=np.float64)
    out = {}
    for m in res.measures:
        v = res.matrix(m)[0, idx]
        ok = ~np.isnan(v)                      # ESL: the orders where it is defined
        out[m] = float(np.dot(v[ok], w[ok]) / w[ok].sum()) if ok.any() else float("nan")
    return out


def _expected(qrels, groups, measures, **kw):
    scores = {}
    for gi, g in enumerate(groups):
        for d in g:
            scores[d] = float(len(groups) - gi)
    res = api.evaluate({"t": qrels}, {"t": scores}, measures, queries="qrels",
                       tie_break="expected", **kw)
    return {m: float(res.matrix(m)[0, 0]) for m in res.measures}


def _check(qrels, groups, measures=MEASURES, **kw):
    want = _brute(qrels, groups, measures, **kw)
    got = _expected(qrels, groups, measures, **kw)
    for m in want:
        if math.isnan(want[m]):
            assert math.isnan(got[m]), (m, qrels, groups)
        else:
            assert got[m] == pytest.approx(want[m], abs=1e-12), (m, qrels, groups)


def _topic(rng, n_docs, max_group=8, max_perms=40320):
    """Random qrels (labels 2/1/0, -1 pooled, or not judged) and tie groups."""
    docs = [f"d{i}" for i in range(n_docs)]
    qrels = {}
    for d in docs:
        x = int(rng.integers(0, 6))
        if x < 4:
            qrels[d] = [0, 1, 2, -1][x]
    qrels.setdefault("extra", 1)                    # a relevant document not retrieved
    groups, i, perms = [], 0, 1
    while i < n_docs:
        size = int(rng.integers(1, max_group + 1))
        size = min(size, n_docs - i)
        while perms * math.factorial(size) > max_perms:
            size -= 1
        perms *= math.factorial(size)
        groups.append(docs[i:i + size])
        i += size
    return qrels, groups


@pytest.mark.parametrize("seed", range(40))
def test_expected_equals_mean_over_all_permutations(seed):
    rng = np.random.default_rng(seed)
    qrels, groups = _topic(rng, int(rng.integers(1, 15)))
    _check(qrels, groups)


def test_a_group_of_eight():
    qrels = {"a": 1, "b": 0, "c": 2, "d": -1, "e": 1, "x": 1}
    groups = [["p"], ["a", "b", "c", "d", "e", "f", "g", "h"], ["i"]]
    _check(qrels, groups, ["P@1", "P@3", "AP", "RR", "nDCG@5", "Success@2", "bpref",
                           "ERR@4", "infAP", "R@5", "RBP"])


def test_judged_only_alignment():
    """-J: unjudged documents leave the ranking; the tied judged ones stay tied."""
    rng = np.random.default_rng(7)
    qrels, groups = _topic(rng, 10)
    _check(qrels, groups, ["P@3", "AP", "RR", "nDCG@4", "bpref", "ERR@5"], judged_only=True)


def test_gain_map_and_rel_level():
    qrels = {"a": 2, "b": 1, "c": 0, "d": 3, "z": 2}
    groups = [["a", "b"], ["c", "d", "e", "f"], ["g"]]
    _check(qrels, groups, ["nDCG@3", "DCG", "RBP@4", "P@2", "AP", "RR"], gains="0:0,1:1,2:5,3:9")
    _check(qrels, groups, ["P@2", "AP", "RR@3", "Success@2", "nDCG@3"], rel_level=2)


@st.composite
def _adversarial(draw):
    n = draw(st.integers(1, 9))
    labels = draw(st.lists(st.sampled_from([None, -1, 0, 1, 2]), min_size=n, max_size=n))
    shape = draw(st.sampled_from(["all", "cut", "random", "unjudged"]))
    if shape == "all":
        sizes = [n]
    elif shape == "cut":                       # a group across the cutoff 3 (P@3 ...)
        a = min(2, n)
        sizes = [a] + ([n - a] if n > a else [])
    else:
        sizes, left = [], n
        while left:
            s = draw(st.integers(1, min(left, 4)))
            sizes.append(s)
            left -= s
    if shape == "unjudged":
        labels = [None if i < n - 1 else lab for i, lab in enumerate(labels)]
    if sum(math.log(math.factorial(s)) for s in sizes) > math.log(40320):
        sizes = [min(s, 7) for s in sizes] + [1] * sum(max(s - 7, 0) for s in sizes)
    docs = [f"d{i}" for i in range(n)]
    qrels = {d: lab for d, lab in zip(docs, labels) if lab is not None}
    qrels["other"] = draw(st.sampled_from([0, 1]))
    groups, i = [], 0
    for s in sizes:
        groups.append(docs[i:i + s])
        i += s
    return qrels, groups


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_adversarial())
def test_adversarial_ties(case):
    qrels, groups = case
    _check(qrels, groups, ["P@3", "R@3", "AP", "AP@3", "RR", "RR@3", "Success@3",
                           "nDCG@3", "nDCG", "Rprec", "bpref", "ESL@3", "RBP@3", "Judged@3"])


def _two_runs(tmp_path):
    qrels = tmp_path / "q"
    qrels.write_text("".join(f"t{t} 0 d{i} {(i * 7 + t) % 3 > 0:d}\n"
                             for t in range(6) for i in range(10)))
    a, b = tmp_path / "a.run", tmp_path / "b.run"
    rows_a, rows_b = [], []
    for t in range(6):
        for i in range(10):
            s = 5 - i // 3
            rows_a.append(f"t{t} Q0 d{i} 0 {s} a\n")
            rows_b.append(f"t{t} Q0 d{9 - i if False else i} 0 {s} b\n")
    rows_b = rows_b[::-1]                      # input order reversed: same scores
    a.write_text("".join(rows_a))
    b.write_text("".join(rows_b).replace(" a\n", " b\n"))
    return qrels, a, b


def test_tie_order_does_not_matter(tmp_path):
    qrels, a, b = _two_runs(tmp_path)
    ms = ["P@2", "AP", "RR", "nDCG@4", "bpref", "ERR@3"]
    plain = api.evaluate(str(qrels), [str(a), str(b)], ms, tie_break="input")
    assert any(not np.array_equal(plain.matrix(m)[0], plain.matrix(m)[1]) for m in ms)
    exp = api.evaluate(str(qrels), [str(a), str(b)], ms, tie_break="expected")
    for m in ms:
        assert np.array_equal(exp.matrix(m)[0], exp.matrix(m)[1]), m


def test_sigtest_finds_no_difference(tmp_path):
    qrels, a, b = _two_runs(tmp_path)
    code, out, err = invoke(["sigtest", "--tie-break", "expected", "-m", "AP", "-m", "P@2",
                             "--format", "tsv", qrels, a, b])
    assert code == 0, err
    lines = [x.split("\t") for x in out.strip().splitlines()]
    head = lines[0]
    for row in lines[1:]:
        rec = dict(zip(head, row))
        assert float(rec["diff"]) == 0.0, rec


def test_warning_counts_topics_with_ties_across_a_cutoff(tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b 0\n2 0 a 1\n2 0 b 1\n3 0 a 1\n")
    r = tmp_path / "r"
    # topic 1: a (1), b (0) tied at ranks 1-2; topic 2: a, b tied, both relevant (the
    # order cannot matter); topic 3: a (1), d (unjudged) tied at ranks 2-3
    r.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 2 x\n2 Q0 a 1 2 x\n2 Q0 b 2 2 x\n"
                 "3 Q0 c 1 3 x\n3 Q0 a 2 2 x\n3 Q0 d 3 2 x\n")
    note = ("ipsoeval: warning: x: {} topic(s) have tied scores across a cutoff (the value "
            "depends on the tie order; --tie-break expected averages over it)")
    code, out, err = invoke(["eval", "--tie-break", "expected", "-q", "-m", "P@1",
                             "--format", "tsv", q, r])
    assert code == 0, err
    assert note.format(1) in err and err.count("tied scores") == 1     # topic 1 only
    rows = [dict(zip(out.splitlines()[0].split("\t"), x.split("\t")))
            for x in out.strip().splitlines()[1:]]
    got = {r_["qid"]: float(r_["value"]) for r_ in rows if r_["measure"] == "P@1"}
    assert got == {"1": 0.5, "2": 1.0, "3": 0.0, "all": 0.5}
    code, out, err = invoke(["eval", "--tie-break", "expected", "-m", "P@1", "-m", "P@2",
                             q, r])
    assert note.format(2) in err                                        # topics 1 and 3
    code, out, err = invoke(["eval", "--tie-break", "expected", "-m", "P@3", "-m", "AP",
                             q, r])
    assert "tied scores" not in err          # no group crosses 3; AP has no cutoff
    # the default tie breaks: the same cutoff rule, and a measure without a cutoff
    # counts every tie group holding two different labels (the order moves AP)
    dnote = ("ipsoeval: warning: x: {} topic(s) have tied scores across a cutoff or between "
             "documents of different labels (the value of {} depends on the tie order; "
             "--tie-break expected averages over it)")
    for tb in ("trec", "docno-asc", "input"):
        code, out, err = invoke(["eval", "--tie-break", tb, "-m", "P@1", q, r])
        assert code == 0 and err.count("\n") == 1 and dnote.format(1, "P@1") in err, err
        code, out, err = invoke(["eval", "--tie-break", tb, "-m", "P@3", "-m", "AP", q, r])
        assert dnote.format(2, "AP") in err and err.count("\n") == 1, err       # topics 1, 3
        code, out, err = invoke(["eval", "--tie-break", tb, "-m", "P@3", "-m", "num_rel_ret",
                                 q, r])
        assert "tied scores" not in err          # no group crosses 3; num_rel_ret: no order


def test_refusals(tmp_path):
    with pytest.raises(UsageError, match="probability"):
        api.evaluate({"t": {"a": 0.5}}, {"t": {"a": 1.0}}, ["P@1"], labels="probability",
                     tie_break="expected")
    with pytest.raises(UsageError, match="bounds"):
        api.evaluate({"t": {"a": 1}}, {"t": {"a": 1.0}}, ["P@1"], bounds=True,
                     tie_break="expected")
    q, a, b = _two_runs(tmp_path)
    for args in (["ipso"], ["interval-map", "-m", "P@5"], ["eval", "--bounds"],
                 ["eval", "-R", "prefs"]):
        code, _, err = invoke([*args, "--tie-break", "expected", q, a, b])
        assert code == 2 and "--tie-break expected" in err, (args, err)


def test_beyond_max_orders_monte_carlo(monkeypatch):
    """Past MAX_ORDERS a topic's value is a Monte Carlo mean over --samples random
    orders (--seed), within a few standard errors of the exact one; the note
    names the measure; the closed forms and per-group enumerations need no limit."""
    from ipsoeval.measures import ties as TI
    docs = [f"d{i}" for i in range(9)]
    qrels = {d: i % 4 for i, d in enumerate(docs)}      # 9!/(3!2!2!2!) = 7560 orders
    groups = [docs[:2], docs[2:]]                        # 2 x 7!/(2!2!2!1!) = 2 x 630 orders
    exact = _brute(qrels, groups, ["IPrec@0.5", "11pt_avg", "bpref", "P@3", "AP"])
    monkeypatch.setattr(TI, "MAX_ORDERS", 1000)     # 2 x 630 orders: over; 630 alone: not
    scores = {d: 2.0 if i < 2 else 1.0 for i, d in enumerate(docs)}
    with pytest.warns(api.InputWarning, match="IPrec@0.5 under --tie-break expected: 1 "
                      "topic"):
        res = api.evaluate({"t": qrels}, {"t": scores}, ["IPrec@0.5", "11pt_avg", "bpref",
                           "P@3", "AP"], tie_break="expected", samples=4000, seed=3)
    for m in ("IPrec@0.5", "11pt_avg"):
        se = float(res.standard_error(m)[0, 0])
        assert 0 < se < 0.02
        assert abs(float(res.matrix(m)[0, 0]) - exact[m]) < 5 * se, m
    for m in ("bpref", "P@3", "AP"):                       # exact, no standard error
        assert float(res.matrix(m)[0, 0]) == pytest.approx(exact[m], abs=1e-12)
    again = api.evaluate({"t": qrels}, {"t": scores}, ["IPrec@0.5"], tie_break="expected",
                         samples=4000, seed=3)
    assert again.matrix("IPrec@0.5")[0, 0] == res.matrix("IPrec@0.5")[0, 0]


def test_measures_lists_the_ties_column():
    code, out, _ = invoke(["measures", "--format", "tsv"])
    rows = [dict(zip(out.splitlines()[0].split("\t"), x.split("\t")))
            for x in out.strip().splitlines()[1:]]
    ties = {r["measure"]: r["ties"] for r in rows}
    assert ties["AP"] == "closed form" and ties["IPrec"].startswith("enumeration (")
    assert ties["bpref"].startswith("enumeration per group")
    assert ties["SetP"] == "order-free" and ties["relstring"] == "trec order"


def test_without_ties_expected_is_the_trec_order(tmp_path):
    """No tie group holding two labels: every value as under trec, all_trec's
    measures included."""
    q = tmp_path / "q"
    q.write_text("".join(f"t{t} 0 d{i} {(i * 5 + t) % 4 - 1}\n"
                         for t in range(5) for i in range(0, 30, 2)))
    r = tmp_path / "r"
    # ties only among documents of one label (the unjudged odd docnos d1, d3 ...)
    r.write_text("".join(f"t{t} Q0 d{i} 0 {100 - i if i % 2 == 0 else 1} x\n"
                         for t in range(5) for i in range(30)))
    a = invoke(["eval", "-q", "-m", "all_trec", q, r])
    b = invoke(["eval", "-q", "-m", "all_trec", "--tie-break", "expected", q, r])
    assert a[0] == b[0] == 0 and a[1] == b[1]


def test_monte_carlo_same_bytes_whatever_the_threads(tmp_path, monkeypatch):
    from ipsoeval.measures import ties as TI
    monkeypatch.setattr(TI, "MAX_ORDERS", 50)
    q = tmp_path / "q"
    q.write_text("".join(f"t{t} 0 d{i} {(i + t) % 3}\n" for t in range(4) for i in range(12)))
    r = tmp_path / "r"
    r.write_text("".join(f"t{t} Q0 d{i} 0 {i // 6} x\n" for t in range(4) for i in range(12)))
    outs = []
    for threads in ("1", "4"):
        monkeypatch.setenv("IPSOEVAL_THREADS", threads)
        code, out, err = invoke(["eval", "-q", "-m", "IPrec@0.5", "-m", "bpref", "-m", "yaap",
                                 "--tie-break", "expected", "--samples", "300", "--seed", "5",
                                 q, r])
        assert code == 0, err
        assert "IPrec@0.5 under --tie-break expected: 4 topic(s) have more than 50" in err
        outs.append(out)
    assert outs[0] == outs[1]


def test_gain_labels():
    qrels = {"a": 2.5, "b": 0.5, "c": 0.0, "d": 1.0, "z": 3.0}
    groups = [["a", "b", "c"], ["d", "e"], ["f"]]
    _check(qrels, groups, ["nDCG@2", "DCG", "P@2", "AP", "RR", "ERR@3", "bpref"],
           labels="gain")
