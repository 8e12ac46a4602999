"""Cases for ``ipsoeval eval``: one big MS MARCO run (plain and gzip), one
ordinary TREC ad hoc run, and a whole ad hoc track (129 runs) in one call."""

import gzip
import shutil

from harness import (
    Case,
    Context,
    Target,
    Tool,
    ipsoeval_cmd,
    need_module,
    need_te_rust,
    need_trec_eval,
    peer_script,
    te_rust_bin,
    trec_eval_bin,
)


def _msmarco_files(ctx: Context) -> list[str]:
    return [str(ctx.data / "qrels.txt"), str(ctx.data / "run.txt")]


def _msmarco_gz(ctx: Context) -> list[str]:
    """The MS MARCO run gzip-compressed (level 6, written once next to it)."""
    gz = ctx.data / "run.txt.gz"
    if not gz.exists():
        tmp = gz.with_suffix(".gz.tmp")
        with open(ctx.data / "run.txt", "rb") as src, gzip.open(tmp, "wb", 6) as dst:
            shutil.copyfileobj(src, dst, 1 << 22)
        tmp.rename(gz)
    return [str(ctx.data / "qrels.txt"), str(gz)]


def _msmarco_parquet(ctx: Context) -> list[str]:
    """The MS MARCO run as Parquet (columns qid, docno, rank, score, tag, as
    PyTerrier writes a result frame; pyarrow's defaults: dictionary pages,
    snappy), written once next to it."""
    pq_path = ctx.data / "run.parquet"
    if not pq_path.exists():
        import pyarrow as pa
        import pyarrow.csv as csv
        import pyarrow.parquet as pq
        names = ["qid", "Q0", "docno", "rank", "score", "tag"]
        types = {"qid": pa.string(), "Q0": pa.string(), "docno": pa.string(),
                 "rank": pa.int64(), "score": pa.float64(), "tag": pa.string()}
        table = csv.read_csv(ctx.data / "run.txt",
                             read_options=csv.ReadOptions(column_names=names),
                             parse_options=csv.ParseOptions(delimiter=" "),
                             convert_options=csv.ConvertOptions(column_types=types))
        tmp = pq_path.with_suffix(".parquet.tmp")
        pq.write_table(table.select(["qid", "docno", "rank", "score", "tag"]), tmp)
        tmp.rename(pq_path)
    return [str(ctx.data / "qrels.txt"), str(pq_path)]


def _adhoc_runs(ctx: Context) -> list[str]:
    return sorted(str(p) for p in ctx.data.glob("run*.txt"))


def _one_adhoc(ctx: Context) -> list[str]:
    return [str(ctx.data / "qrels.txt"), _adhoc_runs(ctx)[0]]


MSMARCO_MEASURES = ["-m", "RR@10", "-m", "nDCG@10", "-m", "AP"]
TE_MSMARCO = ["-m", "recip_rank", "-m", "ndcg_cut.10", "-m", "map"]

def _msmarco_tools() -> dict:
    """ipsoeval, trec_eval and trec-eval-rust on an MS MARCO-like data set."""
    return {
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                      *_msmarco_files(ctx)]),
        "trec_eval": Tool(lambda ctx: [trec_eval_bin(), *TE_MSMARCO, *_msmarco_files(ctx)],
                          need_trec_eval),
        "te-rust": Tool(lambda ctx: [te_rust_bin(), *TE_MSMARCO, *_msmarco_files(ctx)],
                        need_te_rust),
    }


EVAL_MSMARCO = Case(
    name="eval-msmarco",
    description=(
        "One MS MARCO passage-dev-sized run (6,980 queries x 1,000 docs, ~7M "
        "lines), three measures. ipsoeval: RR@10, nDCG@10, AP (the quick path); "
        "ipsoeval-full: the same with --format json (the full program). trec_eval has "
        "no RR@10, so it computes recip_rank (uncut), ndcg_cut.10 and map; "
        "trec-eval-rust the same; pytrec_eval the same three; ranx mrr@10, ndcg@10, map."),
    data="msmarco",
    tools={
        **_msmarco_tools(),
        # the same call through the full program (--format json: the quick path
        # serves only trec and tsv), whose reader streams the run too
        "ipsoeval-full": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "--format", "json",
                                           *MSMARCO_MEASURES, *_msmarco_files(ctx)]),
        "pytrec_eval": Tool(lambda ctx: [ctx.python,
                                         peer_script("pytrec_eval_eval.py"),
                                         *_msmarco_files(ctx)],
                            need_module("pytrec_eval")),
        "ranx": Tool(lambda ctx: [ctx.python, peer_script("ranx_eval.py"),
                                  *_msmarco_files(ctx)],
                     need_module("ranx")),
    },
    targets=[
        Target("time <= 1/8 of trec_eval", peer="trec_eval", max_ratio=1 / 8),
        Target("peak <= 120 MB (the quick path)", max_peak_mb=120),
        Target("peak <= 120 MB (the full program)", tool="ipsoeval-full", max_peak_mb=120),
    ],
)

EVAL_MSMARCO_GZ = Case(
    name="eval-msmarco-gz",
    description=(
        "The eval-msmarco case with the run gzip-compressed: ipsoeval on the "
        ".gz next to ipsoeval on the plain file (the target: at most 40% more)."),
    data="msmarco",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                      *_msmarco_gz(ctx)]),
        "ipsoeval-plain": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                            *_msmarco_files(ctx)]),
    },
    targets=[
        Target("time <= 1.4 x ipsoeval on the plain file", peer="ipsoeval-plain",
               max_ratio=1.4),
    ],
)

EVAL_MSMARCO_PARQUET = Case(
    name="eval-msmarco-parquet",
    description=(
        "The eval-msmarco case with the run as Parquet (qid, docno, rank, score, "
        "tag; written once by pyarrow): ipsoeval on the .parquet next to ipsoeval "
        "on the plain text file (target: no slower)."),
    data="msmarco",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                      *_msmarco_parquet(ctx)], need_module("pyarrow")),
        "ipsoeval-plain": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                            *_msmarco_files(ctx)]),
    },
    targets=[
        Target("time <= ipsoeval on the plain file", peer="ipsoeval-plain", max_ratio=1.0),
    ],
)

EVAL_MSMARCO70 = Case(
    name="eval-msmarco70",
    description=(
        "Ten times eval-msmarco: 69,800 queries x 1,000 docs (~70M lines, "
        "3.2 GB, data set msmarco70), the same three measures. Opt-in: runs "
        "only with --only eval-msmarco70 (writes 3.2 GB under bench/data)."),
    data="msmarco70",
    tools=_msmarco_tools(),
    targets=[
        Target("time <= 1/10 of trec_eval", peer="trec_eval", max_ratio=1 / 10),
        Target("peak <= 3 GB", max_peak_mb=3072),
        Target("peak no faster than linear: <= 10 x eval-msmarco's"),
    ],
    opt_in=True,
)

EVAL_ADHOC_ONE = Case(
    name="eval-adhoc-1",
    description=(
        "The most common call: one TREC ad hoc run (50 topics x 1,000 docs, "
        "50k lines), default measures, trec format."),
    data="adhoc",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "--format", "trec",
                                      *_one_adhoc(ctx)]),
        "trec_eval": Tool(lambda ctx: [trec_eval_bin(), *_one_adhoc(ctx)], need_trec_eval),
        "te-rust": Tool(lambda ctx: [te_rust_bin(), *_one_adhoc(ctx)], need_te_rust),
    },
    targets=[
        Target("time <= 2 x trec_eval", peer="trec_eval", max_ratio=2),
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
        "te-rust": Tool(lambda ctx: [[te_rust_bin(), str(ctx.data / "qrels.txt"), run]
                                     for run in _adhoc_runs(ctx)],
                        need_te_rust),
    },
    targets=[
        Target("time <= 1/4 of trec_eval's total", peer="trec_eval",
               max_ratio=1 / 4),
    ],
)

def _msmarco_probability(ctx: Context) -> list[str]:
    """The MS MARCO qrels as probabilities of relevance (written once next to it):
    each judged passage keeps a probability in [0.5, 1], and the run's top 5
    passages of the topic that are not judged join with one in [0, 0.3] (a
    pool of uncertain judgments, ~6 per topic), seeded."""
    import numpy as np
    out = ctx.data / "qrels-prob.txt"
    if not out.exists():
        rng = np.random.default_rng(19)
        lines, judged = [], set()
        with open(ctx.data / "qrels.txt") as f:
            for ln in f:
                q, it, d, _ = ln.split()
                judged.add((q, d))
                lines.append(f"{q} {it} {d} {0.5 + 0.5 * rng.random():.6f}")
        last, n = None, 0
        with open(ctx.data / "run.txt") as f:
            for ln in f:
                q, _, d = ln.split(None, 3)[:3]
                n = n + 1 if q == last else 1
                last = q
                if n <= 5 and (q, d) not in judged:
                    lines.append(f"{q} 0 {d} {0.3 * rng.random():.6f}")
        tmp = out.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n")
        tmp.rename(out)
    return [str(out), str(ctx.data / "run.txt")]


EVAL_MSMARCO_PROBABILITY = Case(
    name="eval-msmarco-probability",
    description=(
        "The eval-msmarco case (RR@10, nDCG@10, AP) with --labels probability: "
        "the qrels' passages and each topic's top 5 retrieved ones judged with "
        "probabilities of relevance (~6 per topic), every measure its exact "
        "expectation; next to ipsoeval on the integer qrels (target: at most 2x)."),
    data="msmarco",
    tools={
        "ipsoeval": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", "--labels", "probability",
                                      *MSMARCO_MEASURES, *_msmarco_probability(ctx)]),
        "ipsoeval-integer": Tool(lambda ctx: [*ipsoeval_cmd(), "eval", *MSMARCO_MEASURES,
                                              *_msmarco_files(ctx)]),
    },
    targets=[
        Target("time <= 2 x ipsoeval on the integer qrels", peer="ipsoeval-integer",
               max_ratio=2),
    ],
)

CASES = [EVAL_MSMARCO, EVAL_MSMARCO_GZ, EVAL_MSMARCO_PARQUET, EVAL_MSMARCO_PROBABILITY, EVAL_MSMARCO70,
         EVAL_ADHOC_ONE, EVAL_ADHOC]

