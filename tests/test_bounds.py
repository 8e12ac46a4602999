"""--bounds: each measure's lowest and highest value over the labellings of the
unjudged retrieved documents (ipsoeval.measures.bounds), checked against brute
force: every labelling written out as a qrels of its own and scored through
the ordinary reader path, one topic per labelling."""

from __future__ import annotations

import itertools

import numpy as np

from ipsoeval import api
from ipsoeval.measures.bounds import bounds

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
]


def _case(ranked, extra, *, gains=None, rel_level=1, measures=MEASURES):
    """(per-measure (low, high) from ipsoeval.measures.bounds, per-measure values
    over every labelling of the unjudged documents)."""
    run = {"q": {f"d{i}": float(100 - i) for i in range(len(ranked))}}
    qrels = {"q": {f"d{i}": lab for i, lab in enumerate(ranked) if lab is not None}}
    qrels["q"].update({f"x{i}": lab for i, lab in enumerate(extra)})
    kw = dict(gains=gains, rel_level=rel_level)
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
    brute = api.evaluate(bq, br, measures, **kw)
    return res, got, brute


NOT_BOUNDED = {"Judged", "Unjudged", "RBPresid", "rbp_resid", "NumRet", "NumQ"}


def check(ranked, extra, **kw):
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
        assert low[0, 0] == every.min(), (m.name, ranked, extra, low[0, 0], every.min())
        assert high[0, 0] == every.max(), (m.name, ranked, extra, high[0, 0], every.max())
