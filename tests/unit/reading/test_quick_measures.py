"""The quick path's measure names (ipsoeval/reading/quick_measures.py, no numpy)
against the full parser (ipsoeval/measures/names.py): every name it accepts
means what the full parser says, in the same order and under the same label;
both read the registry, and the compiled core (the provider) says which
measures the quick path serves."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval.errors import UsageError
from ipsoeval.measures import names as N
from ipsoeval.measures.registry import FAMILIES
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
            "NumRelRet(rel=2)", "NumQ", "NumRet(rel=2)"} <= set(served)   # (ir_measures'
    # NumRet(rel=L) is NumRelRet(rel=L): the registry's respelling, applied here too)
    assert not {"official", "ndcg.1=3", "P.5.5", "nDCG(dcg='exp-log2')@10",
                "ERR(gmax=5)@20", "P(judged_only=True)@5"} & set(served)


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


def _spellings(fam):
    """Every spelling of one measure the registry gives the family: its
    canonical and ir_measures names (with cutoffs and levels where it takes
    them) and trec_eval's names."""
    names = [fam.name, *fam.ir_measures]
    cuts = {"none": [""], "optional": ["", "@1", "@10", "@1000"],
            "required": ["@1", "@10", "@1000"]}[fam.cutoff]
    out = [n + c for n in names for c in cuts]
    if "rel" in fam.param_names:
        out += [f"{n}(rel={r}){c}" for n in names for c in cuts for r in (0, 2)]
    if fam.trec_plain:
        out.append(fam.trec_plain.name)
    if fam.trec:
        t = fam.trec.name
        out += [t, f"{t}.5,10", f"{t}_20"]
    return out


@pytest.mark.parametrize("fam", list(FAMILIES.values()), ids=lambda f: f.name)
def test_every_family_of_the_registry(fam):
    """Each spelling of each registered family: read as the full parser reads
    it, served exactly where the compiled core serves the measures it names
    (the provider), and else left to the full program."""
    from ipsoeval.reading.provider import supports
    for text in _spellings(fam):
        q = QM.requested([text])
        f = full([text])
        if f is None or f[1]:
            assert q is None, text
            continue
        if q is None:
            reqs = N.expand_all([text])
            floating = fam.float_cutoff and any(r.measure.cutoff is not None for r in reqs)
            assert floating or any(supports(r.measure) for r in reqs), text
            continue
        assert check([text]), text
        assert all(supports(r) is None for r in q)
    if fam.core:
        assert any(QM.requested([t]) for t in _spellings(fam)), fam.name


def test_quick_names_read_no_numpy_and_no_re():
    import subprocess
    import sys
    code = ("import sys; from ipsoeval.reading.quick_measures import requested; "
            "assert requested(['P.5,10', 'nDCG@10', 'NumRet(rel=2)', 'Bpref']); "
            "sys.stdout.write(repr(('numpy' in sys.modules, 're' in sys.modules)))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout == "(False, False)"
