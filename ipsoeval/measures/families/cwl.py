"""C/W/L measures (Moffat et al.; Azzopardi, Thomas and Moffat, SIGIR 2019):
INST, INSQ, BPM, SDCG and NERR8/9/10/11, as cwl_eval computes them (through
ir_measures' cwl_eval provider), with their residuals.

In the C/W/L framework a user reading rank i goes on to rank i+1 with
probability C_i; the weight of rank i is W_i = Π_{j<i} C_j / Σ_k Π_{j<k} C_j
and the measure is the expected utility per item, Σ_i W_i g_i.  As cwl_eval:

- gains: a label clipped to [min_rel, max_rel] (negative labels are 0 first)
  and scaled to [0, 1], ``(label - min_rel) / (max_rel - min_rel)``;
- the ranking is cut or padded to 1000 items; unjudged and padded items gain 0
  (cwl_eval's worst case), every item costs 1;
- the residual (``<name>resid``, cwl_eval -r) is the best case -- unjudged and
  padded items gain 1 -- minus the worst case.

Continuation probabilities at rank i (1-based), cg_i the gain of ranks 1..i:

- INST(T): ((i + T + T_i - 1) / (i + T + T_i))^2 with T_i = T - cg_i;
- INSQ(T): ((i + 2T - 1) / (i + 2T))^2;
- BPM(T)@K: 1 while cg_i < T and i < K, else 0 (the static Bejewelled model);
- SDCG@k: log(i+1) / log(i+2) for i < k, else 0 (DCG@k scaled to sum to 1);
- NERR8@k: 1 - g_i for i < k, else 0;   NERR9@k: i/(i+1) (1 - g_i) for i < k;
- NERR10(p): p (1 - g_i);   NERR11(T): ((i + 2T - 1) / (i + 2T))^2 (1 - g_i).
"""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.measures import lazy
from ipsoeval.measures.family import Family
from ipsoeval.measures.params import Bad, Param, Value, _persistence

# numpy and the kernels' helpers, imported by the first kernel that runs: the
# declarations below read without them (ipsoeval.measures.lazy)
np = lazy.module("numpy", globals(), "np")
K = lazy.module("ipsoeval.measures.kernels", globals(), "K")
judged = lazy.function("ipsoeval.model", "judged")

MAX_N = 1000          # cwl_eval's ranking depth (max_n)


def _positive(v: Value):
    if v.kind != "number" or not v.value > 0:
        raise Bad("a number greater than 0")
    return float(v.value)


def _int(v: Value):
    if v.kind != "number" or not isinstance(v.value, int) or isinstance(v.value, bool):
        raise Bad("a whole number")
    return v.value


T_PARAM = Param("T", _positive, default=1.0, help="total desired gain (normalised)")
MIN_REL = Param("min_rel", _int, default=0, help="smallest relevance label (gain 0)")
MAX_REL = Param("max_rel", _int, default=None, help="largest relevance label (gain 1); required")
NERR_P = Param("p", _persistence, default=0.9, help="persistence")


def _log2_only(v: Value):
    if v.kind not in ("str", "word") or v.value != "log2":
        raise Bad("'log2' (cwl_eval's SDCG has no other form)")
    return "log2"


SDCG_FORM = Param("dcg", _log2_only, default="log2", drop_default=True,
                  help="DCG form (ir_measures; log2 only)")
PARAMS_T = (T_PARAM, MIN_REL, MAX_REL)
PARAMS_REL = (MIN_REL, MAX_REL)


def _require_max_rel(name: str):
    """ir_measures requires max_rel: a usage error when the name leaves it out."""
    def respell(typed: dict):
        if typed.get("max_rel") is None:
            raise UsageError(f"{name} needs max_rel=, the largest relevance label, e.g. "
                             f"{name}(max_rel=3)" + ("@10" if name in _CUT else ""))
        if typed.get("min_rel", 0) >= typed["max_rel"]:
            raise UsageError(f"{name}: min_rel must be less than max_rel (found "
                             f"{typed.get('min_rel', 0)} and {typed['max_rel']})")
        return name, typed
    return respell


def _gains(ctx: K.Context, m, best: bool, r: int) -> np.ndarray:
    """(T, MAX_N) gains in [0, 1] of run r: scaled labels, unjudged and padding 0 (1 if
    best)."""
    al = ctx.al
    lo, hi = m.get("min_rel"), m.get("max_rel")
    if hi is None or lo >= hi:
        raise UsageError(f"{m.family} needs min_rel < max_rel (found {lo} and {hi})")
    lab = al.labels[r, :, :MAX_N]
    if al.label_mode == "gain":
        val = np.where(lab >= 0, al.label_values[np.maximum(lab, 0)], 0.0)
    else:
        val = np.maximum(lab, 0).astype(np.float64)       # negative (pooled) labels: 0
    g = (np.clip(val, lo, hi) - lo) / float(hi - lo)
    unknown = ~judged(lab)              # not in the qrels, a negative label, or padding
    g = np.where(unknown, 1.0 if best else 0.0, g)
    T_, D = g.shape
    if D < MAX_N:
        g = np.concatenate([g, np.full((T_, MAX_N - D), 1.0 if best else 0.0)], axis=1)
    return g


_RANKS = []


def _rank():
    """The ranks 1..MAX_N as float64, made by the first kernel that needs them."""
    if not _RANKS:
        _RANKS.append(np.arange(1, MAX_N + 1, dtype=np.float64))
    return _RANKS[0]


def _c_inst(g, m):
    T = float(m.get("T"))
    Ti = T - np.cumsum(g, axis=-1)
    return ((_rank() + T + Ti - 1.0) / (_rank() + T + Ti)) ** 2


def _c_insq(g, m):
    T = float(m.get("T"))
    return np.broadcast_to(((_rank() + 2 * T - 1.0) / (_rank() + 2 * T)) ** 2, g.shape)


def _c_bpm(g, m):
    T = float(m.get("T"))
    return ((np.cumsum(g, axis=-1) < T) & (_rank() < m.k)).astype(np.float64)


def _c_sdcg(g, m):
    c = np.where(_rank() < m.k, np.log2(_rank() + 1.0) / np.log2(_rank() + 2.0), 0.0)
    return np.broadcast_to(c, g.shape)


def _c_nerr8(g, m):
    return np.where(_rank() < m.k, 1.0 - g, 0.0)


def _c_nerr9(g, m):
    return np.where(_rank() < m.k, _rank() / (_rank() + 1.0) * (1.0 - g), 0.0)


def _c_nerr10(g, m):
    return float(m.get("p")) * (1.0 - g)


def _c_nerr11(g, m):
    T = float(m.get("T"))
    return ((_rank() + 2 * T - 1.0) / (_rank() + 2 * T)) ** 2 * (1.0 - g)


def _expected_utility(g: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Σ W_i g_i with W_i ∝ Π_{j<i} C_j (the C of ranks 1..N-1)."""
    shape = g.shape[:-1] + (1,)
    reach = np.concatenate([np.ones(shape), np.cumprod(c[..., :-1], axis=-1)], axis=-1)
    return (reach * g).sum(axis=-1) / reach.sum(axis=-1)


def _eu(ctx: K.Context, m, cfun, best: bool) -> np.ndarray:
    out = np.empty(ctx.al.labels.shape[:2])
    for r in range(out.shape[0]):          # one run at a time: (T, 1000) arrays
        g = _gains(ctx, m, best, r)
        out[r] = _expected_utility(g, cfun(g, m))
    return out


def _kernel(cfun):
    def value(ctx, m):
        return _eu(ctx, m, cfun, False)
    return value


def _resid_kernel(cfun):
    def resid(ctx, m):
        return _eu(ctx, m, cfun, True) - _eu(ctx, m, cfun, False)
    return resid


_CUT = {"BPM", "SDCG", "NERR8", "NERR9"}
SPECS = (
    # name, definition, continuation, params, cutoff
    ("INST", "INST (Moffat et al. 2015): adaptive C/W/L measure, the user wants gain T",
     _c_inst, PARAMS_T, "none"),
    ("INSQ", "INSQ (Moffat et al. 2012): C/W/L measure with C_i = ((i+2T-1)/(i+2T))^2",
     _c_insq, PARAMS_T, "none"),
    ("BPM", "static Bejewelled Player Model (Zhang et al. 2017): read until gain T or k "
     "items", _c_bpm, PARAMS_T, "required"),
    ("SDCG", "scaled DCG@k (C/W/L): DCG with discounts summing to 1", _c_sdcg,
     (SDCG_FORM, MIN_REL, MAX_REL), "required"),
    ("NERR8", "not-quite ERR, eq. 8 (Azzopardi et al. 2021): C_i = 1 - g_i up to k",
     _c_nerr8, PARAMS_REL, "required"),
    ("NERR9", "not-quite ERR, eq. 9 (Azzopardi et al. 2021): C_i = i/(i+1) (1 - g_i) up to k",
     _c_nerr9, PARAMS_REL, "required"),
    ("NERR10", "not-quite ERR, eq. 10 (Azzopardi et al. 2021): C_i = p (1 - g_i)",
     _c_nerr10, (NERR_P, MIN_REL, MAX_REL), "none"),
    ("NERR11", "not-quite ERR, eq. 11 (Azzopardi et al. 2021): C_i = INSQ's C_i (1 - g_i)",
     _c_nerr11, PARAMS_T, "none"),
)
_COMMON = ("; gains (label - min_rel)/(max_rel - min_rel) clipped to [0, 1], unjudged 0, "
           "1000 ranks (cwl_eval)")


def _families():
    out = []
    for name, text, cfun, params, cutoff in SPECS:
        example = name + "(max_rel=3)" + ("@10" if cutoff == "required" else "")
        out.append(Family(name, text + _COMMON, "ordinal", _kernel(cfun), cutoff=cutoff,
                          params=params, respell=_require_max_rel(name), example=example,
                          other_names=(name.lower(),)))
        rname = name + "resid"
        out.append(Family(rname, f"{name}'s residual (cwl_eval -r): its value with unjudged "
                          f"(not in the qrels, or label < 0) and padded items at gain 1, "
                          f"minus its value", "ordinal",
                          _resid_kernel(cfun), cutoff=cutoff, params=params,
                          respell=_require_max_rel(rname), higher_is_better=False,
                          example=rname + "(max_rel=3)" + ("@10" if cutoff == "required" else ""),
                          bounds="none"))
    return tuple(out)


_CUT |= {n + "resid" for n in list(_CUT)}
FAMILIES = _families()
