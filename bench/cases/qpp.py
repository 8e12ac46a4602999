"""Cases for ``ipsoeval qpp``.

- ``qpp-7000``: five query performance predictors of one run's AP on 7,000
  topics (``--scores``): r, rho, tau-b with p-values, Fisher intervals and
  1,000 bootstrap resamples of all three, sMARE, the ten pairs (Williams,
  Zou, the paired bootstrap of tau) and the ANOVA of sARE with Tukey's HSD.
  Goal: 15 s of CPU (the machine's load moves the wall time) and 1 GB.
  The bootstrap works from each resample's topic counts (matrix-vector
  products, ranks from the counts); tau-b's discordant pairs are counted by
  scipy's O(n log n) routine on each of the 5 x 1,000 resamples, the bulk of
  the time (measured: 7.2 s CPU, 259 MB).
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Target, Tool, ipsoeval_cmd  # noqa: E402

QPP_7000 = Case(
    name="qpp-7000",
    description=(
        "5 predictors x 7,000 topics, AP from a per-topic scores file: correlations, "
        "Fisher and 1,000-resample bootstrap intervals, sMARE, the 10 pairs "
        "(Williams/Zou, paired bootstrap of tau), ANOVA of sARE and Tukey HSD; "
        "all tables as JSON."),
    data="qpp",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "qpp", "--scores", "-m", "AP",
                                      "--samples", "1000", "--format", "json",
                                      str(ctx.data / "scores.tsv"),
                                      *sorted(str(p) for p in ctx.data.glob("pred*.txt"))]),
    },
    targets=[Target("cpu <= 15 s", max_cpu_seconds=15.0),
             Target("peak <= 1 GB", max_peak_mb=1024)],
)

CASES = [QPP_7000]
