"""Cases for ``ipsoeval eval --bounds``: each measure family's bounds next to
plain ``eval`` of the same measure on the same files (target: at most 3x),
on one ad hoc run (50 topics x 1,000 documents, ~8% of them judged) and on
the MS MARCO run (~7M lines, one judged passage per query)."""

from harness import Case, Context, Target, Tool, ipsoeval_cmd

MEASURES = {"AP": ["-m", "AP"], "bpref": ["-m", "bpref"], "nDCG10": ["-m", "nDCG@10"],
            "P10": ["-m", "P@10"], "R100": ["-m", "R@100"],
            "mixed": ["-m", "AP", "-m", "nDCG@10", "-m", "P@10"]}


def _adhoc(ctx: Context) -> list[str]:
    """The ad hoc track's qrels and its run with the fewest judged documents."""
    run = ctx.data / "run082.txt"
    if not run.exists():                 # the quick (smoke) data set has fewer runs
        run = sorted(ctx.data.glob("run*.txt"))[-1]
    return [str(ctx.data / "qrels.txt"), str(run)]


def _msmarco(ctx: Context) -> list[str]:
    return [str(ctx.data / "qrels.txt"), str(ctx.data / "run.txt")]


def _case(data: str, files, key: str, what: str) -> Case:
    ms = MEASURES[key]
    return Case(
        name=f"bounds-{data}-{key}",
        description=(f"eval --bounds {' '.join(ms)} on {what}, next to plain eval of "
                     "the same (target: at most 3x)."),
        data=data,
        tools={
            "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "--bounds", *ms,
                                          *files(ctx)]),
            "ipsoeval-plain": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *ms, *files(ctx)]),
        },
        targets=[Target("time <= 3 x plain eval", peer="ipsoeval-plain", max_ratio=3)],
    )


CASES = [
    *[_case("adhoc", _adhoc, key, "one ad hoc run (50 topics x 1,000 docs, run082)")
      for key in MEASURES],
    *[_case("msmarco", _msmarco, key, "the MS MARCO run (6,980 queries x 1,000 docs)")
      for key in MEASURES],
]
