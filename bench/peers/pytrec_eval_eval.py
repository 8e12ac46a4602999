"""Benchmark driver for pytrec_eval: evaluate RR, nDCG@10 and AP.

Usage: python pytrec_eval_eval.py QRELS RUN [RUN ...]
Reads the files with pytrec_eval's own parse helpers, evaluates
recip_rank, ndcg_cut.10 and map with RelevanceEvaluator, and prints the
means over the evaluated queries as ``measure<TAB>all<TAB>value`` per run.
"""

import sys

import pytrec_eval

MEASURES = {"recip_rank", "ndcg_cut.10", "map"}
KEYS = ("recip_rank", "ndcg_cut_10", "map")


def main(qrels_path: str, run_paths: list[str]) -> None:
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, MEASURES)
    for path in run_paths:
        with open(path) as f:
            run = pytrec_eval.parse_run(f)
        per_query = evaluator.evaluate(run)
        n = len(per_query)
        for key in KEYS:
            mean = sum(q[key] for q in per_query.values()) / n if n else 0.0
            print(f"{key}\t{path}\t{mean:.4f}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
