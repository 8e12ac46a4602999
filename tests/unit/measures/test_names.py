"""Measure names: trec_eval spellings mean what trec_eval means or are refused,
ir_measures spellings are accepted, other tools' names get a "did you mean"."""

import math

import pytest

from ipsoeval.errors import UsageError
from ipsoeval.measures import FAMILIES, expand_all, parse_measure
from tests.conftest import TE, invoke

QRELS, RUN = TE / "qrels.test", TE / "results.test"


def usage_error(m):
    code, out, err = invoke(["eval", "-m", m, QRELS, RUN])
    assert code == 2, (m, code, err)
    assert out == ""
    assert err.startswith("ipsoeval: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


# --- 1. parsing defects: each a usage error naming the parameter and the rule ------

@pytest.mark.parametrize("m, words", [
    ("P.1e400", ["'1e400'", "whole number"]),
    ("P.inf", ["'inf'", "whole number"]),
    ("P.1e2", ["'1e2'", "as 1"]),             # trec_eval's atol reads 1e2 as 1
    ("P_1.5", ["'1.5'", "whole number"]),
    ("P.0", ["'0'", "from 1"]),
    ("P.-5", ["'-5'", "whole number"]),
    ("P.5,5", ["duplicate", "5"]),
    ("P.5,,10", ["empty"]),
    ("P.", ["empty"]),
    ("P.99999999999999999999", ["2147483647"]),
    ("iprec_at_recall.1.5", ["[0, 1]"]),
    ("iprec_at_recall.abc", ["'abc'"]),
    ("iprec_at_recall.0x1p-3", ["'0x1p-3'"]),
    ("P(rel=1,rel=2)@5", ["'rel'", "twice"]),
    ("RBP(p=0.8,p=0.5)", ["'p'", "twice"]),
    ("P@0", ["cutoff", "from 1"]),
    ("P@1e20", ["cutoff", "whole number"]),
    ("P@10.0", ["cutoff", "whole number"]),
    ("P@99999999999", ["2147483647"]),
    ("nDCG@-1", ["cutoff", "whole number"]),
    ("IPrec@1.5", ["recall level", "[0, 1]"]),
    ("IPrec@nan", ["recall level"]),
    ("", ["empty"]),
    ("  ", ["empty"]),
    ("P(rel=x)@5", ["rel", "whole number", "'x'"]),
    ("P(rel=1.5)@5", ["rel", "whole number"]),
    ("P(rel=-1)@5", ["rel", "from 0"]),
    ("P(rel=True)@5", ["rel", "whole number"]),
    ("RBP(p=2)", ["p", "between 0 and 1"]),
    ("RBP(p='0.5')", ["p", "number"]),
    ("RBP(p=1e400)", ["p"]),
    ("P(foo=1)@5", ["'foo'", "allowed: rel"]),
    ("nDCG(dcg='exp')@10", ["dcg", "'log2' or 'exp-log2'"]),
    ("nDCG(dcg=exp-log2)@10", ["dcg", "quoted"]),
    ("AP(judged_only=1)", ["judged_only", "True or False"]),
    ("AP(judged_only=true)", ["judged_only", "True or False"]),
    ("nDCG(dcg='exp-log2)@10", ["quote"]),
    ("nDCG(gains=1)@10", ["--gains"]),
    ("P(rel)@5", ["name=value"]),
    ("P(rel=2,)@5", ["empty parameter"]),
    ("P(cutoff=5)@5", ["cutoff", "twice"]),
    ("NumQ@5", ["no cutoff"]),
    ("nDCG(b=2,dcg='exp-log2')@10", ["b=", "dcg="]),
    ("P@\u0661\u0660", ["cutoff"]),           # Arabic-Indic digits: not ASCII
    ("P.1_0", ["'1_0'"]),
    # trec_eval compiles ndcg_p but does not list it ("illegal measure"): an
    # unknown name, not an ndcg parameter list 'p'
    ("ndcg_p", ["unknown measure 'ndcg_p'", "did you mean 'ndcg'"]),
    ("ndcg.p", ["level=gain pairs", "'p'"]),
])
def test_bad_measure_is_a_usage_error(m, words):
    err = usage_error(m)
    for w in words:
        assert w in err, (m, w, err)


def test_trec_eval_truncated_decimal_cutoff_is_read_as_trec_eval_reads_it_with_a_warning():
    # trec_eval's own quicktest uses -m ndcg_cut.10,20,23.4: atol reads 23.4 as 23
    # and prints ndcg_cut_23; we do the same, and say so on stderr.
    code, out, err = invoke(["eval", "-m", "P.1.5", QRELS, RUN])
    assert code == 0, err
    assert out.startswith("P_1 ")
    assert "warning" in err and "'1.5'" in err and "P_1" in err and "P.1" in err
    code, out, err = invoke(["eval", "-m", "ndcg_cut.10,20,23.4", QRELS, RUN])
    assert code == 0 and "ndcg_cut_23 " in out and "'23.4'" in err


def test_trec_eval_truncation_colliding_with_another_cutoff_is_refused():
    # trec_eval: "duplicate cutoffs detected"
    assert "duplicate" in usage_error("P.5,5.5")


def test_trec_eval_plain_cutoffs_unchanged():
    reqs = expand_all(["P.5,10", "iprec_at_recall..1,.25", "ndcg_cut_10", "P_10",
                       "iprec_at_recall_0.10", "recall.100"])
    assert [r.label for r in reqs] == [
        "iprec_at_recall_0.10", "iprec_at_recall_0.25", "P_5", "P_10", "recall_100",
        "ndcg_cut_10"]


def test_parse_measure_raises_usage_error_not_internal():
    for bad in ["P.1e400", "P@1e20", "RBP(p=0.8,p=0.5)", "AP(judged_only=yes)"]:
        with pytest.raises(UsageError):
            parse_measure(bad)


# --- 2. ir_measures spellings ------------------------------------------------------

@pytest.mark.parametrize("spelling, name", [
    ("R@100", "R@100"),
    ("RR(rel=2)@10", "RR(rel=2)@10"),
    ("Judged@10", "Judged@10"),
    ("nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')@10"),
    ('nDCG(dcg="exp-log2")@10', "nDCG(dcg='exp-log2')@10"),
    ("nDCG(dcg='log2')@10", "nDCG@10"),
    ("AP(judged_only=True)", "AP(judged_only=True)"),
    ("AP(judged_only=False)", "AP"),
    ("nDCG(judged_only=True)@10", "nDCG(judged_only=True)@10"),
    ("P(judged_only=True, rel=2)@5", "P(judged_only=True,rel=2)@5"),
    ("NumQ", "NumQ"), ("NumRet", "NumRet"), ("NumRel", "NumRel"),
    ("NumRelRet", "NumRelRet"), ("NumRet(rel=2)", "NumRelRet(rel=2)"),
    ("Rprec", "Rprec"), ("Bpref", "bpref"),
    ("Success@5", "Success@5"), ("P(rel=2)@5", "P(rel=2)@5"), ("IPrec@0.1", "IPrec@0.1"),
    ("IPrec(recall=0.1)", "IPrec@0.1"), ("AP(cutoff=100)", "AP@100"),
    ("P(rel = 2) @ 5", "P(rel=2)@5"),
    ("RBP(p=0.5)@10", "RBP(p=0.5)@10"),
])
def test_ir_measures_spellings(spelling, name):
    assert parse_measure(spelling).name == name
    assert parse_measure(parse_measure(spelling).name).name == name   # round trip


@pytest.mark.parametrize("spelling, family", [("SetP", "SetP"), ("infAP", "infAP"),
                                              ("ERR@20", "ERR")])
def test_ir_measures_spellings_of_trec_measures_branch(spelling, family):
    assert parse_measure(spelling).family == family


@pytest.mark.parametrize("m, hint", [("err@20", "'ERR@20'"), ("ERR_20", "'ERR@20'"),
                                     ("setP", "'SetP'"), ("InfAP", "'infAP'")])
def test_did_you_mean_trec_measures_branch(m, hint):
    assert f"(did you mean {hint}" in usage_error(m)


# a small brute-force reference ---------------------------------------------------

def _read(path, n):
    rows = [line.split() for line in open(path) if line.strip()]
    return [r for r in rows if len(r) >= n]


def _rankings():
    qrels = {}
    for q, _, d, lab in _read(QRELS, 4):
        qrels.setdefault(q, {})[d] = int(lab)
    runs = {}
    for q, _, d, _, s, _ in _read(RUN, 6):
        runs.setdefault(q, []).append((float(s), d))
    ranked = {q: [d for _, d in sorted(sorted(v, key=lambda x: x[1].encode(), reverse=True),
                                       key=lambda x: -x[0])]
              for q, v in runs.items()}
    return qrels, ranked


def _bf_ap(rel, ranking, R):
    hits, s = 0, 0.0
    for i, d in enumerate(ranking, 1):
        if rel.get(d, -1) >= 1:
            hits += 1
            s += hits / i
    return s / R if R else 0.0


def _bf_ndcg_exp(qrel, ranking, k):
    g = [2.0 ** qrel.get(d, 0) - 1 if qrel.get(d, 0) > 0 else 0.0 for d in ranking][:k]
    dcg = sum(x / math.log2(i + 2) for i, x in enumerate(g))
    ideal = sorted([2.0 ** v - 1 for v in qrel.values() if v > 0], reverse=True)[:k]
    idcg = sum(x / math.log2(i + 2) for i, x in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def _tsv(m):
    code, out, err = invoke(["eval", "-q", "--format", "tsv", "-m", m, QRELS, RUN])
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    return {r[1]: float(r[3]) for r in rows}


def test_ap_judged_only_matches_brute_force_and_trec_eval_J():
    qrels, ranked = _rankings()
    got = _tsv("AP(judged_only=True)")
    for q, ranking in ranked.items():
        judged = [d for d in ranking if qrels[q].get(d, -1) >= 0]
        R = sum(1 for v in qrels[q].values() if v >= 1)
        assert got[q] == pytest.approx(_bf_ap(qrels[q], judged, R), abs=1e-12)
    # trec_eval -J -m map on the same files (golden lines computed by trec_eval 10.0)
    code, out, _ = invoke(["eval", "-J", "-m", "map", QRELS, RUN])
    te = float(out.split()[-1])
    code, out, _ = invoke(["eval", "-m", "AP(judged_only=True)", QRELS, RUN])
    assert float(out.split()[-1]) == te
    assert te == pytest.approx(TE_J_MAP, abs=5e-5)


TE_J_MAP = 0.1848   # /tmp/te10/trec_eval -J -m map qrels.test results.test


def test_ndcg_judged_only_matches_trec_eval_J():
    for a, b in [("nDCG(judged_only=True)@10", "ndcg_cut.10"),
                 ("P(judged_only=True)@5", "P.5")]:
        _, x, _ = invoke(["eval", "-q", "--format", "tsv", "-m", a, QRELS, RUN])
        _, y, _ = invoke(["eval", "-q", "-J", "--format", "tsv", "-m", b, QRELS, RUN])
        assert [r.split("\t")[3] for r in x.splitlines()[1:]] == \
            [r.split("\t")[3] for r in y.splitlines()[1:]]


JUDGED_ONLY = {"ndcg_cut_10": "nDCG(judged_only=True)@10", "map": "AP(judged_only=True)",
               "P_5": "P(judged_only=True)@5", "recip_rank": "RR(judged_only=True)",
               "Rprec": "Rprec(judged_only=True)", "success_5": "Success(judged_only=True)@5",
               "recall_10": "R(judged_only=True)@10",
               "iprec_at_recall_0.20": "IPrec(judged_only=True)@0.2",
               "map_cut_20": "AP(judged_only=True)@20", "ndcg": "nDCG(judged_only=True)"}


def test_judged_only_variants_equal_trec_eval_J_golden():
    """judged_only=True is trec_eval -J for that measure: every line of trec_eval
    10.0's output (tests/data/measure_names/README.md) is reproduced."""
    from tests.conftest import ROOT
    want = {}
    for line in (ROOT / "tests/data/measure_names/out.J.test").read_text().splitlines():
        name, qid, value = line.split("\t")
        want[(JUDGED_ONLY[name.strip()], qid)] = value
    args = ["eval", "-q", "--format", "trec"]
    for m in JUDGED_ONLY.values():
        args += ["-m", m]
    code, out, err = invoke([*args, QRELS, RUN])
    assert code == 0, err
    got = {}
    for line in out.splitlines():
        name, qid, value = line.split("\t")
        if name.strip() != "runid":
            got[(name.strip(), qid)] = value
    assert got == want


def test_ndcg_exp_log2_matches_brute_force():
    qrels, ranked = _rankings()
    for k in (5, 10, 1000):
        got = _tsv(f"nDCG(dcg='exp-log2')@{k}")
        for q, ranking in ranked.items():
            assert got[q] == pytest.approx(_bf_ndcg_exp(qrels[q], ranking, k), abs=1e-12)


def test_judged_at_k_matches_ir_measures_definition():
    # judged documents in the top k, divided by min(k, documents retrieved)
    qrels, ranked = _rankings()
    for k in (1, 10, 5000):
        got = _tsv(f"Judged@{k}")
        for q, ranking in ranked.items():
            top = ranking[:k]
            want = sum(1 for d in top if qrels[q].get(d, -1) >= 0) / len(top)
            assert got[q] == pytest.approx(want, abs=1e-15)


def test_judged_empty_ranking_is_zero(tmp_path):
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n2 0 b 1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 1.0 x\n")
    code, out, err = invoke(["eval", "-c", "-q", "--format", "tsv", "-m", "Judged@10", q, r])
    assert code == 0, err
    assert [line.split("\t")[3] for line in out.splitlines()[1:]] == ["1.0", "0.0", "0.5"]


def test_judged_family_listed():
    assert "Judged" in FAMILIES
    code, out, _ = invoke(["measures", "--format", "tsv"])
    assert "\nJudged\tJudged@10\t" in out


# --- 3. did you mean ---------------------------------------------------------------

@pytest.mark.parametrize("m, hint", [
    ("MRR@10", "(did you mean 'RR@10'?)"),
    ("mrr@10", "(did you mean 'RR@10'?)"),
    ("Recall@100", "(did you mean 'R@100' or 'recall.100'?)"),
    ("recall@100", "(did you mean 'R@100' or 'recall.100'?)"),
    ("ndcg@10", "(did you mean 'nDCG@10' or 'ndcg_cut.10'?)"),
    ("NDCG@10", "(did you mean 'nDCG@10' or 'ndcg_cut.10'?)"),
    ("MAP", "(did you mean 'AP' or 'map'?)"),
    ("mAP", "(did you mean 'AP' or 'map'?)"),
    ("map@100", "(did you mean 'AP@100' or 'map_cut.100'?)"),
    ("precision@10", "(did you mean 'P@10' or 'P.10'?)"),
    ("p@10", "(did you mean 'P@10' or 'P.10'?)"),
    ("hits@10", "(did you mean 'Success@10' or 'success.10'?)"),
    ("HR@10", "(did you mean 'Success@10' or 'success.10'?)"),
    ("success@10", "(did you mean 'Success@10' or 'success.10'?)"),
    ("r@100", "(did you mean 'R@100' or 'recall.100'?)"),
    ("judged@10", "(did you mean 'Judged@10'?)"),
    ("BPref", "(did you mean 'bpref'?)"),
    ("RPrec", "(did you mean 'Rprec'?)"),
    ("MRR.10", "(did you mean 'RR@10'?)"),
    ("NDCG_10", "(did you mean 'nDCG@10' or 'ndcg_cut.10'?)"),
    ("Recall(rel=2)@100", "(did you mean 'R(rel=2)@100'?)"),
    ("NDGC@10", "(did you mean 'nDCG@10'"),
])
def test_did_you_mean(m, hint):
    err = usage_error(m)
    assert f"unknown measure '{m}' {hint}" in err, err


def test_did_you_mean_exact_line():
    code, _, err = invoke(["eval", "-m", "MRR@10", QRELS, RUN])
    assert err == "ipsoeval: error: unknown measure 'MRR@10' (did you mean 'RR@10'?)\n"


def test_a_measure_we_lack_gets_no_look_alike():
    err = usage_error("err@20")          # not 'RR@10': ERR is not RR
    assert "RR@10" not in err


def test_comma_list_of_canonical_names_says_one_per_option():
    err = usage_error("P@5,nDCG@10")
    assert "(one measure per -m: -m 'P@5' -m 'nDCG@10')" in err


def test_intent_aware_measures_are_ours_now():
    # ir_measures' spellings are ours; ndeval's printed names suggest them
    assert parse_measure("ERR_IA@20").name == "ERR_IA@20"
    assert parse_measure("alpha_nDCG(alpha=0.3)@10").get("alpha") == 0.3
    err = usage_error("alpha-nDCG@20")
    assert "alpha_nDCG@20" in err


def test_case_rule_trec_eval_spellings_keep_their_case():
    # lower-case names that are trec_eval's own spellings are trec_eval's measures
    assert [r.label for r in expand_all(["ndcg", "map", "bpref", "Rprec", "recall.10"])] == \
        ["map", "Rprec", "bpref", "recall_10", "ndcg"]


def test_every_suggestion_is_accepted():
    from ipsoeval.measures import names
    for bad in ["MRR@10", "Recall@100", "ndcg@10", "MAP", "map@100", "precision@10",
                "hits@10", "NDCG_10", "judged@10", "BPref"]:
        for s in names.suggestions(bad):
            expand_all([s])


# --- 4. the man page states the rules ------------------------------------------------

def test_man_page_names_section():
    from tests.conftest import ROOT
    text = (ROOT / "man" / "ipsoeval.1").read_text().replace("\\-", "-")
    assert ".SH MEASURE NAMES" in text
    for w in ["ir_measures", "trec_eval", "did you mean", "judged_only", "exp-log2",
              "Judged@10", "case", "23.4", "True"]:
        assert w in text, w


@pytest.mark.parametrize("m", ["Judged@10", "nDCG(dcg='exp-log2')@10",
                               "AP(judged_only=True)@10", "P(judged_only=True)@5"])
def test_interval_map_refuses_the_ir_measures_variants_it_cannot_map(m):
    # its enumeration knows relevance vectors with linear gains over the whole
    # ranking: a value of another measure must not be mapped silently
    code, out, err = invoke(["interval-map", "-m", m, QRELS, RUN])
    assert code == 2 and out == "" and "no interval map" in err, err
