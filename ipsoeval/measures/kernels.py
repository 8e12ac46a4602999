"""What measure kernels share: the :class:`Context` over an Aligned (runs ×
topics × depth) and the arrays and helpers several families use.  Each
family's own kernel is in its module under ``ipsoeval/measures/families/``.

Sums that trec_eval accumulates one document at a time are computed with
``np.add.accumulate`` (strictly sequential, so the floating point result is
the same as trec_eval's loop) and discounts use ``math.log2`` (the C
library's log2), so printed digits agree with trec_eval.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.model import PAD, Aligned
from ipsoeval.model import judged as is_judged

MIN_GEO_MEAN = 0.00001


@lru_cache(maxsize=16)
def log2_discounts(n: int) -> np.ndarray:
    """log2(i + 2) for i = 0..n-1 (rank i+1), computed with the C library."""
    return np.array([math.log2(i + 2) for i in range(n)], dtype=np.float64)


@lru_cache(maxsize=16)
def jk_discounts(n: int, b: float) -> np.ndarray:
    """Järvelin–Kekäläinen discount: 1 for ranks < b, log_b(rank) after."""
    return np.array([1.0 if r < b else math.log(r) / math.log(b) for r in range(1, n + 1)])


class Context:
    """Caches arrays shared by several measures of one evaluation."""

    def __init__(self, al: Aligned):
        self.al = al
        self._cache: dict = {}

    def _get(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def depth(self) -> int:
        return self.al.labels.shape[2]

    def rel(self, level: int) -> np.ndarray:
        return self._get(("rel", level), lambda: self.al.labels >= level)

    def cumrel(self, level: int) -> np.ndarray:
        return self._get(("cumrel", level),
                         lambda: np.cumsum(self.rel(level), axis=2, dtype=np.int32))

    def rel_positions(self, level: int):
        """Sparse view of the relevant documents, in (run, topic, rank) order:
        (cell = run·T + topic, rank i (0-based), j = relevant docs up to and
        including rank i)."""
        def make():
            R_, T_, D = self.al.labels.shape
            flat = np.flatnonzero(self.rel(level).ravel())
            cell, i = np.divmod(flat, D)
            head = np.ones(len(cell), dtype=bool)
            head[1:] = cell[1:] != cell[:-1]
            starts = np.flatnonzero(head)
            j = np.arange(len(cell)) - np.repeat(starts, np.diff(np.append(starts, len(cell)))) + 1
            return cell, i, j
        return self._get(("relpos", level), make)

    def cell_sum(self, cell: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Per (run, topic) sums in input order (np.bincount adds sequentially,
        as trec_eval's loops do), shaped (R, T)."""
        R_, T_ = self.al.labels.shape[:2]
        out = np.bincount(cell, weights=weights, minlength=R_ * T_)
        if weights is not None:
            out = out.astype(np.float64, copy=False)
        return out.reshape(R_, T_)

    def count_at(self, level: int, k: int) -> np.ndarray:
        """Relevant documents in the top k, (R, T)."""
        cell, i, _ = self.rel_positions(level)
        return self.cell_sum(cell[i < k]).astype(np.int64)

    def num_rel(self, level: int) -> np.ndarray:
        """R per topic at this level, (T,)."""
        if level == self.al.rel_level:
            return self.al.num_rel
        return self._get(("numrel", level), lambda: np.array(
            [int(np.count_nonzero(j >= level)) for j in self.al.judged_labels], dtype=np.int64))

    def num_nonrel(self, level: int) -> np.ndarray:
        if level == self.al.rel_level:
            return self.al.num_nonrel
        return self._get(("numnonrel", level), lambda: np.array(
            [int(np.count_nonzero((j >= 0) & (j < level))) for j in self.al.judged_labels],
            dtype=np.int64))

    def gains(self) -> np.ndarray:
        return self._get("gains", lambda: self.al.gains())

    def gains_top(self, k: int | None) -> np.ndarray:
        """Gains of the top k ranks only, (R, T, min(k, D)): a measure cut at k
        need not convert every label of a deep run (7M labels: ~0.1 s)."""
        if k is None or k >= self.depth:
            return self.gains()
        if "gains" in self._cache:
            return self._cache["gains"][:, :, :k]
        return self._get(("gains", k), lambda: self.al.gains(self.al.labels[:, :, :k]))

    def ideal(self) -> np.ndarray:
        """(T, n) positive ideal gains, sorted descending, 0-padded."""
        def make():
            g = self.al.ideal_gains()
            return np.where(g > 0, g, 0.0)
        return self._get("ideal", make)

    def first_rel(self, level: int, k: int | None) -> np.ndarray:
        """0-based rank of the first relevant doc in the top k, −1 if none."""
        def make():
            cell, i, j = self.rel_positions(level)
            first = np.full(self.al.labels.shape[0] * self.al.labels.shape[1], -1,
                            dtype=np.int64)
            top = j == 1
            first[cell[top]] = i[top]
            if k is not None:
                first[first >= k] = -1
            return first.reshape(self.al.labels.shape[:2])
        return self._get(("first", level, k), make)


def safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    den = np.broadcast_to(den, num.shape)
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def seq_sum(x: np.ndarray, k: int | None) -> np.ndarray:
    """Sequential sum over the first k entries of the last axis."""
    n = x.shape[-1]
    if n == 0:
        return np.zeros(x.shape[:-1])
    k = n if k is None else min(k, n)
    if k <= 0:
        return np.zeros(x.shape[:-1])
    return np.add.accumulate(x[..., :k], axis=-1)[..., k - 1]


# --- interpolated precision --------------------------------------------------------

def lround(x: np.ndarray) -> np.ndarray:
    """C lround for non-negative doubles: halves away from zero, exactly."""
    f = np.floor(x)
    return np.where(x - f >= 0.5, f + 1, f).astype(np.int64)


def iprec_table(ctx: Context, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Interpolated precision at the j-th relevant document, (R, T, J+1), and
    the relevant documents retrieved, (R, T)."""
    def make():
        cr = ctx.cumrel(level)
        D = ctx.depth
        R_, T_ = cr.shape[:2]
        total = cr[:, :, -1].astype(np.int64) if D else np.zeros((R_, T_), np.int64)
        J = int(total.max()) if total.size else 0
        table = np.zeros((R_, T_, J + 1))
        if J == 0:
            return table, total
        ranks = np.arange(1, D + 1, dtype=np.float64)
        prec = np.where(ctx.al.labels != PAD, cr / ranks, 0.0)
        smax = np.maximum.accumulate(prec[:, :, ::-1], axis=2)[:, :, ::-1]
        r, t, i = np.nonzero(ctx.rel(level))
        table[r, t, cr[r, t, i]] = smax[r, t, i]
        table[:, :, 0] = table[:, :, 1]
        return table, total
    return ctx._get(("iprec", level), make)


# --- ir_measures' judged_only ---------------------------------------------------

def judged_only_context(ctx: Context) -> Context:
    """A Context over the rankings with unjudged documents removed (ir_measures'
    judged_only, trec_eval -J applied after the -M cut): judged documents keep
    their order and move up; n_ret becomes their count.  Judged is
    :func:`ipsoeval.model.judged`, the rule -J applies: a document with a
    negative qrels label is dropped too."""
    def make():
        import dataclasses
        al = ctx.al
        lab = al.labels
        judged = is_judged(lab)                 # the rule of -J: a label >= 0
        n = judged.sum(axis=2)
        depth = max(1, int(n.max()) if n.size else 1)
        out = np.full(lab.shape[:2] + (depth,), PAD, dtype=lab.dtype)
        r, t, i = np.nonzero(judged)
        pos = np.cumsum(judged, axis=2, dtype=np.int64)[r, t, i] - 1
        out[r, t, pos] = lab[r, t, i]
        sub = al.subtopics
        if sub is not None:                 # diversity qrels: their rows move up too
            docs = np.full(out.shape, -1, dtype=np.int32)
            docs[r, t, pos] = sub.docs[r, t, i]
            sub = dataclasses.replace(sub, docs=docs)
        return Context(dataclasses.replace(al, labels=out, n_ret=n.astype(np.int64),
                                           subtopics=sub))
    return ctx._get("judged_only_ctx", make)


# --- trec_eval's helpers (m_*.c): document classes, C logarithms, gain levels --------

@lru_cache(maxsize=8)
def log2_int(n: int) -> np.ndarray:
    """math.log2(x) for x = 0..n-1 (entry 0 is -inf; never used)."""
    return np.array([-math.inf] + [math.log2(x) for x in range(1, n)], dtype=np.float64)


def clog2(x: np.ndarray) -> np.ndarray:
    """The C library's log2, element by element (exact digits, any double)."""
    return np.array([math.log2(v) for v in x.tolist()], dtype=np.float64)


def count_before(ctx: Context, key, mask_fn, cell, i):
    """Per sparse position (cell, rank i): documents above rank i in the same
    ranking whose labels satisfy ``mask_fn`` (cached flat positions)."""
    D = ctx.depth
    flat = ctx._get(("flatpos", key), lambda: np.flatnonzero(mask_fn(ctx.al.labels).ravel()))
    pos = cell * D + i
    return np.searchsorted(flat, pos) - np.searchsorted(flat, cell * D)


def trec_numbers(text: str, original: str) -> list[float]:
    """trec_eval's comma-separated numbers (utility, 11pt_avg, relstring)."""
    try:
        vals = [float(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"bad parameter list in measure {original!r}") from None
    if not all(math.isfinite(v) for v in vals):
        raise UsageError(f"bad parameter list in measure {original!r}")
    return vals


def parse_gain_pairs(text: str, allow=("p",)) -> tuple[dict[int, float], dict[str, float]]:
    """trec_eval's ``level=gain,...`` parameters -> ({level: gain}, {name: value})."""
    gains: dict[int, float] = {}
    other: dict[str, float] = {}
    for part in text.split(","):
        if "=" not in part:
            raise UsageError(f"parameters are level=gain pairs (found {text!r})")
        k, v = part.split("=", 1)
        try:
            val = float(v)
        except ValueError:
            raise UsageError(f"bad value {v!r} in parameters {text!r}") from None
        if not math.isfinite(val):
            raise UsageError(f"bad value {v!r} in parameters {text!r}")
        k = k.strip()
        if k.lstrip("+").isdigit():
            level = int(k)
            if level in gains:
                raise UsageError(f"level {level} given twice in {text!r}")
            gains[level] = val
        elif k in allow:
            if k in other:
                raise UsageError(f"parameter {k} given twice in {text!r}")
            other[k] = val
        elif k.startswith("-") and k[1:].isdigit():
            raise UsageError(f"negative relevance levels take no gain ({k!r} in {text!r}): "
                             f"trec_eval would give it to unjudged documents")
        else:
            raise UsageError(f"unknown parameter {k!r} in {text!r} (level=gain pairs"
                             + (", " + ", ".join(f"{a}=" for a in allow) if allow else "") + ")")
    return gains, other


def _level_gains(ctx: Context, pairs: dict[int, float]):
    """Per topic: the gain of each judged level 0..max (trec_eval's gain list:
    the label, or --gains, overridden by the pairs), plus levels only named
    in the pairs.  Returns (levels array, gains array) per topic."""
    if pairs and ctx.al.label_mode != "integer":
        raise UsageError("trec_eval's LEVEL=GAIN parameters name integer labels; with "
                         f"--labels {ctx.al.label_mode} the labels are the gains")
    out = []
    for lab in ctx.al.judged_labels:
        top = int(lab.max()) + 1 if len(lab) else 0
        levels = list(range(top)) + sorted(k for k in pairs if k >= top)
        base = ctx.al.gains(np.array(levels, dtype=np.int64)) if levels else np.zeros(0)
        g = np.array([pairs.get(lv, float(base[n])) for n, lv in enumerate(levels)], float)
        out.append((np.array(levels, dtype=np.int64), g))
    return out


def gain_arrays(ctx: Context, pairs: dict[int, float], normalise=False):
    """(gains of the ranked documents (R, T, D), ideal positive gains (T, n))."""
    key = ("te_gains", tuple(sorted(pairs.items())), normalise)

    def make():
        lab = ctx.al.labels
        R_, T_, D = lab.shape
        per_topic = _level_gains(ctx, pairs)
        g = np.zeros(lab.shape, dtype=np.float64)
        ideal_rows = []
        for t, (levels, gains) in enumerate(per_topic):
            if normalise and len(gains):
                mn, mx = float(gains.min()), float(gains.max())
                if mn < 0 or mx > 1:
                    gains = ((gains - mn) / (mx - mn) if mx > mn
                             else np.clip(gains, 0.0, 1.0))
            if len(levels):
                lt = lab[:, t, :]
                look = dict(zip(levels.tolist(), gains.tolist()))
                vals = np.zeros(lt.shape)
                for lv, gv in look.items():       # sentinels are negative: gain 0
                    if gv != 0:
                        vals[lt == lv] = gv
                g[:, t, :] = vals
                jl = ctx.al.judged_labels[t]
                jg = np.array([look.get(int(x), 0.0) for x in jl.tolist()], float)
                ideal_rows.append(np.sort(jg[jg > 0])[::-1])
            else:
                ideal_rows.append(np.zeros(0))
        n = max([1] + [len(x) for x in ideal_rows])
        ideal = np.zeros((T_, n))
        for t, row in enumerate(ideal_rows):
            ideal[t, :len(row)] = row
        return g, ideal
    return ctx._get(key, make)


def disc(n: int) -> np.ndarray:
    return log2_discounts(max(n, 1))


def ideal_prefix(ideal: np.ndarray) -> np.ndarray:
    """Sequential ideal DCG through each position, (T, n)."""
    return np.add.accumulate(ideal / disc(ideal.shape[1]), axis=1)


def powers(p: float, n: int) -> np.ndarray:
    """1, p, p·p, … by repeated multiplication (trec_eval's cur_p)."""
    a = np.full(n + 1, p)
    a[0] = 1.0
    return np.multiply.accumulate(a)


def check_gain_pairs(raw: str, original: str) -> None:
    """Usage errors for trec_eval's ``LEVEL=GAIN,...`` string, before any file is read."""
    parse_gain_pairs(raw, ())


def gain_pairs(m) -> tuple[dict[int, float], dict[str, float]]:
    """The gain pairs (and p=) of a measure's trec_eval parameter string."""
    raw = m.param("te")
    return parse_gain_pairs(raw, ("p",)) if raw else ({}, {})


def idcg_trec(ctx: Context, k: int | None) -> np.ndarray:
    """trec_eval's ideal DCG per topic (log2 discounts, the ideal gains' top k)."""
    ideal = ctx.ideal()
    return seq_sum(ideal / log2_discounts(ideal.shape[1]), k)


def rbp_gains(ctx: Context, level: int, k: int | None) -> np.ndarray:
    """RBP's gains scaled to [0, 1] of the top k ranks (all with k None)."""
    if ctx.al.gain_map is None:
        rel = ctx.rel(level)
        return (rel if k is None else rel[:, :, :k]).astype(np.float64)
    g = ctx.gains_top(k)
    top = max(ctx.al.gain_map.values())
    return g / top if top > 0 else g * 0.0
