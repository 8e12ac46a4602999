"""Generate the Compat / Accuracy differential cases and ir_measures' values.

    python tests/differential/compat_generate.py    # writes tests/data/compat/

Each seeded case is a qrels and a run (TREC layouts) with odd docnos, graded
labels, unjudged retrieved documents, relevant documents never retrieved,
tied scores, topics without relevant documents and qrels topics missing
from the run.  The oracle is ir_measures' compat and accuracy providers
(test-only); golden.json holds their per-topic values.

Two choices make the oracle's input unambiguous (tests/differential/test_compat.py
says why): scores are positive, and each topic's qrels lines are in docno
order (the provider breaks ties of its ideal ranking by qrels order and of
the run by docno; ipsoeval runs with --tie-break docno-asc).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "compat"
N_CASES = 220
MEASURES = ["Compat", "Compat(p=0.8)", "Compat(p=0.5,normalize=False)", "Accuracy",
            "Accuracy@5", "Accuracy(rel=2)@10"]
ODD = ["D", "doc-", "x.y/", "Ü", "a_b", "0", "__", "Z:"]


def case(seed: int) -> dict:
    rng = random.Random(seed)
    n_topics = rng.randint(1, 4)
    qrels, run = [], []
    for t in range(n_topics):
        qid = f"q{seed}_{t}" if rng.random() < 0.8 else str(100 + t)
        pool = [f"{rng.choice(ODD)}{rng.randint(0, 40)}" for _ in range(rng.randint(1, 25))]
        pool = sorted(set(pool))
        no_rel = rng.random() < 0.15
        labels = {d: (0 if no_rel else rng.choice([0, 0, 0, 1, 1, 2, 3])) for d in pool}
        judged = [d for d in pool if rng.random() < 0.8] or pool[:1]
        for d in sorted(judged):
            qrels.append(f"{qid} 0 {d} {labels[d]}")
        if rng.random() < 0.1 and t > 0:
            continue                                       # a qrels topic missing from the run
        docs = [d for d in pool if rng.random() < 0.7]
        docs += [f"unj{rng.randint(0, 99)}" for _ in range(rng.randint(0, 8))]
        docs = list(dict.fromkeys(docs)) or [pool[0]]
        rng.shuffle(docs)
        coarse = rng.random() < 0.5                        # many ties
        for rank, d in enumerate(docs):
            s = rng.randint(1, 4) if coarse else round(rng.uniform(0.01, 50), 3)
            run.append(f"{qid} Q0 {d} {rank + 1} {s} r{seed}")
    return {"qrels": "\n".join(qrels) + "\n", "run": "\n".join(run) + "\n"}


def oracle(c: dict) -> dict:
    """Per measure, {qid: value} of the topics the provider reports; a topic
    where it raises ZeroDivisionError (Accuracy with no non-relevant document in
    the top k) has the string "ZeroDivisionError"."""
    import ir_measures
    qrels = list(ir_measures.read_trec_qrels(c["qrels"]))
    run = list(ir_measures.read_trec_run(c["run"]))
    out: dict = {}
    for name in MEASURES:
        m = ir_measures.parse_measure(name)
        vals: dict = {}
        for qid in sorted({r.query_id for r in run}):
            try:
                for r in m.iter_calc(qrels, [d for d in run if d.query_id == qid]):
                    if r.query_id == qid:
                        vals[qid] = r.value
            except ZeroDivisionError:
                vals[qid] = "ZeroDivisionError"
        out[name] = vals
    return out


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    cases = [case(s) for s in range(N_CASES)]
    gold = [oracle(c) for c in cases]
    (OUT / "cases.json").write_text(json.dumps(cases, indent=0) + "\n")
    (OUT / "golden.json").write_text(json.dumps(gold, indent=0, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
