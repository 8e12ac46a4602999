"""Cases for ``ipsoeval eval``: one big MS MARCO run, and a whole ad hoc
track (129 runs) in one call."""

from harness import (
    Case,
    Context,
    Target,
    Tool,
    ipsoeval_cmd,
    need_module,
    need_trec_eval,
    peer_script,
    trec_eval_bin,
)


def _msmarco_files(ctx: Context) -> list[str]:
    return [str(ctx.data / "qrels.txt"), str(ctx.data / "run.txt")]


def _adhoc_runs(ctx: Context) -> list[str]:
    return sorted(str(p) for p in ctx.data.glob("run*.txt"))


EVAL_MSMARCO = Case(
    name="eval-msmarco",
    description=(
        "One MS MARCO passage-dev-sized run (6,980 queries x 1,000 docs, ~7M "
        "lines), three measures. ipsoeval: RR@10, nDCG@10, AP. trec_eval has "
        "no RR@10, so it computes recip_rank (uncut), ndcg_cut.10 and map; "
        "pytrec_eval the same three; ranx mrr@10, ndcg@10, map."),
    data="msmarco",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "-m", "RR@10",
                                      "-m", "nDCG@10", "-m", "AP",
                                      *_msmarco_files(ctx)]),
        "trec_eval": Tool(lambda ctx: [trec_eval_bin(), "-m", "recip_rank",
                                       "-m", "ndcg_cut.10", "-m", "map",
                                       *_msmarco_files(ctx)],
                          need_trec_eval),
        "pytrec_eval": Tool(lambda ctx: [ctx.python,
                                         peer_script("pytrec_eval_eval.py"),
                                         *_msmarco_files(ctx)],
                            need_module("pytrec_eval")),
        "ranx": Tool(lambda ctx: [ctx.python, peer_script("ranx_eval.py"),
                                  *_msmarco_files(ctx)],
                     need_module("ranx")),
    },
    targets=[
        Target("time <= 1/3 of trec_eval", peer="trec_eval", max_ratio=1 / 3),
        Target("peak <= 1 GB", max_peak_mb=1024),
    ],
)

EVAL_ADHOC = Case(
    name="eval-adhoc-129",
    description=(
        "A TREC ad hoc track: 129 runs x 50 topics x 1,000 docs, graded qrels, "
        "default measures. ipsoeval evaluates all runs in one process; "
        "trec_eval is run once per run file (129 processes: wall times summed, "
        "peak = largest)."),
    data="adhoc",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval",
                                      str(ctx.data / "qrels.txt"),
                                      *_adhoc_runs(ctx)]),
        "trec_eval": Tool(lambda ctx: [[trec_eval_bin(),
                                        str(ctx.data / "qrels.txt"), run]
                                       for run in _adhoc_runs(ctx)],
                          need_trec_eval),
    },
    targets=[
        Target("time <= 1/3 of trec_eval's total", peer="trec_eval",
               max_ratio=1 / 3),
    ],
)

CASES = [EVAL_MSMARCO, EVAL_ADHOC]
