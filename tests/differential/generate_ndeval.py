#!/usr/bin/env python3
"""Seeded generator of the differential cases against ndeval (pyndeval, its
ndeval.c 4.5 called from Python, the way ir_measures calls it).

    python tests/differential/generate_ndeval.py            # inputs + cases.json
    python tests/differential/generate_ndeval.py --golden   # + golden.json (needs pyndeval)

Writes tests/data/ndeval/iNNN.qrels (``qid subtopic docno judgment``),
iNNN.run (TREC run) and cases.json; with --golden, pyndeval's per-topic
values of every case in golden.json (NaN as null).  The same seed gives the
same bytes (stdlib ``random`` only).

What the inputs stress: equal scores (pyndeval orders them by docno
ascending: ipsoeval --tie-break docno-asc), judgments 0-3 with rel 1 or 2,
one to six subtopics a topic (ids of letters and digits), documents relevant
to several subtopics, documents judged for some subtopics only, unjudged
documents, topics whose every judgment is 0 (no subtopic: S = 0), topics of
the qrels missing from the run and vice versa, runs longer and shorter than
the cutoffs, docnos with punctuation, UTF-8 and lengths around the 8-byte
words, and alpha 0..1, beta 0.2..0.9.  One pyndeval call per case for
alpha-nDCG, alpha-DCG, NRBP and nNRBP (the case's alpha and beta) and one
at ndeval's defaults (alpha = beta = 0.5) for ERR-IA, nERR-IA, P-IA, strec
and MAP-IA, as ir_measures' provider calls it.
"""

import argparse
import json
import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "data" / "ndeval"
SEED = 20261126
N_INPUTS = 70
CASES_PER_INPUT = 3
CUTOFFS = (1, 2, 3, 5, 10, 20)
ALPHA_MEASURES = ("alpha-nDCG", "alpha-DCG")
FIXED_MEASURES = ("ERR-IA", "nERR-IA", "P-IA", "strec")
PUNCT = "-_.:/+=~!$%&*()[]{}<>,;'\"?@^|`\\"
UTF8 = ["é", "Å", "文档", "ß", "€", "Ω"]
LENGTHS = [1, 2, 7, 8, 9, 15, 16, 17]


def docno(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "".join(rng.choice(PUNCT + "ab") for _ in range(rng.randint(1, 6)))
    if kind < 0.25:
        return rng.choice(UTF8) + str(rng.randint(0, 99))
    n = rng.choice(LENGTHS)
    return "".join(rng.choice("abcdXYZ0123456789") for _ in range(n))


def make_input(rng: random.Random):
    qrels, run = [], []
    n_topics = rng.randint(1, 6)
    for t in range(n_topics):
        qid = str(rng.choice([t + 1, 100 + t, 7 * t + 3]))
        n_sub = rng.randint(1, 6)
        subs = rng.sample(["1", "2", "3", "4", "5", "6", "a", "b", "x9"], n_sub)
        pool = []
        while len(pool) < rng.randint(2, 25):
            d = docno(rng)
            if d not in pool:
                pool.append(d)
        no_rel = rng.random() < 0.15
        for d in pool:
            for s in subs:
                if rng.random() < 0.5:
                    j = 0 if no_rel else rng.choice([0, 0, 1, 1, 2, 3])
                    qrels.append((qid, s, d, j))
        if not any(q[0] == qid for q in qrels):
            qrels.append((qid, subs[0], pool[0], 0))
        if rng.random() < 0.1:           # a qrels topic missing from the run
            continue
        unjudged = [docno(rng) for _ in range(rng.randint(0, 10))]
        docs = list(dict.fromkeys(rng.sample(pool, rng.randint(0, len(pool))) + unjudged))
        rng.shuffle(docs)
        docs = docs[:rng.randint(1, 30)] if docs else [docno(rng)]
        levels = rng.randint(1, 6)       # few distinct scores: ties
        for d in docs:
            run.append((qid, d, float(rng.randint(0, levels))))
    if rng.random() < 0.2:               # a run topic missing from the qrels
        run.append(("999", "zz", 1.0))
    rng.shuffle(qrels)
    return qrels, run


def generate(seed: int, out: Path) -> list[dict]:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(N_INPUTS):
        qrels, run = make_input(rng)
        qrels = list(dict.fromkeys(qrels))
        seen, uq = set(), []
        for q in qrels:                  # one judgment per (topic, subtopic, docno)
            if q[:3] not in seen:
                seen.add(q[:3])
                uq.append(q)
        (out / f"i{i:03d}.qrels").write_text(
            "".join(f"{q} {s}\t{d} {j}\n" for q, s, d, j in uq), encoding="utf-8")
        (out / f"i{i:03d}.run").write_text(
            "".join(f"{q} Q0 {d} {r + 1} {s:g} run{i}\n" for r, (q, d, s) in enumerate(run)),
            encoding="utf-8")
        for c in range(CASES_PER_INPUT):
            cases.append({"input": f"i{i:03d}",
                          "alpha": rng.choice([0.5, 0.5, 0.0, 0.25, 0.75, 1.0]),
                          "beta": rng.choice([0.5, 0.5, 0.2, 0.9]),
                          "rel": rng.choice([1, 1, 2])})
    (out / "cases.json").write_text(json.dumps(cases, indent=0) + "\n")
    return cases


def read_inputs(out: Path, name: str):
    qrels = []
    for line in (out / f"{name}.qrels").read_text(encoding="utf-8").splitlines():
        q, s, d, j = line.split()
        qrels.append((q, s, d, int(j)))
    run = []
    for line in (out / f"{name}.run").read_text(encoding="utf-8").splitlines():
        f = line.split()
        run.append((f[0], f[2], float(f[4])))
    return qrels, run


def golden(out: Path, cases: list[dict]) -> None:
    import pyndeval
    gold = []
    for case in cases:
        qrels, run = read_inputs(out, case["input"])
        values: dict = {}
        calls = [([f"{m}@{k}" for m in ALPHA_MEASURES for k in CUTOFFS] + ["NRBP", "nNRBP"],
                  case["alpha"], case["beta"]),
                 ([f"{m}@{k}" for m in FIXED_MEASURES for k in CUTOFFS] + ["MAP-IA"], 0.5, 0.5)]
        for measures, a, b in calls:
            ev = pyndeval.RelevanceEvaluator(qrels, measures, relevance_level=case["rel"],
                                             alpha=a, beta=b)
            for qid, rec in ev.evaluate(sorted(run, key=lambda r: r[0])).items():
                values.setdefault(qid, {}).update(
                    {m: (None if math.isnan(v) else v) for m, v in rec.items()})
        gold.append(values)
    (out / "golden.json").write_text(json.dumps(gold, indent=0, sort_keys=True) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--golden", action="store_true")
    a = ap.parse_args()
    cases = generate(a.seed, a.out)
    if a.golden:
        golden(a.out, cases)


if __name__ == "__main__":
    main()
