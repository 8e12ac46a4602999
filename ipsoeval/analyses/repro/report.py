"""``ipsoeval repro``: how close a reproduced (same collection) or replicated
(another collection) experiment comes to the original one -- the measures of
Breuer et al., SIGIR 2020, as repro_eval 0.5.0 computes them (:mod:`.order`,
:mod:`.effects`), with bootstrap intervals beside.

Tables of the Report:

- ``repro`` (primary): per measure, ER and Delta RI with their intervals and
  whether the reproduced effect is distinguishable from the original one;
- ``tests``: per measure and run (baseline, advanced): the original and
  reproduced means, their difference and its interval, RMSE, nRMSE and the t
  test;
- ``order``: per run, the mean KTU and RBO over the topics;
- ``order_topics``: per run and topic, KTU and RBO;
- ``scores``: per measure and topic, the four runs' scores;
- ``verdict``: per measure, one sentence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ipsoeval.analyses.repro import effects
from ipsoeval.analyses.repro.options import Options
from ipsoeval.results import Report, ResultSet

__all__ = ["Options", "MeasureScores", "OrderResult", "run", "REPRO_COLUMNS",
           "TESTS_COLUMNS"]

REPRO_COLUMNS = ["measure", "n", "n_rep", "er", "er_low", "er_high", "dri", "dri_low",
                 "dri_high", "distinguishable"]
TESTS_COLUMNS = ["measure", "run", "test", "mean_orig", "mean_rep", "diff", "diff_low",
                 "diff_high", "rmse", "nrmse", "t", "df", "p_value"]
ORDER_COLUMNS = ["run", "n", "ktu", "rbo", "uneven"]
ORDER_TOPIC_COLUMNS = ["run", "qid", "ktu", "rbo"]
SCORE_COLUMNS = ["measure", "qid", "orig_baseline", "orig_advanced", "rep_baseline",
                 "rep_advanced"]


@dataclass
class MeasureScores:
    """One measure's per-topic scores: the original runs on ``topics``, the
    reproduced ones on ``rep_topics`` (the same list when paired)."""

    name: str
    topics: list[str]
    ob: np.ndarray
    oa: np.ndarray
    rep_topics: list[str]
    rb: np.ndarray
    ra: np.ndarray


@dataclass
class OrderResult:
    """KTU and RBO of one run (baseline or advanced) against its reproduction."""

    run: str
    topics: list[str]
    ktu: np.ndarray
    rbo: np.ndarray
    uneven: np.ndarray


def _f(x) -> float | None:
    x = float(x)
    return None if math.isnan(x) else x


def _nanmean(x: np.ndarray) -> float | None:
    x = np.asarray(x, float)
    ok = ~np.isnan(x)
    return _f(np.mean(x[ok])) if ok.any() else None


def _verdict(m: str, er, lo, hi, alpha: float, effect=None) -> str:
    """The measure's sentence: whether the reproduced effect is
    distinguishable from the original one (its numbers to 4 decimals, to
    ``--digits`` where given)."""
    from functools import partial

    from ipsoeval.results import Composed
    return Composed(_verdict_at(m, er, lo, hi, alpha, effect, 4),
                    partial(_verdict_at, m, er, lo, hi, alpha, effect))


def _verdict_at(m: str, er, lo, hi, alpha: float, effect, digits: int) -> str:
    d = digits
    level = f"{100 * (1 - alpha):g}%"
    if effect is not None:
        return (f"{m}: the reproduced effect is not distinguishable from the original one "
                f"at alpha = {alpha:g}: the original effect itself is not distinguishable "
                f"from 0 (its {level} interval [{effect[0]:.{d}f}, {effect[1]:.{d}f}] includes "
                f"0), so the ratio ER = {er:.{d}f} is not bounded.")
    if lo is None or hi is None:
        return (f"{m}: ER has no interval (the original effect is 0 or the bootstrap "
                f"met an undefined ER), so whether the reproduced effect differs from "
                f"the original one is not known.")
    if lo <= 1.0 <= hi:
        return (f"{m}: the reproduced effect is not distinguishable from the original one "
                f"at alpha = {alpha:g} (ER = {er:.{d}f}, {level} interval [{lo:.{d}f}, "
                f"{hi:.{d}f}] includes 1).")
    side = "smaller" if hi < 1.0 else "larger"
    return (f"{m}: the reproduced effect is distinguishable from the original one at "
            f"alpha = {alpha:g}: it is {side} (ER = {er:.{d}f}, {level} interval "
            f"[{lo:.{d}f}, {hi:.{d}f}] excludes 1).")


def run(scores: list[MeasureScores], options: Options, *, order: list[OrderResult] | None = None,
        names: dict[str, str] | None = None, progress=None) -> Report:
    """The Report of ``repro`` on the per-topic scores of each measure and,
    for reproducibility from runs, the KTU/RBO of each run pair."""
    options.check()
    paired = options.paired
    test = "paired t" if paired else "unpaired t"
    rows, trows, srows, vrows = [], [], [], []
    warnings: list[str] = []
    unbounded_names: list[str] = []
    # measures on the same topics share one draw of them (the same draws as alone)
    boot: dict[int, tuple] = {}
    by_topics: dict[tuple, list[int]] = {}
    for i, ms in enumerate(scores):
        by_topics.setdefault((tuple(ms.topics), tuple(ms.rep_topics)), []).append(i)
    for idx in by_topics.values():
        got = effects.bootstrap_many([(scores[i].ob, scores[i].oa, scores[i].rb, scores[i].ra)
                                      for i in idx], paired=paired, samples=options.samples,
                                     seed=options.seed, alpha=options.alpha)
        boot.update(zip(idx, got))
    for i, ms in enumerate(scores):
        ob, oa, rb, ra = (np.asarray(v, float) for v in (ms.ob, ms.oa, ms.rb, ms.ra))
        er = effects.er(ob, oa, rb, ra)
        dri = effects.dri(ob, oa, rb, ra)
        if not np.mean(oa - ob):
            warnings.append(f"repro: {ms.name}: the original runs' mean difference is 0, so "
                            f"ER is undefined (repro_eval prints inf or nan)")
        theta, low, high = boot[i]
        # an undefined ER (the original effect 0) has no interval either
        lo, hi = (_f(low[0]), _f(high[0])) if math.isfinite(er) else (None, None)
        dist = None if lo is None or hi is None or not math.isfinite(er) \
            else not (lo <= 1.0 <= hi)
        # ER = rep / orig effect: when the original effect's interval holds 0
        # the ratio's confidence set is unbounded (Fieller 1954) and holds 1
        unbounded = bool(low[4] <= 0.0 <= high[4]) and math.isfinite(er)
        if unbounded:           # the bootstrap quantiles of such a ratio mean nothing
            dist = False
            lo, hi = -math.inf, math.inf
        rows.append({"measure": ms.name, "n": len(ob), "n_rep": len(rb), "er": _f(er),
                     "er_low": lo, "er_high": hi, "dri": _f(dri),
                     "dri_low": _f(low[1]), "dri_high": _f(high[1]),
                     "distinguishable": dist})
        vrows.append({"measure": ms.name,
                      "verdict": _verdict(ms.name, er, lo if dist is not None else None,
                                          hi if dist is not None else None, options.alpha,
                                          (low[4], high[4]) if unbounded else None)})
        if unbounded:
            unbounded_names.append(ms.name)
        for k, (role, o, r) in enumerate((("baseline", ob, rb), ("advanced", oa, ra))):
            t, df, p = effects.ttest(o, r, paired)
            trows.append({"measure": ms.name, "run": role, "test": test,
                          "mean_orig": _f(np.mean(o)), "mean_rep": _f(np.mean(r)),
                          "diff": _f(theta[2 + k]), "diff_low": _f(low[2 + k]),
                          "diff_high": _f(high[2 + k]),
                          "rmse": _f(effects.rmse(o, r)) if paired else None,
                          "nrmse": _f(effects.nrmse(o, r)) if paired else None,
                          "t": _f(t), "df": _f(df), "p_value": _f(p)})
        if paired:
            for j, q in enumerate(ms.topics):
                srows.append({"measure": ms.name, "qid": q, "orig_baseline": _f(ob[j]),
                              "orig_advanced": _f(oa[j]), "rep_baseline": _f(rb[j]),
                              "rep_advanced": _f(ra[j])})
        else:
            at_o = {q: j for j, q in enumerate(ms.topics)}
            at_r = {q: j for j, q in enumerate(ms.rep_topics)}
            for q in sorted(set(at_o) | set(at_r), key=lambda s: s.encode()):
                jo, jr = at_o.get(q), at_r.get(q)
                srows.append({"measure": ms.name, "qid": q,
                              "orig_baseline": None if jo is None else _f(ob[jo]),
                              "orig_advanced": None if jo is None else _f(oa[jo]),
                              "rep_baseline": None if jr is None else _f(rb[jr]),
                              "rep_advanced": None if jr is None else _f(ra[jr])})
        if progress is not None:
            progress(i + 1, len(scores))
    orows, otrows = [], []
    for o in order or ():
        uneven = int(np.count_nonzero(o.uneven))
        orows.append({"run": o.run, "n": len(o.topics), "ktu": _nanmean(o.ktu),
                      "rbo": _nanmean(o.rbo), "uneven": uneven})
        for j, q in enumerate(o.topics):
            otrows.append({"run": o.run, "qid": q, "ktu": _f(o.ktu[j]), "rbo": _f(o.rbo[j])})
        if uneven:
            warnings.append(f"repro: {o.run}: {uneven} topic(s) where the original and the "
                            f"reproduced rankings differ in length (cut at --ktu-depth); KTU "
                            f"compares their first min(n, n') documents (repro_eval stops "
                            f"with an error)")
        undefined = int(np.count_nonzero(np.isnan(o.ktu)))
        if undefined:
            warnings.append(f"repro: {o.run}: KTU is undefined on {undefined} topic(s) with "
                            f"fewer than two documents to compare; the mean leaves them out "
                            f"(repro_eval's mean is then nan)")
    level = f"{100 * (1 - options.alpha):g}%"
    params = {"mode": "reproducibility" if paired else "replicability",
              "samples": options.samples, "seed": options.seed, "alpha": options.alpha,
              "ktu_depth": options.ktu_depth, "rbo_p": options.rbo_p,
              "rbo_depth": options.rbo_depth, **(names or {})}
    notes = [
        "repro: the t tests are repro_eval's, named here and outside the scale policy: "
        + ("the paired two-sided t test (scipy's ttest_rel) of each original run against "
           "its reproduction over the topics" if paired else
           "Student's unpaired two-sided t test with pooled variance (scipy's ttest_ind) of "
           "each original run's scores against its replication's")
        + "; p = 1 when the scores are identical",
        f"repro: intervals are {level} BCa bootstrap intervals over {options.samples} "
        + ("resamples of the topics, the same draw for the four runs" if paired else
           "resamples of each collection's topics, drawn independently")
        + ", expanded for the number of topics (Hesterberg 2015)",
    ]
    if unbounded_names:
        notes.append(f"repro: {', '.join(unbounded_names)}: the original effect's interval "
                     f"includes 0, so ER's confidence set is unbounded (Fieller 1954): its "
                     f"interval is given as (-inf, inf)")
    if paired:
        notes.append("repro: nRMSE divides the RMSE by the largest one possible for a "
                     "measure in [0, 1], max(x, 1 - x) per topic")
    title = "Reproducibility" if paired else "Replicability"
    # the layouts of latex and markdown (``paper`` hints; formatters/paper.py):
    # each number over its interval, the t statistic and its df left to tsv
    # (the notes name the test), the verdict's sentence set as a paragraph
    rep = "reproduced" if paired else "replicated"
    paper_repro = {"columns": ["measure", "er_ci", "dri_ci", "distinguishable"],
                   "join": {"er_ci": ["er", "er_low", "er_high", "estimate"],
                            "dri_ci": ["dri", "dri_low", "dri_high", "estimate"]},
                   "labels": {"er_ci": "ER", "dri_ci": "ΔRI"},
                   "caption": f"{title}: effect ratio (ER) and ΔRI (Breuer et al. 2020), "
                              f"each with its {level} bootstrap interval"}
    paper_tests = {"columns": ["measure", "run", "diff_ci",
                               *(["rmse", "nrmse"] if paired else []), "p_value"],
                   "join": {"diff_ci": ["diff", "diff_low", "diff_high", "estimate"]},
                   "labels": {"diff_ci": "difference", "rmse": "RMSE", "nrmse": "nRMSE",
                              "p_value": "p"},
                   "caption": f"{title}: each original run against its {rep} one: the "
                              f"difference of their means with its {level} bootstrap "
                              f"interval"
                              + (", RMSE, nRMSE" if paired else "")
                              + f" and the p-value of the {test} test"}
    view_cols = ["measure", "er", "er_low", "er_high", "dri", "dri_low", "dri_high",
                 "distinguishable"]
    tables = [
        ResultSet("repro", REPRO_COLUMNS, rows, params=dict(params), id="repro",
                  title=f"{title}: effect ratio and Delta RI (Breuer et al. 2020), "
                        f"{level} bootstrap intervals",
                  description="per measure: ER and Delta RI with their bootstrap intervals, "
                              "and whether the reproduced effect is distinguishable from "
                              "the original one",
                  view=ResultSet("repro", view_cols,
                                 [{c: r[c] for c in view_cols} for r in rows],
                                 title=f"{title}: ER and Delta RI (Breuer et al. 2020)",
                                 table_hints={"paper": paper_repro})),
        ResultSet("repro", TESTS_COLUMNS, trows, params=dict(params), id="tests",
                  title=f"{title}: original against reproduced runs",
                  description="per measure and run: the original and reproduced means, their "
                              "difference with its interval, RMSE, nRMSE and repro_eval's t "
                              "test",
                  table_hints={"paper": paper_tests}),
    ]
    if order:
        tables += [
            ResultSet("repro", ORDER_COLUMNS, orows, params=dict(params), id="order",
                      title="Document order: mean Kendall's tau Union and RBO",
                      description="per run: the mean KTU and RBO over the topics between "
                                  "the original and the reproduced rankings",
                      table_hints={"paper": {
                          "columns": ORDER_COLUMNS,
                          "labels": {"n": "topics", "ktu": "KTU", "rbo": "RBO"}}}),
            ResultSet("repro", ORDER_TOPIC_COLUMNS, otrows, params=dict(params),
                      id="order_topics", title="Document order per topic",
                      description="per run and topic: KTU and RBO"),
        ]
    tables += [
        ResultSet("repro", SCORE_COLUMNS, srows, params=dict(params), id="scores",
                  title="Per-topic scores",
                  description="per measure and topic: the scores of the four runs"),
        ResultSet("repro", ["measure", "verdict"], vrows, params=dict(params), id="verdict",
                  title="Is the reproduced effect the original one?",
                  description="per measure: whether the reproduced effect is "
                              "distinguishable from the original one at --alpha",
                  # latex prints a '?' as the mark of an unknown scale: no
                  # question in the paper's caption
                  table_hints={"paper": {"columns": ["measure", "verdict"],
                                         "wrap": {"verdict": 0.75},
                                         "caption": f"{title}: whether the reproduced "
                                                    f"effect is the original one"}}),
    ]
    display = ["repro", "tests"] + (["order"] if order else []) + ["verdict"]
    return Report("repro", tables, warnings=warnings, params=params, notes=notes,
                  display=display)
