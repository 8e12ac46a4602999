"""``ipsoeval repro`` against repro_eval 0.5.0 (Breuer et al., SIGIR 2020), the
field's own implementation, on generated experiments: 10-100 topics, graded
labels, runs with ties, reproductions perturbed from the originals.

repro_eval's ``RpdEvaluator.evaluate()`` fails on such runs (KeyError
'query_id' from its pandas grouping), so its measure functions are called
directly on nested dicts: KTU and RBO on the runs as read (each topic's
documents in score order, ties in a random order: repro_eval breaks them),
ER, Delta RI, RMSE, nRMSE and the t tests on ipsoeval's per-topic scores
(the ``scores`` table), so that what is compared is repro_eval's arithmetic
on the same inputs.  Every value -- per topic and mean -- must agree to 1e-12.
"""

from __future__ import annotations

import copy
import math
import random
import warnings
from collections import OrderedDict

import pytest

from tests.differential import repro_cases

pytest.importorskip("repro_eval")

from repro_eval.measure import document_order, effectiveness, overall_effects, statistics  # noqa: E402

TOL = 1e-12


def _close(a, b) -> bool:
    if a is None:
        a = math.nan
    if b is None:
        b = math.nan
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= TOL * max(1.0, abs(b))


def _nested(run) -> dict:
    return {q: OrderedDict(rows) for q, rows in run.items()}


def _scores(report, col) -> dict:
    out: dict = {}
    for r in report.table("scores").records:
        if r[col] is not None:
            out.setdefault(r["qid"], {})[r["measure"]] = r[col]
    return out


def _one(d: dict, m: str) -> dict:
    return {q: {m: v[m]} for q, v in d.items()}


def check_case(seed: int, tmp_path, counts: dict) -> None:
    import ipsoeval

    rng = random.Random(seed)
    replicated = seed % 4 == 3
    c = repro_cases.case(rng, replicated=replicated)
    p = repro_cases.write(c, str(tmp_path / f"c{seed}"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = ipsoeval.repro(p["qrels"], *p["runs"], rep_qrels=p["rep_qrels"],
                             measures=["P@10", "nDCG@10", "AP", "RR", "nDCG"], samples=50)
    ob, oa, rb, ra = (_scores(rep, k) for k in ("orig_baseline", "orig_advanced",
                                               "rep_baseline", "rep_advanced"))
    rows = {r["measure"]: r for r in rep.table("repro").records}
    tests = {(r["measure"], r["run"]): r for r in rep.table("tests").records}
    for m, row in rows.items():
        kw = dict(orig_score_a=_one(oa, m), orig_score_b=_one(ob, m),
                  rep_score_a=_one(ra, m), rep_score_b=_one(rb, m))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            er = overall_effects.ER(**copy.deepcopy(kw))[m]
            dri = overall_effects.DRI(**copy.deepcopy(kw))[m]
        assert _close(row["er"], er), (seed, m, row["er"], er)
        assert _close(row["dri"], dri), (seed, m, row["dri"], dri)
        counts["values"] += 2
        for role, o, r in (("baseline", ob, rb), ("advanced", oa, ra)):
            t = tests[(m, role)]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pv = statistics.ttest(_one(o, m), _one(r, m), rpd=not replicated)[m]
            assert _close(t["p_value"], pv), (seed, m, role, t["p_value"], pv)
            counts["values"] += 1
            if not replicated:
                assert _close(t["rmse"], effectiveness.RMSE(_one(o, m), _one(r, m))[m])
                assert _close(t["nrmse"], effectiveness.nRMSE(_one(o, m), _one(r, m))[m])
                counts["values"] += 2
    if replicated:
        counts["cases"] += 1
        return
    per_topic = {}
    for r in rep.table("order_topics").records:
        per_topic[(r["run"], r["qid"])] = r
    means = {r["run"]: r for r in rep.table("order").records}
    for role, (o, r) in (("baseline", (0, 2)), ("advanced", (1, 3))):
        orig, repd = _nested(c["runs"][o]), _nested(c["runs"][r])
        even = [q for q in orig if len(orig[q]) == len(repd[q])]
        rbo = document_order.RBO(copy.deepcopy(orig), copy.deepcopy(repd), p=0.95, depth=1000,
                                 pbar=False, per_topic=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ktu = document_order.KTU({q: orig[q] for q in even}, {q: repd[q] for q in even},
                                     per_topic=True) if even else {}
        for q in orig:
            got = per_topic[(role, q)]
            assert _close(got["rbo"], rbo[q]), (seed, role, q, got["rbo"], rbo[q])
            counts["topics"] += 1
            if q in ktu:
                assert _close(got["ktu"], ktu[q]), (seed, role, q, got["ktu"], ktu[q])
                counts["topics"] += 1
        assert _close(means[role]["rbo"], sum(rbo.values()) / len(rbo))
        if len(even) == len(orig) and not any(math.isnan(v) for v in ktu.values()):
            mean_ktu = document_order.KTU(copy.deepcopy(orig), copy.deepcopy(repd))
            assert _close(means[role]["ktu"], mean_ktu), (seed, role)
            counts["values"] += 1
        counts["values"] += 1
    counts["cases"] += 1


def _run(n: int, tmp_path):
    counts = {"cases": 0, "values": 0, "topics": 0}
    for seed in range(n):
        check_case(seed, tmp_path, counts)
    assert counts["cases"] == n
    return counts


def test_repro_equals_repro_eval_20_cases(tmp_path):
    _run(20, tmp_path)


@pytest.mark.slow
def test_repro_equals_repro_eval_200_cases(tmp_path):
    counts = _run(200, tmp_path)
    print(counts)


def test_a_run_file_not_in_score_order_is_the_case_repro_eval_gets_wrong(tmp_path):
    """The man page's case: repro_eval's break_ties sorts only neighbouring
    lines of equal score, so a file not in score order keeps its file order
    in repro_eval's KTU and RBO.  ipsoeval ranks by score (trec_eval's
    order); on the score-sorted dicts the two agree."""
    import ipsoeval

    orig = [("d1", 1.0), ("d2", 5.0), ("d3", 3.0), ("d4", 4.0), ("d5", 2.0)]
    rep = [("d1", 5.0), ("d2", 4.0), ("d3", 3.0), ("d4", 2.0), ("d5", 1.0)]
    q = tmp_path / "q.txt"
    q.write_text("1 0 d2 1\n1 0 d4 1\n")
    paths = []
    for k, rows in enumerate((orig, orig, rep, rep)):
        p = tmp_path / f"r{k}.run"
        p.write_text("".join(f"1 Q0 {d} {i + 1} {s} r{k}\n" for i, (d, s) in enumerate(rows)))
        paths.append(p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ipsoeval.repro(q, *paths, measures="AP", samples=20).table("order_topics")
    ktu = got.records[0]["ktu"]
    by_score = {"1": OrderedDict(sorted(orig, key=lambda r: -r[1]))}
    file_order = {"1": OrderedDict(orig)}
    rep_d = {"1": OrderedDict(rep)}
    sorted_ktu = document_order.KTU(copy.deepcopy(by_score), copy.deepcopy(rep_d),
                                    per_topic=True)["1"]
    file_ktu = document_order.KTU(copy.deepcopy(file_order), copy.deepcopy(rep_d),
                                  per_topic=True)["1"]
    assert _close(ktu, sorted_ktu)
    assert file_ktu == 1.0 and ktu != file_ktu
