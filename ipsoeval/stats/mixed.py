"""A linear mixed model for unbalanced evaluation designs, fitted by REML.

    y = beta_system + u_collection + v_topic(collection) + e

System fixed; topic random (nested in its collection: topic ids are
qualified by the collection), collection random when there are several;
u ~ N(0, s2_c), v ~ N(0, s2_t), e ~ N(0, s2), all independent (Carterette
2015, ICTIR; Voorhees, Samarov & Soboroff 2017, SIGIR; Faggioli & Ferro
2021, IRJ).  Runs may miss topics or whole collections.

The fit is restricted maximum likelihood.  V is block diagonal by
collection, each block a diagonal of compound-symmetric topic blocks plus a
rank-one collection term, so V^-1, log|V|, X'V^-1X and the rest come in
closed form (Woodbury) from per-topic sums.  Topics with the same runs (the
same row of the design) and the same collection share their terms, so a
complete design costs as much as one topic.  s2 is profiled out; the ratios
s2_t/s2 and s2_c/s2 are found by quasi-Newton on their square roots (zero
is reachable).  Statsmodels' ``MixedLM`` gives the same numbers (the tests).

The system effect is tested by the Wald F on the p-1 contrasts with the
first system, with (p-1, N - p - T + 1) degrees of freedom (N observations,
T topics): with a complete design and a positive topic variance this is the
two-way ANOVA's F (the REML and ANOVA estimates coincide).  Pairwise
contrasts are Wald z tests (statsmodels' convention).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from ipsoeval.special import dist


@dataclass
class MixedFit:
    beta: np.ndarray            # (p,) system means
    cov: np.ndarray             # (p, p) covariance of beta
    sigma2: float               # residual variance
    topic_var: float
    collection_var: float       # 0 with one collection
    loglik: float               # restricted log-likelihood
    n: int                      # observations
    topics: int
    collections: int
    f_statistic: float
    f_df: tuple[float, float]
    f_p_value: float
    converged: bool


class _Design:
    """Per-(collection, design row) sums, the only data the likelihood needs."""

    def __init__(self, y, system, topic, topic_collection, p):
        y = np.asarray(y, dtype=np.float64)
        system = np.asarray(system, dtype=np.int64)
        topic = np.asarray(topic, dtype=np.int64)
        coll_of_topic = np.asarray(topic_collection, dtype=np.int64)
        T = coll_of_topic.size
        self.N, self.p, self.T = y.size, p, T
        self.C = int(coll_of_topic.max()) + 1 if T else 0
        S = np.zeros((T, p))
        np.add.at(S, (topic, system), 1.0)
        Yt = np.bincount(topic, weights=y, minlength=T)
        keys = np.concatenate([coll_of_topic[:, None].astype(np.float64), S], axis=1)
        uniq, inv, count = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
        inv = inv.reshape(-1)
        self.g_coll = uniq[:, 0].astype(np.int64)
        self.g_s = uniq[:, 1:]
        self.g_n = self.g_s.sum(axis=1)
        self.g_count = count.astype(np.float64)
        self.g_y = np.bincount(inv, weights=Yt, minlength=uniq.shape[0])
        self.g_y2 = np.bincount(inv, weights=Yt * Yt, minlength=uniq.shape[0])
        self.xtx = np.bincount(system, minlength=p).astype(np.float64)
        self.xty = np.bincount(system, weights=y, minlength=p)
        self.yty = float(y @ y)
        self.g_onehot = np.zeros((self.C, uniq.shape[0]))
        self.g_onehot[self.g_coll, np.arange(uniq.shape[0])] = 1.0

    def pieces(self, tt: float, tc: float):
        """X'V^-1X, X'V^-1y, y'V^-1y and log|V| for s2 = 1."""
        n = self.g_n
        gam = tt / (1.0 + n * tt)
        f = 1.0 / (1.0 + n * tt)
        gs = self.g_s * (gam * self.g_count)[:, None]
        A = np.diag(self.xtx) - gs.T @ self.g_s
        b = self.xty - self.g_s.T @ (gam * self.g_y)
        c = self.yty - float((gam * self.g_y2).sum())
        logdet = float((self.g_count * np.log1p(n * tt)).sum())
        if self.C > 1 and tc > 0:
            a_c = (self.g_onehot * (f * self.g_count)) @ self.g_s
            b_c = self.g_onehot @ (f * self.g_y)
            d_c = self.g_onehot @ (f * n * self.g_count)
            h = tc / (1.0 + tc * d_c)
            A = A - (a_c * h[:, None]).T @ a_c
            b = b - a_c.T @ (h * b_c)
            c = c - float((h * b_c * b_c).sum())
            logdet += float(np.log1p(tc * d_c).sum())
        return A, b, c, logdet

    def profiled(self, tt: float, tc: float):
        """-2 x the profiled restricted log-likelihood (constants dropped), and
        the pieces at the optimum of s2."""
        A, b, c, logdet = self.pieces(tt, tc)
        L = np.linalg.cholesky(A)
        z = np.linalg.solve(L, b)
        rss = c - float(z @ z)
        dfr = self.N - self.p
        s2 = rss / dfr
        obj = dfr * math.log(s2) + logdet + 2.0 * float(np.log(np.diag(L)).sum())
        return obj, s2, A, b, logdet


def fit(y, system, topic, topic_collection, p: int) -> MixedFit:
    """REML fit.  ``system``/``topic``: indices per observation; ``topic_collection``:
    the collection index of each topic (0..C-1); ``p``: number of systems."""
    d = _Design(y, system, topic, topic_collection, p)
    several = d.C > 1

    def obj(x):
        tt = x[0] * x[0]
        tc = x[1] * x[1] if several else 0.0
        try:
            return d.profiled(tt, tc)[0]
        except np.linalg.LinAlgError:
            return math.inf

    x0 = np.array([1.0, 1.0]) if several else np.array([1.0])
    best = optimize.minimize(obj, x0, method="BFGS", jac="3-point",
                             options={"gtol": 1e-11, "maxiter": 500})
    # the boundary: a variance ratio of exactly zero, when the optimum is near it
    for i in range(best.x.size):
        if abs(best.x[i]) > 1e-2:
            continue
        x = best.x.copy()
        x[i] = 0.0
        res = optimize.minimize(lambda z: obj(np.insert(z, i, 0.0)), np.delete(x, i),
                                method="BFGS", jac="3-point",
                                options={"gtol": 1e-11}) if x.size > 1 \
            else None
        cand = (np.insert(res.x, i, 0.0), res.fun) if res is not None else (x, obj(x))
        if cand[1] < best.fun:
            best = optimize.OptimizeResult(x=cand[0], fun=cand[1], success=True)
    tt = float(best.x[0] ** 2)
    tc = float(best.x[1] ** 2) if several else 0.0
    value, s2, A, b, _ = d.profiled(tt, tc)
    Ainv = np.linalg.inv(A)
    beta = Ainv @ b
    cov = s2 * Ainv
    dfr = d.N - d.p
    loglik = -0.5 * (value + dfr + dfr * math.log(2.0 * math.pi))
    F, df2, pv = _system_test(beta, cov, d.N - d.p - d.T + 1)
    # BFGS on a finite-difference gradient often stops on "precision loss" at
    # the optimum: converged when the gradient there is small
    jac = getattr(best, "jac", None)
    flat = jac is None or float(np.abs(jac).max()) <= 1e-4 * max(1.0, abs(float(best.fun)))
    return MixedFit(beta, cov, float(s2), tt * s2, tc * s2, float(loglik), d.N, d.T, d.C,
                    F, (float(d.p - 1), float(df2)), pv, bool(best.success or flat))


def _system_test(beta, cov, df2):
    p = beta.size
    if p < 2 or df2 <= 0:
        return math.nan, float(df2), math.nan
    L = np.zeros((p - 1, p))
    L[:, 0] = -1.0
    L[np.arange(p - 1), np.arange(1, p)] = 1.0
    lb = L @ beta
    try:
        F = float(lb @ np.linalg.solve(L @ cov @ L.T, lb)) / (p - 1)
    except np.linalg.LinAlgError:
        return math.nan, float(df2), math.nan
    return F, float(df2), dist.fdtrc(float(p - 1), float(df2), float(F))


def contrasts(fit: MixedFit, pairs) -> list[tuple[float, float, float, float]]:
    """(difference, se, z, two-sided p) of beta_j - beta_i for each (i, j)."""
    out = []
    for i, j in pairs:
        diff = float(fit.beta[j] - fit.beta[i])
        var = float(fit.cov[i, i] + fit.cov[j, j] - 2.0 * fit.cov[i, j])
        se = math.sqrt(max(var, 0.0))
        z = diff / se if se > 0 else math.nan
        p = dist.erfc(abs(z) / math.sqrt(2.0)) if math.isfinite(z) else math.nan
        out.append((diff, se, z, p))
    return out
