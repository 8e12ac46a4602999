"""Correlation coefficients, their p-values and intervals, and the comparison
of two dependent correlations that share one variable.

Every function takes arrays and broadcasts, so that a simulation or a
bootstrap computes thousands of cases in one call.

- :func:`pearson` / :func:`spearman` -- the coefficients of the rows of two
  (..., n) arrays; :func:`pearson_p` / :func:`spearman_p` -- their two-sided
  p-values as ``scipy.stats.pearsonr`` (the exact null distribution of r
  under bivariate normality: Beta(n/2 - 1, n/2 - 1) on (-1, 1)) and
  ``scipy.stats.spearmanr`` (the t approximation with n - 2 degrees of
  freedom) compute them.
- :func:`fisher_interval` -- tanh(atanh(r) -+ z_(1-alpha/2) * se): for
  Pearson's r with se = 1/sqrt(n - 3) (Fisher 1921), for Spearman's rho with
  Bonett and Wright's (2000) se = sqrt((1 + rho^2/2)/(n - 3)), which keeps
  the coverage near nominal where 1/sqrt(n - 3) is too narrow for rho.
- :func:`williams_t` -- Williams's (1959) t for H0: rho_12 = rho_13 when
  the two correlations share variable 1, in the form of Steiger (1980),
  eq. 7 (his T2), with n - 3 degrees of freedom.
- :func:`zou_interval` -- Zou's (2007) interval for rho_12 - rho_13 from the
  two correlations' own intervals and the correlation between the two
  estimates (Zou 2007, eq. 15; the asymptotic covariance of Pearson and
  Filon 1898 / Olkin and Siotani as Zou writes it).
"""

from __future__ import annotations

import numpy as np

SPEARMAN_SE = "Bonett-Wright"


def _centred(x: np.ndarray) -> np.ndarray:
    return x - x.mean(axis=-1, keepdims=True)


def pearson(x, y) -> np.ndarray:
    """Pearson's r of the last axis of ``x`` and ``y`` (NaN where either is
    constant)."""
    x = _centred(np.asarray(x, dtype=np.float64))
    y = _centred(np.asarray(y, dtype=np.float64))
    sxy = (x * y).sum(axis=-1)
    sxx = (x * x).sum(axis=-1)
    syy = (y * y).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = sxy / np.sqrt(sxx * syy)
    return np.clip(r, -1.0, 1.0)


def ranks(x) -> np.ndarray:
    """Average ranks (1..n, ties get the mean of their ranks) along the last axis."""
    from scipy.stats import rankdata
    return rankdata(np.asarray(x, dtype=np.float64), axis=-1)


def spearman(x, y) -> np.ndarray:
    """Spearman's rho: Pearson's r of the average ranks."""
    return pearson(ranks(x), ranks(y))


def pearson_p(r, n) -> np.ndarray:
    """Two-sided p-value of Pearson's r on n pairs (exact under bivariate
    normality: r ~ Beta(n/2 - 1, n/2 - 1) on (-1, 1) under H0)."""
    from scipy import special
    r = np.asarray(r, dtype=np.float64)
    ab = np.asarray(n, dtype=np.float64) / 2 - 1
    u = (r + 1) / 2
    p = 2 * np.minimum(special.betainc(ab, ab, u), special.betaincc(ab, ab, u))
    return np.clip(p, 0.0, 1.0)


def spearman_p(rho, n) -> np.ndarray:
    """Two-sided p-value of Spearman's rho on n pairs: t = rho sqrt((n-2) /
    ((1+rho)(1-rho))) on n - 2 degrees of freedom."""
    from scipy import special
    rho = np.asarray(rho, dtype=np.float64)
    dof = np.asarray(n, dtype=np.float64) - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        t = rho * np.sqrt(dof / ((rho + 1.0) * (1.0 - rho)))
    return np.clip(2 * special.stdtr(dof, -np.abs(t)), 0.0, 1.0)


def fisher_se(r, n, kind: str = "pearson") -> np.ndarray:
    """The standard error of atanh(r): 1/sqrt(n-3) for Pearson's r,
    sqrt((1 + r^2/2)/(n-3)) for Spearman's rho (Bonett and Wright 2000)."""
    r = np.asarray(r, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "pearson":
            return 1.0 / np.sqrt(n - 3) + 0 * r
        if kind == "spearman":
            return np.sqrt((1 + r * r / 2) / (n - 3))
    raise ValueError(f"kind must be pearson or spearman (found {kind!r})")


def _z(alpha: float) -> float:
    from ipsoeval.special import dist
    return -dist.ndtri(alpha / 2)


def fisher_interval(r, n, alpha: float = 0.05, kind: str = "pearson"):
    """(low, high): the (1 - alpha) interval tanh(atanh(r) -+ z se); NaN
    where n < 4 or r is NaN."""
    r = np.asarray(r, dtype=np.float64)
    se = fisher_se(r, n, kind)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.arctanh(np.clip(r, -1.0, 1.0))
        half = _z(alpha) * se
        return np.tanh(z - half), np.tanh(z + half)


def williams_t(r12, r13, r23, n):
    """(t, df, p): Williams's t for rho_12 = rho_13 (two correlations with
    variable 1 in common; r23 the correlation of the other two), as Steiger
    (1980, eq. 7) writes it::

        t = (r12 - r13) sqrt((n-1)(1+r23) / (2 (n-1)/(n-3) |R| + rbar^2 (1-r23)^3))

    with |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar = (r12 + r13)/2,
    on n - 3 degrees of freedom; p two-sided."""
    from scipy import special
    r12, r13, r23 = (np.asarray(a, dtype=np.float64) for a in (r12, r13, r23))
    n = np.asarray(n, dtype=np.float64)
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = 2 * (n - 1) / (n - 3) * det + rbar ** 2 * (1 - r23) ** 3
        t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / denom)
        t = np.where(r12 == r13, 0.0, t)        # identical estimates: no evidence, even if denom is 0
    df = n - 3
    p = np.clip(2 * special.stdtr(df, -np.abs(t)), 0.0, 1.0)
    return t, df, p


def estimate_correlation(r12, r13, r23) -> np.ndarray:
    """The correlation between the estimates r12 and r13 (Zou 2007, eq. 15)."""
    r12, r13, r23 = (np.asarray(a, dtype=np.float64) for a in (r12, r13, r23))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (((r23 - r12 * r13 / 2) * (1 - r12 ** 2 - r13 ** 2 - r23 ** 2) + r23 ** 3)
                / ((1 - r12 ** 2) * (1 - r13 ** 2)))


def zou_interval(r12, r13, r23, n, alpha: float = 0.05, kind: str = "pearson"):
    """(low, high): Zou's (2007) (1 - alpha) interval for rho_12 - rho_13,
    from each correlation's Fisher interval (:func:`fisher_interval`, ``kind``
    choosing its standard error) and the correlation of the two estimates::

        L = r12 - r13 - sqrt((r12-l1)^2 + (u2-r13)^2 - 2 c (r12-l1)(u2-r13))
        U = r12 - r13 + sqrt((u1-r12)^2 + (r13-l2)^2 - 2 c (u1-r12)(r13-l2))"""
    r12, r13, r23 = (np.asarray(a, dtype=np.float64) for a in (r12, r13, r23))
    l1, u1 = fisher_interval(r12, n, alpha, kind)
    l2, u2 = fisher_interval(r13, n, alpha, kind)
    c = estimate_correlation(r12, r13, r23)
    d = r12 - r13
    with np.errstate(invalid="ignore"):
        low = d - np.sqrt(np.maximum((r12 - l1) ** 2 + (u2 - r13) ** 2
                                     - 2 * c * (r12 - l1) * (u2 - r13), 0.0))
        high = d + np.sqrt(np.maximum((u1 - r12) ** 2 + (r13 - l2) ** 2
                                      - 2 * c * (u1 - r12) * (r13 - l2), 0.0))
    return low, high
