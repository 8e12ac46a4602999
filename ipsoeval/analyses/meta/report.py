"""``ipsoeval meta``: which measure to report -- measures compared over a set
of runs.

Input: per-topic score matrices (runs × topics) per measure, from
``engine.evaluate`` or ``--scores``.  Every pair of runs is compared.

- **Discriminative power** (Sakai, SIGIR 2006): per measure and test (the
  test registry's two-sample tests), the share of run pairs whose p-value
  (the achieved significance level, ASL; ``--correct`` adjusted over the
  pairs of one measure and test) is below α.  Table ``asl``: the p-values of
  every pair sorted ascending, the paper's ASL curve.
- **Swap rate** (Voorhees and Buckley, SIGIR 2002): :mod:`.swap`; tables
  ``swap`` (per bin of the difference on the first half) and, per measure,
  the overall rate and the smallest difference from which every bin's rate
  is at most ``swap_limit`` (Sakai 2006's "swap method" reading).
- **Rank correlation** of the rankings of the runs by mean score that two
  measures give: Kendall's τ_b (``scipy.stats.kendalltau``) and τ_AP
  (Yilmaz et al. 2008, :func:`ipsoeval.stats.rankcorr.tau_ap`) both ways.

Tables: ``summary`` (primary: per measure and test, discriminative power,
swap rate, the smallest safe difference and the measure's rank by
discriminative power), ``asl``, ``swap``, ``correlation``.
"""

from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np

from ipsoeval.analyses.meta import DEFAULT_TESTS, TESTS
from ipsoeval.analyses.meta import swap as sw
from ipsoeval.analyses.meta.options import (  # noqa: F401  (the analysis's names)
    MAX_SAMPLES,
    MAX_SPLITS,
    Options,
    parse_tests,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import rankcorr, registry

__all__ = ["Options", "run", "run_aligned", "parse_tests", "ranking_scores", "TESTS", "DEFAULT_TESTS", "SUMMARY_COLUMNS",
           "ASL_COLUMNS", "SWAP_COLUMNS", "CORRELATION_COLUMNS"]

SUMMARY_COLUMNS = ["measure", "test", "pairs", "significant", "discriminative_power", "rank",
                   "swap_rate", "min_difference", "permissible"]
ASL_COLUMNS = ["measure", "test", "rank", "run_a", "run_b", "diff", "p_value", "p_adjusted",
               "significant"]
SWAP_COLUMNS = ["measure", "bin_low", "bin_high", "comparisons", "swaps", "swap_rate"]
CORRELATION_COLUMNS = ["measure_a", "measure_b", "runs", "kendall_tau", "tau_ap_ab",
                       "tau_ap_ba", "tau_ap"]
CALIBRATION_SAMPLES = 1000
ESTIMATE_AFTER_SECONDS = 10.0
# resampled (pair, topic) cells per second, slower than any machine: the
# randomization and bootstrap tests ran 2.9e8 to 4.8e9 on the bench machine
# (66 pairs x 50 or 2,000 topics); below ESTIMATE_AFTER_SECONDS at this rate
# the calibration run (~20 ms for 12 runs x 50 topics) is left out
MIN_CELL_RATE = 1.0e7


def tau_ap(x, y) -> float:
    """τ_AP of the ranking by ``x`` against ``y``'s as the reference
    (:func:`ipsoeval.stats.rankcorr.tau_ap`); empty (NaN) where either ranking
    has ties or a value is missing: meta reports the paper's coefficient only
    (agree reports the expectation over tie orders)."""
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    y = np.asarray(y, dtype=np.float64).reshape(-1)
    if x.shape != y.shape:
        raise ValueError(f"x and y differ in length ({x.size} vs {y.size})")
    if (x.size < 2 or np.isnan(x).any() or np.isnan(y).any()
            or _tied(x) or _tied(y)):
        return math.nan
    return float(rankcorr.tau_ap(y, x))


def _tied(v: np.ndarray) -> bool:
    """Whether two values of ``v`` (no NaN) are equal: ``np.unique(v).size <
    v.size`` without np.unique, which imports numpy.ma (~10 ms)."""
    s = np.sort(v)
    return bool((s[1:] == s[:-1]).any())

def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def ranking_scores(M: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Each run's mean over the topics where its score is defined, signed so
    that higher is better."""
    from ipsoeval import mean as one_mean
    M = np.asarray(M, dtype=np.float64)
    mean = np.asarray(one_mean.means(M, skip_nan=True), dtype=np.float64).reshape(M.shape[0])
    return mean if higher_is_better else -mean


def _estimate(matrices, pairs_a, pairs_b, options: Options) -> float:
    """Seconds the resampling tests would take: one timed run with
    CALIBRATION_SAMPLES resamples, scaled (the tests by scale are never
    resampling ones)."""
    resampling = [t for t in options.tests if registry.get(t).resampling]
    if not resampling or options.samples <= CALIBRATION_SAMPLES:
        return 0.0
    M = next(iter(matrices.values()))
    cells = len(pairs_a) * M.shape[1] * options.samples * len(resampling) * len(matrices)
    if cells < MIN_CELL_RATE * ESTIMATE_AFTER_SECONDS:
        return 0.0                  # surely under ESTIMATE_AFTER_SECONDS: no timed run
    t0 = time.perf_counter()
    registry.run(resampling[0], M[pairs_a], M[pairs_b], samples=CALIBRATION_SAMPLES,
                 seed=options.seed)
    per = (time.perf_counter() - t0) * options.samples / CALIBRATION_SAMPLES
    return per * len(resampling) * len(matrices)


def run(runs: list[str], matrices: dict[str, np.ndarray], options: Options, *,
        higher_is_better: dict[str, bool] | None = None,
        scales: dict[str, str | None] | None = None, progress: Callable | None = None,
        estimate: Callable[[float, str], None] | None = None) -> Report:
    """The Report of ``meta``.  ``estimate(seconds, what)`` is called before the
    work when it is expected to take more than ESTIMATE_AFTER_SECONDS."""
    from ipsoeval.stats.corrections import adjust

    options.check()
    R = len(runs)
    if R < 3:
        raise UsageError(f"meta needs at least three runs to compare measures over their "
                         f"pairs (got {R})")
    higher = higher_is_better or {}
    scales = scales or {}
    names = list(matrices)
    mats = {m: np.asarray(matrices[m], dtype=np.float64) for m in names}
    n_topics = next(iter(mats.values())).shape[1]
    ia, ib = np.triu_indices(R, 1)
    warnings: list[str] = []
    # --test's tests, else each measure's by scale: the one policy of every command
    tests_of = {m: list(options.tests) or [registry.default_for(scales.get(m), TESTS)]
                for m in names}
    all_tests = list(dict.fromkeys(t for m in names for t in tests_of[m]))
    test_note = registry.describe_choice(
        {m: (tests_of[m][0], scales.get(m)) for m in names}, given=bool(options.tests)) \
        if len(options.tests) <= 1 else \
        f"Tests: {', '.join(options.tests)} (named by --test)."
    total = sum(len(tests_of[m]) for m in names) + len(names)
    step = [0]

    def tick(k: float = 1.0) -> None:
        step[0] += k
        if progress is not None:
            progress(min(step[0], total), total)

    if estimate is not None:
        secs = _estimate(mats, ia, ib, options)
        if secs > ESTIMATE_AFTER_SECONDS:
            estimate(secs, f"{len(ia)} pairs x {len(names)} measure(s) x "
                           f"{options.samples:,} resamples")

    # --- discriminative power and ASL curves -----------------------------------------
    summary: list[dict] = []
    asl: list[dict] = []
    undefined: dict[str, int] = {}
    for m in names:
        M = mats[m]
        A, B = M[ia], M[ib]
        D = B - A
        ok = ~np.isnan(D)
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = np.where(ok.any(axis=1), np.where(ok, D, 0.0).sum(axis=1)
                            / np.maximum(ok.sum(axis=1), 1), np.nan)
        for test in tests_of[m]:
            res = registry.run(test, A, B, samples=options.samples, seed=options.seed)
            p = np.asarray(res.pvalue, dtype=np.float64).reshape(-1)
            bad = int(np.isnan(p).sum())
            if bad:
                undefined[test] = undefined.get(test, 0) + bad
            padj = adjust(p, options.correct)
            sig = ~np.isnan(padj) & (padj < options.alpha)
            order = np.lexsort((np.arange(p.size), np.where(np.isnan(p), np.inf, p)))
            for r, k in enumerate(order.tolist()):
                asl.append({"measure": m, "test": test, "rank": r + 1, "run_a": runs[ia[k]],
                            "run_b": runs[ib[k]], "diff": _f(diff[k]), "p_value": _f(p[k]),
                            "p_adjusted": _f(padj[k]), "significant": bool(sig[k])})
            summary.append({"measure": m, "test": test, "pairs": int(p.size),
                            "significant": int(sig.sum()),
                            "discriminative_power": float(sig.sum()) / p.size,
                            "rank": None, "swap_rate": None, "min_difference": None,
                            "permissible": registry.permissible(scales.get(m), test)})
            tick()
    for test in all_tests:
        rows = [r for r in summary if r["test"] == test]
        ordered = sorted(rows, key=lambda r: -r["discriminative_power"])
        for r in rows:   # competition ranking: ties share the best rank
            r["rank"] = 1 + sum(1 for o in ordered
                                if o["discriminative_power"] > r["discriminative_power"])
    for test, count in undefined.items():
        warnings.append(f"{test}: p-value undefined for {count} comparison(s) (e.g. zero "
                        f"variance of the differences); counted as not significant")

    # --- swap rates ------------------------------------------------------------------
    swap_rows: list[dict] = []
    h = n_topics // 2
    if options.set_size is not None:
        if options.set_size > h:
            raise UsageError(f"--set-size {options.set_size} is more than half of the "
                             f"{n_topics} topics (two disjoint sets are drawn)")
        h = options.set_size
    if h < 1:
        warnings.append("fewer than 2 topics: no swap rate (the halves would be empty)")
        tick(len(names))
    else:
        base = step[0]

        def swap_progress(done: int, count: int) -> None:
            step[0] = base + len(names) * done / count
            if progress is not None:
                progress(min(step[0], total), total)

        counts = sw.counts(mats, options.splits, options.seed, options.bin_width,
                           progress=swap_progress, set_size=h)
        for m in names:
            comp, swaps, ties = counts[m]
            for k in np.flatnonzero(comp).tolist():
                swap_rows.append({"measure": m, "bin_low": _f(k * options.bin_width),
                                  "bin_high": _f((k + 1) * options.bin_width),
                                  "comparisons": int(comp[k]), "swaps": int(swaps[k]),
                                  "swap_rate": float(swaps[k]) / float(comp[k])})
            ctot = int(comp.sum())
            rate = float(swaps.sum()) / ctot if ctot else None
            mind = sw.min_difference(comp, swaps, options.bin_width, options.swap_limit)
            for r in summary:
                if r["measure"] == m:
                    r["swap_rate"] = rate
                    r["min_difference"] = mind

    # --- rank correlations -----------------------------------------------------------
    corr: list[dict] = []
    rank_scores = {m: ranking_scores(mats[m], higher.get(m, True)) for m in names}
    tied = set()
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            x, y = rank_scores[a], rank_scores[b]
            ok = ~(np.isnan(x) | np.isnan(y))
            kt = math.nan
            if ok.sum() >= 2:
                with np.errstate(invalid="ignore", divide="ignore"):
                    kt = rankcorr.kendall_tau_b(x[ok], y[ok], snap=False)
            ab, ba = tau_ap(x[ok], y[ok]), tau_ap(y[ok], x[ok])
            for nm, v in ((a, x[ok]), (b, y[ok])):
                if _tied(v):
                    tied.add(nm)
            corr.append({"measure_a": a, "measure_b": b, "runs": int(ok.sum()),
                         "kendall_tau": _f(kt), "tau_ap_ab": _f(ab), "tau_ap_ba": _f(ba),
                         "tau_ap": _f((ab + ba) / 2.0)})
    if tied:
        warnings.append(f"runs tie on the mean of {', '.join(sorted(tied))}: tau_ap is "
                        f"defined for rankings without ties (Yilmaz et al. 2008) and is empty "
                        f"there; kendall_tau is tau_b, which handles ties")

    params = {
        "runs": list(runs), "measures": names, "topics": n_topics, "pairs": int(len(ia)),
        "tests": list(options.tests) or {m: tests_of[m][0] for m in names},
        "test_note": test_note, "alpha": options.alpha, "correction": options.correct,
        "correction_family": "the run pairs of one measure and test",
        "significant": "p_adjusted < alpha", "alternative": "two-sided",
        "samples": options.samples, "seed": options.seed, "splits": options.splits,
        "set_size": h, "bin_width": options.bin_width, "swap_limit": options.swap_limit,
        "swap": "d1*d2 < 0 on two disjoint random halves; comparisons with d1 = 0 left out",
        "min_difference": "smallest bin edge from which every bin's swap rate is at most "
                          "swap_limit",
        "ranking": "runs by mean score (higher is better; lower-is-better measures negated)",
        "tau_ap_ab": "tau_ap of the ranking by measure_a against measure_b's as reference",
        "scales": {m: scales.get(m) for m in names},
    }
    tables = [
        ResultSet(command="meta", columns=list(SUMMARY_COLUMNS), records=summary,
                  params=params, id="summary",
                  title="Measures compared: discriminative power (Sakai 2006), swap rate "
                        "(Voorhees & Buckley 2002)",
                  description="per measure and test: share of run pairs significant, rank "
                              "by it, swap rate and the difference with few swaps",
                  table_hints={"digits": 4}),
        ResultSet(command="meta", columns=list(ASL_COLUMNS), records=asl, params=dict(params),
                  id="asl", title="Achieved significance levels, sorted (ASL curves)",
                  description="per measure and test, the p-value of every run pair, "
                              "ascending", table_hints={"digits": 4}),
        ResultSet(command="meta", columns=list(SWAP_COLUMNS), records=swap_rows,
                  params=dict(params), id="swap",
                  title="Swaps per bin of the difference on the first half",
                  description="per measure and bin of |difference| on one half, the share "
                              "of comparisons the other half orders the other way",
                  table_hints={"digits": 4}),
        ResultSet(command="meta", columns=list(CORRELATION_COLUMNS), records=corr,
                  params=dict(params), id="correlation",
                  title="Rank correlation of the run rankings of two measures",
                  description="per pair of measures: Kendall's tau_b and tau_ap both ways "
                              "and their mean", table_hints={"digits": 4}),
    ]
    return Report("meta", tables, primary="summary", warnings=warnings,
                  display=["summary", "correlation"])


def run_aligned(aligned, measures, options: Options, progress=None, estimate=None) -> Report:
    """Evaluate ``measures`` on ``aligned`` and run :func:`run`."""
    from ipsoeval.analyses.power.report import evaluated
    options.check()
    found: list[str] = []
    mats, higher, scales = evaluated(aligned, measures, found)
    out = run(list(aligned.runs), mats, options, higher_is_better=higher, scales=scales,
              progress=progress, estimate=estimate)
    out.warnings[:0] = [w for w in found if w not in out.warnings]
    return out
