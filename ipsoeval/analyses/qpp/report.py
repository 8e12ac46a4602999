"""``ipsoeval qpp``: how well query performance predictors predict a
measure's per-topic scores of one run.

Input: the run's per-topic scores of each measure and the predictors' values
(:class:`ipsoeval.model.Predictors`).  Every predictor is evaluated on the
same topics -- those of the scores that every predictor has a value for --
so that the comparisons between predictors are paired.

Per predictor and measure (table ``correlations``):

- Pearson's r, Spearman's rho and Kendall's tau-b with their two-sided
  p-values, computed as ``scipy.stats.pearsonr``, ``spearmanr`` and
  ``kendalltau`` compute them (:mod:`ipsoeval.stats.correlation`);
- the Fisher z interval of r (se 1/sqrt(n-3)) and of rho (Bonett and
  Wright's se sqrt((1 + rho^2/2)/(n-3)));
- percentile bootstrap intervals of all three, resampling topics (``--samples``
  resamples drawn as ``numpy.random.default_rng(seed).integers(0, n, (B, n))``);
- sMARE (Faggioli, Zendel, Culpepper, Ferro and Scholer, ICTIR 2021): the
  mean over topics of sARE_q = |rank of q by the predictor - rank of q by the
  measure| / n, ranks 1..n with average ranks for ties.  0 is a perfect
  ordering; lower is better.

Per pair of predictors (table ``pairs``): Williams's t for the difference of
their correlations with the same scores (r, and rho through the same
formula on ranks), with Zou's (2007) interval of the difference; for tau, a
paired percentile bootstrap of the difference on the same resamples.

Over the predictors (tables ``anova`` and ``tukey``, two predictors or
more): the two-way ANOVA of sARE with topic and predictor as factors and no
interaction, and Tukey's HSD between the predictors with the ANOVA's
residual mean square, as Faggioli et al. analyse sARE.
"""

from __future__ import annotations

import numpy as np

from ipsoeval.analyses.qpp.options import Options  # noqa: F401  (re-exported)
from ipsoeval.results import Report, ResultSet

__all__ = ["Options", "CORRELATION_COLUMNS", "TOPIC_COLUMNS", "PAIR_COLUMNS", "ANOVA_COLUMNS",
           "TUKEY_COLUMNS", "run", "sare", "bootstrap_correlations"]

COEFFICIENTS = ("pearson", "spearman", "kendall")
CORRELATION_COLUMNS = [
    "run", "measure", "predictor", "n",
    "pearson", "pearson_p", "pearson_low", "pearson_high", "pearson_boot_low",
    "pearson_boot_high",
    "spearman", "spearman_p", "spearman_low", "spearman_high", "spearman_boot_low",
    "spearman_boot_high",
    "kendall", "kendall_p", "kendall_boot_low", "kendall_boot_high",
    "smare"]
VIEW_COLUMNS = ["measure", "predictor", "n", "pearson", "pearson_low", "pearson_high",
                "spearman", "spearman_low", "spearman_high", "kendall", "kendall_boot_low",
                "kendall_boot_high", "smare"]
TOPIC_COLUMNS = ["run", "measure", "predictor", "qid", "score", "value", "rank_measure",
                 "rank_predictor", "sare"]
PAIR_COLUMNS = ["run", "measure", "coefficient", "predictor_a", "predictor_b", "n", "a", "b",
                "r_ab", "difference", "method", "statistic", "df", "p_value", "ci_low",
                "ci_high"]
ANOVA_COLUMNS = ["run", "measure", "source", "df", "sum_sq", "mean_sq", "f", "p_value"]
TUKEY_COLUMNS = ["run", "measure", "predictor_a", "predictor_b", "smare_a", "smare_b",
                 "difference", "q", "df", "p_value", "ci_low", "ci_high", "reject"]
PAIR_VIEW = ["measure", "coefficient", "predictor_a", "predictor_b", "difference", "statistic",
             "p_value", "ci_low", "ci_high"]
TUKEY_VIEW = ["measure", "predictor_a", "predictor_b", "difference", "q", "p_value", "ci_low",
              "ci_high", "reject"]


def _view(rows: list[dict], columns: list[str], title: str, paper: dict | None = None
          ) -> ResultSet:
    return ResultSet("qpp", columns, [{c: r[c] for c in columns} for r in rows], title=title,
                     table_hints={"paper": paper} if paper else {})


def _paper_views(run_name: str, alpha: float, several: bool) -> dict[str, dict]:
    """The compact layouts of latex and markdown (``paper`` hints): each
    coefficient over its interval in one cell (at 3 decimals the table is
    wider than a page), the interval the terminal view shows
    (Fisher z for r and rho, bootstrap for tau, which has no Fisher one);
    p-values, statistics and the other intervals are for tsv and json.
    The measure column only when there are several measures."""
    level = f"{1 - alpha:.0%}"
    m = ["measure"] if several else []
    ci = {"join_ci": ["ci_low", "ci_high", "interval"]}
    return {
        "correlations": {
            "columns": [*m, "predictor", "r", "rho", "tau", "smare"],
            "join": {"r": ["pearson", "pearson_low", "pearson_high", "estimate"],
                     "rho": ["spearman", "spearman_low", "spearman_high", "estimate"],
                     "tau": ["kendall", "kendall_boot_low", "kendall_boot_high", "estimate"]},
            "labels": {"rho": "ρ", "tau": "τ", "smare": "sMARE"},
            "digits": 2,
            "caption": f"Query performance prediction, {run_name}: Pearson's r, Spearman's ρ "
                       f"and Kendall's τ-b, each with its {level} interval (Fisher z for r and "
                       f"ρ, percentile bootstrap for τ), and sMARE (lower is better)"},
        "pairs": {
            "columns": [*m, "coefficient", "predictor_a", "predictor_b", "difference",
                        "join_ci", "p_value"],
            "join": ci,
            "labels": {"coefficient": "coefficient", "predictor_a": "A", "predictor_b": "B",
                       "difference": "A − B", "join_ci": f"{level} CI", "p_value": "p"},
            "digits": 3},
        "tukey": {
            "columns": [*m, "predictor_a", "predictor_b", "difference", "join_ci", "p_value",
                        "reject"],
            "join": ci,
            "labels": {"predictor_a": "A", "predictor_b": "B", "difference": "B − A",
                       "join_ci": f"{level} CI", "p_value": "p"},
            "digits": 3},
    }


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if not np.isfinite(x) else x


def sare(values: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """sARE of each topic (last axis): |rank by value - rank by score| / n,
    average ranks for ties (Faggioli et al. 2021)."""
    from ipsoeval.stats.correlation import ranks
    n = scores.shape[-1]
    return np.abs(ranks(values) - ranks(scores)) / n


def _kendall(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    from scipy.stats import kendalltau
    if np.all(x == x[0]) or np.all(y == y[0]):
        return np.nan, np.nan
    res = kendalltau(x, y)
    return float(res.statistic), float(res.pvalue)


def _dense(v: np.ndarray) -> np.ndarray:
    """Dense ranks 1..G of ``v`` (equal values, equal ranks)."""
    _, inv = np.unique(v, return_inverse=True)
    return inv.astype(np.intp).reshape(-1) + 1


def _pearson_of_counts(C: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Pearson's r of each resample given by its counts ``C`` (resamples, n)
    of the n pairs (u_i, v_i): weighted sums as matrix-vector products, of
    values centred on their overall means first (so that the resample's own
    centring subtracts little)."""
    N = C.sum(axis=1)
    u0, v0 = u - u.mean(), v - v.mean()
    su, sv = C @ u0, C @ v0
    sxy = C @ (u0 * v0) - su * sv / N
    sxx = C @ (u0 * u0) - su * su / N
    syy = C @ (v0 * v0) - sv * sv / N
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.clip(sxy / np.sqrt(sxx * syy), -1.0, 1.0)


def _resampled_ranks(C: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """(resamples, n): the average rank, within each resample, of each of the
    n values (dense ranks ``dense``, 1..G), the resample holding value i
    ``C[:, i]`` times: the values below it plus (its copies + 1)/2."""
    G = int(dense.max())
    b = C.shape[0]
    cells = (np.arange(b)[:, None] * (G + 1) + dense[None, :]).reshape(-1)
    per = np.bincount(cells, weights=C.reshape(-1), minlength=b * (G + 1)).reshape(b, G + 1)
    below = np.cumsum(per, axis=1) - per
    return (below + (per + 1) / 2)[:, dense]


class _Kendall:
    """Kendall's tau-b of resamples of (x, y) from their counts, as
    ``scipy.stats.kendalltau`` computes it on the resampled values: the pairs
    sorted by (x, y) (here by repeating the originals' order, no sort), the
    discordant pairs counted by scipy's own O(n log n) routine, the ties in
    x, in y and in both counted from the counts."""

    def __init__(self, x: np.ndarray, y: np.ndarray):
        self.xr, self.yr = _dense(x), _dense(y)
        self.order = np.lexsort((self.yr, self.xr))
        self.xy = _dense(self.xr.astype(np.float64) * (self.yr.max() + 1) + self.yr)
        try:
            from scipy.stats._stats import _kendall_dis
        except ImportError:             # scipy moved it: its public function, slower
            _kendall_dis = None
        self.dis = _kendall_dis
        self.x, self.y = x, y

    @staticmethod
    def _tied_pairs(groups: np.ndarray, c: np.ndarray) -> int:
        m = np.bincount(groups, weights=c).astype(np.int64)
        return int((m * (m - 1) // 2).sum())

    def __call__(self, c: np.ndarray) -> float:
        c = c.astype(np.int64)
        if self.dis is None:
            from scipy.stats import kendalltau
            seq = np.repeat(np.arange(c.size), c)
            return float(kendalltau(self.x[seq], self.y[seq]).statistic)
        seq = np.repeat(self.order, c[self.order])
        N = seq.size
        tot = N * (N - 1) // 2
        xtie = self._tied_pairs(self.xr, c)
        ytie = self._tied_pairs(self.yr, c)
        if xtie == tot or ytie == tot:
            return np.nan
        dis = int(self.dis(self.xr[seq], self.yr[seq]))
        ntie = self._tied_pairs(self.xy, c)
        tau = (tot - xtie - ytie + ntie - 2 * dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
        return float(min(1.0, max(-1.0, tau)))


def bootstrap_correlations(X: np.ndarray, y: np.ndarray, samples: int, seed: int,
                           progress=None) -> dict[str, np.ndarray]:
    """{coefficient: (samples, predictors)} of Pearson's r, Spearman's rho and
    Kendall's tau-b on topic resamples: resample b draws row b of
    ``default_rng(seed).integers(0, n, (samples, n))`` (drawn in batches; the
    stream is the same whatever the batch size).  A resample is computed from
    how often it draws each topic (weighted sums, ranks from the counts), never
    by copying the values: the memory stays (batch, n)."""
    from ipsoeval.stats._blas import single_thread
    with single_thread():       # one summation order whatever the thread count
        return _bootstrap(X, y, samples, seed, progress)


def _bootstrap(X, y, samples, seed, progress):
    P, n = X.shape
    rng = np.random.default_rng(seed)
    out = {c: np.empty((samples, P)) for c in COEFFICIENTS}
    yd = _dense(y)
    xd = [_dense(X[p]) for p in range(P)]
    taus = [_Kendall(X[p], y) for p in range(P)]
    from ipsoeval.analyses.bootstrap.resample import BATCH, resample_counts
    for done, C in resample_counts(rng, n, samples, BATCH):
        b = min(BATCH, samples - done)
        C = C[:b]                       # a last batch is padded with empty trials
        # a resample's average ranks sum to N(N+1)/2: their mean is (N+1)/2
        centre = (n + 1) / 2
        dy = _resampled_ranks(C, yd) - centre
        cdy = C * dy
        syy = np.einsum("ij,ij->i", cdy, dy)
        for p in range(P):
            out["pearson"][done:done + b, p] = _pearson_of_counts(C, X[p], y)
            dx = _resampled_ranks(C, xd[p]) - centre
            sxy = np.einsum("ij,ij->i", cdy, dx)
            sxx = np.einsum("ij,ij->i", C * dx, dx)
            with np.errstate(divide="ignore", invalid="ignore"):
                out["spearman"][done:done + b, p] = np.clip(sxy / np.sqrt(sxx * syy), -1, 1)
            for j in range(b):
                out["kendall"][done + j, p] = taus[p](C[j])
        if progress is not None:
            progress(done + b, samples)
    return out


def _percentile(draws: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """The percentile interval of each column (NaN draws -- a constant
    resample -- left out)."""
    with np.errstate(invalid="ignore"), _quiet():
        lo = np.nanquantile(draws, alpha / 2, axis=0)
        hi = np.nanquantile(draws, 1 - alpha / 2, axis=0)
    return lo, hi


def _quiet():
    import warnings
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter("ignore", RuntimeWarning)

    class _Ctx:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            w.__exit__(*a)
    return _Ctx()


def _bootstrap_p(d: np.ndarray) -> float | None:
    """Two-sided p-value of a paired bootstrap difference: twice the smaller
    share of resamples on either side of 0, each as (count + 1)/(B + 1)."""
    d = d[np.isfinite(d)]
    if d.size == 0:
        return None
    B = d.size
    lo = (np.count_nonzero(d <= 0) + 1) / (B + 1)
    hi = (np.count_nonzero(d >= 0) + 1) / (B + 1)
    return float(min(1.0, 2 * min(lo, hi)))


def _anova(S: np.ndarray, names: list[str], alpha: float, base: dict):
    """The two-way ANOVA rows (topic, predictor, residual) of sARE (P, n) and
    the Tukey HSD rows of every pair of predictors."""
    from ipsoeval.special import dist
    from ipsoeval.stats.omnibus import anova_twoway, tukey_hsd
    P, n = S.shape
    grand = S.mean()
    pm = S.mean(axis=1)
    tm = S.mean(axis=0)
    ss_pred = n * ((pm - grand) ** 2).sum()
    ss_topic = P * ((tm - grand) ** 2).sum()
    resid = S - pm[:, None] - tm[None, :] + grand
    ss_res = (resid ** 2).sum()
    df_p, df_t, df_r = P - 1.0, n - 1.0, (P - 1.0) * (n - 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ms_res = ss_res / df_r
        rows = []
        for source, ss, df in (("topic", ss_topic, df_t), ("predictor", ss_pred, df_p)):
            F = (ss / df) / ms_res
            p = dist.fdtrc(df, df_r, float(F)) if np.isfinite(F) else None
            rows.append({**base, "source": source, "df": int(df), "sum_sq": _f(ss),
                         "mean_sq": _f(ss / df), "f": _f(F), "p_value": _f(p)})
        rows.append({**base, "source": "residual", "df": int(df_r), "sum_sq": _f(ss_res),
                     "mean_sq": _f(ms_res), "f": None, "p_value": None})
    om = anova_twoway(S)
    tk = tukey_hsd(S, "anova2", om)
    qcrit = None
    if np.isfinite(tk.se) and tk.se > 0:
        from scipy.stats import studentized_range
        qcrit = float(studentized_range.ppf(1 - alpha, P, tk.df))
    trows = []
    for a in range(P):
        for b in range(a + 1, P):
            diff = pm[b] - pm[a]
            q = tk.statistic[a, b]
            half = qcrit * tk.se if qcrit is not None else np.nan
            p = tk.pvalue[a, b]
            trows.append({**base, "predictor_a": names[a], "predictor_b": names[b],
                          "smare_a": _f(pm[a]), "smare_b": _f(pm[b]), "difference": _f(diff),
                          "q": _f(abs(q)) if np.isfinite(q) else None, "df": int(df_r),
                          "p_value": _f(p), "ci_low": _f(diff - half),
                          "ci_high": _f(diff + half),
                          "reject": bool(p < alpha) if np.isfinite(p) else None})
    return rows, trows


def run(run_name: str, topics: list[str], scores: dict[str, np.ndarray], predictors,
        options: Options, *, source: str = "qrels", progress=None) -> Report:
    """The Report of ``qpp``: ``scores[m]`` is measure m's per-topic scores
    of the run on ``topics`` (NaN = undefined), ``predictors`` a
    :class:`ipsoeval.model.Predictors`; ``source`` names where the topics
    come from in the warnings (qrels, scores)."""
    from ipsoeval.stats.correlation import (
        SPEARMAN_SE,
        fisher_interval,
        pearson,
        pearson_p,
        spearman,
        spearman_p,
        williams_t,
        zou_interval,
    )
    options.check()
    names = list(predictors.names)
    alpha = options.alpha
    warnings: list[str] = []
    notes: list[str] = []
    topic_set = set(topics)
    keep = np.ones(len(topics), dtype=bool)
    lacking, extra = [], []
    for name in names:
        vals = predictors.values[name]
        have = np.array([t in vals for t in topics], dtype=bool)
        if not have.all():
            lacking.append(f"{name} lacks {int((~have).sum())}")
        more = sum(1 for q in vals if q not in topic_set)
        if more:
            extra.append(f"{name} has {more}")
        keep &= have
    # one warning per kind, naming each predictor with its count (predictors
    # are not runs: warntext's merging of runs' warnings would call them runs)
    if lacking:
        warnings.append(f"qpp: {len(topics) - int(keep.sum())} topic(s) of the {source} "
                        f"missing from a predictor left out ({', '.join(lacking)}); every "
                        f"predictor is evaluated on the {int(keep.sum())} topic(s) all "
                        f"predictors have, so that their comparisons are paired")
    if extra:
        warnings.append(f"qpp: predictor topic(s) not in the {source} ignored "
                        f"({', '.join(extra)})")
    used = [t for t, k in zip(topics, keep) if k]
    X_all = np.array([[predictors.values[nm][t] for t in used] for nm in names],
                     dtype=np.float64).reshape(len(names), len(used))
    P = len(names)
    crow: list[dict] = []
    trows: list[dict] = []
    prows: list[dict] = []
    arows: list[dict] = []
    krows: list[dict] = []
    for mi, (measure, vec) in enumerate(scores.items()):
        y_all = np.asarray(vec, dtype=np.float64)[keep]
        defined = np.isfinite(y_all)
        if not defined.all():
            warnings.append(f"qpp: {measure}: {int((~defined).sum())} topic(s) with an "
                            f"undefined score left out")
        y = y_all[defined]
        X = X_all[:, defined]
        qids = [t for t, d in zip(used, defined) if d]
        n = y.size
        base = {"run": run_name, "measure": measure}
        if n < 3:
            raise _too_few(measure, n)
        if np.all(y == y[0]):
            notes.append(f"qpp: {measure} is constant over the {n} topics: its correlations "
                         f"with every predictor are undefined (left empty)")
        r = pearson(X, y[None])
        rho = spearman(X, y[None])
        taus = [_kendall(X[p], y) for p in range(P)]
        r_p, rho_p = pearson_p(r, n), spearman_p(rho, n)
        r_lo, r_hi = fisher_interval(r, n, alpha, "pearson")
        s_lo, s_hi = fisher_interval(rho, n, alpha, "spearman")
        S = sare(X, y[None])
        smare = S.mean(axis=1)
        boot = bootstrap_correlations(X, y, options.samples, options.seed,
                                      progress=progress)
        bi = {c: _percentile(boot[c], alpha) for c in COEFFICIENTS}
        for p, name in enumerate(names):
            if np.all(X[p] == X[p][0]) and mi == 0:
                notes.append(f"qpp: predictor {name} is constant over the {n} topics: its "
                             f"correlations are undefined (left empty); its sMARE ranks "
                             f"every topic as tied")
            crow.append({**base, "predictor": name, "n": n,
                         "pearson": _f(r[p]), "pearson_p": _f(r_p[p]),
                         "pearson_low": _f(r_lo[p]), "pearson_high": _f(r_hi[p]),
                         "pearson_boot_low": _f(bi["pearson"][0][p]),
                         "pearson_boot_high": _f(bi["pearson"][1][p]),
                         "spearman": _f(rho[p]), "spearman_p": _f(rho_p[p]),
                         "spearman_low": _f(s_lo[p]), "spearman_high": _f(s_hi[p]),
                         "spearman_boot_low": _f(bi["spearman"][0][p]),
                         "spearman_boot_high": _f(bi["spearman"][1][p]),
                         "kendall": _f(taus[p][0]), "kendall_p": _f(taus[p][1]),
                         "kendall_boot_low": _f(bi["kendall"][0][p]),
                         "kendall_boot_high": _f(bi["kendall"][1][p]),
                         "smare": _f(smare[p])})
            if options.per_query:
                from ipsoeval.stats.correlation import ranks
                rm, rp = ranks(y), ranks(X[p])
                for j, q in enumerate(qids):
                    trows.append({**base, "predictor": name, "qid": q, "score": _f(y[j]),
                                  "value": _f(X[p, j]), "rank_measure": float(rm[j]),
                                  "rank_predictor": float(rp[j]), "sare": _f(S[p, j])})
        if P >= 2:
            R = pearson(X[:, None, :], X[None, :, :])
            Rs = spearman(X[:, None, :], X[None, :, :])
            for a in range(P):
                for b in range(a + 1, P):
                    pair = {**base, "predictor_a": names[a], "predictor_b": names[b], "n": n}
                    for coef, va, vb, rab, kind in (("pearson", r[a], r[b], R[a, b], "pearson"),
                                                    ("spearman", rho[a], rho[b], Rs[a, b],
                                                     "spearman")):
                        t, df, pv = williams_t(va, vb, rab, n)
                        lo, hi = zou_interval(va, vb, rab, n, alpha, kind)
                        prows.append({**pair, "coefficient": coef, "a": _f(va), "b": _f(vb),
                                      "r_ab": _f(rab), "difference": _f(va - vb),
                                      "method": "Williams t, Zou interval",
                                      "statistic": _f(t), "df": int(n - 3), "p_value": _f(pv),
                                      "ci_low": _f(lo), "ci_high": _f(hi)})
                    d = boot["kendall"][:, a] - boot["kendall"][:, b]
                    lo, hi = _percentile(d[:, None], alpha)
                    ta, tb = taus[a][0], taus[b][0]
                    prows.append({**pair, "coefficient": "kendall", "a": _f(ta), "b": _f(tb),
                                  "r_ab": _f(_kendall(X[a], X[b])[0]),
                                  "difference": _f(ta - tb), "method": "paired bootstrap",
                                  "statistic": None, "df": None,
                                  "p_value": _bootstrap_p(d) if np.isfinite(ta - tb) else None,
                                  "ci_low": _f(lo[0]), "ci_high": _f(hi[0])})
            a_rows, t_rows = _anova(S, names, alpha, base)
            arows.extend(a_rows)
            krows.extend(t_rows)
    notes.append(f"qpp: intervals at {1 - alpha:.0%}: Fisher z for Pearson's r (se "
                 f"1/sqrt(n-3)) and Spearman's rho ({SPEARMAN_SE} se sqrt((1+rho^2/2)/(n-3))); "
                 f"percentile bootstrap over topics for r, rho and Kendall's tau-b "
                 f"({options.samples} resamples, seed {options.seed})")
    notes.append("qpp: sARE = |rank by the predictor - rank by the measure| / n, average "
                 "ranks for ties; sMARE is its mean over topics (Faggioli et al. 2021): 0 is "
                 "a perfect ordering, lower is better")
    if P >= 2:
        notes.append("qpp: pairs: Williams's t (Steiger 1980, eq. 7; df n-3) and Zou's (2007) "
                     "interval compare two predictors' r (and rho, the same formulas on "
                     "ranks); tau by a paired bootstrap; the ANOVA on sARE has topic and "
                     "predictor as factors, no interaction, and Tukey's HSD uses its "
                     "residual mean square")
    params = {"run": run_name, "alpha": alpha, "samples": options.samples,
              "seed": options.seed, "per_query": options.per_query,
              "predictors": names}
    paper = _paper_views(run_name, alpha, len(scores) > 1)
    view = _view(crow, VIEW_COLUMNS, f"Query performance prediction: {run_name}",
                 paper["correlations"])
    tables = [
        ResultSet("qpp", CORRELATION_COLUMNS, crow, params=dict(params), id="correlations",
                  view=view, title=f"Query performance prediction: {run_name}",
                  description="per measure and predictor: Pearson's r, Spearman's rho, "
                              "Kendall's tau-b with p-values and intervals, and sMARE"),
    ]
    if options.per_query:
        tables.append(ResultSet("qpp", TOPIC_COLUMNS, trows, params=dict(params), id="topics",
                                title="Per-topic ranks and sARE",
                                description="per measure, predictor and topic: the score, "
                                            "the predictor's value, both ranks and sARE"))
    # with one predictor, the comparisons' tables are there and empty
    tables += [
        ResultSet("qpp", PAIR_COLUMNS, prows, params=dict(params), id="pairs",
                  view=_view(prows, PAIR_VIEW, "Predictors compared", paper["pairs"]),
                  title="Predictors compared",
                  description="per measure and pair of predictors: the difference of "
                              "their r, rho (Williams t, Zou interval) and tau (paired "
                              "bootstrap)"),
        ResultSet("qpp", ANOVA_COLUMNS, arows, params=dict(params), id="anova",
                  view=_view(arows, ANOVA_COLUMNS[1:],
                             "Two-way ANOVA of sARE (topic, predictor)"),
                  title="Two-way ANOVA of sARE (topic, predictor)",
                  description="per measure: the two-way ANOVA of sARE with topic and "
                              "predictor as factors, no interaction"),
        ResultSet("qpp", TUKEY_COLUMNS, krows, params=dict(params), id="tukey",
                  view=_view(krows, TUKEY_VIEW, "Tukey HSD between predictors (sMARE)",
                             paper["tukey"]),
                  title="Tukey HSD between predictors (sMARE)",
                  description="per measure and pair of predictors: Tukey's HSD on sARE "
                              "with the ANOVA's residual mean square"),
    ]
    primary = "topics" if options.per_query else "correlations"
    display = [t.id for t in tables if t.records or t.id == primary]
    return Report("qpp", tables, primary=primary, warnings=warnings, params=params,
                  notes=notes, display=display)


def _too_few(measure: str, n: int):
    from ipsoeval.errors import InputError
    return InputError(f"qpp: {measure}: {n} topic(s) with a score and every predictor's "
                      f"value; the correlations need at least 3")
