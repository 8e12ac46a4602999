"""Omnibus tests over k ≥ 3 runs on the same topics, and Tukey HSD.

Input ``X`` has shape (k runs, n topics).  Topics with a missing value (NaN)
in any run are dropped (a complete block design is needed for the two-way
tests; the one-way tests use the same topics for comparability).

- :func:`anova_oneway`  — runs as groups, topics as replicates
  (``scipy.stats.f_oneway(*X)``); requires an interval scale.
- :func:`kruskal`       — Kruskal–Wallis H on the pooled ranks, tie-corrected
  (``scipy.stats.kruskal(*X)``); ordinal.
- :func:`anova_twoway`  — two-way ANOVA without replication, y_ij = μ + τ_i
  (topic) + α_j (run) + ε_ij; F for the run effect = MS_runs / MS_error with
  (k−1, (k−1)(n−1)) degrees of freedom; interval.
- :func:`friedman`      — Friedman χ² on within-topic ranks, tie-corrected
  (``scipy.stats.friedmanchisquare(*X)``); ordinal.
- :func:`tukey_hsd`     — all-pairs Tukey HSD after any of the four.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ipsoeval.special import dist
from ipsoeval.stats._rank import average_ranks

DESIGNS = ("anova", "kruskal", "anova2", "friedman")


@dataclass
class OmnibusResult:
    statistic: float
    pvalue: float
    df: tuple[float, ...]
    n: int                      # topics used
    k: int                      # runs
    extra: dict = field(default_factory=dict)


def complete(X) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError("expected a (runs, topics) matrix")
    keep = ~np.isnan(X).any(axis=0)
    return X[:, keep]


def _f_sf(F, d1, d2):
    with np.errstate(invalid="ignore"):
        return dist.fdtrc(float(d1), float(d2), float(F)) if np.isfinite(F) else (0.0 if F > 0 else np.nan)


def _f_test(ss_effect: float, ss_error: float, d1: float, d2: float, n: int, k: int,
            means: np.ndarray) -> OmnibusResult:
    """F = (SS_effect/d1) / (SS_error/d2) and its upper tail."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mse = ss_error / d2
        F = (ss_effect / d1) / mse
    return OmnibusResult(float(F), _f_sf(F, d1, d2), (d1, d2), n, k,
                         {"mse": float(mse), "means": means})


def _no_topic_f(k: int) -> OmnibusResult:
    """No topic complete in every run: the F statistics are undefined."""
    return OmnibusResult(np.nan, np.nan, (k - 1.0, np.nan), 0, k,
                         {"mse": np.nan, "means": np.full(k, np.nan)})


def _anova(X, error) -> OmnibusResult:
    """The F test of the runs' means on the topics complete in every run:
    ``error(X, grand, means, n, k)`` gives the error sum of squares and its
    degrees of freedom."""
    X = complete(X)
    k, n = X.shape
    if n == 0:
        return _no_topic_f(k)
    grand = X.mean()
    means = X.mean(axis=1)
    ss_between = n * ((means - grand) ** 2).sum()
    ss_err, d2 = error(X, grand, means, n, k)
    return _f_test(ss_between, ss_err, k - 1.0, d2, n, k, means)


def _within_runs(X, grand, means, n, k):
    return ((X - means[:, None]) ** 2).sum(), k * (n - 1.0)


def _topics_removed(X, grand, means, n, k):
    resid = X - means[:, None] - X.mean(axis=0)[None, :] + grand
    return (resid ** 2).sum(), (k - 1.0) * (n - 1.0)


def anova_oneway(X) -> OmnibusResult:
    return _anova(X, _within_runs)


def anova_twoway(X) -> OmnibusResult:
    return _anova(X, _topics_removed)


def _no_topic(k: int) -> OmnibusResult:
    """No topic complete in every run: the rank statistics are undefined."""
    return OmnibusResult(np.nan, np.nan, (k - 1.0,), 0, k,
                         {"mean_ranks": np.full(k, np.nan), "rank_var": np.nan})


def kruskal(X) -> OmnibusResult:
    X = complete(X)
    k, n = X.shape
    if n == 0:
        return _no_topic(k)
    N = k * n
    ranks, tie = average_ranks(X.reshape(-1))
    ranks = ranks.reshape(k, n)
    R = ranks.sum(axis=1)
    H = 12.0 / (N * (N + 1.0)) * (R ** 2 / n).sum() - 3.0 * (N + 1.0)
    corr = 1.0 - float(tie) / (N ** 3 - N)
    with np.errstate(divide="ignore", invalid="ignore"):
        H = H / corr
    p = dist.chdtrc(k - 1.0, float(H)) if np.isfinite(H) else np.nan
    return OmnibusResult(float(H), p, (k - 1.0,), n, k,
                         {"mean_ranks": R / n, "rank_var": N * (N + 1.0) / 12.0 * corr})


def friedman(X) -> OmnibusResult:
    X = complete(X)
    k, n = X.shape
    if n == 0:
        return _no_topic(k)
    ranks, tie = average_ranks(X.T)            # rank runs within each topic
    R = ranks.sum(axis=0)
    corr = 1.0 - float(tie.sum()) / (n * k * (k * k - 1.0))
    chi = 12.0 / (n * k * (k + 1.0)) * (R ** 2).sum() - 3.0 * n * (k + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        chi = chi / corr
    p = dist.chdtrc(k - 1.0, float(chi)) if np.isfinite(chi) else np.nan
    return OmnibusResult(float(chi), p, (k - 1.0,), n, k,
                         {"mean_ranks": R / n, "rank_var": k * (k + 1.0) / 12.0 * corr})


OMNIBUS = {"anova": anova_oneway, "kruskal": kruskal, "anova2": anova_twoway, "friedman": friedman}


@dataclass
class TukeyResult:
    statistic: np.ndarray      # (k, k): (centre_j − centre_i) / se, signed
    pvalue: np.ndarray         # (k, k): P(Q > |statistic|; k, df), diagonal 1
    df: float
    se: float


def tukey_hsd(X, design: str = "anova", omnibus: OmnibusResult | None = None) -> TukeyResult:
    """All-pairs Tukey HSD following an omnibus test.

    - ``anova``: run means, error MS of the one-way model, df k(n−1)
      (= ``scipy.stats.tukey_hsd(*X)``).
    - ``anova2``: run means, error MS of the two-way model (runs × topics
      residual), df (k−1)(n−1).
    - ``kruskal``: mean pooled ranks, variance N(N+1)/12 × tie correction,
      df ∞ (Nemenyi–Dunn form of Tukey–Kramer on ranks).
    - ``friedman``: mean within-topic ranks, variance k(k+1)/12 × tie
      correction, df ∞ (Nemenyi).
    ``statistic[i, j]`` is (centre of run j − centre of run i) / se with
    se = sqrt(variance / n); the p-value is the studentized range tail.
    """
    if design not in OMNIBUS:
        raise ValueError(f"design must be one of {DESIGNS} (got {design!r})")
    res = omnibus if omnibus is not None else OMNIBUS[design](X)
    k, n = res.k, res.n
    if design in ("anova", "anova2"):
        centre = res.extra["means"]
        var = res.extra["mse"]
        df = res.df[1]
    else:
        centre = res.extra["mean_ranks"]
        var = res.extra["rank_var"]
        df = np.inf
    with np.errstate(divide="ignore", invalid="ignore"):
        se = float(np.sqrt(np.float64(var) / n))     # n = 0 (no complete topic): nan
        stat = (centre[None, :] - centre[:, None]) / se
    if not np.isfinite(se) or se == 0:
        stat = np.where(centre[None, :] == centre[:, None], np.nan, stat)
    p = np.full((k, k), np.nan)
    iu = np.triu_indices(k, 1)
    from ipsoeval.special import ptukey  # here: only Tukey HSD needs it
    p[iu] = ptukey.sf(np.abs(stat[iu]), k, df)
    p.T[iu] = p[iu]
    np.fill_diagonal(p, 1.0)
    return TukeyResult(stat, p, float(df), se)
