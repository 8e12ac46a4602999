"""Agreement of two raters' integer labels on the same items.

- :func:`confusion` -- the counts of each (label under A, label under B);
- :func:`cohen_kappa` -- Cohen's κ, unweighted or weighted (linear or quadratic);
- :func:`krippendorff_alpha` -- Krippendorff's α, interval or ordinal metric,
  for two coders and no missing values.

Both chance-corrected coefficients are ``1 − observed disagreement / expected
disagreement``; they are NaN when the expected disagreement is 0 (every label
the same).

Weights and distances are taken between the label *values*, not between the
positions of the labels among those present: labels {0, 1, 3} are 3 apart
between 0 and 3.  (scikit-learn's ``cohen_kappa_score`` weighs positions in its
``labels`` list: with ``labels=range(min, max + 1)`` the two agree.)  For κ the
expected counts are the product of the two raters' own marginals (Cohen 1968);
for α the two raters' labels are pooled (Krippendorff 2011, coincidence
matrix with one pair of values per item, both orders).
"""

from __future__ import annotations

import numpy as np

KAPPA_WEIGHTS = (None, "linear", "quadratic")
ALPHA_LEVELS = ("interval", "ordinal")


def _labels(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a).reshape(-1)
    b = np.asarray(b).reshape(-1)
    if a.shape != b.shape:
        raise ValueError(f"label vectors of different lengths ({a.size} and {b.size})")
    return a.astype(np.int64), b.astype(np.int64)


def _pairs(a, b) -> tuple[np.ndarray, np.ndarray]:
    """The labels either rater uses (ascending) and the (k, k) float counts of
    the items labelled values[i] by A and values[j] by B."""
    values, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
    k = values.size
    counts = np.zeros((k, k))
    np.add.at(counts, (inv[:a.size], inv[a.size:]), 1.0)
    return values, counts


def _rated(a, b) -> tuple[int, np.ndarray, np.ndarray] | None:
    """``(items, values, counts)`` of :func:`_pairs`; None where there are no
    items (the coefficients are then NaN)."""
    a, b = _labels(a, b)
    if a.size == 0:
        return None
    return (a.size, *_pairs(a, b))


def _check_choice(name: str, value, allowed: tuple) -> None:
    if value not in allowed:
        listed = ", ".join(repr(v) for v in allowed[:-1]) + f" or {allowed[-1]!r}"
        raise ValueError(f"{name} must be {listed} (found {value!r})")


def _chance_corrected(observed: float, expected: float) -> float:
    """``1 − observed / expected`` disagreement; NaN where no disagreement is
    expected (every label the same)."""
    if expected == 0.0:
        return float("nan")
    return 1.0 - observed / expected


def confusion(a, b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(labels_a, labels_b, counts)``: the distinct labels of each rater
    (ascending) and counts[i, j] = items labelled labels_a[i] by A and
    labels_b[j] by B."""
    a, b = _labels(a, b)
    la, ia = np.unique(a, return_inverse=True)
    lb, ib = np.unique(b, return_inverse=True)
    counts = np.zeros((la.size, lb.size), dtype=np.int64)
    np.add.at(counts, (ia, ib), 1)
    return la, lb, counts


def cohen_kappa(a, b, weights: str | None = None) -> float:
    """Cohen's κ of two label vectors: ``1 − Σ w·O / Σ w·E`` with O the
    observed and E the chance-expected proportions (outer product of the
    marginals) and w the disagreement weight of two labels u, v: 1 when they
    differ (unweighted), |u − v| (linear) or (u − v)² (quadratic)."""
    _check_choice("weights", weights, KAPPA_WEIGHTS)
    rated = _rated(a, b)
    if rated is None:
        return float("nan")
    items, values, obs = rated
    obs /= items
    E = np.outer(obs.sum(axis=1), obs.sum(axis=0))
    v = values.astype(np.float64)
    diff = v[:, None] - v[None, :]
    if weights is None:
        W = (diff != 0).astype(np.float64)
    elif weights == "linear":
        W = np.abs(diff)
    else:
        W = diff * diff
    return _chance_corrected(float((W * obs).sum()), float((W * E).sum()))


def krippendorff_alpha(a, b, level: str = "interval") -> float:
    """Krippendorff's α for two coders with a value for every item::

        α = 1 − (n − 1) · Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck

    o the coincidence matrix (each item adds its pair of values in both
    orders), n_c the number of values c among all n = 2·items, and δ² the
    interval metric (c − k)² or the ordinal metric
    (Σ_{g from c to k} n_g − (n_c + n_k)/2)²."""
    _check_choice("level", level, ALPHA_LEVELS)
    rated = _rated(a, b)
    if rated is None:
        return float("nan")
    _, values, o = rated
    k = values.size
    o = o + o.T
    nc = o.sum(axis=1)
    n = float(nc.sum())
    if level == "interval":
        v = values.astype(np.float64)
        d2 = (v[:, None] - v[None, :]) ** 2
    else:
        cum = np.concatenate([[0.0], np.cumsum(nc)])       # cum[i] = Σ_{g<i} n_g
        lo = np.minimum.outer(np.arange(k), np.arange(k))
        hi = np.maximum.outer(np.arange(k), np.arange(k))
        between = cum[hi + 1] - cum[lo]                     # Σ_{g=lo..hi} n_g
        d2 = (between - (nc[:, None] + nc[None, :]) / 2.0) ** 2
    return _chance_corrected((n - 1.0) * float((o * d2).sum()),
                             float((np.outer(nc, nc) * d2).sum()))
