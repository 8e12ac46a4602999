"""Compatibility with an ideal ranking (Clarke, Vtyurina and Smucker, TOIS
2021) and ir_measures' Accuracy, as ir_measures' compat and accuracy
providers compute them.

Compat(p, normalize): the rank-biased overlap (RBO, persistence p) of the
ranking with an ideal ranking -- the documents with a positive label, by
label descending, among equal labels in the run's order (the ones retrieved
first), the rest after -- to depth max(retrieved, relevant):
``Σ_{i<depth} p^i |ranking[:i+1] ∩ ideal[:i+1]| / (i+1)  /  Σ_{i<depth} p^i``,
divided (normalize=True) by the ideal's own RBO with itself.  A document d
retrieved at rank r_d (0-based) whose ideal position is q_d is in both
prefixes from depth max(r_d, q_d) + 1 on, so the overlap sum is a sum over
the relevant retrieved documents of a tail of p^i / (i+1).

Accuracy@k: over the top k (all with no k), the share of (relevant,
non-relevant) pairs in which the relevant document is ranked first;
unjudged documents are non-relevant.  Undefined (left out of the mean) when
no relevant document is in the top k, as ir_measures leaves such topics out,
and when no non-relevant one is (ir_measures divides by zero there).
"""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family
from ipsoeval.measures.params import REL, Param, _flag, _persistence

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
model = lazy.module("ipsoeval.model", globals(), "model")

COMPAT_P = Param("p", _persistence, default=0.95, in_name=True, help="persistence")
NORMALIZE = Param("normalize", _flag, default=True, drop_default=True,
                  help="divide by the ideal ranking's own RBO")


def _values(al, lab: np.ndarray) -> np.ndarray:
    """The labels' values (integer labels, or the --labels gain values); 0 where
    not judged or past the ranking."""
    if al.label_mode == "gain":
        return np.where(lab >= 0, al.label_values[np.maximum(lab, 0)], 0.0)
    return np.maximum(lab, 0).astype(np.float64)


def compat(ctx: K.Context, m) -> np.ndarray:
    al = ctx.al
    p = float(m.get("p"))
    normalize = bool(m.get("normalize"))
    lab = al.labels
    R_, T_, D = lab.shape
    vals = _values(al, lab)
    # judged positive labels per topic, descending (the ideal's levels)
    judged = [_values(al, j) for j in al.judged_labels]
    judged = [j[j > 0] for j in judged]
    nrel = np.array([len(j) for j in judged], dtype=np.int64)
    depth = np.maximum(al.n_ret, nrel[None, :])                      # (R, T)
    top = int(depth.max()) if depth.size else 0
    i = np.arange(top, dtype=np.float64)
    w = p ** i
    tail = np.concatenate(([0.0], np.cumsum(w / (i + 1.0))))         # tail[m] = Σ_{i<m}
    norm = np.concatenate(([0.0], np.cumsum(w)))
    # ideal position of each retrieved relevant document: the relevant documents with a
    # higher label, plus those of its label the run ranks above it
    r, t, pos = np.nonzero(vals > 0)
    v = vals[r, t, pos]
    higher = np.zeros(len(r), dtype=np.int64)
    same_before = np.zeros(len(r), dtype=np.int64)
    for level in np.unique(v):
        at = v == level
        above = np.array([int(np.count_nonzero(j > level)) for j in judged], dtype=np.int64)
        higher[at] = above[t[at]]
        hit = vals == level
        cum = np.cumsum(hit, axis=2, dtype=np.int64) - 1
        same_before[at] = cum[r[at], t[at], pos[at]]
    q = higher + same_before
    first = np.maximum(pos, q)
    d = depth[r, t]
    contrib = np.where(first < d, tail[d] - tail[np.minimum(first, d)], 0.0)
    cell = r * T_ + t
    num = np.bincount(cell, weights=contrib, minlength=R_ * T_).reshape(R_, T_)
    den = norm[depth]
    score = K.safe_div(num, den)
    if normalize:
        # the ideal against itself: overlap min(i+1, nrel) at depth i+1
        best = np.zeros((R_, T_))
        for tt in range(T_):
            n = int(nrel[tt])
            if n == 0:
                continue
            ovl = np.minimum(np.arange(1, top + 1), n) / np.arange(1, top + 1)
            run_best = np.concatenate(([0.0], np.cumsum(w * ovl)))
            best[:, tt] = K.safe_div(run_best[depth[:, tt]], den[:, tt])
        score = np.where(best > 0, K.safe_div(score, best), score)
    return score


def accuracy(ctx: K.Context, m) -> np.ndarray:
    level = m.level(ctx.al.rel_level)
    k = m.k
    lab = ctx.al.labels if k is None else ctx.al.labels[:, :, :k]
    rel = ctx.rel(level)[:, :, :lab.shape[2]]
    nonrel = (lab != model.PAD) & ~rel
    above = np.cumsum(nonrel, axis=2, dtype=np.int64)         # non-relevant at or above
    pairs_wrong = np.where(rel, above, 0).sum(axis=2).astype(np.float64)
    n_rel = rel.sum(axis=2)
    n_non = nonrel.sum(axis=2)
    total = (n_rel * n_non).astype(np.float64)
    out = np.full(n_rel.shape, np.nan)
    ok = total > 0
    out[ok] = 1.0 - pairs_wrong[ok] / total[ok]
    return out


FAMILIES = (
    Family("Compat", "compatibility (Clarke, Vtyurina and Smucker 2021): rank-biased overlap "
           "(persistence p) with the ideal ranking (positive labels descending, the run's "
           "order among equals), to depth max(retrieved, relevant); normalize=True divides "
           "by the ideal's own", "ordinal", compat, params=(COMPAT_P, NORMALIZE),
           other_names=("compat", "compatibility")),
    Family("Accuracy", "share of (relevant, non-relevant) pairs in the top k ranked in that "
           "order (unjudged: non-relevant); undefined without both", "ordinal", accuracy,
           cutoff="optional", params=(REL,), agg="mean_defined",
           other_names=("accuracy",)),
)
