"""Cases for ``ipsoeval interval-map``: the maps of a whole ad hoc track
(129 runs x 50 topics) at run length N = 30, binary relevance, one measure
per case (issue 6 targets: 3 min for AP, 30 s for each other measure, 6 GB
peak, cold; cached maps cost under a second)."""

from harness import BENCH_DIR, Case, Context, Target, Tool, ipsoeval_cmd

CACHE = BENCH_DIR / "data" / "interval-map-cache"
BINARY = ["--gains", "0:0,1:1,2:1"]          # graded 0/1/2 qrels made binary (the paper's lenient mapping)




def _cmd(measure: str, *extra: str, cached: bool = False):
    def argv(ctx: Context):
        env = ["env", f"IPSOEVAL_CACHE_DIR={CACHE}"] if cached else []
        cache = [] if cached else ["--no-cache"]
        return [*env, *ipsoeval_cmd(), "interval-map", "-m", measure, "-N", "30", *BINARY,
                *cache, *extra, "--format", "tsv", *ctx.qrels_and_runs()]
    return argv


def _case(slug: str, measure: str, seconds: float, cached: bool = False) -> Case:
    how = "reusing the on-disk cache (the first repetition builds it)" if cached else "cold, no cache"
    return Case(
        name=f"interval-map-{slug}",
        description=(f"interval-map -m {measure} -N 30 on 129 runs x 50 topics, binary "
                     f"relevance, {how}; the whole process, reading and aligning the runs "
                     f"included."),
        data="adhoc",
        tools={"ipsoeval": Tool(_cmd(measure, cached=cached))},
        targets=[Target(f"time <= {seconds:g} s", max_seconds=seconds),
                 Target("peak <= 6 GB", max_peak_mb=6 * 1024)],
    )


CASES = [
    _case("P30", "P", 30),
    _case("R30", "R", 30),
    _case("RR30", "RR", 30),
    _case("RBP08-30", "RBP(p=0.8)", 30),
    _case("DCGb2-30", "DCG(b=2)", 30),
    _case("nDCGb2-30", "nDCG(b=2)", 30),
    _case("AP30", "AP", 180),
    _case("AP30-cached", "AP", 30, cached=True),
]
