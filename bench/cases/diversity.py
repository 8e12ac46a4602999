"""Case for the diversity measures: alpha-nDCG@20 + ERR-IA@20 on the MS
MARCO-sized run (~7M lines) with diversity qrels of three subtopics per
topic, next to nDCG@20 on the plain qrels, and pyndeval."""

import hashlib

from harness import Case, Context, Target, Tool, ipsoeval_cmd, need_module, peer_script


def _subtopic_qrels(ctx: Context) -> str:
    """The data set's qrels as diversity qrels (written once next to them): each
    judged document judged for subtopics 1, 2 and 3 of its topic, relevant to
    subtopic 1 and to each of 2 and 3 by a hash of its docno (deterministic)."""
    out = ctx.data / "subtopics.qrels"
    if not out.exists():
        tmp = out.with_suffix(".tmp")
        with open(ctx.data / "qrels.txt") as src, open(tmp, "w") as dst:
            for line in src:
                q, _, d, j = line.split()
                h = hashlib.blake2b(d.encode(), digest_size=1).digest()[0]
                for s in (1, 2, 3):
                    rel = j if s == 1 or (h >> s) & 1 else "0"
                    dst.write(f"{q} {s} {d} {rel}\n")
        tmp.rename(out)
    return str(out)


def _run(ctx: Context) -> str:
    return str(ctx.data / "run.txt")


DIVERSITY = Case(
    name="diversity-msmarco",
    description=(
        "alpha_nDCG@20 + ERR_IA@20 on the eval-msmarco run (6,980 queries x 1,000 "
        "docs, ~7M lines) with diversity qrels of three subtopics per topic, next to "
        "nDCG@20 on the plain qrels (the target: at most 2x) and pyndeval (ndeval.c "
        "called from Python, as ir_measures does; its reading in Python included)."),
    data="msmarco",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "-m", "alpha_nDCG@20",
                                      "-m", "ERR_IA@20", _subtopic_qrels(ctx), _run(ctx)]),
        "ipsoeval-ndcg": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "-m", "nDCG@20",
                                           str(ctx.data / "qrels.txt"), _run(ctx)]),
        "pyndeval": Tool(lambda ctx: [ctx.python, peer_script("pyndeval_eval.py"),
                                      _subtopic_qrels(ctx), _run(ctx)],
                         need_module("pyndeval"), max_repeat=1),
    },
    targets=[
        Target("time <= 2 x ipsoeval's nDCG@20", peer="ipsoeval-ndcg", max_ratio=2),
    ],
)

CASES = [DIVERSITY]
