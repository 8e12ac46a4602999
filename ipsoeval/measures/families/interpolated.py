"""Interpolated precision: at a recall level (iprec_at_recall), and averaged
over recall levels (11pt_avg); trec_eval 10's rounding lround(x·R)."""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family, TrecName, TrecParams
from ipsoeval.measures.params import JUDGED_ONLY, REL

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")

ELEVEN = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def iprec_at_recall(ctx: K.Context, m) -> np.ndarray:
    """trec_eval's interpolated precision at recall x (its v10 rounding):
    the best precision at or after the rank where lround(x·R) relevant
    documents have been seen; 0 when the run never gets there."""
    level, x = m.level(ctx.al.rel_level), float(m.cutoff)
    table, total = K.iprec_table(ctx, level)
    c = np.broadcast_to(K.lround(x * ctx.num_rel(level).astype(np.float64))[None, :],
                        total.shape)
    ok = (c <= total) & (total > 0)
    idx = np.minimum(c, table.shape[2] - 1)
    val = np.take_along_axis(table, idx[:, :, None], axis=2)[:, :, 0]
    return np.where(ok, val, 0.0)


def eleven_pt_avg(ctx: K.Context, m) -> np.ndarray:
    """Mean interpolated precision at recall levels (trec_eval's 11pt_avg,
    v10 rounding: lround(x·R) relevant documents)."""
    raw = m.param("te")
    levels = tuple(K.trec_numbers(raw, m.name)) if raw else ELEVEN
    level = m.level(ctx.al.rel_level)
    table, total = K.iprec_table(ctx, level)
    R = ctx.num_rel(level).astype(np.float64)
    s = np.zeros(total.shape)
    for x in sorted(levels, reverse=True):       # trec_eval adds from the last level
        c = np.broadcast_to(K.lround(x * R)[None, :], total.shape)
        ok = c <= total
        idx = np.minimum(c, table.shape[2] - 1)
        val = np.take_along_axis(table, idx[:, :, None], axis=2)[:, :, 0]
        s = s + np.where(ok, val, 0.0)
    return s / float(len(levels))


def _check_levels(raw: str, original: str) -> None:
    if not all(0 <= v <= 1 for v in K.trec_numbers(raw, original)):
        raise UsageError(f"11pt_avg's recall levels must be in [0, 1] (found {original!r})")


FAMILIES = (
    Family("IPrec", "interpolated precision at recall level x (trec_eval iprec_at_recall)",
           "ordinal", iprec_at_recall, cutoff="required", cutoff_kind="recall",
           params=(REL, JUDGED_ONLY), trec=TrecName("iprec_at_recall", 10,
                                                     ("official", "all_trec"), ELEVEN),
           other_names=("iprec",), bounds="prefix"),
    Family("11pt_avg", "interpolated precision averaged over recall levels (default 0, "
           "0.1, ..., 1; v10 rounding lround(x*R))", "ordinal", eleven_pt_avg,
           trec_plain=TrecName("11pt_avg", 18, ("all_trec",)),
           trec_params=TrecParams(_check_levels, "trec_eval LEVEL,..."),
           example="11pt_avg..25,.5,.75", bounds="prefix"),
)
