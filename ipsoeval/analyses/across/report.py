"""``ipsoeval across``: runs compared over several test collections.

Input: per collection, the per-topic scores (runs × topics) of each measure;
runs are matched by name and a run may be missing from some collections.
Per measure:

- **effects** -- each run's effect against the baseline on each collection
  (:func:`ipsoeval.stats.meta_analysis.effect`: ``md``, the mean paired
  difference, or ``smd``, Hedges' g of the differences), on the topics both
  have a score for;
- **pooled** -- the fixed-effect and random-effects pooling of those effects
  (``reml``, ``dl`` or ``pm`` for tau^2) with Q, I^2 and the prediction
  interval (:func:`ipsoeval.stats.meta_analysis.pool`);
- **collection_means** -- each run's mean and rank on each collection;
- **leaderboard** -- the pooled ranking: each run's random-effects pooled
  mean of its collection means, with a rank interval from a bootstrap that
  resamples the topics of each collection (stratified; ``samples``,
  ``seed``), beside the plain mean of means and the mean rank; **notes**
  says where these disagree with the pooled ranking;
- **mixed** / **mixed_model** / **contrasts** -- the linear mixed model
  (system fixed, topic random, collection random when several;
  :mod:`ipsoeval.stats.mixed`): each run's REML estimate, the variance
  components and the system test, every pair of runs with a correction.

Rules: a collection enters a run's pooling only with a positive variance
(``md`` needs two topics, ``smd`` three; a run equal to the baseline on a
collection has variance 0).  When no collection has a positive variance
and every effect is the same (a run identical to the baseline), the pooled
effect is that value with tau^2 = 0 and a zero-width interval.  A
collection without the baseline gives no effects (a warning); a baseline
in no collection is an error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ipsoeval.analyses.across.options import MAX_SAMPLES, Options  # noqa: F401
from ipsoeval.errors import InputError, UsageError
from ipsoeval.results import Report, ResultSet
from ipsoeval.special import dist
from ipsoeval.stats import meta_analysis as ma

__all__ = ["Options", "CollectionScores", "analyse", "EFFECT_COLUMNS", "POOLED_COLUMNS",
           "MEANS_COLUMNS", "LEADERBOARD_COLUMNS", "MIXED_COLUMNS", "MODEL_COLUMNS",
           "CONTRAST_COLUMNS", "NOTE_COLUMNS", "resample_collection", "check_inputs", "complete_scores"]

COMMAND = "across"

EFFECT_COLUMNS = ["collection", "run", "baseline", "measure", "effect", "n", "estimate",
                  "variance", "se", "ci_low", "ci_high", "weight_fixed", "weight_random"]
POOLED_COLUMNS = ["run", "baseline", "measure", "effect", "method", "k", "estimate", "se",
                  "ci_low", "ci_high", "z", "p_value", "tau2", "i2", "q", "q_df",
                  "q_p_value", "pi_low", "pi_high", "fe_estimate", "fe_se", "fe_ci_low",
                  "fe_ci_high", "fe_z", "fe_p_value"]
MEANS_COLUMNS = ["collection", "run", "measure", "mean", "rank", "n"]
LEADERBOARD_COLUMNS = ["run", "measure", "rank", "pooled", "ci_low", "ci_high", "rank_ci_low",
                       "rank_ci_high", "mean_of_means", "mean_of_means_rank", "mean_rank",
                       "mean_rank_rank", "n_collections"]
MIXED_COLUMNS = ["run", "measure", "estimate", "se", "ci_low", "ci_high", "n"]
MODEL_COLUMNS = ["measure", "n", "n_topics", "n_collections", "n_runs", "residual_var",
                 "topic_var", "collection_var", "f_statistic", "f_df1", "f_df2",
                 "f_p_value", "loglik"]
CONTRAST_COLUMNS = ["run_a", "run_b", "measure", "diff", "se", "z", "p_value", "p_adjusted",
                    "significant"]
NOTE_COLUMNS = ["measure", "note"]

Progress = Callable[[int, int], None]


@dataclass
class CollectionScores:
    """One collection's per-topic scores: ``matrices[measure]`` is (runs, topics),
    NaN where a run has no score."""

    name: str
    runs: list[str]
    topics: list[str]
    matrices: dict[str, np.ndarray]
    higher_is_better: dict[str, bool] = field(default_factory=dict)


def _f(x):
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _nanmean(a, axis=-1):
    """Mean over the non-NaN values (NaN where there are none), without warnings."""
    ok = ~np.isnan(a)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, a, 0.0).sum(axis=axis) / ok.sum(axis=axis)


def _i(x):
    x = float(x)
    return int(x) if math.isfinite(x) else None


def _runs(collections: list[CollectionScores]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for c in collections:
        for r in c.runs:
            if r not in seen:
                seen.add(r)
                out.append(r)
    return out


def check_inputs(collections: list[CollectionScores], measures: list[str],
                 options: Options) -> str:
    """The checks before the work; returns the baseline's name."""
    if not collections:
        raise UsageError("across needs at least one collection")
    names = [c.name for c in collections]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise UsageError(f"two collections are named {dup!r}")
    for c in collections:
        if len(set(c.runs)) != len(c.runs):
            dup = next(r for r in c.runs if c.runs.count(r) > 1)
            raise InputError(f"collection {c.name!r} has two runs named {dup!r}")
        for m in measures:
            if m not in c.matrices:
                raise InputError(f"collection {c.name!r} has no scores for {m}")
    runs = _runs(collections)
    if len(runs) < 2:
        raise UsageError(f"across compares runs: it needs at least two (got {len(runs)})")
    base = options.baseline if options.baseline is not None else runs[0]
    if base not in runs:
        raise UsageError(f"--baseline {base!r} is in no collection (runs: "
                         f"{', '.join(runs[:10])}{', ...' if len(runs) > 10 else ''})")
    return base


# --- effects and pooling --------------------------------------------------------------

def _pool_rows(run, base, measure, ys, vs, options, warnings) -> dict:
    y = np.asarray(ys, dtype=np.float64)
    v = np.asarray(vs, dtype=np.float64)
    usable = ~np.isnan(y) & (v > 0)
    exact = ~np.isnan(y) & (v == 0)
    row = {"run": run, "baseline": base, "measure": measure, "effect": options.effect,
           "method": options.method}
    if not usable.any() and exact.any() and \
            np.ptp(y[exact]) <= ma.FLAT * max(1.0, float(np.abs(y[exact]).max())):
        e = float(y[exact][0])
        res = {"k": int(exact.sum()), "estimate": e, "se": 0.0, "ci_low": e, "ci_high": e,
               "tau2": 0.0, "q": 0.0, "q_df": int(exact.sum()) - 1, "i2": 0.0,
               "pi_low": e, "pi_high": e, "fe_estimate": e, "fe_se": 0.0,
               "fe_ci_low": e, "fe_ci_high": e}
        warnings.append(f"{measure}: {run} has the same effect {e:g} with no variance on "
                        f"every collection (the baseline's scores, shifted): pooled as "
                        f"that value with tau^2 = 0")
    else:
        if exact.any():
            warnings.append(f"{measure}: {run}: {int(exact.sum())} collection(s) with no "
                            f"variance of the effect (every topic the same difference) "
                            f"left out of the pooling")
        y = np.where(usable, y, np.nan)
        res = ma.pool(y, v, options.method, options.alpha)
    row.update({k: (_f(res.get(k)) if k not in ("k", "q_df") else res.get(k))
                for k in POOLED_COLUMNS if k not in row})
    return row


def _effects(collections, runs, base, measure, options, warnings):
    """Rows of the effects table and the pooled rows, for one measure."""
    crit = dist.ndtri(1.0 - options.alpha / 2.0)
    eff_rows: list[dict] = []
    pooled: list[dict] = []
    per_run: dict[str, list[tuple[int, float, float]]] = {r: [] for r in runs if r != base}
    for ci, c in enumerate(collections):
        if base not in c.runs:
            warnings.append(f"{measure}: the baseline {base} is not in collection {c.name}: "
                            f"its effects there are left out")
            continue
        X = c.matrices[measure]
        b = X[c.runs.index(base)]
        others = [r for r in c.runs if r != base]
        if not others:
            continue
        D = np.stack([X[c.runs.index(r)] - b for r in others])
        y, v, n = ma.effect(D, options.effect)
        for r, yi, vi, ni in zip(others, y, v, n):
            if ni < ma.MIN_TOPICS[options.effect]:
                warnings.append(f"{measure}: {r} on {c.name}: {int(ni)} topic(s) with both "
                                f"scores, too few for the effect ({options.effect} needs "
                                f"{ma.MIN_TOPICS[options.effect]}); left out of the pooling")
            elif options.effect == "smd" and not np.isfinite(yi):
                warnings.append(f"{measure}: {r} on {c.name}: the differences from the "
                                f"baseline do not vary, so no standardized effect; left out "
                                f"of the pooling")
            per_run[r].append((ci, float(yi), float(vi)))
            se = math.sqrt(vi) if vi >= 0 else math.nan
            eff_rows.append({"collection": c.name, "run": r, "baseline": base,
                             "measure": measure, "effect": options.effect, "n": int(ni),
                             "estimate": _f(yi), "variance": _f(vi), "se": _f(se),
                             "ci_low": _f(yi - crit * se), "ci_high": _f(yi + crit * se),
                             "weight_fixed": None, "weight_random": None})
    by_key = {(row["run"], row["collection"]): row for row in eff_rows}
    for r in runs:
        if r == base or not per_run[r]:
            continue
        ys = [e[1] for e in per_run[r]]
        vs = [e[2] for e in per_run[r]]
        row = _pool_rows(r, base, measure, ys, vs, options, warnings)
        pooled.append(row)
        # relative weights of the collections that entered the pooling
        y, v = np.array(ys), np.array(vs)
        use = ~np.isnan(y) & (v > 0)
        if use.any():
            t2 = row["tau2"] or 0.0
            wf = np.where(use, 1.0 / np.where(use, v, 1.0), 0.0)
            wr = np.where(use, 1.0 / (np.where(use, v, 1.0) + t2), 0.0)
            for (ci, _, _), a, b_, u in zip(per_run[r], wf / wf.sum(), wr / wr.sum(), use):
                if u:
                    rec = by_key[(r, collections[ci].name)]
                    rec["weight_fixed"], rec["weight_random"] = float(a), float(b_)
    return eff_rows, pooled


# --- the leaderboard -------------------------------------------------------------------

def _rank(values: np.ndarray, sign: float) -> np.ndarray:
    """1 + the number of strictly better values along the last axis (NaN: NaN)."""
    s = sign * values
    with np.errstate(invalid="ignore"):
        better = (s[..., None, :] > s[..., :, None]).sum(axis=-1)
    return np.where(np.isnan(values), np.nan, 1.0 + better)


def complete_scores(c: CollectionScores, measure: str, warnings: list[str]) -> np.ndarray:
    X = np.asarray(c.matrices[measure], dtype=np.float64)
    keep = ~np.isnan(X).any(axis=0)
    if not keep.all():
        warnings.append(f"{measure}: {c.name}: {int((~keep).sum())} of {X.shape[1]} topics "
                        f"have no score for some run; left out of its means")
    return X[:, keep]


def resample_collection(X: np.ndarray, samples: int, seed: int, index: int):
    """Bootstrap means and variances of the means (samples, runs) of one
    collection's complete scores X (runs, topics): topics drawn with
    replacement from this collection alone, by a generator seeded with
    (seed, index), so each collection's draws are its own whatever runs it."""
    R, n = X.shape
    if n == 0:
        nan = np.full((samples, R), np.nan)
        return nan, nan
    rng = np.random.default_rng([seed, index])
    idx = rng.integers(0, n, size=(samples, n))
    W = np.bincount((idx + (np.arange(samples) * n)[:, None]).reshape(-1),
                    minlength=samples * n).reshape(samples, n).astype(np.float64)
    del idx
    mean = (W @ X.T) / n
    ss = W @ (X * X).T
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (ss - n * mean * mean) / (n - 1.0) / n
    if n < 2:
        var[:] = np.nan
    return mean, np.maximum(var, 0.0)


def _pool_means(means: np.ndarray, variances: np.ndarray, method: str) -> np.ndarray:
    """Random-effects pooled mean over the last axis (collections); a
    collection enters only with a positive variance; a run with none: the
    plain mean of its exact means."""
    y = np.where(variances > 0, means, np.nan)
    t2 = ma.tau2(y, variances, method)
    mu, _ = ma.random_effects(y, variances, t2)
    none = np.isnan(y).all(axis=-1)
    if none.any():
        mu = np.where(none, _nanmean(means), mu)
    return mu


def _leaderboard(collections, runs, measure, hib, options, warnings, progress, resample):
    sign = 1.0 if hib else -1.0
    R, C = len(runs), len(collections)
    means = np.full((R, C), np.nan)
    varis = np.full((R, C), np.nan)
    ranks = np.full((R, C), np.nan)
    mean_rows = []
    mats = []
    for ci, c in enumerate(collections):
        X = complete_scores(c, measure, warnings)
        mats.append(X)
        n = X.shape[1]
        idx = [runs.index(r) for r in c.runs]
        m = X.mean(axis=1) if n else np.full(len(idx), np.nan)
        v = X.var(axis=1, ddof=1) / n if n > 1 else np.full(len(idx), np.nan)
        means[idx, ci] = m
        varis[idx, ci] = v
        rk = _rank(m, sign)
        ranks[idx, ci] = rk
        for r, mi, ri in zip(c.runs, m, rk):
            mean_rows.append({"collection": c.name, "run": r, "measure": measure,
                              "mean": _f(mi), "rank": None if np.isnan(ri) else int(ri),
                              "n": int(n)})
    with np.errstate(invalid="ignore"):
        pooled = _pool_means(means, varis, options.method)
        mom = _nanmean(means, axis=1)
        mrank = _nanmean(ranks, axis=1)
    # the bootstrap: each collection's topics resampled on their own
    B = options.samples
    boot_m = np.full((B, R, C), np.nan)
    boot_v = np.full((B, R, C), np.nan)
    for ci, (c, X) in enumerate(zip(collections, mats)):
        idx = [runs.index(r) for r in c.runs]
        if resample is not None:
            bm, bv = resample(ci)
        else:
            bm, bv = resample_collection(X, B, options.seed, ci)
        boot_m[:, idx, ci] = bm
        boot_v[:, idx, ci] = bv
        if progress is not None:
            progress(ci + 1, C + 1)
    boot = _pool_means(boot_m, boot_v, options.method)
    del boot_m, boot_v
    br = _rank(boot, sign)
    lo_q, hi_q = options.alpha / 2.0, 1.0 - options.alpha / 2.0
    rank_low = np.quantile(br, lo_q, axis=0, method="inverted_cdf")
    rank_high = np.quantile(br, hi_q, axis=0, method="inverted_cdf")
    pooled_sd = boot.std(axis=0, ddof=1) if B > 1 else np.full(R, np.nan)
    crit = dist.ndtri(1.0 - options.alpha / 2.0)
    if progress is not None:
        progress(C + 1, C + 1)
    rank = _rank(pooled, sign)
    mom_rank = _rank(mom, sign)
    mr_rank = _rank(mrank, -1.0)       # a lower mean rank is better
    ncol = (~np.isnan(means)).sum(axis=1)
    rows = []
    for i in np.lexsort((np.arange(R), rank)):
        rows.append({"run": runs[i], "measure": measure, "rank": _i(rank[i]),
                     "pooled": _f(pooled[i]), "ci_low": _f(pooled[i] - crit * pooled_sd[i]),
                     "ci_high": _f(pooled[i] + crit * pooled_sd[i]),
                     "rank_ci_low": _i(rank_low[i]), "rank_ci_high": _i(rank_high[i]),
                     "mean_of_means": _f(mom[i]), "mean_of_means_rank": _i(mom_rank[i]),
                     "mean_rank": _f(mrank[i]), "mean_rank_rank": _i(mr_rank[i]),
                     "n_collections": int(ncol[i])})
    notes = _disagreements(runs, measure, rank, mom_rank, mr_rank, rank_low, rank_high)
    if ncol.min() < ncol.max():
        fewer = [f"{runs[i]} ({int(ncol[i])} of {C})" for i in range(R) if ncol[i] < ncol.max()]
        notes.append({"measure": measure,
                      "note": f"not every run is on every collection: {', '.join(fewer[:8])}"
                              f"{' ...' if len(fewer) > 8 else ''}; their pooled means and "
                              f"means of means average other collections (compare them in "
                              f"the mixed model, table mixed)"})
    return mean_rows, rows, notes


def _disagreements(runs, measure, rank, mom_rank, mr_rank, lo, hi) -> list[dict]:
    out = []
    for label, other in (("the mean of means", mom_rank), ("the mean rank", mr_rank)):
        moved = [i for i in np.lexsort((np.arange(len(runs)), rank))
                 if np.isfinite(other[i]) and np.isfinite(rank[i]) and other[i] != rank[i]]
        if not moved:
            out.append({"measure": measure,
                        "note": f"{label} ranks the runs as the pooled estimate does"})
            continue
        outside = [i for i in moved if not lo[i] <= other[i] <= hi[i]]
        parts = [f"{runs[i]} {int(rank[i])} -> {int(other[i])}" for i in moved[:8]]
        more = f" and {len(moved) - 8} more" if len(moved) > 8 else ""
        tail = (f"; outside the rank interval: {', '.join(runs[i] for i in outside[:8])}"
                if outside else "; each within its rank interval")
        out.append({"measure": measure,
                    "note": f"{label} disagrees with the pooled ranking for {len(moved)} "
                            f"run(s) (pooled -> {label}: {', '.join(parts)}{more}){tail}"})
    return out


# --- the mixed model ---------------------------------------------------------------------

def _mixed(collections, runs, measure, options, warnings):
    from ipsoeval.stats import corrections, mixed

    ys, ss, ts, tc = [], [], [], []
    t0 = 0
    for ci, c in enumerate(collections):
        X = np.asarray(c.matrices[measure], dtype=np.float64)
        sys_idx = np.array([runs.index(r) for r in c.runs])
        ok = ~np.isnan(X)
        ri, ti = np.nonzero(ok)
        ys.append(X[ok])
        ss.append(sys_idx[ri])
        ts.append(ti + t0)
        tc.append(np.full(X.shape[1], ci))
        t0 += X.shape[1]
    y = np.concatenate(ys)
    s = np.concatenate(ss)
    t = np.concatenate(ts)
    tcol = np.concatenate(tc)
    # topics without any score carry nothing: renumber the others
    used = np.unique(t)
    t = np.searchsorted(used, t)
    tcol = tcol[used]
    ucol = np.unique(tcol)
    tcol = np.searchsorted(ucol, tcol)
    p = len(runs)
    if y.size <= p + used.size:
        warnings.append(f"{measure}: too few scores for the mixed model "
                        f"({y.size} for {p} runs and {used.size} topics); left out")
        return [], [], []
    fit = mixed.fit(y, s, t, tcol, p)
    if not fit.converged:
        warnings.append(f"{measure}: the mixed model's REML fit did not converge fully")
    crit = dist.ndtri(1.0 - options.alpha / 2.0)
    nobs = np.bincount(s, minlength=p)
    se = np.sqrt(np.maximum(np.diag(fit.cov), 0.0))
    est_rows = [{"run": r, "measure": measure, "estimate": _f(fit.beta[i]), "se": _f(se[i]),
                 "ci_low": _f(fit.beta[i] - crit * se[i]),
                 "ci_high": _f(fit.beta[i] + crit * se[i]), "n": int(nobs[i])}
                for i, r in enumerate(runs)]
    model = [{"measure": measure, "n": fit.n, "n_topics": fit.topics,
              "n_collections": fit.collections, "n_runs": p, "residual_var": _f(fit.sigma2),
              "topic_var": _f(fit.topic_var), "collection_var": _f(fit.collection_var),
              "f_statistic": _f(fit.f_statistic), "f_df1": fit.f_df[0], "f_df2": fit.f_df[1],
              "f_p_value": _f(fit.f_p_value), "loglik": _f(fit.loglik)}]
    pairs = [(i, j) for i in range(p) for j in range(i + 1, p)]
    res = mixed.contrasts(fit, pairs)
    adj = corrections.adjust(np.array([r[3] for r in res], dtype=np.float64), options.correct)
    con = []
    for (i, j), (d, sd, z, pv), pa in zip(pairs, res, adj):
        con.append({"run_a": runs[i], "run_b": runs[j], "measure": measure, "diff": _f(d),
                    "se": _f(sd), "z": _f(z), "p_value": _f(pv), "p_adjusted": _f(pa),
                    "significant": None if not math.isfinite(pa) else bool(pa < options.alpha)})
    return est_rows, model, con


# --- the report -------------------------------------------------------------------------

def analyse(collections: list[CollectionScores], measures: list[str], options: Options,
            progress: Progress | None = None, resample=None) -> Report:
    """Every table of ``ipsoeval across`` (module docstring).  ``resample``: an
    optional ``f(measure, collection_index) -> (means, variances)`` doing
    :func:`resample_collection` elsewhere (a Ray task); same numbers."""
    options.check()
    base = check_inputs(collections, measures, options)
    runs = _runs(collections)
    warnings: list[str] = []
    eff, pooled, cmeans, board, notes, est, model, con = ([] for _ in range(8))
    for mi, m in enumerate(measures):
        hib = all(c.higher_is_better.get(m, True) for c in collections)
        e, p = _effects(collections, runs, base, m, options, warnings)
        eff += e
        pooled += p
        phase = None
        if progress is not None:
            def phase(done, total, mi=mi):
                progress(mi * 1000 + int(1000 * done / max(total, 1)), len(measures) * 1000)
        rs = None if resample is None else (lambda ci, m=m: resample(m, ci))
        cm, b, nt = _leaderboard(collections, runs, m, hib, options, warnings, phase, rs)
        cmeans += cm
        board += b
        notes += nt
        a, b2, c2 = _mixed(collections, runs, m, options, warnings)
        est += a
        model += b2
        con += c2
    params = {**options.as_params(), "baseline": base,
              "collections": [c.name for c in collections]}

    def t(id_, cols, recs, title, desc):
        # degrees of freedom are whole numbers: 2, not 2.0000
        hints = {"exact": [c for c in ("f_df1", "f_df2") if c in cols]}
        return ResultSet(COMMAND, cols, recs, params=dict(params), title=title, id=id_,
                         description=desc, table_hints=hints if hints["exact"] else {})

    tables = [
        t("pooled", POOLED_COLUMNS, pooled, "Pooled effects against the baseline",
          "each run's effect against the baseline pooled over the collections: random "
          "effects (tau^2 by --method), fixed effect beside, Q, I^2, prediction interval"),
        t("effects", EFFECT_COLUMNS, eff, "Effects per collection",
          "each run's effect against the baseline on each collection, with its weights"),
        t("leaderboard", LEADERBOARD_COLUMNS, board, "Leaderboard across collections",
          "pooled ranking with bootstrap rank intervals (topics resampled within each "
          "collection), beside the mean of means and the mean rank"),
        t("notes", NOTE_COLUMNS, notes, "Where the plain summaries disagree",
          "where the mean of means and the mean rank rank the runs differently from the "
          "pooled estimate"),
        t("collection_means", MEANS_COLUMNS, cmeans, "Means per collection",
          "each run's mean and rank on each collection"),
        t("mixed", MIXED_COLUMNS, est, "Mixed model: system estimates",
          "REML estimate of each run's mean in the linear mixed model"),
        t("mixed_model", MODEL_COLUMNS, model, "Mixed model: variance components",
          "variance components and the system test of the linear mixed model"),
        t("contrasts", CONTRAST_COLUMNS, con, "Mixed model: pairwise contrasts",
          "every pair of runs in the mixed model, Wald z, p corrected by --correct"),
    ]
    return Report(COMMAND, tables, primary="pooled", warnings=warnings, params=params,
                  display=["pooled", "leaderboard", "notes", "mixed_model", "contrasts"])
