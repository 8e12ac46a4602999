"""Benchmark driver for ranx: evaluate MRR@10, nDCG@10 and MAP.

Usage: python ranx_eval.py QRELS RUN [RUN ...]
Loads the files with ``Qrels.from_file`` / ``Run.from_file`` (TREC format)
and prints ranx's means as ``metric<TAB>run<TAB>value`` per run.  ranx
compiles its metrics with numba; a cold process pays that (cached) cost.
"""

import sys

from ranx import Qrels, Run, evaluate

METRICS = ["mrr@10", "ndcg@10", "map"]


def main(qrels_path: str, run_paths: list[str]) -> None:
    qrels = Qrels.from_file(qrels_path, kind="trec")
    for path in run_paths:
        run = Run.from_file(path, kind="trec")
        scores = evaluate(qrels, run, METRICS)
        for metric in METRICS:
            print(f"{metric}\t{path}\t{scores[metric]:.4f}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
