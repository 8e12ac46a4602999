"""Risk-sensitive comparison of runs (per-topic scores, higher is better).

- URisk_α (Wang, Bennett and Collins-Thompson 2012; TREC Web 2013–14), as
  Dinçer, Macdonald and Ounis (SIGIR 2014) write it: with δ_i = r_i − b_i
  the run's minus the baseline's score on topic i of c topics,
  ``URisk = (1/c) [Σ_{δ>0} δ_i + (1 + α) Σ_{δ<0} δ_i]`` -- a loss weighs
  1 + α times a win.  It is the mean of the risk-reward values
  z_i = δ_i (δ_i ≥ 0) or (1 + α) δ_i (δ_i < 0).
- TRisk_α (Dinçer et al. 2014): URisk over its standard error,
  ``TRisk = URisk / (s_z / √c)`` with s_z the sample standard deviation of
  the z_i (c − 1 degrees of freedom): the paired t statistic of the z_i, so
  that TRisk_0 is the paired t statistic of the run against the baseline.
  |TRisk| > 2 is the paper's rule for a significant gain (> 2) or loss (< −2);
  the p-value here is the two-sided Student t with c − 1 degrees of freedom.
- ZRisk_α and GeoRisk_α (Dinçer, Macdonald and Ounis, SIGIR 2016) compare
  each of r runs with all of them at once.  With x_ij the score of run j on
  topic i, T_i = Σ_j x_ij, S_j = Σ_i x_ij and N = Σ x_ij, the expected score
  is e_ij = T_i S_j / N and z_ij = (x_ij − e_ij) / √e_ij;
  ``ZRisk_j = Σ_{x>e} z_ij + (1 + α) Σ_{x<e} z_ij`` and
  ``GeoRisk_j = √(S_j / c · Φ(ZRisk_j / c))`` with Φ the standard normal
  distribution function.  A topic on which every run scores 0 has e = 0 and
  carries no information: its z is 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval.special import dist

__all__ = ["RiskResult", "reward", "urisk", "trisk", "zrisk", "georisk"]


@dataclass(frozen=True)
class RiskResult:
    """URisk and TRisk of a run against a baseline on n topics."""
    n: int
    urisk: float
    trisk: float          # NaN when the z_i do not vary (or n < 2)
    p_value: float        # two-sided, Student t with n − 1 df; NaN with trisk
    wins: int
    ties: int
    losses: int


def reward(run, baseline, alpha: float) -> np.ndarray:
    """The risk-reward values z_i: δ_i where the run is not worse, (1 + α) δ_i where it is."""
    d = np.asarray(run, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    return np.where(d < 0, (1.0 + alpha) * d, d)


def urisk(run, baseline, alpha: float) -> float:
    """URisk_α of ``run`` against ``baseline`` (two score vectors over the same topics)."""
    z = reward(run, baseline, alpha)
    return float(z.mean()) if z.size else float("nan")


def trisk(run, baseline, alpha: float) -> RiskResult:
    """URisk_α, TRisk_α and TRisk's two-sided p-value, with the wins, ties and losses."""
    r = np.asarray(run, dtype=np.float64)
    b = np.asarray(baseline, dtype=np.float64)
    z = reward(r, b, alpha)
    n = int(z.size)
    d = r - b
    u = float(z.mean()) if n else float("nan")
    t = p = float("nan")
    if n >= 2:
        s = float(z.std(ddof=1))
        if s > 0:
            t = u / (s / np.sqrt(n))
            p = 2.0 * dist.stdtr(n - 1.0, -abs(float(t)))
    return RiskResult(n=n, urisk=u, trisk=float(t), p_value=p, wins=int((d > 0).sum()),
                      ties=int((d == 0).sum()), losses=int((d < 0).sum()))


def _z(x: np.ndarray) -> np.ndarray:
    """z_ij of a (runs, topics) score matrix (0 where the expected score is 0)."""
    x = np.asarray(x, dtype=np.float64)
    total = x.sum()
    if total <= 0:
        return np.zeros_like(x)
    e = np.outer(x.sum(axis=1), x.sum(axis=0)) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(e > 0, (x - e) / np.sqrt(e), 0.0)
    return z


def zrisk(x, alpha: float) -> np.ndarray:
    """ZRisk_α of every run: ``x`` is the (runs, topics) score matrix, scores ≥ 0."""
    z = _z(x)
    return np.where(z < 0, (1.0 + alpha) * z, z).sum(axis=1)


def georisk(x, alpha: float) -> np.ndarray:
    """GeoRisk_α of every run: √(mean score × Φ(ZRisk_α / c))."""
    x = np.asarray(x, dtype=np.float64)
    c = x.shape[1]
    return np.sqrt(x.mean(axis=1) * dist.np_ndtr(zrisk(x, alpha) / c))
