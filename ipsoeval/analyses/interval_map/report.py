"""``ipsoeval interval-map``: measures mapped onto interval scales
(Ferrante, Ferro & Fuhr 2021, "Towards meaningful statements in IR
evaluation", §5–7).

phi(m) = |{x in M(U) : x <= m}| for the value set M(U) of the measure over
every judged run of length N (see :mod:`.valuesets` for how the sets
are computed exactly).  This module turns aligned runs into per-topic query
vectors, calls the core, and builds result sets: per-topic and per-run mapped
scores, the value set (``--values``), and the paper's analyses (``--analyze``:
Tables 2, 4, 5–6).

Public helpers for other commands:

* :func:`interval_scores` ``(aligned, measure, N=None, *, ties="unq",
  normalise=False, universe="all", progress=None, use_cache=True,
  warnings=None) -> ndarray (runs, topics)``
* :func:`mapped_matrices` ``(aligned, measures, progress=None) -> {name: ndarray}``
  (what ``sigtest --scale interval`` calls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from ipsoeval.analyses.interval_map import valuesets as iv
from ipsoeval.analyses.interval_map.options import (  # noqa: F401  (re-exported)
    MAX_N,
    UNIVERSES,
    Options,
)
from ipsoeval.errors import UsageError
from ipsoeval.model import Aligned
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import registry
from ipsoeval.stats.rankcorr import kendall_tau_b  # noqa: F401  (im.kendall_tau_b)

COMMAND = "interval-map"
SURROGATE_WARNING = ("{m}: depends on the recall base; the map is built per topic's R, an "
                     "interval scale on each topic but across topics only the paper's surrogate "
                     "(Ferrante et al. 2021, §5.2.2)")
GENERIC_MAX_N = 20


# ---------------------------------------------------------------------------
# measure -> MapSpec and query vectors
# ---------------------------------------------------------------------------

def _measure(m):
    from ipsoeval.measures import Measure, parse_measure
    if isinstance(m, Measure):
        return m
    if hasattr(m, "measure"):
        return m.measure
    return parse_measure(str(m))


def at_cutoff(measure, N: int | None, default_N: int | None = None):
    """The measure evaluated at run length N: its own cutoff, else N, else
    ``default_N``; a cutoff that differs from an explicit N is a usage error."""
    from ipsoeval.measures import Measure, parse_measure
    if isinstance(measure, str) and "@" not in measure and (N or default_N) is not None:
        try:
            measure = parse_measure(f"{measure.strip()}@{int(N or default_N)}")
        except UsageError:
            pass
    m = _measure(measure)
    if m.family == "Judged" or m.param("judged_only") or m.param("dcg") is not None:
        raise UsageError(f"{m.name}: no interval map for ir_measures' Judged, judged_only= "
                         f"or dcg= (the map enumerates rankings with linear gains); use P, "
                         f"R, AP, RR, ESL, Success, DCG, nDCG or RBP")
    if m.cutoff is not None and int(m.cutoff) > MAX_N:
        raise UsageError(f"{m.name}: the interval map handles run lengths up to {MAX_N:,} "
                         f"(found cutoff {m.cutoff})")
    if m.family in ("Rprec", "bpref", "gm_map", "IPrec", "runid", "NumQ", "NumRet", "NumRel",
                    "NumRelRet", "NumNonRelJudgedRet"):
        raise UsageError(f"{m.name}: no interval map (it has no run-length cutoff); "
                         f"use P, R, AP, RR, ESL, Success, DCG, nDCG or RBP")
    if m.cutoff is None:
        N = N if N is not None else default_N
        if N is None:
            raise UsageError(f"{m.name}: the interval map needs a run length; give a cutoff "
                             f"({m.family}@30) or -N")
        return Measure(m.family, int(N), m.params)
    if N is not None and int(m.cutoff) != N:
        raise UsageError(f"{m.name}: its cutoff {m.cutoff} differs from -N {N}")
    return m


def _gain_levels(aligned: Aligned):
    """Distinct gains (Fractions, ascending, starting with 0) of the judged labels."""
    labels = np.unique(np.concatenate([np.asarray(j) for j in aligned.judged_labels] or
                                      [np.zeros(0, np.int64)]))
    g = aligned.gains(labels.astype(np.int64)) if len(labels) else np.zeros(0)
    vals = sorted({Fraction(float(x)) for x in g if x > 0})
    return (Fraction(0), *vals)


@dataclass
class _Plan:
    measure: object          # engine Measure at cutoff N
    spec: iv.MapSpec
    levels: np.ndarray       # (R, T, N) int8 level indices
    caps: np.ndarray         # (T,) binary caps
    level_caps: np.ndarray | None   # (T, G-1) graded attainable caps
    surrogate: bool


def check_listings(measures, opts: Options) -> None:
    """Before reading any input: --values listings too long to make, for the
    measures whose value set does not depend on the qrels (binary gains: P,
    R, RR, Success, AP; graded ones are checked once the qrels' gains are
    known, still before the mapping)."""
    if not opts.values:
        return
    for measure in measures:
        m = at_cutoff(measure, opts.N)
        if m.family in ("P", "R", "RR", "Success", "AP") and m.cutoff is not None:
            iv.check_listing(iv.MapSpec(m.family, int(m.cutoff), name=m.name))


def check_work(measures, opts: Options) -> None:
    """Before reading any input: mappings that would take minutes (AP at a
    large N), refused in well under a second, so the cost follows the input."""
    for measure in measures:
        m = at_cutoff(measure, opts.N)
        if m.family == "AP" and m.cutoff is not None:
            iv.check_work(iv.MapSpec("AP", int(m.cutoff), name=m.name))


def _plan(aligned: Aligned, measure, opts: Options) -> _Plan:
    m = at_cutoff(measure, opts.N)
    N = int(m.cutoff)
    fam = m.family
    lv = m.level(aligned.rel_level)
    labels = aligned.labels[:, :, :N]
    pad = N - labels.shape[2]
    rel = labels >= lv
    if pad > 0:
        rel = np.concatenate([rel, np.zeros(rel.shape[:2] + (pad,), bool)], axis=2)
    judged = aligned.judged_labels
    R = np.array([int(np.count_nonzero(np.asarray(j) >= lv)) for j in judged], np.int64)
    level_caps = None
    params = dict(m.params)
    if fam in ("P", "R", "RR", "Success", "AP"):
        spec = iv.MapSpec(fam, N, name=m.name)
        levels = rel.astype(np.int8)
    elif fam in ("DCG", "nDCG", "RBP"):
        if fam == "RBP":
            p = Fraction(str(params.get("p", 0.8)))
            if aligned.gain_map is None:
                gains = (Fraction(0), Fraction(1))
                g = rel.astype(np.float64)
            else:
                gains = _gain_levels(aligned)
                g = _padded_gains(aligned, N)
            spec = iv.MapSpec("RBP", N, p=p, gains=gains, name=m.name)
        else:
            b = params.get("b")
            if b is not None and (float(b) != int(b)):
                raise UsageError(f"{m.name}: the interval map needs an integer log base b "
                                 f"(found b={b})")
            gains = _gain_levels(aligned)
            g = _padded_gains(aligned, N)
            family = ("DCG" if fam == "DCG" else "nDCG") if b is not None else \
                ("DCGtrec" if fam == "DCG" else "nDCGtrec")
            spec = iv.MapSpec(family, N, b=None if b is None else int(b), gains=gains, name=m.name)
        gvals = np.array([float(x) for x in spec.gains])
        levels = np.searchsorted(gvals, g).astype(np.int8)
        if not np.all(gvals[np.minimum(levels, len(gvals) - 1)] == g):
            raise UsageError(f"{m.name}: a gain outside the qrels' gain levels")
        if spec.family == "nDCG" or spec.family == "nDCGtrec":
            if not spec.binary:
                gv = np.array([float(x) for x in spec.gains[1:]])
                level_caps = np.zeros((len(judged), len(gv)), np.int64)
                for t, j in enumerate(judged):
                    jg = aligned.gains(np.asarray(j, np.int64))
                    for li, x in enumerate(gv):
                        level_caps[t, li] = int(np.count_nonzero(jg == x))
            else:
                # binary gains: relevant = positive gain
                R = np.array([int(np.count_nonzero(aligned.gains(np.asarray(j, np.int64)) > 0))
                              for j in judged], np.int64)
    else:
        spec = _generic_spec(aligned, m, N, lv)
        levels = rel.astype(np.int8)
    caps = np.minimum(R, N) if (spec.depends_on_R and opts.universe == "attainable") \
        else np.full(len(judged), N, np.int64)
    if opts.universe == "all" or not spec.depends_on_R:
        level_caps = None
    return _Plan(m, spec, levels, caps, level_caps, spec.depends_on_R)


def _padded_gains(aligned: Aligned, N: int) -> np.ndarray:
    g = aligned.gains()[:, :, :N]
    if g.shape[2] < N:
        g = np.concatenate([g, np.zeros(g.shape[:2] + (N - g.shape[2],))], axis=2)
    return g


def _generic_spec(aligned: Aligned, m, N: int, lv: int) -> iv.MapSpec:
    """Any other engine measure: enumerate binary runs and call the engine."""
    if N > GENERIC_MAX_N:
        raise UsageError(f"{m.name}: mapped by enumerating all 2^N runs, which needs "
                         f"N <= {GENERIC_MAX_N} (found N={N})")
    return iv.MapSpec("generic", N, name=m.name, values_fn=None,
                      generic_depends_on_R=m.family not in ("ESL", "RBPresid"))


def _generic_fn(aligned: Aligned, m, t: int, lv: int):
    """values_fn for topic t: the engine's measure on synthetic runs."""
    def fn(runs):
        runs = np.asarray(runs)
        U, N = runs.shape
        labels = np.where(runs > 0, lv, min(0, lv - 1)).astype(np.int32)[:, None, :]
        syn = Aligned(runs=[str(i) for i in range(U)], topics=[aligned.topics[t]], labels=labels,
                      n_ret=np.full((U, 1), N, np.int64), rel_level=aligned.rel_level,
                      num_rel=aligned.num_rel[t:t + 1], num_nonrel=aligned.num_nonrel[t:t + 1],
                      judged_labels=[aligned.judged_labels[t]], gain_map=aligned.gain_map)
        return m.compute(syn)[:, 0]
    return fn


# ---------------------------------------------------------------------------
# the map
# ---------------------------------------------------------------------------

@dataclass
class Mapped:
    measure: str
    values: np.ndarray            # (runs, topics) original, NaN undefined
    phi: list                     # [runs][topics] exact phi (int / Fraction / None)
    mapped: np.ndarray            # (runs, topics) float interval values
    n_values: list                # per topic |M(U)|
    n_universe: list              # per topic |U|
    spec: iv.MapSpec
    surrogate: bool


def map_measure(aligned: Aligned, measure, opts: Options, progress: Callable | None = None) -> Mapped:
    opts.check()
    m0 = at_cutoff(measure, opts.N)
    iv.check_budget(f"{m0.name}: the runs at length {m0.cutoff}",
                    len(aligned.runs) * len(aligned.topics) * int(m0.cutoff) * 24,
                    opts.max_memory)
    plan = _plan(aligned, measure, opts)
    if opts.values:                  # a listing too long is refused before the mapping
        iv.check_listing(plan.spec)
    values = plan.measure.compute(aligned)
    Rn, T, N = plan.levels.shape
    phi = [[None] * T for _ in range(Rn)]
    n_values = [0] * T
    n_univ = [0] * T
    spec = plan.spec

    def prog(label, done, total):
        if progress is not None:
            progress(label, done, total)

    if getattr(progress, "announce", None) is not None:     # the estimate of a long pass
        prog.announce = progress.announce

    if spec.family == "generic":
        lv = plan.measure.level(aligned.rel_level)
        groups: dict = {}
        for t in range(T):
            key = (int(aligned.num_rel[t]), int(aligned.num_nonrel[t]), int(plan.caps[t])) \
                if spec.generic_depends_on_R else ("all", int(plan.caps[t]))
            groups.setdefault(key, []).append(t)
        for key, ts in groups.items():
            s2 = iv.MapSpec("generic", N, name=spec.name,
                            values_fn=_generic_fn(aligned, plan.measure, ts[0], lv),
                            generic_depends_on_R=spec.generic_depends_on_R)
            lev = plan.levels[:, ts, :].reshape(-1, N)
            raw = values[:, ts].reshape(-1)
            caps = np.repeat(plan.caps[ts][None, :], Rn, axis=0).reshape(-1)
            res = iv.phi_values(s2, lev, caps, ties=opts.ties, progress=prog,
                                use_cache=opts.use_cache, warnings=opts.warnings, raw_values=raw,
                                max_bytes=opts.max_memory)
            for i, x in enumerate(res.phi):
                r, j = divmod(i, len(ts))
                phi[r][ts[j]] = x
            for j, t in enumerate(ts):
                n_values[t] = res.n_values[j]
                n_univ[t] = res.n_universe[j]
    else:
        # distinct (vector, cap) queries only
        lev = plan.levels.reshape(-1, N)
        caps = np.repeat(plan.caps[None, :], Rn, axis=0).reshape(-1)
        tcol = np.tile(np.arange(T), Rn)
        if plan.level_caps is not None:
            capcols = plan.level_caps[tcol]
        else:
            capcols = caps[:, None]
        keymat = np.concatenate([lev.astype(np.int64), capcols.astype(np.int64)], axis=1)
        uniq, inv = np.unique(keymat, axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        ulev = uniq[:, :N]
        ucaps = uniq[:, N] if plan.level_caps is None else np.full(len(uniq), N)
        ulc = uniq[:, N:] if plan.level_caps is not None else None
        res = iv.phi_values(spec, ulev, ucaps, ties=opts.ties, progress=prog,
                            use_cache=opts.use_cache, warnings=opts.warnings, level_caps=ulc,
                            max_bytes=opts.max_memory)
        for i, u in enumerate(inv.tolist()):
            r, t = divmod(i, T)
            phi[r][t] = res.phi[u]
            n_values[t] = res.n_values[u]
            n_univ[t] = res.n_universe[u]
        # topics no run reached: sizes from the empty run
        missing = [t for t in range(T) if n_values[t] == 0]
        if missing:
            z = np.zeros((len(missing), N), np.int64)
            lc = None if plan.level_caps is None else plan.level_caps[missing]
            r2 = iv.phi_values(spec, z, plan.caps[missing], ties=opts.ties,
                               use_cache=opts.use_cache, warnings=opts.warnings, level_caps=lc,
                               max_bytes=opts.max_memory)
            for t, a, b in zip(missing, r2.n_values, r2.n_universe):
                n_values[t], n_univ[t] = a, b
    mapped = np.full((Rn, T), np.nan)
    for r in range(Rn):
        for t in range(T):
            x = phi[r][t]
            if x is None or (isinstance(values[r, t], float) and np.isnan(values[r, t])):
                continue
            mapped[r, t] = _scale(x, n_values[t], n_univ[t], opts)
    if plan.surrogate and opts.universe == "attainable" and len(set(n_values)) > 1:
        msg = SURROGATE_WARNING.format(m=plan.measure.name)
        if msg not in opts.warnings:
            opts.warnings.append(msg)
    return Mapped(plan.measure.name, values, phi, mapped, n_values, n_univ, spec, plan.surrogate)


def _scale(x, n_values: int, n_universe: int, opts: Options) -> float:
    if not opts.normalise:
        return float(x)
    top = n_values if opts.ties == "unq" else n_universe
    if top <= 1:
        return 0.0
    return float(Fraction(x) - 1) / float(top - 1) if isinstance(x, Fraction) else \
        float(Fraction(int(x) - 1, int(top) - 1))


def _out(x, opts: Options):
    """A phi value for output: int, or float for mid ranks / normalised values."""
    if x is None:
        return None
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return int(x)


def interval_scores(aligned: Aligned, measure, N: int | None = None, *, ties: str = "unq",
                    normalise: bool = False, universe: str = "all",
                    progress: Callable | None = None, use_cache: bool = True,
                    warnings: list | None = None) -> np.ndarray:
    """Interval-mapped per-topic scores of ``measure`` (name or Measure) at run
    length N (its own cutoff if it has one): float64 (runs, topics), NaN where
    the measure is undefined."""
    opts = Options(N=N, ties=ties, normalise=normalise, universe=universe, use_cache=use_cache,
                   warnings=warnings if warnings is not None else [])
    return map_measure(aligned, measure, opts, progress).mapped


def mapped_matrices(aligned: Aligned, measures, progress: Callable | None = None,
                    N: int | None = None, warnings: list | None = None) -> dict:
    """{measure name: interval-mapped (runs, topics) matrix} for sigtest --scale interval.
    Each measure needs a cutoff (its run length) unless N is given."""
    out = {}
    for m in measures:
        mm = _measure(m)
        out[mm.name] = interval_scores(aligned, mm, N, progress=progress, warnings=warnings)
    return out


# ---------------------------------------------------------------------------
# result sets
# ---------------------------------------------------------------------------

def _f(x):
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def run(aligned: Aligned, measures, opts: Options, progress: Callable | None = None) -> Report:
    """Map every measure; the Report of the requested tables (see :func:`report`)."""
    if aligned.ties_averaged:
        raise UsageError("interval-map maps the rankings themselves (their relevance "
                         "vectors): --tie-break expected (an expectation of measure values) "
                         "does not apply; choose an order (trec, docno-asc, input)")
    opts.check()
    if not measures:
        raise UsageError("give at least one measure with -m")
    maps: list[Mapped] = []
    for m in measures:
        maps.append(map_measure(aligned, m, opts, progress))
    params = {"N": opts.N, "ties": opts.ties, "normalise": opts.normalise,
              "universe": opts.universe, "measures": [x.measure for x in maps]}
    return report(aligned, maps, opts, params)


def report(aligned, maps: list[Mapped], opts: Options, params: dict) -> Report:
    """Tables ``scores`` (means, -q: per topic too), with ``values`` the value
    sets (``values``, ``value_quantiles``), with ``analyze`` the paper's
    comparisons (``tau``, ``tau_measures`` for two or more measures, ``flips``
    for two or more runs).  The primary table is ``tau`` with ``analyze``,
    else ``values`` with ``values``, else ``scores``."""
    tables = [scores_resultset(aligned, maps, opts, params)]
    if opts.values:
        tables.extend(values_resultsets(aligned, maps, opts, params))
    if opts.analyze:
        tables.extend(analyze_resultsets(aligned, maps, opts, params))
    primary = "tau" if opts.analyze else "values" if opts.values else "scores"
    return Report(COMMAND, tables, primary=primary, warnings=list(opts.warnings))


def _mean_rows(v: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    ok = ~np.isnan(v)
    cnt = ok.sum(axis=1)
    s = np.where(ok, v, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, s / np.maximum(cnt, 1), np.nan)


def scores_resultset(aligned: Aligned, maps: list[Mapped], opts: Options, params: dict) -> ResultSet:
    cols = ["run", "qid", "measure", "value", "interval_value", "n_values"]
    recs = []
    for mp in maps:
        for r, run_name in enumerate(aligned.runs):
            if opts.per_query:
                for t, qid in enumerate(aligned.topics):
                    x = mp.phi[r][t]
                    iv_ = None if x is None else (float(mp.mapped[r, t]) if opts.normalise
                                                  else _out(x, opts))
                    if isinstance(iv_, float) and math.isnan(iv_):
                        iv_ = None
                    recs.append({"run": run_name, "qid": qid, "measure": mp.measure,
                                 "value": _f(mp.values[r, t]), "interval_value": iv_,
                                 "n_values": int(mp.n_values[t])})
        means_o = _mean_rows(mp.values)
        means_i = _mean_rows(mp.mapped)
        nv = sorted(set(int(x) for x in mp.n_values))
        common = nv[0] if len(nv) == 1 else None
        for r, run_name in enumerate(aligned.runs):
            recs.append({"run": run_name, "qid": "all", "measure": mp.measure,
                         "value": _f(means_o[r]), "interval_value": _f(means_i[r]),
                         "n_values": common})
    return ResultSet(COMMAND, cols, recs, params, title="Interval-mapped scores (qid all = mean)",
                     id="scores",
                     description="per run and measure (-q: and topic; qid all = mean): the "
                                 "value, its interval-mapped value and the size of the value set")


PLOT_ROWS = 21
PLOT_WIDTH = 40


def values_resultsets(aligned: Aligned, maps: list[Mapped], opts: Options,
                      params: dict) -> list[ResultSet]:
    """Tables ``values`` and ``value_quantiles`` over every measure of ``maps``."""
    recs: list[dict] = []
    qrecs: list[dict] = []
    sizes: dict[str, dict] = {}
    for mp in maps:
        r, q, sizes[mp.measure] = _value_listing(aligned, mp)
        recs.extend(r)
        qrecs.extend(q)
    values = ResultSet(COMMAND, ["measure", "value", "phi", "n_runs", "runs_fraction",
                                 "n_observed"], recs,
                       dict(params, listing="values", value_sets=sizes),
                       title="; ".join(f"{m}: the {d['values']} values of all {d['runs']} runs "
                                       f"of length {d['N']}" for m, d in sizes.items()),
                       id="values",
                       description="per measure: each value of the value set with its phi, "
                                   "the universe runs reaching it and the runs observed at it")
    quant = ResultSet(COMMAND, ["measure", "runs_fraction", "value"], qrecs,
                      dict(params, listing="quantiles"),
                      title="Value against the fraction of runs (sorted by value)",
                      id="value_quantiles",
                      description=f"per measure: the value reached at fractions 0, "
                                  f"1/{PLOT_ROWS - 1}, ..., 1 of the universe runs sorted "
                                  f"by value")
    quant.view = _quantile_plot(quant)
    return [values, quant]


def _value_listing(aligned: Aligned, mp: Mapped) -> tuple[list, list, dict]:
    """The distinct values of M(U) (R-dependent measures: R = N, all runs) with
    the number of universe runs at each, and the quantiles (the paper's
    Figures 3-5)."""
    spec = mp.spec
    if spec.family == "generic":
        lv = aligned.rel_level
        spec = iv.MapSpec("generic", spec.N, name=spec.name,
                          values_fn=_generic_fn(aligned, _measure(mp.measure), 0, lv),
                          generic_depends_on_R=spec.generic_depends_on_R)
    vals, mult = iv.value_listing(spec, spec.N)
    vals = np.asarray(vals, dtype=np.float64)
    N = spec.N
    if spec.family == "AP":
        vals = vals / N
    elif spec.family == "R":
        vals = vals / N
    elif spec.family in ("nDCG", "nDCGtrec"):
        vals = vals / vals.max() if len(vals) and vals.max() > 0 else vals
    elif spec.family == "RBP" and spec.gains[-1] > 0:
        vals = vals / float(spec.gains[-1]) if not spec.binary else vals
    mult = [int(x) for x in mult]
    total = sum(mult)
    observed = np.asarray(mp.values, dtype=np.float64).ravel()
    observed = observed[~np.isnan(observed)]
    srt = np.sort(observed)
    recs = []
    cum = 0
    for i, (v, m) in enumerate(zip(vals.tolist(), mult)):
        cum += m
        tol = 1e-9 * max(1.0, abs(v))
        n_obs = int(np.searchsorted(srt, v + tol, "right") - np.searchsorted(srt, v - tol, "left"))
        recs.append({"measure": mp.measure, "value": v, "phi": i + 1, "n_runs": m,
                     "runs_fraction": cum / total, "n_observed": n_obs})
    # value reached at each fraction of the runs (x = runs sorted by value)
    cummult = np.cumsum(mult)
    qrecs = []
    for k in range(PLOT_ROWS):
        frac = k / (PLOT_ROWS - 1)
        idx = int(np.searchsorted(cummult, max(1, math.ceil(frac * total)), "left"))
        idx = min(idx, len(vals) - 1)
        qrecs.append({"measure": mp.measure, "runs_fraction": frac, "value": float(vals[idx])})
    return recs, qrecs, {"values": len(recs), "runs": total, "N": N}


def _quantile_plot(quant: ResultSet) -> ResultSet:
    """The quantiles with a text bar per row (people only: never tsv/json)."""
    rows = []
    span: dict[str, tuple[float, float]] = {}
    for r in quant.records:
        lo, hi = span.get(r["measure"], (r["value"], r["value"]))
        span[r["measure"]] = (min(lo, r["value"]), max(hi, r["value"]))
    for r in quant.records:
        lo, hi = span[r["measure"]]
        width = 0 if hi == lo else int(round((r["value"] - lo) / (hi - lo) * PLOT_WIDTH))
        rows.append(dict(r, bar="#" * width))
    return ResultSet(COMMAND, ["measure", "runs_fraction", "value", "bar"], rows,
                     dict(quant.params), title=quant.title)


# ---------------------------------------------------------------------------
# --analyze: Tables 2, 4, 5-6
# ---------------------------------------------------------------------------

# Kendall's tau-b is declared once, in ipsoeval.stats.rankcorr (used here and by agree)


def _round8(v):
    # the paper rounds averages to 8 decimals before correlating (footnote 9)
    return np.round(v, 8)


def analyze_resultsets(aligned: Aligned, maps: list[Mapped], opts: Options, params: dict) -> list[ResultSet]:
    out = []
    # Table 2
    rows = []
    for mp in maps:
        mo = _round8(_mean_rows(mp.values))
        mi = _round8(_mean_rows(mp.mapped))
        taus = [kendall_tau_b(mp.values[:, t], mp.mapped[:, t]) for t in range(mp.values.shape[1])]
        taus = [t for t in taus if not math.isnan(t)]
        rows.append({"measure": mp.measure, "tau_overall": _f(kendall_tau_b(mo, mi)),
                     "tau_topic_min": _f(min(taus)) if taus else None,
                     "tau_topic_mean": _f(sum(taus) / len(taus)) if taus else None,
                     "n": len(taus),
                     "surrogate": bool(mp.surrogate and opts.universe == "attainable")})
    out.append(ResultSet(COMMAND, ["measure", "tau_overall", "tau_topic_min", "tau_topic_mean",
                                   "n", "surrogate"], rows, dict(params, analysis="table2"),
                         title="Kendall's tau: ranking of runs by mean M vs mean phi(M) (Table 2)",
                         id="tau",
                         description="per measure: Kendall's tau between the run rankings by "
                                     "M and by phi(M), overall and per topic (Table 2)"))
    # Table 4
    if len(maps) >= 2:
        rows = []
        for i in range(len(maps)):
            for j in range(i + 1, len(maps)):
                a, b = maps[i], maps[j]
                to = kendall_tau_b(_round8(_mean_rows(a.values)), _round8(_mean_rows(b.values)))
                ti = kendall_tau_b(_round8(_mean_rows(a.mapped)), _round8(_mean_rows(b.mapped)))
                d = None if (math.isnan(to) or to == 0 or math.isnan(ti)) else (ti - to) / abs(to) * 100
                rows.append({"measure_a": a.measure, "measure_b": b.measure, "tau": _f(to),
                             "tau_interval": _f(ti), "delta_pct": d})
        out.append(ResultSet(COMMAND, ["measure_a", "measure_b", "tau", "tau_interval", "delta_pct"],
                             rows, dict(params, analysis="table4"),
                             title="Kendall's tau among measures vs among mapped measures (Table 4)",
                             id="tau_measures",
                             description="per pair of measures: Kendall's tau of their run "
                                         "rankings, original and mapped (Table 4)"))
    # Tables 5-6
    if len(aligned.runs) >= 2:
        rows = []
        for mp in maps:
            for test in opts.tests:
                if test in registry.OMNIBUS and len(aligned.runs) < 3:
                    continue
                so = significant_pairs(mp.values, test, opts.alpha)
                si = significant_pairs(mp.mapped, test, opts.alpha)
                sig = int(so.sum())
                s2ns = int((so & ~si).sum())
                ns2s = int((~so & si).sum())
                rows.append({"measure": mp.measure, "test": test,
                             "requires": registry.requirement(test),
                             "pairs": int(len(so)), "sig_original": sig,
                             "sig_interval": int(si.sum()),
                             "s2ns": s2ns, "ns2s": ns2s,
                             "s2ns_pct": (100.0 * s2ns / sig) if sig else None,
                             "ns2s_pct": (100.0 * ns2s / sig) if sig else None,
                             "delta_pct": (100.0 * (s2ns + ns2s) / sig) if sig else None})
        out.append(ResultSet(COMMAND, ["measure", "test", "requires", "pairs", "sig_original",
                                       "sig_interval", "s2ns", "ns2s", "s2ns_pct", "ns2s_pct",
                                       "delta_pct"], rows,
                             dict(params, analysis="tables5-6", alpha=opts.alpha,
                                  test_note=(
                                      f"Tests: {', '.join(opts.tests)} (Ferrante et al. "
                                      f"2021 Tables 5-6 compare each test's decisions on "
                                      f"the original and the mapped values; the method "
                                      f"fixes the tests, not the default by scale).")),
                             title=f"Significant run pairs, original vs mapped, alpha={opts.alpha} "
                                   f"(Tables 5-6)", id="flips",
                             description="per measure and test: significant run pairs on the "
                                         "original and the mapped values, and the decisions "
                                         "that flip (Tables 5-6)"))
    return out


def significant_pairs(X: np.ndarray, test: str, alpha: float) -> np.ndarray:
    """bool per run pair (i < j, row-major): p < alpha.  Pairwise tests are not
    corrected (as in the paper); omnibus tests use Tukey HSD."""
    X = np.asarray(X, float)
    k = X.shape[0]
    iu = np.triu_indices(k, 1)
    if test in registry.OMNIBUS:
        p = registry.tukey(test, X).pvalue[iu]
    else:
        with np.errstate(all="ignore"):
            p = np.asarray(registry.run(test, X[iu[0]], X[iu[1]]).pvalue, float)
    return np.nan_to_num(p, nan=1.0) < alpha
