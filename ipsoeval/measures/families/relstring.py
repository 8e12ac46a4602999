"""trec_eval's relstring: the labels of the top N documents as a string."""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName, TrecParams

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
model = lazy.module("ipsoeval.model", globals(), "model")


def relstring(ctx: K.Context, m) -> np.ndarray:
    """Object array of strings: one character per document of the top n."""
    raw = m.param("te")
    n = int(K.trec_numbers(raw, m.name)[0]) if raw else 10
    lab = ctx.al.labels[:, :, :max(n, 0)]
    if ctx.al.label_mode == "gain":       # --labels gain: the label's integer part
        lab = np.where(lab >= 0, np.floor(ctx.al.label_values[np.maximum(lab, 0)])
                       .clip(max=10), lab).astype(np.int64)
    ch = np.full(lab.shape, "<", dtype="<U1")
    ch[lab > 9] = ">"
    for d in range(10):
        ch[lab == d] = str(d)
    ch[lab == model.UNJUDGED] = "-"
    ch[lab == model.POOLED] = "."
    R_, T_ = ctx.al.n_ret.shape
    out = np.empty((R_, T_), dtype=object)
    n_ret = ctx.al.n_ret
    for r in range(R_):
        for t in range(T_):
            out[r, t] = "".join(ch[r, t, :min(n, int(n_ret[r, t]))].tolist())
    return out


def _check(raw: str, original: str) -> None:
    if not 0 <= K.trec_numbers(raw, original)[0] < 2**31:
        raise UsageError(f"relstring's length must be a non-negative number "
                         f"(found {original!r})")


FAMILIES = (
    Family("relstring", "the labels of the top N documents (default 10) as a string: 0-9, "
           "'>' above 9, '-' not in the qrels, '.' negative label (pooled, unjudged); "
           "--labels gain: the label's integer part; "
           "per topic only", "nominal", relstring, kind="text", agg="none",
           trec_plain=TrecName("relstring", 12, ("all_trec",)),
           trec_params=TrecParams(_check, "trec_eval N"), example="relstring.20", bounds="none"),
)
