"""Cases for ``ipsoeval bootstrap`` (Craswell et al. 2021 §3.1, §4.3).

Goals: 1,000 trials x 40 runs x 5,793 topics within 2 s beyond
scoring; split-half with 100 splits x 780 run pairs x 4 tests within 30 s.

The harness times whole processes, so the 40-run goals are measured inside
one process on per-topic score matrices made here (the analysis never
re-scores runs, so files add nothing but reading and scoring time): MS
MARCO-like RR@10 scores (one relevant passage per query, 11 possible values;
shared query difficulty, run effects and noise) and, as a stress test, scores
that are all distinct (the rank tests' worst case; informational).  Each
in-process tool prints its seconds and exits 1 when it misses its goal.  Run
this file directly for the same measurement:

    python bench/cases/bootstrap.py trials|split-half|split-half-distinct

The end-to-end case runs the command on the 13-run ``msmarco13`` data next to
``eval-only`` (reading and scoring the same files), so the difference is the
bootstrap's own time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Context, Target, Tool, ipsoeval_cmd  # noqa: E402

RUNS = 40
TOPICS = 5_793
TRIALS = 1_000
SPLITS = 100
LIMITS = {"trials": 2.0, "split-half": 30.0, "split-half-distinct": 120.0}




def _this(ctx: Context, mode: str) -> list[str]:
    return [ctx.python, str(Path(__file__).resolve()), mode]


BOOTSTRAP_40 = Case(
    name="bootstrap-40x5793",
    description=(
        "In-process, on score matrices of 40 runs x 5,793 topics: trials = 1,000 "
        "bootstrap trials with ranks, rank probabilities and percentile CIs of "
        "two measures (RR@10-like, 11 values); split-half = 100 splits x 780 pairs "
        "x 4 tests (sign, rank-sum, signed-rank, t), mean aggregate; "
        "split-half-distinct = the same with all-distinct scores (worst case for "
        "the rank tests, no goal). Each fails (exit 1) when over its limit."),
    data="msmarco13",          # not read: the matrices are made in-process
    tools={
        "trials": Tool(lambda ctx: _this(ctx, "trials")),
        "split-half": Tool(lambda ctx: _this(ctx, "split-half")),
        "split-half-distinct": Tool(lambda ctx: _this(ctx, "split-half-distinct"),
                                    smoke=False),      # ~30 s whatever the data
    },
    targets=[
        Target("trials: analysis <= 2 s (exit 1 otherwise; see its output)"),
        Target("split-half: analysis <= 30 s (exit 1 otherwise)"),
        Target("peak <= 1.5 GB", max_peak_mb=1536),
    ],
)

BOOTSTRAP_MSMARCO13 = Case(
    name="bootstrap-msmarco13",
    description=(
        "13 runs x 5,793 queries x 100 docs: `ipsoeval bootstrap -m RR@10 -m "
        "nDCG@10 --samples 1000`; eval-only = `ipsoeval eval --queries qrels` of "
        "the same measures (reading + scoring); split-half = `--split-half 100` "
        "(78 pairs x 4 tests)."),
    data="msmarco13",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "bootstrap", "-m", "RR@10", "-m",
                                      "nDCG@10", "--samples", str(TRIALS), "--format", "tsv",
                                      *ctx.qrels_and_runs()]),
        "eval-only": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "--queries", "qrels", "-m",
                                       "RR@10", "-m", "nDCG@10", "--format", "tsv",
                                       *ctx.qrels_and_runs()]),
        "split-half": Tool(lambda ctx: [*ipsoeval_cmd(), "bootstrap", "-m", "RR@10",
                                        "--split-half", str(SPLITS), "--format", "tsv",
                                        *ctx.qrels_and_runs()]),
    },
    targets=[
        Target("ipsoeval - eval-only <= 2 s"),
        Target("peak <= 1 GB", max_peak_mb=1024),
    ],
)

CASES = [BOOTSTRAP_40, BOOTSTRAP_MSMARCO13]


# ------------------------------------------------------- direct measurement

def rr_like(rng, runs: int, topics: int):
    """MS MARCO-like RR@10: the rank of the one relevant passage from a
    shared difficulty, a run effect and noise; ~35% of queries find none."""
    import numpy as np
    u = rng.random(topics)
    eff = np.linspace(0.0, 0.12, runs)
    z = u[None, :] - eff[:, None] + rng.normal(0, 0.12, (runs, topics))
    rank = np.floor(np.clip(z, 0, 1 - 1e-12) ** 2 / 0.65 * 10).astype(int) + 1
    return np.where((z < 0.65 ** 0.5) & (rank <= 10), 1.0 / rank, 0.0)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in LIMITS:
        print(__doc__, file=sys.stderr)
        return 2
    sys.path.insert(0, str(BENCH.parent))
    import numpy as np

    from ipsoeval.analyses import bootstrap as b
    mode = argv[0]
    rng = np.random.default_rng(42)
    runs = [f"run{i:02d}" for i in range(RUNS)]
    topics = [str(1_000_000 + i) for i in range(TOPICS)]
    if mode == "split-half-distinct":
        x = rng.random((RUNS, TOPICS))
        measures = [b.MeasureInput("AP", x, True, "ordinal")]
    else:
        rr = rr_like(rng, RUNS, TOPICS)
        ndcg = np.where(rr > 0, 1.0 / np.log2(1.0 / np.where(rr > 0, rr, 1.0) + 1.0), 0.0)
        measures = [b.MeasureInput("RR@10", rr, True, "ordinal"),
                    b.MeasureInput("nDCG@10", ndcg, True, "ordinal")]
    if mode == "trials":
        opts = b.Options(samples=TRIALS, top=0)
    else:
        measures = measures[:1]
        opts = b.Options(samples=1, split_half=SPLITS)
    t0 = time.perf_counter()
    res = b.analyse(runs, topics, measures, opts)
    secs = time.perf_counter() - t0
    if mode == "trials":
        print(f"trials\t{TRIALS}\truns\t{RUNS}\ttopics\t{TOPICS}\tmeasures\t{len(measures)}")
        top = res.table("leaderboard").records[0]
        print(f"top_run\t{top['run']}\tp_top\t{top['p_top']}")
    else:
        print(f"splits\t{SPLITS}\tpairs\t{RUNS * (RUNS - 1) // 2}\ttests\t4")
        for r in res.table("split_half").records:
            print(f"{r['test']}\tagree\t{r['agree']:.1f}\tpartial\t{r['partial']:.1f}\t"
                  f"disagree\t{r['disagree']:.1f}\tpct_significant\t{r['pct_significant']:.1f}")
    print(f"seconds\t{secs:.3f}\tlimit\t{LIMITS[mode]:.0f}")
    return 0 if secs <= LIMITS[mode] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
