"""Case for ``ipsoeval leaderboard``: the randomised Tukey HSD.

Goal: 100 runs x 5,000 topics x 10,000 samples within 60 s on the bench
machine (2 cores).  The harness times whole processes, so the goal is measured
inside one process on a per-topic score matrix made here (the analysis never
re-scores runs; reading score files is not what is measured): nDCG-like scores
with a shared topic difficulty, run effects and noise.  The tool prints its
seconds and exits 1 when it misses the goal (with --quick: 10 runs x 200
topics x 1,000 samples, no goal).  Run this file directly for the same
measurement:

    python bench/cases/leaderboard.py [--quick]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Context, Target, Tool  # noqa: E402

RUNS, TOPICS, SAMPLES = 100, 5_000, 10_000
QUICK = (10, 200, 1_000)
LIMIT = 60.0


def _this(ctx: Context) -> list[str]:
    return [ctx.python, str(Path(__file__).resolve()), *(["--quick"] if ctx.quick else [])]


LEADERBOARD_100 = Case(
    name="leaderboard-100x5000",
    description=(
        "In-process, on a score matrix of 100 runs x 5,000 topics (nDCG-like): "
        "`leaderboard` with 10,000 randomised Tukey HSD samples, Tukey HSD from the "
        "two-way ANOVA for the 4,950 pairs, letters, rank intervals. Fails (exit 1) "
        "over 60 s."),
    data="msmarco13",          # not read: the matrix is made in-process
    tools={"ipsoeval": Tool(_this)},
    targets=[Target("analysis <= 60 s (exit 1 otherwise; see its output)"),
             Target("peak <= 1 GB", max_peak_mb=1024)],
)

CASES = [LEADERBOARD_100]


def scores(rng, runs: int, topics: int):
    import numpy as np
    difficulty = rng.beta(2.0, 3.0, topics)
    effect = np.linspace(-0.08, 0.08, runs)
    x = difficulty[None, :] + effect[:, None] + rng.normal(0.0, 0.15, (runs, topics))
    return np.clip(x, 0.0, 1.0)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    sys.path.insert(0, str(BENCH.parent))
    import numpy as np

    from ipsoeval.analyses import leaderboard as lb
    from ipsoeval.stats import randhsd
    runs, topics, samples = QUICK if quick else (RUNS, TOPICS, SAMPLES)
    x = scores(np.random.default_rng(42), runs, topics)
    names = [f"run{i:03d}" for i in range(runs)]
    opts = lb.Options(samples=samples, seed=42)
    t0 = time.perf_counter()
    rep = lb.analyse(names, topics, [lb.MeasureInput("nDCG@10", x, True, "interval")], opts)
    secs = time.perf_counter() - t0
    res = rep.table("resolution").records[0]
    print(f"runs\t{runs}\ttopics\t{topics}\tsamples\t{samples}\t"
          f"core\t{'compiled' if randhsd.compiled() else 'numpy'}")
    print(f"separated\t{res['n_separated']}\tof\t{res['n_pairs']}\t"
          f"tukey_separated\t{res['n_tukey_separated']}\tletters\t{res['n_letters']}")
    print(f"seconds\t{secs:.3f}\tlimit\t{LIMIT:.0f}")
    return 0 if quick or secs <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
