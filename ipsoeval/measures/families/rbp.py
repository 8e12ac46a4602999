"""Rank-biased precision (Moffat & Zobel 2008): ours (RBP, RBPresid, binary
gains, p = 0.8) and trec_eval's (rbp, rbp_resid: graded gains, p = 0.9)."""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName, TrecParams
from ipsoeval.measures.params import PERSISTENCE, REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")
unjudged_labels = lazy.function("ipsoeval.model", "unjudged")


def rbp(ctx: K.Context, m) -> np.ndarray:
    p = float(m.get("p"))
    g = K.rbp_gains(ctx, m.level(ctx.al.rel_level), m.k)
    w = (1.0 - p) * p ** np.arange(g.shape[2], dtype=np.float64)
    return K.seq_sum(g * w, m.k)


def rbp_resid(ctx: K.Context, m) -> np.ndarray:
    p, k = float(m.get("p")), m.k
    lab = ctx.al.labels
    unj = unjudged_labels(lab)
    w = (1.0 - p) * p ** np.arange(ctx.depth, dtype=np.float64)
    part = K.seq_sum(np.where(unj, w, 0.0), k)
    if k is None:
        tail = p ** ctx.al.n_ret.astype(np.float64)
    else:
        tail = np.full(part.shape, p ** k)
    return part + tail


def rbp_trec(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's rbp: (1-p) Σ gain·p^(i-1), gains min-max normalised per topic
    when they leave [0, 1]."""
    pairs, other = K.gain_pairs(m)
    p = other.get("p", 0.9)
    g, _ = K.gain_arrays(ctx, pairs, normalise=True)
    D = g.shape[2]
    w = K.powers(p, D)[:D]
    return (1.0 - p) * K.seq_sum(g * w, None)


def rbp_resid_trec(ctx: K.Context, m) -> np.ndarray:
    p = K.gain_pairs(m)[1].get("p", 0.9)
    lab = ctx.al.labels
    D = lab.shape[2]
    unj = unjudged_labels(lab)
    pw = K.powers(p, D)
    s = K.seq_sum(np.where(unj, pw[:D], 0.0), None)
    tail = pw[ctx.al.n_ret]
    return np.where(unj.any(axis=2), tail + (1 - p) * s, 0.0)


def _check(raw: str, original: str, *, resid: bool) -> None:
    gains, other = K.parse_gain_pairs(raw, ("p",))
    if "p" in other and not 0 < other["p"] < 1:
        raise UsageError(f"p must be in (0, 1) (found {original!r})")
    if resid and gains:
        raise UsageError(f"rbp_resid takes only p= (found {original!r})")


def _interval_at_half(m) -> str:
    """RBP with p = 1/2 is on an interval scale (Ferrante et al. 2021)."""
    return "interval" if m.get("p") == 0.5 else "ordinal"


FAMILIES = (
    Family("RBP", "rank-biased precision (1-p) sum g_i p^(i-1) over the top k; binary gains "
           "unless --gains (then scaled by the largest gain)", "ordinal", rbp,
           cutoff="optional", params=(PERSISTENCE, REL), scale_of=_interval_at_half,
           other_names=("rbp",), bounds="uniform", expected=E.e_rbp, ties=TI.t_rbp),
    Family("RBPresid", "RBP residual: p^k plus (1-p) sum p^(i-1) over unjudged documents "
           "(not in the qrels, or label < 0) in the top k", "ordinal", rbp_resid, cutoff="optional", params=(PERSISTENCE,), bounds="none", expected=E.label_independent, ties=TI.per_group),
    Family("rbp", "trec_eval's rank-biased precision: (1-p) sum gain_i p^(i-1), p = 0.9, "
           "graded gains (the label, or level=gain pairs), per topic scaled to [0, 1] "
           "when outside it", "ordinal", rbp_trec, trec_plain=TrecName("rbp", 54, ("all_trec",)),
           trec_params=TrecParams(lambda raw, o: _check(raw, o, resid=False),
                                  "trec_eval p=P,LEVEL=GAIN,..."),
           example="rbp.p=0.8", bounds="sorted", ties=TI.per_group),
    Family("rbp_resid", "trec_eval's RBP residual: p^n + (1-p) sum p^(i-1) over the "
           "unjudged retrieved documents (not in the qrels, or label < 0), 0 when none is "
           "unjudged; p = 0.9", "ordinal",
           rbp_resid_trec, higher_is_better=False,
           trec_plain=TrecName("rbp_resid", 55, ("all_trec",)),
           trec_params=TrecParams(lambda raw, o: _check(raw, o, resid=True), "trec_eval p=P"),
           example="rbp_resid.p=0.8", bounds="none", ties=TI.per_group),
)
