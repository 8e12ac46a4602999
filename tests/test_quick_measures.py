"""The quick path's measure names (ipsoeval/reading/quick_measures.py, no numpy)
against the full parser (ipsoeval/measures/names.py): every name it accepts
means what the full parser says, in the same order and under the same label,
and its tables restate the registry."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval.errors import UsageError
from ipsoeval.measures import names as N
from ipsoeval.measures import registry
from ipsoeval.measures import ties as TI
from ipsoeval.measures.family import FAMILIES
from ipsoeval.reading import quick_measures as QM

SPELLINGS = [
    # trec_eval's
    "P", "P.5", "P.5,10", "P.10,5", "P.5,5", "P.", "P.5,", "P.0", "P.5.5", "P.05", "P_10",
    "P_010", "P.10", "recall", "recall.100", "recall_5", "map", "map_cut", "map_cut.10",
    "map_cut_10", "ndcg", "ndcg_cut", "ndcg_cut.10,20", "ndcg_cut_5", "recip_rank",
    "success", "success.1,5", "success_10", "bpref", "Rprec", "num_q", "num_ret", "num_rel",
    "num_rel_ret", "runid", "official", "gm_map", "ndcg.1=3", "iprec_at_recall",
    "P_10.5", "map_5", "num_rel_5", "P.2147483648", "P.2147483647",
    # canonical and ir_measures'
    "P@5", "P@10", "P@05", "P@0", "P", "P(rel=2)@5", "P(rel=0)@5", "P(rel=02)@5",
    "P(rel=1)@5", "P(judged_only=True)@5", "AP", "AP@10", "AP(rel=2)", "nDCG", "nDCG@10",
    "nDCG(rel=2)@10", "nDCG(dcg='exp-log2')@10", "RR", "RR@10", "RR(rel=3)@10", "R",
    "R@100", "R(rel=2)@1000", "Success@10", "Success", "Success(rel=2)@1", "Judged@10",
    "Judged", "Judged(rel=2)@10", "ERR", "ERR@20", "ERR(gmax=5)@20", "bpref", "Bpref",
    "bpref@10", "Bpref(rel=2)", "Rprec", "Rprec(rel=2)", "NumRet", "NumRet(rel=2)",
    "NumRel", "NumRel(rel=3)", "NumRelRet", "NumRelRet(rel=2)", "NumQ", "NumQ@5", "runid",
    "nDCG@ 10", " nDCG@10", "ndcg@10", "MRR@10", "AP(cutoff=10)", "P@2147483647",
    "P@2147483648", "RBP(p=0.8)@10", "P(rel=2147483647)@5", "P(rel=2147483648)@5",
]


def full(args):
    """The full parser's reading: [(label, name, family, cutoff, rel)] and its
    notes, or None (a usage error)."""
    try:
        reqs = N.expand_all(list(args))
    except UsageError:
        return None
    return ([(r.label, r.measure.name, r.measure.family, r.measure.cutoff,
              r.measure.param("rel")) for r in reqs], N.notes(list(args)))


def quick(args):
    reqs = QM.requested(list(args))
    if reqs is None:
        return None
    return [(r.label, r.name, *r.key) for r in reqs]


def check(args):
    q = quick(args)
    if q is None:
        return False
    f = full(args)
    assert f is not None, args
    assert f[1] == [], args            # the full parser would warn: the quick path declines
    assert q == f[0], args
    return True


@pytest.mark.parametrize("name", SPELLINGS)
def test_each_spelling(name):
    check([name])


def test_the_spellings_served():
    served = [s for s in SPELLINGS if check([s])]
    assert {"P", "P.5,10", "P_10", "map", "map_cut.10", "ndcg_cut", "recip_rank",
            "success.1,5", "num_rel_ret", "runid", "nDCG@10", "AP", "P@5", "RR@10",
            "R@100", "Success@10", "Judged@10", "ERR@20", "P(rel=2)@5", "Bpref",
            "NumRelRet(rel=2)", "NumQ"} <= set(served)
    assert not {"official", "ndcg.1=3", "P.5.5", "nDCG(dcg='exp-log2')@10",
                "ERR(gmax=5)@20", "NumRet(rel=2)", "P(judged_only=True)@5"} & set(served)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(SPELLINGS), min_size=1, max_size=6))
def test_combinations(args):
    """Orders (trec_eval's when every name is its), duplicates, trec_eval's
    'first parameters win' (declined: the full program warns)."""
    check(args)


def test_orders_and_duplicates():
    assert check(["ndcg_cut.10", "map", "P.5", "runid"])
    assert [r.label for r in QM.requested(["ndcg_cut.10", "map", "P.5", "runid"])] == \
        ["runid", "map", "P_5", "ndcg_cut_10"]
    assert check(["P", "P.5"]) and [r.label for r in QM.requested(["P", "P.5"])] == ["P_5"]
    assert check(["AP", "map", "AP", "nDCG@10"])
    assert QM.requested(["P.5", "P.10"]) is None          # a warning in the full program
    assert check(["P.5", "P.5"])


def test_tables_restate_the_registry():
    ix = registry.index()
    for fam, (code, rule, takes_rel, kind, moved) in QM.FAMILIES.items():
        f = FAMILIES[fam]
        assert f.cutoff == rule and f.cutoff_kind == "rank", fam
        # NumRet(rel=L) is ir_measures' NumRelRet (a respelling): declined
        assert ("rel" in f.param_names) == (takes_rel or fam == "NumRet"), fam
        assert {"float": "mean", "int": "sum", "count": "count", "text": "text"}[kind] == f.agg
        assert (f.ties is not TI.invariant) == moved, fam
        assert f.per_query == (kind not in ("count", "text")), fam
    for name, fam in QM.CANONICAL.items():
        assert ix["ir_measures"][name] == fam
    for name, (fam, order) in QM.PLAIN.items():
        assert ix["plain"][name].name == fam and ix["plain"][name].trec_plain.order == order
    for name, (fam, order, cuts) in QM.CUT.items():
        f = ix["cut"][name]
        assert f.name == fam and f.trec.order == order and tuple(f.trec.cutoffs) == cuts
    # the core's codes: one per family, the G_* enum of _core.c
    import re
    from pathlib import Path
    src = (Path(QM.__file__).parents[1] / "_core.c").read_text()
    enum = re.search(r"enum \{ G_P = 1,([^}]*)\}", src).group(1)
    codes = ["G_P"] + [x.strip() for x in enum.replace("\n", " ").split(",") if x.strip()]
    want = {"P": "G_P", "R": "G_R", "AP": "G_AP", "nDCG": "G_NDCG", "RR": "G_RR",
            "Success": "G_SUCCESS", "Judged": "G_JUDGED", "bpref": "G_BPREF",
            "Rprec": "G_RPREC", "ERR": "G_ERR", "NumRet": "G_NUMRET", "NumRel": "G_NUMREL",
            "NumRelRet": "G_NUMRELRET", "NumQ": "G_NUMQ"}
    for fam, g in want.items():
        assert QM.FAMILIES[fam][0] == codes.index(g) + 1, fam
    # ERR's default gmax, which the core assumes
    assert dict((p.name, p.default) for p in FAMILIES["ERR"].params)["gmax"] == 4
