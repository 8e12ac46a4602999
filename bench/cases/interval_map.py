"""Cases for ``ipsoeval interval-map``: the maps of a whole ad hoc track
(129 runs x 50 topics) at run length N = 30, binary relevance, one measure
per case (targets: 30 s for each measure but AP, 6 GB peak, cold;
AP@30 cold within 30 s and 2 GB, its cache within 1 GB), and
graded nDCG@10 (gains 0, 1, 3) within 10 s."""

from harness import BENCH_DIR, Case, Context, Target, Tool, ipsoeval_cmd

CACHE = BENCH_DIR / "data" / "interval-map-cache"
BINARY = ["--gains", "0:0,1:1,2:1"]          # graded 0/1/2 qrels made binary (the paper's lenient mapping)
GRADED = ["--gains", "0:0,1:1,2:3"]          # 0/1/2 labels, gains 2^l - 1


def _cmd(measure: str, *extra: str, cached: bool = False, gains=BINARY, N: str | None = "30"):
    def argv(ctx: Context):
        env = ["env", f"IPSOEVAL_CACHE_DIR={CACHE}"] if cached else []
        cache = [] if cached else ["--no-cache"]
        length = ["-N", N] if N else []
        return [*env, *ipsoeval_cmd(), "interval-map", "-m", measure, *length, *gains,
                *cache, *extra, "--format", "tsv", *ctx.qrels_and_runs()]
    return argv


def _case(slug: str, measure: str, seconds: float, cached: bool = False,
          peak_gb: float = 6) -> Case:
    how = ("reusing the on-disk cache (the first repetition writes it: the answers, about "
           "120 KB; target <= 1 GB)" if cached else "cold, no cache")
    return Case(
        name=f"interval-map-{slug}",
        description=(f"interval-map -m {measure} -N 30 on 129 runs x 50 topics, binary "
                     f"relevance, {how}; the whole process, reading and aligning the runs "
                     f"included."),
        data="adhoc",
        tools={"ipsoeval": Tool(_cmd(measure, cached=cached), smoke=measure != "AP")},
        targets=[Target(f"time <= {seconds:g} s", max_seconds=seconds),
                 Target(f"peak <= {peak_gb:g} GB", max_peak_mb=peak_gb * 1024)],
    )


def _graded(slug: str, *extra: str) -> Case:
    return Case(
        name=f"interval-map-nDCG10-graded{slug}",
        description=(" ".join(["interval-map -m nDCG@10 --gains 0:0,1:1,2:3", *extra]) +
                     " on 129 runs x 50 topics (graded qrels 0/1/2; 3^10 runs, 36,936 values "
                     "in the universe of all runs), cold; the whole process."),
        data="adhoc",
        tools={"ipsoeval": Tool(_cmd("nDCG@10", *extra, gains=GRADED, N=None))},
        targets=[Target("time <= 10 s", max_seconds=10)],
    )


CASES = [
    _case("P30", "P", 30),
    _case("R30", "R", 30),
    _case("RR30", "RR", 30),
    _case("RBP08-30", "RBP(p=0.8)", 30),
    _case("DCGb2-30", "DCG(b=2)", 30),
    _case("nDCGb2-30", "nDCG(b=2)", 30),
    _case("AP30", "AP", 30, peak_gb=2),
    _case("AP30-cached", "AP", 30, cached=True, peak_gb=2),
    _graded(""),
    _graded("-attainable", "--universe", "attainable"),
]
