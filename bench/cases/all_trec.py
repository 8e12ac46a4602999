"""``ipsoeval eval -m all_trec`` on a whole ad hoc track (129 runs), against
trec_eval run once per file."""

from harness import Case, Target, Tool, ipsoeval_cmd, need_trec_eval, trec_eval_bin


def _adhoc_runs(ctx) -> list[str]:
    return sorted(str(p) for p in ctx.data.glob("run*.txt"))


EVAL_ALL_TREC = Case(
    name="eval-all-trec-129",
    description=(
        "A TREC ad hoc track: 129 runs x 50 topics x 1,000 docs, graded qrels, "
        "-m all_trec (every trec_eval 10.0 measure of the qrels mode, 99 lines "
        "per run). ipsoeval evaluates all runs in one process; trec_eval is run "
        "once per run file (129 processes: wall times summed, peak = largest)."),
    data="adhoc",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "-m", "all_trec",
                                      str(ctx.data / "qrels.txt"),
                                      *_adhoc_runs(ctx)]),
        "trec_eval": Tool(lambda ctx: [[trec_eval_bin(), "-m", "all_trec",
                                        str(ctx.data / "qrels.txt"), run]
                                       for run in _adhoc_runs(ctx)],
                          need_trec_eval),
    },
    targets=[
        Target("time <= trec_eval's total", peer="trec_eval", max_ratio=1.0),
    ],
)

CASES = [EVAL_ALL_TREC]
