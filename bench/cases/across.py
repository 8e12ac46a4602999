"""Case for ``ipsoeval across``: runs compared over many collections.

Goal: 20 collections x 50 runs x 5,000 topics, the pooled table and the
stratified bootstrap of the leaderboard (1,000 samples), within 30 s and 2 GB
on the bench machine (2 cores).  The harness times whole processes; the
per-topic scores are made here (reading 5 million score lines is the score
reader's work, not what is measured) and handed to the analysis exactly as
the command hands them over after reading a manifest
(:class:`ipsoeval.analyses.across.CollectionScores`), every table rendered
as the command's TSV.  With ``--engine ray`` the bootstrap runs as one Ray
task per collection and the output must be the same bytes (exit 1
otherwise).  The tool prints its seconds and exits 1 when it misses the goal
(with --quick: 4 collections x 8 runs x 300 topics, no goal).  Run this file
directly for the same measurement:

    python bench/cases/across.py [--quick] [--engine ray]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Context, Target, Tool  # noqa: E402

COLLECTIONS, RUNS, TOPICS, SAMPLES = 20, 50, 5_000, 1_000
QUICK = (4, 8, 300, 200)
LIMIT = 30.0


def _this(ctx: Context) -> list[str]:
    return [ctx.python, str(Path(__file__).resolve()), *(["--quick"] if ctx.quick else [])]


ACROSS_20 = Case(
    name="across-20x50x5000",
    description=(
        "In-process, on per-topic scores of 20 collections x 50 runs x 5,000 topics "
        "(AP-like, collection and run effects): `across` with the pooled effects "
        "(REML), the leaderboard's stratified bootstrap (1,000 samples) and the mixed "
        "model, every table rendered as TSV. Fails (exit 1) over 30 s."),
    data="msmarco13",          # not read: the scores are made in-process
    tools={"ipsoeval": Tool(_this)},
    targets=[Target("analysis <= 30 s (exit 1 otherwise; see its output)"),
             Target("peak <= 2 GB", max_peak_mb=2048)],
)

def _this_ray(ctx: Context) -> list[str]:
    return [*_this(ctx), "--engine", "ray"]


ACROSS_20_RAY = Case(
    name="across-20x50x5000-ray",
    description=(
        "As across-20x50x5000, then again with the bootstrap as one Ray task per "
        "collection on a local Ray cluster (the extra ipsoeval[ray]); exit 1 unless every "
        "table is the same bytes."),
    data="msmarco13",
    tools={"ipsoeval": Tool(_this_ray)},
    targets=[Target("same bytes under --engine ray (exit 1 otherwise)")],
    opt_in=True,               # starts a Ray cluster: run with --only across-20x50x5000-ray
)

CASES = [ACROSS_20, ACROSS_20_RAY]


def collections(rng, n: int, runs: int, topics: int):
    import numpy as np

    from ipsoeval.analyses.across import CollectionScores
    names = [f"run{i:02d}" for i in range(runs)]
    out = []
    for c in range(n):
        difficulty = rng.beta(2.0, 3.0, topics)
        effect = np.linspace(-0.05, 0.05, runs) * rng.uniform(0.2, 2.0) \
            + rng.normal(0.0, 0.02, runs)
        x = difficulty[None, :] + effect[:, None] + rng.normal(0.0, 0.12, (runs, topics))
        out.append(CollectionScores(f"c{c:02d}", names, [f"q{t}" for t in range(topics)],
                                    {"AP": np.clip(x, 0.0, 1.0)}, {"AP": True}))
    return out


def render(report) -> str:
    from ipsoeval.formatters import render as fmt
    return "".join(fmt(report, "tsv", table=t) for t in report.ids)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    engine = argv[argv.index("--engine") + 1] if "--engine" in argv else "local"
    sys.path.insert(0, str(BENCH.parent))
    import numpy as np

    from ipsoeval.analyses import across
    n, runs, topics, samples = QUICK if quick else (COLLECTIONS, RUNS, TOPICS, SAMPLES)
    cols = collections(np.random.default_rng(42), n, runs, topics)
    opts = across.Options(samples=samples, seed=42)
    t0 = time.perf_counter()
    rep = across.analyse(cols, ["AP"], opts)
    text = render(rep)
    secs = time.perf_counter() - t0
    print(f"collections\t{n}\truns\t{runs}\ttopics\t{topics}\tsamples\t{samples}")
    print(f"seconds\t{secs:.3f}\tlimit\t{LIMIT:.0f}")
    status = 0 if quick or secs <= LIMIT else 1
    if engine != "local":
        from ipsoeval.analyses.across.distributed import resampler
        t0 = time.perf_counter()
        with resampler(cols, ["AP"], opts, engine) as rs:
            other = render(across.analyse(cols, ["AP"], opts, resample=rs))
        same = other == text
        print(f"engine\t{engine}\tseconds\t{time.perf_counter() - t0:.3f}\tsame_bytes\t{same}")
        status = status or (0 if same else 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
