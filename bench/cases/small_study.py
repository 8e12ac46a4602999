"""The ``small-study`` case: everyday calls on small inputs, as in
shell one-liners, Makefile loops and CI checks, each judged by its median CPU
time (user + system) beside trec_eval, timed in the same run.

Data (``gen.py small``): 12 runs x 50 topics x 100 docs (5,000 lines, a few
shorter) with graded qrels, ``human.txt`` (the qrels of 15 topics) and
``auto.txt`` (machine labels of all 50) for ppi and agree, and ``big/`` one
100,000-line run (50 topics x 2,000 docs).

The ``floor:`` rows are Python's start-up plus the imports a path needs and
cannot avoid: Python alone for the quick paths (``eval`` with the common
families, ``sigtest``'s default tests, ``--help`` at the stored widths);
click for the other calls; click and numpy for the statistics (the
distribution functions are ipsoeval's own, ipsoeval/special/dist.py: no
scipy; the charts of ``report`` are SVG written by ipsoeval: no
matplotlib).  A target below its path's floor cannot be met on that machine
by ipsoeval's own code.

    python bench/run.py --only small-study --repeat 5
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import (  # noqa: E402
    Case,
    Context,
    Target,
    Tool,
    ipsoeval_cmd,
    need_trec_eval,
    trec_eval_bin,
)

HELP_MAX = 0.1
COMMANDS = ["eval", "measures", "breakdown", "ipso", "interval-map", "sigtest", "bootstrap",
            "ppi", "agree", "leaderboard", "compare", "power", "meta", "report"]
# -m of the common families (the quick path's reach)
FAMILIES = ["-m", "P@10", "-m", "R@100", "-m", "AP", "-m", "nDCG@10", "-m", "RR",
            "-m", "Success@10", "-m", "Judged@10", "-m", "bpref", "-m", "Rprec",
            "-m", "ERR@20"]
FLOORS = {
    "floor: python": "pass",
    "floor: +click": "import click",
    "floor: +numpy": "import click, numpy",
}


def _qrels(ctx: Context) -> str:
    return str(ctx.data / "qrels.txt")


def _runs(ctx: Context, n: int = 12) -> list[str]:
    return sorted(str(p) for p in ctx.data.glob("run*.txt"))[:n]


def _big(ctx: Context) -> list[str]:
    return [str(ctx.data / "big" / "qrels.txt"), str(ctx.data / "big" / "run001.txt")]


def _ipso(*args):
    """An ipsoeval tool: ``args`` strings, or functions of the context giving
    a string or a list of strings."""
    def argv(ctx: Context) -> list[str]:
        out = [*ipsoeval_cmd()]
        for a in args:
            v = a(ctx) if callable(a) else a
            out.extend(v if isinstance(v, list) else [v])
        return out
    return Tool(argv)


def _report_path(ctx: Context) -> str:
    out = ctx.data.parent.parent / "out" / "small-study"
    out.mkdir(parents=True, exist_ok=True)
    return str(out / "report.html")


TOOLS: dict[str, Tool] = {
    # the subject row (ratio to trec_eval): the common families, 100,000 lines
    "ipsoeval": _ipso("eval", "-m", "nDCG@10", "-m", "AP", _big),
    "trec_eval": Tool(lambda ctx: [trec_eval_bin(), "-m", "ndcg_cut.10", "-m", "map", *_big(ctx)],
                      need_trec_eval),
    "eval families 100k": _ipso("eval", *FAMILIES, _big),
    "eval default 5k": _ipso("eval", _qrels, lambda c: _runs(c, 1)),
    "trec_eval default 5k": Tool(lambda ctx: [trec_eval_bin(), _qrels(ctx), _runs(ctx, 1)[0]],
                                 need_trec_eval),
    "--help": _ipso("--help"),
    **{f"{c} --help": _ipso(c, "--help") for c in COMMANDS},
    "sigtest": _ipso("sigtest", "-m", "nDCG@10", _qrels, lambda c: _runs(c, 2)),
    "leaderboard": _ipso("leaderboard", "-m", "nDCG@10", "--samples", "10000", _qrels, _runs),
    # the table of a paper: 12 runs x 4 measures against a baseline, default tests
    "compare": _ipso("compare", "-m", "nDCG@10", "-m", "AP", "-m", "P@10", "-m", "RR",
                     "--baseline", lambda c: _runs(c, 1)[0], "--format", "latex", _qrels,
                     _runs),
    "ppi": _ipso("ppi", "-m", "nDCG@10", "--human", lambda c: str(c.data / "human.txt"),
                 "--auto", lambda c: str(c.data / "auto.txt"), lambda c: _runs(c, 2)),
    "power": _ipso("power", "-m", "nDCG@10", _qrels, lambda c: _runs(c, 2)),
    "meta": _ipso("meta", "-m", "nDCG@10", "-m", "AP", _qrels, _runs),
    "agree": _ipso("agree", lambda c: str(c.data / "human.txt"),
                   lambda c: str(c.data / "auto.txt")),
    "report": _ipso("report", "-m", "nDCG@10", _qrels, _runs, "-o", _report_path),
    **{name: Tool(lambda ctx, code=code: [ctx.python, "-c", code]) for name, code in FLOORS.items()},
}

TARGETS = [
    Target("eval -m nDCG@10 -m AP, 100,000 lines: <= 0.08 s cpu", tool="ipsoeval",
           max_cpu_seconds=0.08),
    Target("common families, 100,000 lines: <= 0.08 s cpu", tool="eval families 100k",
           max_cpu_seconds=0.08),
    Target("default measures, 5,000 lines: <= 0.08 s cpu", tool="eval default 5k",
           max_cpu_seconds=0.08),
    Target("<= 0.1 s cpu", tool="--help", max_cpu_seconds=HELP_MAX),
    *[Target("<= 0.1 s cpu", tool=f"{c} --help", max_cpu_seconds=HELP_MAX) for c in COMMANDS],
    Target("2 runs x 50 topics, default tests: <= 0.25 s cpu", tool="sigtest",
           max_cpu_seconds=0.25),
    Target("12 runs x 50 topics, 10,000 samples: <= 0.5 s cpu", tool="leaderboard",
           max_cpu_seconds=0.5),
    Target("12 runs x 50 topics x 4 measures, --baseline, default tests: <= 0.5 s cpu",
           tool="compare", max_cpu_seconds=0.5),
    Target("2 runs, 15 human topics of 50: <= 0.5 s cpu", tool="ppi", max_cpu_seconds=0.5),
    Target("2 runs: <= 0.5 s cpu", tool="power", max_cpu_seconds=0.5),
    Target("12 runs, 2 measures: <= 0.5 s cpu", tool="meta", max_cpu_seconds=0.5),
    Target("<= 0.5 s cpu", tool="agree", max_cpu_seconds=0.5),
    Target("12 runs: <= 1.5 s cpu", tool="report", max_cpu_seconds=1.5),
    *[Target("Python start-up and the imports a path needs", tool=name) for name in FLOORS],
]

CASES = [Case(
    name="small-study",
    description=("everyday calls on a small study (12 runs x 50 topics, 5,000-line runs; "
                 "one 100,000-line run for eval), judged by median CPU time; floor rows: "
                 "Python start-up plus the imports each path needs"),
    data="small",
    tools=TOOLS,
    targets=TARGETS,
)]
