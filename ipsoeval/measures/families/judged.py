"""How much of the top k is judged: ir_measures' Judged@k, trec_eval's unj."""

from __future__ import annotations

from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
E = lazy.functions("ipsoeval.measures.expected")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")
judged = lazy.function("ipsoeval.model", "judged")
unjudged_labels = lazy.function("ipsoeval.model", "unjudged")


def judged_at(ctx: K.Context, m) -> np.ndarray:
    """ir_measures' Judged@k: judged documents in the top k divided by
    min(k, documents retrieved); 0 for an empty ranking.  Without a cutoff
    (ir_measures' plain ``Judged``) the whole ranking."""
    k = m.k
    lab = ctx.al.labels[:, :, :k]
    cnt = np.count_nonzero(judged(lab), axis=2).astype(np.float64)
    n_ret = ctx.al.n_ret
    den = (n_ret if k is None else np.minimum(n_ret, k)).astype(np.float64)
    return K.safe_div(cnt, den)


def unjudged(ctx: K.Context, m) -> np.ndarray:
    k = m.k
    lab = ctx.al.labels[:, :, :k]
    cnt = np.count_nonzero(unjudged_labels(lab), axis=2)
    return cnt / float(k)


FAMILIES = (
    Family("Judged", "judged documents in the top k, divided by min(k, documents retrieved); "
           "0 for an empty ranking (ir_measures' Judged; qrels labels < 0 count as unjudged; "
           "no cutoff: the whole ranking)",
           "ratio", judged_at, cutoff="optional", other_names=("judged",), bounds="none", expected=E.label_independent, ties=TI.t_judged, core=7),
    Family("Unjudged", "fraction of the top k that is unjudged (not in the qrels or "
           "label < 0), divided by k (trec_eval unj)", "interval", unjudged,
           cutoff="required", higher_is_better=False,
           trec=TrecName("unj", 56, ("all_trec",), (5, 10, 20)), bounds="none", expected=E.label_independent, ties=TI.t_unjudged),
)
