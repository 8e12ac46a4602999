"""Benchmark driver for pyndeval (ndeval.c): alpha-nDCG@20 and ERR-IA@20.

Usage: python pyndeval_eval.py SUBTOPIC_QRELS RUN
Reads the diversity qrels (qid subtopic docno judgment) and the TREC run in
Python, evaluates with pyndeval.RelevanceEvaluator (as ir_measures calls
it) and prints the means over the evaluated queries."""

import sys

import pyndeval


def main(qrels_path: str, run_path: str) -> None:
    qrels = []
    with open(qrels_path) as f:
        for line in f:
            q, s, d, j = line.split()
            qrels.append((q, s, d, int(j)))
    run = []
    with open(run_path) as f:
        for line in f:
            p = line.split()
            run.append((p[0], p[2], float(p[4])))
    ev = pyndeval.RelevanceEvaluator(qrels, ["alpha-nDCG@20", "ERR-IA@20"])
    res = ev.evaluate(run)
    n = len(res)
    for key in ("alpha-nDCG@20", "ERR-IA@20"):
        mean = sum(r[key] for r in res.values()) / n if n else 0.0
        print(f"{key}\tall\t{mean:.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
