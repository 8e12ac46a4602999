"""--bounds: each measure's lowest and highest value over the labellings of the
unjudged retrieved documents (ipsoeval.measures.bounds), checked against brute
force: every labelling written out as a qrels of its own and scored through
the ordinary reader path, one topic per labelling."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ipsoeval import api
from ipsoeval.measures import bounds as B
from ipsoeval.measures.bounds import bounds
from ipsoeval.measures.family import FAMILIES

# every family, in its several forms (cutoffs, parameters, trec_eval's gain pairs)
MEASURES = [
    "AP", "AP@3", "AP(judged_only=True)", "gm_map", "infAP", "yaap", "bpref", "gm_bpref",
    "NumRet", "NumRel", "NumRelRet", "NumNonRelJudgedRet",
    "nDCG", "nDCG@3", "nDCG(b=2)@4", "nDCG(dcg='exp-log2')", "ndcg.1=3,2=1", "DCG", "DCG@2",
    "dcg.1=1,2=5", "G", "ideal_dcg", "ndcg_rel", "Rndcg", "binG",
    "ERR", "ERR@3", "RR", "RR@2", "ESL", "Success@2", "IPrec@0.5", "IPrec@0", "11pt_avg",
    "Judged@3", "Unjudged@3", "P@3", "RelP@3", "Rprec", "RprecMult@0.6",
    "RBP", "RBP(p=0.5)@3", "RBPresid", "rbp", "rbp.p=0.5,1=2", "rbp_resid",
    "R", "R@3", "SetP", "SetRelP", "SetR", "SetAP", "SetF", "utility", "utility.1,-2,0,0",
    # Compat, Accuracy and the C/W/L measures with their residuals
    "Compat", "Compat(p=0.5,normalize=False)", "Accuracy", "Accuracy@3",
    "INST(max_rel=2)", "INSQ(max_rel=2)", "BPM(max_rel=2)@3", "SDCG(max_rel=2)@3",
    "NERR8(max_rel=2)@3", "NERR9(max_rel=2)@3", "NERR10(max_rel=2)", "NERR11(max_rel=2)",
    "INSTresid(max_rel=2)", "INSQresid(max_rel=2)", "BPMresid(max_rel=2)@3",
    "SDCGresid(max_rel=2)@3", "NERR8resid(max_rel=2)@3", "NERR9resid(max_rel=2)@3",
    "NERR10resid(max_rel=2)", "NERR11resid(max_rel=2)",
]


def _case(ranked, extra, *, gains=None, rel_level=1, measures=MEASURES, scores=None,
          tie_break=None):
    """(per-measure (low, high) from ipsoeval.measures.bounds, per-measure values
    over every labelling of the unjudged documents).  ``scores``: the run's
    scores (default: all different); ``tie_break``: evaluate's."""
    if scores is None:
        scores = [float(100 - i) for i in range(len(ranked))]
    run = {"q": {f"d{i}": float(s) for i, s in enumerate(scores)}}
    qrels = {"q": {f"d{i}": lab for i, lab in enumerate(ranked) if lab is not None}}
    qrels["q"].update({f"x{i}": lab for i, lab in enumerate(extra)})
    kw = dict(gains=gains, rel_level=rel_level)
    if tie_break is not None:
        kw["tie_break"] = tie_break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, run, measures, **kw)
    al = res.aligned
    got = {}
    for m in res.scores.measures:
        if m.family == "runid":
            continue
        got[m.name] = bounds(al, m, res.scores.matrix(m.name))
    top = max([lab for lab in ranked + extra if lab is not None and lab >= 0], default=0)
    unj = [i for i, lab in enumerate(ranked) if lab is None or lab < 0]
    # brute force: one topic per labelling, through the reader path
    bq, br = {}, {}
    for n, labs in enumerate(itertools.product(range(top + 1), repeat=len(unj))):
        full = list(ranked)
        for i, lab in zip(unj, labs):
            full[i] = lab
        q = f"t{n:06d}"
        bq[q] = {f"d{i}": lab for i, lab in enumerate(full)}
        bq[q].update({f"x{i}": lab for i, lab in enumerate(extra)})
        br[q] = run["q"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        brute = api.evaluate(bq, br, measures, **kw)
    return res, got, brute


NOT_BOUNDED = {"Judged", "Unjudged", "RBPresid", "rbp_resid", "NumRet", "NumQ",
               "INSTresid", "INSQresid", "BPMresid", "SDCGresid", "NERR8resid",
               "NERR9resid", "NERR10resid", "NERR11resid"}


def check(ranked, extra, *, tol=0.0, **kw):
    """Every family's low and high equal the smallest and the largest value over
    all labellings (to the last bit: they are attained), except the families
    that describe the judgments (low = high = the value)."""
    res, got, brute = _case(ranked, extra, **kw)
    for m in res.scores.measures:
        if m.family == "runid":
            continue
        low, high = got[m.name]
        value = res.scores.matrix(m.name)[0, 0]
        if m.family in NOT_BOUNDED:
            assert low[0, 0] == high[0, 0] == value, m.name
            continue
        every = brute.scores.matrix(m.name)[0]
        every = every[~np.isnan(every)]
        if not len(every):
            assert np.isnan(low[0, 0]) and np.isnan(high[0, 0]), m.name
            continue
        # attained: the extremes of the enumeration, to the last bit
        assert abs(low[0, 0] - every.min()) <= tol, (m.name, ranked, extra, low[0, 0],
                                                      every.min())
        assert abs(high[0, 0] - every.max()) <= tol, (m.name, ranked, extra, high[0, 0],
                                                       every.max())
    return res, got


@pytest.mark.parametrize("ranked,extra,scores", [
    ([1, None, 0, None, 2, None, 1], [1, 2], [10, 9, 9, 8, 8, 8, 7]),
    ([None, 0, None, 1], [2], [5, 5, 5, 5]),
    ([2, None, None, 0, 1], [], [3, 2, 2, 2, 1]),
])
def test_bounds_under_expected_tie_break_against_every_labelling(ranked, extra, scores):
    """--tie-break expected: a measure is its average over the orders of the
    tied documents, for which the shortcuts' extremes do not hold (bpref's
    bounds were narrower than its range, and the completions crashed on the
    tie groups' shape); the bounds equal the brute force over every labelling."""
    check(ranked, extra, scores=scores, tie_break="expected", tol=1e-12)


def test_every_family_is_checked():
    """A new family gets a line in MEASURES (and its bounds shape is declared)."""
    from ipsoeval.measures import parse_measure
    covered = {parse_measure(n).family for n in MEASURES}
    # the diversity measures refuse --bounds (tests/unit/measures/families/test_diversity.py)
    diversity = {name for name, f in FAMILIES.items() if f.subtopics}
    missing = set(FAMILIES) - covered - {"runid", "NumQ", "relstring"} - diversity
    assert not missing
    assert all(f.bounds in B.KINDS for f in FAMILIES.values())


@st.composite
def rankings(draw, max_labellings=250, top_choices=(1, 2, 3)):
    """A ranking (labels 0..top, None not in the qrels, -1 pooled but unjudged),
    judged documents it does not retrieve, --gains and -l."""
    top = draw(st.sampled_from(top_choices))
    label = st.one_of(st.none(), st.just(-1), st.integers(0, top))
    ranked = draw(st.lists(label, min_size=1, max_size=7))
    u = sum(1 for x in ranked if x is None or x < 0)
    assume((top + 1) ** u <= max_labellings)
    extra = draw(st.lists(st.integers(0, top), min_size=1, max_size=3))
    gains = draw(st.sampled_from([None, None, {1: 3, 2: 1, 3: 2}]))
    rel_level = draw(st.sampled_from([1, 1, 2]))
    return ranked, extra, gains, rel_level


@settings(max_examples=60)
@given(rankings())
def test_bounds_against_every_labelling(case):
    ranked, extra, gains, rel_level = case
    check(ranked, extra, gains=gains, rel_level=rel_level)


BINARY = ["AP", "AP@5", "R@4", "Rprec", "bpref", "infAP", "RR", "P@5", "nDCG", "nDCG@5",
          "RBP(p=0.5)", "SetF", "IPrec@0.3", "RelP@3", "ESL", "binG", "yaap"]


@settings(max_examples=8)
@given(st.lists(st.one_of(st.none(), st.just(-1), st.integers(0, 1)), min_size=6,
                max_size=12), st.lists(st.integers(0, 1), min_size=1, max_size=3))
def test_bounds_binary_up_to_ten_unjudged(ranked, extra):
    u = sum(1 for x in ranked if x is None or x < 0)
    assume(4 <= u <= 10)
    check(ranked, extra + [1], measures=BINARY)


NDCG = ["nDCG", "nDCG@3", "nDCG(b=2)@4", "nDCG(dcg='exp-log2')", "ndcg.1=3,2=1", "nDCG@1"]


@settings(max_examples=40)
@given(rankings(max_labellings=400, top_choices=(2, 3)))
def test_ndcg_dynamic_programme_against_every_labelling(case):
    """Past the enumeration, nDCG's extremes come from ndcg_extremes (forced
    here with MAX_CANDIDATES = 0)."""
    ranked, extra, gains, rel_level = case
    saved = B.MAX_CANDIDATES
    B.MAX_CANDIDATES = 0
    try:
        check(ranked, extra, gains=gains, rel_level=rel_level, measures=NDCG, tol=1e-12)
    finally:
        B.MAX_CANDIDATES = saved


# --- hand-checked cases --------------------------------------------------------------

def _bounds_of(ranked, extra, measure, **kw):
    res, got, _ = _case(ranked, extra, measures=[measure], **kw)
    name = res.scores.measures[-1].name
    lo, hi = got[name]
    return res.scores.matrix(name)[0, 0], lo[0, 0], hi[0, 0]


def test_recall_minimum_is_below_all_nonrelevant():
    """R@2 of [rel, ?, ?] (R = 1): 1 as judged and with both unjudged
    non-relevant; only the third relevant: 1/2; both: 2/3; only the second: 2/2."""
    value, low, high = _bounds_of([1, None, None], [], "R@2")
    assert (value, low, high) == (1.0, 0.5, 1.0)


def test_ap_by_hand():
    """AP of [?, rel, ?], R = 1: labellings (0,0) 1/2; (1,0) (1 + 1)/2;
    (0,1) (1/2 + 2/3)/2; (1,1) (1 + 1 + 1)/3.  Of [0, rel, ?]: 1/2 or 7/12."""
    assert _bounds_of([None, 1, None], [], "AP") == (0.5, 0.5, 1.0)
    value, low, high = _bounds_of([0, 1, None], [], "AP")
    assert value == low == 0.5
    assert high == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-15)


def test_ndcg_maximum_at_an_intermediate_label():
    """nDCG@3 of [2, 2, ?] with a judged 3 not retrieved: label 2 gives
    (2 + 2/log2 3 + 2/2)/(3 + 2/log2 3 + 2/2) = 0.80995, more than label 3's
    (2 + 2/log2 3 + 3/2)/(3 + 3/log2 3 + 2/2) = 0.80808."""
    value, low, high = _bounds_of([2, 2, None], [3], "nDCG@3")
    l3 = math.log2(3)
    assert high == pytest.approx((2 + 2 / l3 + 1) / (3 + 2 / l3 + 1), abs=1e-15)
    assert (2 + 2 / l3 + 1.5) / (3 + 3 / l3 + 1) < high
    assert low == value == pytest.approx((2 + 2 / l3) / (3 + 2 / l3 + 1), abs=1e-15)


def test_p_and_rr_by_hand():
    assert _bounds_of([0, None, 1, None, -1], [1], "P@5") == (0.2, 0.2, 0.8)
    assert _bounds_of([0, None, 1], [1], "RR") == (1 / 3, 1 / 3, 0.5)


def test_judgment_measures_keep_their_value():
    for name in ("Judged@3", "Unjudged@3", "RBPresid", "rbp_resid", "NumRet"):
        value, low, high = _bounds_of([0, None, 1], [1], name)
        assert low == high == value


@settings(max_examples=40)
@given(st.lists(st.one_of(st.none(), st.just(-1), st.integers(0, 1)), min_size=1, max_size=9),
       st.sampled_from([None, 3, 5]), st.sampled_from([0.5, 0.8]))
def test_rbp_width_is_the_residual(ranked, k, p):
    """Moffat & Zobel's residual: RBP's high - low is the weight of the unjudged
    documents, RBPresid without its tail p^k (p^n with no cutoff: documents
    past the ranking are not retrieved, so not counted); trec_eval's rbp and
    rbp_resid the same (binary labels: no rescaling)."""
    name = f"RBP(p={p})" + (f"@{k}" if k else "")
    resid = f"RBPresid(p={p})" + (f"@{k}" if k else "")
    qrels = {"q": {f"d{i}": lab for i, lab in enumerate(ranked) if lab is not None}}
    qrels["q"]["x"] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, {"q": {f"d{i}": 100.0 - i for i in range(len(ranked))}},
                           [name, resid, f"rbp.p={p}", f"rbp_resid.p={p}"], bounds=True)
    lo, hi = res.matrix_bounds(name)
    n = len(ranked)
    tail = p ** (k if k else n)
    assert hi[0, 0] - lo[0, 0] == pytest.approx(res.matrix(resid)[0, 0] - tail, abs=1e-12)
    lo, hi = res.matrix_bounds(f"rbp.p={p}")
    r = res.matrix(f"rbp_resid.p={p}")[0, 0]
    assert hi[0, 0] - lo[0, 0] == pytest.approx(max(r - p ** n, 0.0), abs=1e-12)


def test_too_many_labellings_left_undefined_with_a_warning(monkeypatch):
    monkeypatch.setattr(B, "MAX_CANDIDATES", 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate({"q": {"d0": 2, "x": 1}}, {"q": {"d0": 3.0, "d1": 2.0, "d2": 1.0}},
                           ["ndcg_rel", "nDCG", "AP"], bounds=True)
    lo, hi = res.matrix_bounds("ndcg_rel")
    assert np.isnan(lo[0, 0]) and np.isnan(hi[0, 0])
    assert any("ndcg_rel left undefined" in w for w in res.warnings)
    assert not np.isnan(res.matrix_bounds("nDCG")[1][0, 0])     # the dynamic programme
    assert not np.isnan(res.matrix_bounds("AP")[1][0, 0])       # prefixes: 2(u+1)


# --- several runs and topics ---------------------------------------------------------


@settings(max_examples=10)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=1, max_size=5),
                min_size=4, max_size=4))
def test_several_runs_and_topics_each_ranking_on_its_own(rankings_):
    """Two runs × two topics in one evaluation (completions batched across
    rankings) give each ranking the bounds it has alone."""
    qrels, runs = {}, {"r0": {}, "r1": {}}
    for n, ranked in enumerate(rankings_):
        t, run = f"t{n % 2}", f"r{n // 2}"
        qrels.setdefault(t, {"top": 2})
        runs[run][t] = {}
        for i, lab in enumerate(ranked):
            doc = f"{run}d{i}"
            runs[run][t][doc] = 100.0 - i
            if lab is not None:
                qrels[t][doc] = lab
    ms = ["AP", "nDCG@3", "P@2", "bpref", "ndcg_rel"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = api.evaluate(qrels, runs, ms, bounds=True)
    for n, ranked in enumerate(rankings_):
        t, run = f"t{n % 2}", f"r{n // 2}"
        other = f"r{1 - n // 2}"
        extra = [2] + [lab for i, lab in enumerate(rankings_[(1 - n // 2) * 2 + n % 2])
                       if lab is not None and f"{other}d{i}" in qrels[t]]
        alone, got, _ = _case(ranked, extra, measures=ms)
        r, c = res.runs.index(run), res.topics.index(t)
        for m in alone.scores.measures:
            if m.family == "runid":
                continue
            lo, hi = res.matrix_bounds(m.name)
            np.testing.assert_array_equal([lo[r, c], hi[r, c]],
                                          [got[m.name][0][0, 0], got[m.name][1][0, 0]])
