"""Cases for ``ipsoeval sigtest``.

- ``sigtest-adhoc-all-pairs``: every pair of 129 runs over 50 topics (8,256
  pairs, the size of the paper's T08 track) with 8 tests, the randomization
  test with 10,000 samples.  Goal: 10 s for the whole process.
- ``sigtest-msmarco13``: 12 challengers against a baseline on 5,793 MS MARCO
  queries, randomization test with 100,000 samples, reading the 13 files
  included.  Goal: 10 s, and faster than ranx's ``compare`` with its Fisher
  (randomization) test on the same files and the same 12 comparisons (ranx
  would test all 78 pairs of 13 runs in one call, so it is called per pair).

Run this file directly for the ranx peer (it needs ranx installed):

    python bench/cases/sigtest.py ranx-compare QRELS RUN...
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Target, Tool, ipsoeval_cmd, need_module  # noqa: E402

N_PERMUTATIONS = 100_000
ADHOC_TESTS = "t,wilcoxon,sign,ranksum,randomization,anova,anova2,friedman"




SIGTEST_ADHOC = Case(
    name="sigtest-adhoc-all-pairs",
    description=(
        "129 runs x 50 topics (graded qrels), AP: all 8,256 pairs x 8 tests (t, "
        "Wilcoxon, sign, rank-sum, randomization with 10,000 samples, one-way "
        "ANOVA, two-way ANOVA and Friedman with Tukey HSD), 66,052 records in TSV, "
        "whole process including reading the 129 runs."),
    data="adhoc",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "sigtest", "--all-pairs", "-m", "AP",
                                      "--test", ADHOC_TESTS, "--samples", "10000",
                                      "--format", "tsv", *ctx.qrels_and_runs()]),
    },
    targets=[Target("time <= 10 s", max_seconds=10.0),
             Target("peak <= 1.5 GB", max_peak_mb=1536)],
)

SIGTEST_MSMARCO13 = Case(
    name="sigtest-msmarco13",
    description=(
        "13 runs x 5,793 MS MARCO queries x 100 docs: 12 challengers vs the "
        "baseline run00 on RR@10, randomization test with 100,000 samples, "
        "whole process including reading the 13 files. ranx: compare() on "
        "mrr@10 with stat_test='fisher', n_permutations=100000, once per "
        "(baseline, challenger) pair in one process (same 12 comparisons)."),
    data="msmarco13",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "sigtest", "-m", "RR@10",
                                      "--test", "randomization", "--samples", "100000",
                                      "--format", "tsv", *ctx.qrels_and_runs()]),
        # ~290 s a run here (100,000 permutations x 12 pairs): measured once
        "ranx": Tool(lambda ctx: [ctx.python, str(Path(__file__).resolve()), "ranx-compare",
                                  *ctx.qrels_and_runs()],
                     need_module("ranx"), max_repeat=1),
    },
    targets=[Target("time <= 10 s", max_seconds=10.0),
             Target("faster than ranx compare (fisher)", peer="ranx", max_ratio=1.0),
             Target("peak <= 1 GB", max_peak_mb=1024)],
)

CASES = [SIGTEST_ADHOC, SIGTEST_MSMARCO13]


def ranx_compare(paths: list[str]) -> int:
    """ranx's compare() with the Fisher randomization test, 100,000
    permutations, baseline (first run) against each challenger: one compare()
    call per pair, so ranx does the same 12 comparisons as ipsoeval (a single
    call would test all 78 pairs)."""
    from ranx import Qrels, Run, compare

    qrels = Qrels.from_file(paths[0], kind="trec")
    runs = []
    for p in paths[1:]:
        run = Run.from_file(p, kind="trec")
        run.name = Path(p).stem
        runs.append(run)
    for challenger in runs[1:]:
        report = compare(qrels, runs=[runs[0], challenger], metrics=["mrr@10"],
                         stat_test="fisher", n_permutations=N_PERMUTATIONS, max_p=0.05,
                         random_seed=42)
        print(report)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] != "ranx-compare":
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(ranx_compare(sys.argv[2:]))
