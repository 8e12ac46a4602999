"""``ipsoeval risk``: risk-sensitive comparison of runs on per-topic scores.

Input: per-topic score matrices (runs × topics) per measure.  Output: a
:class:`~ipsoeval.results.Report` with two tables,

- ``urisk``: per run other than the baseline, measure and risk α: URisk_α,
  TRisk_α, its two-sided p-value and whether |TRisk| exceeds the t quantile
  of ``--alpha`` (Dinçer, Macdonald and Ounis, SIGIR 2014);
- ``zrisk``: per run, measure and risk α: the mean, ZRisk_α and GeoRisk_α
  over all the runs (Dinçer, Macdonald and Ounis, SIGIR 2016).

The formulas are :mod:`ipsoeval.stats.risk`'s.  Topics where a run's score
is undefined are left out of that measure (``n`` says how many remain).
Measures where a lower value is better (ESL) are refused: the risk measures
count a loss as a score below the baseline's.
"""

from __future__ import annotations

import numpy as np

from ipsoeval import mean as one_mean
from ipsoeval.analyses.risk.options import (  # noqa: F401  (re-exported)
    DEFAULT_RISK_ALPHAS,
    Options,
    refuse_lower_better,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet

__all__ = ["Options", "URISK_COLUMNS", "ZRISK_COLUMNS", "DEFAULT_RISK_ALPHAS", "refuse_lower_better",
           "run", "run_scores"]

URISK_COLUMNS = ["run", "baseline", "measure", "risk_alpha", "n", "mean", "mean_baseline",
                 "wins", "ties", "losses", "urisk", "trisk", "p_value", "significant"]
# risk_alpha is a parameter (1, 5, 0.5): printed as given, not as 1.0000
EXACT = {"exact": ["risk_alpha"]}
ZRISK_COLUMNS = ["run", "measure", "risk_alpha", "n", "mean", "zrisk", "georisk"]


def _f(x) -> float | None:
    x = float(x)
    return None if np.isnan(x) else x


def run(runs: list[str], matrices: dict[str, np.ndarray], options: Options, *,
        lower_better: set[str] | None = None) -> Report:
    """The Report of ``risk``: ``matrices`` maps a measure's name to its
    (runs, topics) scores (NaN = undefined); ``lower_better`` names the
    measures where a smaller value is better (refused)."""
    from ipsoeval.special import dist
    from ipsoeval.stats import risk

    options.check(runs)
    refuse_lower_better(set(lower_better or ()) & set(matrices))
    base = runs.index(options.baseline) if options.baseline is not None else 0
    urows: list[dict] = []
    zrows: list[dict] = []
    warnings: list[str] = []
    for name, mat in matrices.items():
        x = np.asarray(mat, dtype=np.float64)
        keep = ~np.isnan(x).any(axis=0)
        if not keep.all():
            warnings.append(f"risk: {name}: {int((~keep).sum())} topic(s) with an undefined "
                            f"score left out")
        x = x[:, keep]
        n = int(x.shape[1])
        if n and (x < 0).any():
            raise UsageError(f"risk: {name} has negative scores; ZRisk and GeoRisk need "
                             f"scores of 0 or more")
        for a in options.risk_alphas:
            for j, r in enumerate(runs):
                if j == base:
                    continue
                res = risk.trisk(x[j], x[base], a)
                crit = -dist.stdtrit(n - 1.0, options.alpha / 2) if n >= 2 else np.nan
                urows.append({
                    "run": r, "baseline": runs[base], "measure": name, "risk_alpha": a,
                    "n": n, "mean": _f(one_mean.mean(x[j])) if n else None,
                    "mean_baseline": _f(one_mean.mean(x[base])) if n else None,
                    "wins": res.wins, "ties": res.ties, "losses": res.losses,
                    "urisk": _f(res.urisk), "trisk": _f(res.trisk), "p_value": _f(res.p_value),
                    "significant": bool(abs(res.trisk) > crit) if np.isfinite(res.trisk) else None,
                })
            if n:
                z = risk.zrisk(x, a)
                g = risk.georisk(x, a)
            for j, r in enumerate(runs):
                zrows.append({"run": r, "measure": name, "risk_alpha": a, "n": n,
                              "mean": _f(one_mean.mean(x[j])) if n else None,
                              "zrisk": _f(z[j]) if n else None,
                              "georisk": _f(g[j]) if n else None})
    params = {"baseline": runs[base], "risk_alpha": list(options.risk_alphas),
              "alpha": options.alpha}
    view_cols = ["run", "measure", "risk_alpha", "urisk", "trisk",
                 "p_value", "significant"]
    view = ResultSet("risk", view_cols, [{c: r[c] for c in view_cols} for r in urows],
                     title=f"URisk and TRisk against {runs[base]} (Dinçer et al. 2014)",
                     table_hints=EXACT)
    tables = [
        ResultSet("risk", URISK_COLUMNS, urows, params=dict(params), id="urisk", view=view,
                  title="URisk and TRisk against the baseline (Dinçer et al. 2014)",
                  description="per run, measure and risk alpha: URisk, TRisk and its p-value "
                              "against the baseline", table_hints=EXACT),
        ResultSet("risk", ZRISK_COLUMNS, zrows, params=dict(params), id="zrisk",
                  title="ZRisk and GeoRisk over all runs (Dinçer et al. 2016)",
                  description="per run, measure and risk alpha: ZRisk and GeoRisk over all "
                              "the runs", table_hints=EXACT),
    ]
    return Report("risk", tables, warnings=warnings, params=params)


def run_scores(scores, options: Options) -> Report:
    """:func:`run` on an :class:`ipsoeval.engine.Scores` (every measure it holds)."""
    runs = list(scores.aligned.runs)
    options.check(runs)
    mats: dict[str, np.ndarray] = {}
    lower: set[str] = set()
    for m in scores.measures:
        if m.name in mats:
            continue
        mats[m.name] = scores.matrix(m.name)
        if not m.higher_is_better:
            lower.add(m.name)
    from ipsoeval.engine import with_score_warnings
    return with_score_warnings(run(runs, mats, options, lower_better=lower), scores)
