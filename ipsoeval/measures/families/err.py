"""Expected reciprocal rank (Chapelle et al. 2009), as gdeval and ir_measures."""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family
from ipsoeval.measures.params import GMAX

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
TI = lazy.functions("ipsoeval.measures.ties")


def check_gmax(ctx: K.Context, m) -> None:
    """A grade above gmax would make R_i > 1: refused (before scoring), with the
    gmax that fits."""
    gmax = int(m.get("gmax"))
    if ctx.al.label_mode == "gain":       # --labels gain: the real labels are the grades
        vals = ctx.al.label_values
        top = float(vals.max()) if len(vals) else 0.0
    else:
        top = max((int(j.max()) for j in ctx.al.judged_labels if len(j)), default=0)
    if top > gmax:
        shown = int(top) if float(top).is_integer() else top
        raise UsageError(f"ERR needs gmax >= the largest label (found label {shown}); "
                         f"use ERR(gmax={int(np.ceil(top))})")


def err(ctx: K.Context, m) -> np.ndarray:
    """R_i = (2^g_i - 1) / 2^gmax with g the label (0 if negative or unjudged),
    ERR = Σ R_i / i · Π_{j<i} (1 - R_j)."""
    k, gmax = m.k, int(m.get("gmax"))
    lab = ctx.al.labels
    if k is not None:
        lab = lab[:, :, :k]
    check_gmax(ctx, m)
    if ctx.al.label_mode == "gain":
        grade = ctx.al.gains(lab)
    else:
        grade = np.where(lab > 0, lab, 0).astype(np.float64)
    rr = (np.exp2(grade) - 1.0) / 2.0 ** gmax
    D = lab.shape[2]
    if D == 0:
        return np.zeros(lab.shape[:2])
    stay = np.ones(lab.shape)
    stay[:, :, 1:] = np.multiply.accumulate(1.0 - rr[:, :, :-1], axis=2)
    return K.seq_sum(rr * stay / np.arange(1, D + 1, dtype=np.float64), None)


FAMILIES = (
    Family("ERR", "expected reciprocal rank (Chapelle et al. 2009) as gdeval/ir_measures: "
           "sum R_i/i prod_{j<i}(1-R_j), R = (2^label - 1)/2^gmax, gmax = 4",
           "ordinal", err, cutoff="optional", params=(GMAX,), example="ERR@20",
           other_names=("err",), bounds="uniform", ties=TI.per_group, check=check_gmax, core=10),
)
