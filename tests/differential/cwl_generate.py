"""Generate the C/W/L differential cases' golden values from cwl_eval.

    python tests/differential/cwl_generate.py    # writes tests/data/cwl/golden.json

The cases are the Compat / Accuracy ones (tests/data/compat/cases.json: odd
docnos, graded labels 0-3, unjudged documents, ties, topics without relevant
documents, qrels topics missing from the run).  The oracle is cwl_eval (the
cwl-eval package, test-only) through ir_measures' cwl_eval provider for the
values, and cwl_eval's metrics with residuals on (cwl_eval -r) on the same
rankings for the residuals.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
MEASURES = ["INST(max_rel=3)", "INST(T=2,max_rel=3)", "INSQ(max_rel=3)",
            "INSQ(T=3,max_rel=2)", "BPM(max_rel=3)@10", "BPM(T=2,max_rel=3)@5",
            "SDCG(max_rel=3)@10", "SDCG(min_rel=1,max_rel=3)@5", "NERR8(max_rel=3)@10",
            "NERR9(max_rel=3)@10", "NERR10(max_rel=3)", "NERR10(p=0.5,max_rel=3)",
            "NERR11(max_rel=3)", "NERR11(T=2,max_rel=3)"]


def oracle(c: dict) -> dict:
    import ir_measures
    from cwl.cwl_eval import RankingMaker
    from ir_measures.providers.cwl_eval import CwlEvaluator
    qrels = list(ir_measures.read_trec_qrels(c["qrels"]))
    run = list(ir_measures.read_trec_run(c["run"]))
    out: dict = {}
    for name in MEASURES:
        m = ir_measures.parse_measure(name)
        vals = {r.query_id: r.value for r in ir_measures.cwl_eval.iter_calc([m], qrels, run)}
        # the residual: the provider's qrels handler and rankings, cwl_eval -r
        key = (None, m["min_rel"], m["max_rel"])
        ev = CwlEvaluator([m], qrels, {key: [m]}, verify_gains=False)
        resid = {}
        by_qid: dict = {}
        for item in ir_measures.util.RunConverter(run).as_sorted_namedtuple_iter():
            by_qid.setdefault(item.query_id, []).append(item.doc_id)
        for qid, docs in by_qid.items():
            if qid not in ev.qrel_qids:
                continue
            maker = RankingMaker(qid, ev.qrhs[key], min_gain=0., max_gain=1., cost_dict=None,
                                 max_cost=1.0, min_cost=1.0, max_n=1000)
            for d in docs:
                maker.add(d, "_")
            metric = ev._irm_convert_to_measure(m)
            metric.residuals = True
            metric.measure(maker.get_ranking())
            resid[qid] = metric.residual_expected_utility
        out[name] = {"value": vals, "resid": resid}
    return out


def main() -> int:
    logging.disable(logging.WARNING)
    cases = json.loads((DATA / "compat" / "cases.json").read_text())
    gold = [oracle(c) for c in cases]
    (DATA / "cwl").mkdir(exist_ok=True)
    (DATA / "cwl" / "golden.json").write_text(json.dumps(gold, indent=0, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
