"""``ipsoeval power``: how many topics a comparison needs, and what the
collection as it is can detect (Sakai 2016, "Topic set size design").

Input: per-topic score matrices (runs × topics) per measure.  For each
measure the residual variance V_E of the two-way ANOVA without replication
(topics × runs) estimates σ² (Sakai 2016 §5); with it, for each δ:

- design ``t``: topics needed for the two-sided paired t-test to detect a
  difference δ with power 1 − β at α; the power at the current number of
  topics; the minimal difference detectable with power 1 − β now;
- design ``anova``: the same for one-way ANOVA over m systems (``systems``,
  default the number of runs) and a range δ between best and worst;
- design ``ci``: topics needed for the expected half-width of the
  100(1 − α)% CI of a paired difference to be at most w (default δ/2:
  Sakai's cap of the whole width at δ); the expected half-width now.

Tables: ``power`` (primary, one row per measure, δ and design) and
``curve`` (power against the number of topics, for ``--plot``).
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.analyses.power.options import (  # noqa: F401
    DEFAULT_DELTA,
    DESIGNS,
    Options,
    parse_deltas,
    parse_designs,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import power as pw

__all__ = ["Options", "run", "run_aligned", "evaluated", "parse_deltas", "parse_designs", "COLUMNS", "CURVE_COLUMNS", "DESIGNS", "DEFAULT_DELTA"]

COLUMNS = ["measure", "design", "runs", "topics", "residual_variance", "alpha", "power_target",
           "delta", "systems", "half_width", "topics_needed", "power", "min_detectable",
           "expected_half_width"]
CURVE_COLUMNS = ["measure", "design", "delta", "topics", "power"]
CURVE_POINTS = 60


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _grid(top: int) -> list[int]:
    top = max(top, 3)
    if top - 1 <= CURVE_POINTS:
        return list(range(2, top + 1))
    g = np.unique(np.round(np.geomspace(2, top, CURVE_POINTS)).astype(np.int64))
    return [int(x) for x in g]


def run(runs: list[str], matrices: dict[str, np.ndarray], options: Options,
        progress=None) -> Report:
    """The Report of ``power``: ``matrices`` maps a measure to its (runs, topics)
    per-topic scores (NaN: undefined; such topics are left out)."""
    options.check()
    if len(runs) < 2:
        raise UsageError(f"power needs at least two runs to estimate the residual variance "
                         f"of the topics × runs ANOVA (got {len(runs)})")
    warnings: list[str] = []
    records: list[dict] = []
    curve: list[dict] = []
    a, target = options.alpha, options.power
    for i, (mname, M) in enumerate(matrices.items()):
        M = np.asarray(M, dtype=np.float64)
        var, k, n = pw.residual_variance(M)
        dropped = M.shape[1] - n
        if dropped:
            warnings.append(f"{mname}: {dropped} topic(s) left out, undefined for some run; "
                            f"the variance uses the {n} topic(s) defined for every run")
        if n < 2:
            warnings.append(f"{mname}: fewer than 2 topics defined for every run; "
                            f"no variance estimate")
        elif var == 0:
            warnings.append(f"{mname}: zero residual variance (every run differs from another "
                            f"by the same amount on every topic); the designs are undefined")
        m = options.systems or k
        for delta in options.delta:
            w = options.half_width if options.half_width is not None else delta / 2.0
            base = {"measure": mname, "runs": k, "topics": n, "residual_variance": _f(var),
                    "alpha": a, "power_target": target, "delta": delta, "systems": None,
                    "half_width": None, "topics_needed": None, "power": None,
                    "min_detectable": None, "expected_half_width": None}
            ok = n >= 2 and var > 0
            for design in options.designs:
                rec = dict(base, design=design)
                if design == "t":
                    if ok:
                        rec["topics_needed"] = pw.t_topics(delta, var, a, target)
                        rec["power"] = _f(pw.t_power(n, delta, var, a))
                        rec["min_detectable"] = _f(pw.t_detectable(n, var, a, target))
                elif design == "anova":
                    rec["systems"] = m
                    if ok:
                        rec["topics_needed"] = pw.anova_topics(m, delta, var, a, target)
                        rec["power"] = _f(pw.anova_power(n, m, delta, var, a))
                        rec["min_detectable"] = _f(pw.anova_detectable(n, m, var, a, target))
                else:
                    rec["half_width"] = w
                    if n >= 2 and var >= 0:
                        rec["topics_needed"] = pw.ci_topics(w, var, a)
                        rec["expected_half_width"] = _f(pw.ci_half_width(n, var, a))
                if ok and design in ("t", "anova") and rec["topics_needed"] is None:
                    warnings.append(f"{mname}: design {design}, delta {delta:g}: no number "
                                    f"of topics up to {pw.MAX_TOPICS:,} reaches power {target:g}")
                records.append({c: rec[c] for c in COLUMNS})
                if ok and design in ("t", "anova"):
                    top = max(n, rec["topics_needed"] or n)
                    for nn in _grid(int(min(top * 1.5, 10 * max(n, 2), 100_000))):
                        p = (pw.t_power(nn, delta, var, a) if design == "t"
                             else pw.anova_power(nn, m, delta, var, a))
                        curve.append({"measure": mname, "design": design, "delta": delta,
                                      "topics": nn, "power": _f(p)})
        if progress is not None:
            progress(i + 1, len(matrices))
    params = {
        "runs": list(runs), "measures": list(matrices), "alpha": a, "power_target": target,
        "beta": 1.0 - target, "deltas": list(options.delta),
        "half_width": options.half_width if options.half_width is not None else "delta / 2",
        "systems": options.systems if options.systems is not None else "number of runs",
        "designs": list(options.designs),
        "variance": "residual mean square V_E of the two-way ANOVA without replication "
                    "(topics x runs), over the topics defined for every run",
        "method": "Sakai 2016 (topic set size design), exact noncentral t and F",
    }
    main = ResultSet(command="power", columns=list(COLUMNS), records=records, params=params,
                     id="power", title="Topic set size design (Sakai 2016)",
                     description="per measure, delta and design: topics needed, power now, "
                                 "minimal detectable difference now",
                     table_hints={"digits": 4})
    main.view = _view(main, options)
    tables = [
        main,
        ResultSet(command="power", columns=list(CURVE_COLUMNS), records=curve,
                  params=dict(params), id="curve", title="Power against the number of topics",
                  description="power of the t and anova designs at up to 60 numbers of "
                              "topics from 2 to 1.5 times the larger of the current and the "
                              "needed number (at most 10 times the current, 100,000)",
                  table_hints={"digits": 4}),
    ]
    return Report("power", tables, primary="power", warnings=warnings, display=["power"])


VIEW_COLUMNS = ["measure", "design", "delta", "topics", "residual_variance", "topics_needed",
                "power", "min_detectable", "expected_half_width"]


def _view(rs: ResultSet, options: Options) -> ResultSet:
    """The table people see: the settings in the title, not in every row."""
    designs = {r["design"] for r in rs.records}
    cols = [c for c in VIEW_COLUMNS
            if not (c in ("power", "min_detectable") and designs <= {"ci"})
            and not (c == "expected_half_width" and "ci" not in designs)]
    ms = sorted({r["systems"] for r in rs.records if r["systems"] is not None})
    hw = ("delta/2" if options.half_width is None else f"{options.half_width:g}")
    title = (f"Topic set size design (Sakai 2016): alpha {options.alpha:g}, power "
             f"{options.power:g}" + (f", anova over {', '.join(map(str, ms))} systems"
                                     if ms else "")
             + (f", CI half-width at most {hw}" if "ci" in designs else "")
             + "; power and min_detectable at the topics used now")
    labels = {"residual_variance": "V_E", "topics_needed": "topics needed",
              "min_detectable": "min detectable", "expected_half_width": "E[half-width]"}
    return ResultSet(command=rs.command, columns=cols,
                     records=[{c: r[c] for c in cols} for r in rs.records], params=rs.params,
                     title=title, table_hints={"digits": 4, "labels": labels})


def evaluated(aligned, measures, warnings: list | None = None):
    """Per-topic (runs, topics) matrices of ``measures`` (names or Requested) on
    ``aligned``; per measure name, whether a higher value is better and its
    scale on these topics: ``(matrices, higher_is_better, scales)``.
    ``warnings``: extended with the scores' own (engine.score_warnings)."""
    from ipsoeval import engine
    from ipsoeval.stats.scales import measure_scale
    scores = engine.evaluate(aligned, measures)
    if warnings is not None:
        warnings.extend(engine.score_warnings(scores))
    mats: dict[str, np.ndarray] = {}
    higher: dict[str, bool] = {}
    scales: dict[str, str | None] = {}
    for m in scores.measures:
        if m.name in mats or m.family == "runid":
            continue
        mats[m.name] = np.asarray(scores.matrix(m.name), dtype=np.float64)
        higher[m.name] = bool(m.higher_is_better)
        scales[m.name] = measure_scale(m, aligned)[0]
    return mats, higher, scales


def run_aligned(aligned, measures, options: Options, progress=None) -> Report:
    """Evaluate ``measures`` on ``aligned`` and run :func:`run`."""
    options.check()
    found: list[str] = []
    mats, _, _ = evaluated(aligned, measures, found)
    out = run(list(aligned.runs), mats, options, progress=progress)
    out.warnings[:0] = [w for w in found if w not in out.warnings]
    return out
