"""``ipsoeval leaderboard``: a leaderboard that says which differences are real.

Input: per-topic score matrices (runs × topics) per measure.  Per measure:

- each run's mean with its t confidence interval (``--ci``);
- every pair of runs tested with the **randomised Tukey HSD** (Carterette
  2012, TOIS 30(1); Sakai 2018): one null distribution, the range of the
  run means when each topic's scores are permuted across the runs, serves
  every pair, so the family-wise error rate over all k(k−1)/2 pairs is
  controlled (:mod:`ipsoeval.stats.randhsd`);
- beside it Tukey HSD from the two-way ANOVA without replication (runs ×
  topics residual mean square, studentized range p-values;
  :func:`ipsoeval.stats.omnibus.tukey_hsd`, design ``anova2``);
- a **compact letter display** of the randomised HSD decisions (Piepho 2004;
  :mod:`ipsoeval.stats.letters`): runs sharing a letter are not significantly
  different;
- the **rank interval** of each run from the same decisions: from 1 + the
  number of runs significantly better to k − the number significantly worse
  (the ranks the tests cannot rule out; simultaneous, like the tests);
- the **top group**: the runs not significantly different from the run with
  the best mean (itself included);
- the **rank resolution**: the share of the k(k−1)/2 pairs separated at
  ``--alpha``.

Topics where a run has no score (NaN) are left out for every run (the
permutation test needs a complete runs × topics block); a warning says how many.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ipsoeval.analyses.bootstrap.resample import MeasureInput  # one measure's scores, shared
from ipsoeval.analyses.leaderboard.options import MAX_SAMPLES, Options
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats.scales import permissible_route

__all__ = ["Options", "MeasureInput", "analyse", "run", "estimate_seconds", "COLUMNS",
           "PAIR_COLUMNS", "RESOLUTION_COLUMNS", "MAX_SAMPLES", "TEST"]

COMMAND = "leaderboard"
TEST = "randhsd"             # the registry's name of the randomised Tukey HSD

COLUMNS = ["run", "measure", "rank", "mean", "ci_low", "ci_high", "rank_best", "rank_worst",
           "letters", "top_group", "n"]
PAIR_COLUMNS = ["run_a", "run_b", "measure", "mean_a", "mean_b", "diff", "p_value",
                "significant", "tukey_statistic", "tukey_p_value", "tukey_significant",
                "permissible"]
RESOLUTION_COLUMNS = ["measure", "n", "n_runs", "n_pairs", "n_separated", "resolution",
                      "n_tukey_separated", "tukey_resolution", "best", "n_top_group",
                      "n_letters", "permissible", "permissible_route"]

# Cells (runs × topics × samples) per second and thread, measured on the bench
# machine (bench case leaderboard-100x5000); only for the estimate shown before
# long work.
RATE_COMPILED = 3.0e8
RATE_NUMPY = 1.3e7

Progress = Callable[[int, int], None]


def estimate_seconds(runs: int, topics: int, samples: int, measures: int = 1) -> float:
    """Rough wall time of the permutation samples on this machine."""
    from ipsoeval.parallel import workers
    from ipsoeval.stats import randhsd

    rate = RATE_COMPILED if randhsd.compiled() else RATE_NUMPY
    return float(runs) * topics * samples * measures / (rate * max(1, min(workers(), 2)))


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _phase(progress: Progress | None, index: int, count: int) -> Progress | None:
    """Progress of measure ``index`` of ``count`` as a share of the whole."""
    if progress is None:
        return None

    def cb(done: int, total: int) -> None:
        frac = 0.0 if total <= 0 else min(done / total, 1.0)
        progress(int(round((index + frac) * 1000)), count * 1000)
    return cb


def _one(runs: list[str], m: MeasureInput, options: Options, progress: Progress | None,
         warnings: list[str]) -> tuple[list[dict], list[dict], dict]:
    from ipsoeval.analyses.bootstrap.resample import rank_min, tie_tolerance
    from ipsoeval.stats import letters as cld
    from ipsoeval.stats import omnibus, randhsd, registry
    from ipsoeval.stats.descriptive import mean_ci

    X = np.asarray(m.scores, dtype=np.float64)
    k, T = X.shape
    keep = ~np.isnan(X).any(axis=0)
    n = int(keep.sum())
    if n < T:
        warnings.append(f"{m.name}: {T - n} of {T} topics have no score for some run; "
                        f"left out for every run (the tests need every run on every topic)")
    if n == 0:
        raise UsageError(f"{m.name}: no topic has a score for every run")
    X = np.ascontiguousarray(X[:, keep])
    tol = tie_tolerance(X)
    sign = 1.0 if m.higher_is_better else -1.0
    mean, lo, hi = mean_ci(X, options.ci)
    rank = rank_min(sign * mean, tol)
    order = [int(i) for i in np.lexsort((np.arange(k), rank))]     # best first, input order
    perm_ok = registry.permissible(m.scale, TEST)

    null = registry.get(TEST).function(X, samples=options.samples, seed=options.seed,
                                       progress=progress)
    P = randhsd.pvalues(mean, null, tol)
    sig = P < options.alpha
    np.fill_diagonal(sig, False)
    tk = omnibus.tukey_hsd(X, "anova2")
    tp = tk.pvalue
    tsig = np.nan_to_num(tp, nan=1.0) < options.alpha
    np.fill_diagonal(tsig, False)
    if not np.isfinite(tk.se) or tk.se == 0:
        warnings.append(f"{m.name}: Tukey HSD from the ANOVA is undefined (zero residual "
                        f"variance or one topic); its p-values are empty")

    shows = cld.letters(sig, order)
    best = order[0]
    better = (sign * (mean[None, :] - mean[:, None]) > tol)          # [i, j]: j better than i
    rank_low = 1 + (sig & better).sum(axis=1)
    rank_high = k - (sig & better.T).sum(axis=1)

    rows = []
    for pos, i in enumerate(order):
        rows.append({"run": runs[i], "measure": m.name, "rank": int(rank[i]),
                     "mean": _f(mean[i]), "ci_low": _f(lo[i]), "ci_high": _f(hi[i]),
                     "rank_best": int(rank_low[i]), "rank_worst": int(rank_high[i]),
                     "letters": shows[i], "top_group": bool(not sig[best, i]), "n": n})
    pairs = []
    for x in range(k):
        for y in range(x + 1, k):
            a, b = order[x], order[y]
            pairs.append({"run_a": runs[a], "run_b": runs[b], "measure": m.name,
                          "mean_a": _f(mean[a]), "mean_b": _f(mean[b]),
                          "diff": _f(mean[b] - mean[a]), "p_value": _f(P[a, b]),
                          "significant": bool(sig[a, b]),
                          "tukey_statistic": _f(abs(tk.statistic[a, b])),
                          "tukey_p_value": _f(tp[a, b]),
                          "tukey_significant": bool(tsig[a, b]), "permissible": perm_ok})
    npairs = k * (k - 1) // 2
    sep = int(np.triu(sig, 1).sum())
    tsep = int(np.triu(tsig, 1).sum())
    tokens = {t for s in shows for t in cld.parse(s)}
    summary = {"measure": m.name, "n": n, "n_runs": k, "n_pairs": npairs, "n_separated": sep,
               "resolution": sep / npairs, "n_tukey_separated": tsep,
               "tukey_resolution": tsep / npairs, "best": runs[best],
               "n_top_group": int((~sig[best]).sum()), "n_letters": len(tokens),
               "permissible": perm_ok,
               "permissible_route": permissible_route(m.name, m.scale, k)}
    return rows, pairs, summary


def analyse(runs: list[str], topics: int, measures: list[MeasureInput], options: Options,
            progress: Progress | None = None) -> Report:
    """The Report: tables ``leaderboard`` (primary; one row per run and
    measure, best first), ``pairs`` (one row per pair of runs and measure, the
    better-placed run as A; diff = B − A) and ``resolution`` (one row per
    measure)."""
    from ipsoeval.stats import registry
    options.check(list(runs))
    if not measures:
        raise UsageError("leaderboard needs a measure")
    warnings: list[str] = []
    notes: list[str] = []         # what a measure's scale implies: not a warning
    rows: list[dict] = []
    pairs: list[dict] = []
    summary: list[dict] = []
    for idx, m in enumerate(measures):
        X = np.asarray(m.scores)
        if X.shape != (len(runs), topics):
            raise ValueError(f"scores of {m.name} have shape {X.shape}, "
                             f"expected {(len(runs), topics)}")
        r, p, s = _one(list(runs), m, options, _phase(progress, idx, len(measures)), warnings)
        rows += r
        pairs += p
        summary.append(s)
        scale = m.scale
        if registry_permissible(scale) is False:
            route = permissible_route(m.name, scale, len(runs))
            notes.append(f"{m.name}: its scale is {scale}; the tests compare means, which "
                            f"needs an interval scale (results marked permissible = false)"
                            + (f"; permissible: {route}" if route else ""))
    if progress is not None:
        progress(1, 1)
    params = dict(options.as_params())
    params.update({
        "runs": list(runs), "measures": [m.name for m in measures], "topics": topics,
        "test": "randomised Tukey HSD: each topic's scores permuted across the runs; "
                "p = (#{range of run means >= |diff|} + 1) / (samples + 1)",
        "tukey": "Tukey HSD from the two-way ANOVA (runs x topics), studentized range",
        "family": "all pairs of runs of a measure (family-wise)",
        "significant": "p_value < alpha",
        "rank_interval": "1 + runs significantly better .. runs - runs significantly worse "
                         "(randomised HSD)",
        "rank_note": registry.RANK_BEST_WORST_NOTE,
        "test_note": registry.describe_choice(
            {m.name: (TEST, m.scale) for m in measures},
            fixed_by="leaderboard's method: every pair at once, family-wise"),
        "letters": "compact letter display of the randomised HSD decisions (Piepho 2004): "
                   "runs sharing a letter are not significantly different",
        "top_group": "not significantly different from the run with the best mean",
        "ci": "t interval of the mean",
        "scales": {m.name: m.scale for m in measures},
        "rng": "splitmix64 counter stream per sample (ipsoeval/stats/randhsd.py)",
    })
    a = options.alpha
    tables = [
        ResultSet(COMMAND, list(COLUMNS), rows, params=params, id="leaderboard",
                  title=f"Leaderboard: means with {options.ci:.0%} CIs; letters and the ranks "
                        f"consistent with the groups (rank_best..rank_worst) from the "
                        f"randomised Tukey HSD ({options.samples:,} samples, "
                        f"alpha {a:g}); runs sharing a letter are not significantly different",
                  description="per run and measure, best first: mean, CI, rank, the ranks "
                              "consistent with the HSD groups (rank_best..rank_worst), "
                              "letters, whether in the top group",
                  table_hints={"digits": 4,
                               "cell_styles": {"top_group": {"yes": "bold green"}},
                               "paper": {
                                   "columns": ["run", "measure", "mean", "ci", "letters",
                                               "ranks", "top_group"],
                                   "join": {"ci": ["ci_low", "ci_high", "interval"],
                                            "ranks": ["rank_best", "rank_worst", "range"]},
                                   "labels": {"ci": f"{options.ci:.0%} CI",
                                              "letters": "group", "ranks": "rank",
                                              "top_group": "top group"}}}),
        ResultSet(COMMAND, list(PAIR_COLUMNS), pairs, params=dict(params), id="pairs",
                  title=f"All pairs (diff = B − A): randomised Tukey HSD and Tukey HSD from "
                        f"the two-way ANOVA, alpha {a:g}",
                  description="per pair of runs and measure: the randomised Tukey HSD p-value "
                              "and Tukey HSD's q and p-value",
                  table_hints={"digits": 4,
                               "cell_styles": {"significant": {"yes": "bold green"},
                                               "tukey_significant": {"yes": "bold green"},
                                               "permissible": {"no": "bold red"}}}),
        ResultSet(COMMAND, list(RESOLUTION_COLUMNS), summary, params=dict(params),
                  id="resolution",
                  title=f"Rank resolution: pairs separated at alpha {a:g}",
                  description="per measure: pairs separated by each test and their share, "
                              "the best run and the size of its group, letters used",
                  # the paper's view: no permissible_route (shell commands; the
                  # notes name them) and only the randomised HSD's separations
                  table_hints={"digits": 4, "paper": {
                      "columns": ["measure", "n", "n_runs", "n_pairs", "n_separated",
                                  "resolution", "best", "n_top_group", "permissible"],
                      "labels": {"n": "topics", "n_runs": "runs", "n_pairs": "pairs",
                                 "n_separated": "separated", "n_top_group": "top group"}}}),
    ]
    return Report(COMMAND, tables, primary="leaderboard", warnings=warnings,
                  display=["leaderboard", "resolution"], notes=notes)


def registry_permissible(scale: str | None) -> bool | None:
    from ipsoeval.stats import registry
    return registry.permissible(scale, TEST)


def run(scores, options: Options, progress: Progress | None = None) -> Report:
    """The analysis on an :class:`ipsoeval.engine.Scores` (every requested measure)."""
    from ipsoeval.stats.scales import measure_scale

    mask = scores.mask()
    inputs = []
    for meas in scores.distinct_measures:
        agg = getattr(meas, "agg", "mean")
        if agg not in ("mean", "mean_defined"):
            raise UsageError(f"leaderboard compares means; {meas.name} is aggregated as a "
                             f"{agg}")
        x = np.array(scores.matrix(meas.name), dtype=np.float64)
        x[~mask] = np.nan                  # topics a run lacks (--queries intersection)
        inputs.append(MeasureInput(meas.name, x, bool(meas.higher_is_better),
                                   measure_scale(meas, scores.aligned)[0]))
    from ipsoeval.engine import with_score_warnings
    return with_score_warnings(
        analyse(list(scores.runs), len(scores.topics), inputs, options, progress=progress),
        scores)
