"""Case for ``--engine``: a sweep of 1,000 runs x 7,000
topics (``sweep`` data set, opt-in), scored on this machine's threads (a
batch of runs at a time) and on a local Ray cluster (``--engine ray``,
skipped without the extra ``ipsoeval[ray]``).  Ray's overhead is the
difference of the two wall times (the cluster's start included), divided by
the runs; the README's "Scale-out on Ray" gives the figures and what a
cluster of N machines would take.

    python bench/run.py --only eval-sweep-1000
"""

from __future__ import annotations

from harness import Case, Target, Tool, ipsoeval_cmd


def _ray_missing() -> str | None:
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray not installed (pip install 'ipsoeval[ray]')"
    return None


def _eval(engine: str):
    return lambda ctx: [*ipsoeval_cmd(), "eval", "--engine", engine, "--format", "tsv",
                        "-m", "AP", "-m", "nDCG@10", "-m", "RR@10",
                        str(ctx.data / "qrels.txt"), str(ctx.data / "runs")]


EVAL_SWEEP = Case(
    name="eval-sweep-1000",
    description=(
        "eval -m AP -m nDCG@10 -m RR@10 over a directory of 1,000 runs x 7,000 topics "
        "x 10 docs (70M lines in all; 50 distinct files under 1,000 names): "
        "--engine local (threads, a batch of runs at a time) and --engine ray (a "
        "local Ray cluster of this machine's CPUs, started by the command). Same "
        "bytes; Ray's overhead per run = (ray - local) / 1,000."),
    data="sweep",
    tools={
        "ipsoeval": Tool(_eval("local")),
        "ipsoeval-ray": Tool(_eval("ray"), _ray_missing, max_repeat=1, smoke=False),
    },
    targets=[Target("peak <= 1.5 GB (only per-topic scores held)", max_peak_mb=1536)],
    opt_in=True,
)

CASES = [EVAL_SWEEP]
