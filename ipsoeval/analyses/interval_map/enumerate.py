"""Plain enumeration of the universe, run by run (|U| <= 2^24): graded
attainable universes, graded RBP, generic (engine) measures, and the value
listings of small universes.

Runs are sorted by exact keys (integers for AP, P, R, RR, Success and RBP;
double-double values with exact group tuples for the DCG family); generic
measures give floats, equal when within 1e-12 (relative).
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.analyses.interval_map.ap import ap_keys
from ipsoeval.analyses.interval_map.common import ENUM_LIMIT, MapSpec, Progress, ties_rank
from ipsoeval.analyses.interval_map.groups import GroupSystem, dd_add
from ipsoeval.errors import UsageError


def all_runs(N: int, G: int, start: int, stop: int) -> np.ndarray:
    idx = np.arange(start, stop, dtype=np.int64)
    out = np.empty((len(idx), N), np.int8)
    for i in range(N - 1, -1, -1):
        out[:, i] = idx % G
        idx //= G
    return out



def exact_keys(spec: MapSpec, levels: np.ndarray, caps_ok=None):
    """Exact sort keys of runs (rows of gain-level indices).

    Returns (order_key, eq_key): runs tie iff eq_key equal; order by order_key.
    """
    N = spec.N
    fam = spec.family
    if fam == "AP":
        k = ap_keys(N, levels > 0)
        return k, k
    if fam in ("P", "R", "Success"):
        k = (levels > 0).sum(axis=1).astype(np.int64)
        if fam == "Success":
            k = np.minimum(k, 1)
        return k, k
    if fam == "RR":
        rel = levels > 0
        first = np.where(rel.any(axis=1), N - rel.argmax(axis=1), 0).astype(np.int64)
        return first, first
    if fam == "RBP":
        u, v = spec.p.numerator, spec.p.denominator
        den = 1
        for g in spec.gains:
            den = math.lcm(den, g.denominator)
        gint = [int(g * den) for g in spec.gains]
        bound = N * max(gint) * max(u, v) ** max(N - 1, 0)
        obj = bound >= 2 ** 62
        table = np.array(gint, dtype=object if obj else np.int64)
        acc = np.zeros(levels.shape[0], dtype=object if obj else np.int64)
        for i in range(N):
            acc = acc + table[levels[:, i]] * (u ** i * v ** (N - 1 - i))
        return acc, acc
    if fam in ("DCG", "nDCG", "DCGtrec", "nDCGtrec"):
        gs = GroupSystem(spec, rational=False)
        vids = gs.query_vids(levels)
        hi = np.zeros(levels.shape[0])
        lo = np.zeros(levels.shape[0])
        vid = np.zeros(levels.shape[0], np.int64)
        for gi, g in enumerate(gs.groups):
            hi, lo = dd_add(hi, lo, g.hi[vids[:, gi]], g.lo[vids[:, gi]])
            vid = vid * len(g.coefs) + vids[:, gi]
        return (hi, lo), vid
    raise UsageError(f"no exact keys for {fam}")


class EnumSystem:
    """Every run of the universe, one by one (|U| <= 2^24)."""

    def __init__(self, spec: MapSpec, rel_caps: tuple[int, ...] | None, progress: Progress = None):
        G = len(spec.gains)
        N = spec.N
        size = G ** N
        if size > ENUM_LIMIT:
            raise UsageError(
                f"{spec.name or spec.family}: the universe has {G}^{N} runs, too many to enumerate "
                f"(at most {ENUM_LIMIT}); use a smaller -N")
        runs = all_runs(N, G, 0, size)
        if rel_caps is not None:
            ok = np.ones(size, bool)
            for li, cap in enumerate(rel_caps, start=1):
                ok &= (runs == li).sum(axis=1) <= cap
            runs = runs[ok]
        self.spec = spec
        self.n_universe = runs.shape[0]
        if spec.family == "generic":
            vals = np.asarray(spec.values_fn(runs), dtype=np.float64)
            vals = vals[~np.isnan(vals)]
            vals.sort()
            tol = 1e-12 * np.maximum(1.0, np.abs(vals))
            first = np.ones(len(vals), bool)
            first[1:] = (vals[1:] - vals[:-1]) > tol[1:]
            grp = np.cumsum(first) - 1
            self.generic = True
            self.sorted_vals = vals
            self.group_of = grp
            self.distinct = vals[first]
            self.mult = np.bincount(grp)
            self.n_values = len(self.distinct)
            return
        self.generic = False
        order_key, eq_key = exact_keys(spec, runs)
        if isinstance(order_key, tuple):
            hi, lo = order_key
            o = np.lexsort((lo, hi))
        else:
            o = np.argsort(order_key, kind="stable")
        eq_sorted = np.asarray(eq_key)[o]
        first = np.ones(len(o), bool)
        first[1:] = eq_sorted[1:] != eq_sorted[:-1]
        if isinstance(order_key, tuple):
            # equal structure must be adjacent after sorting by value; merge
            # groups split by rounding (cannot happen for distinct dd values)
            self.eq_sorted = eq_sorted
        self.first = first
        idx = np.flatnonzero(first)
        self.mult = np.diff(np.append(idx, len(o)))
        self.cum_before = np.concatenate([[0], np.cumsum(self.mult)])
        self.n_values = len(idx)
        self.eq_distinct = eq_sorted[idx]
        if isinstance(order_key, tuple):
            self.hi_distinct = order_key[0][o][idx]
        else:
            self.hi_distinct = np.asarray(order_key[o][idx], dtype=np.float64) if not (
                np.asarray(order_key).dtype == object) else None
        self._eq_order = np.argsort(self.eq_distinct, kind="stable")
        self._eq_sorted = self.eq_distinct[self._eq_order]

    def rank(self, levels: np.ndarray, ties: str, raw_values=None):
        out = []
        if self.generic:
            vals = np.asarray(raw_values, dtype=np.float64)
            for v in vals:
                if np.isnan(v):
                    out.append(None)
                    continue
                tol = 1e-12 * max(1.0, abs(v))
                i = int(np.searchsorted(self.distinct, v + tol, "right"))
                if i == 0 or abs(self.distinct[i - 1] - v) > tol:
                    raise UsageError(f"{self.spec.name}: value {v!r} is outside the value set of runs of length {self.spec.N}")
                if ties == "unq":
                    out.append(i)
                else:
                    less = int(self.mult[:i - 1].sum())
                    out.append(ties_rank(ties, less, int(self.mult[i - 1])))
            return out
        _, eq = exact_keys(self.spec, levels)
        eq = np.asarray(eq)
        pos = np.searchsorted(self._eq_sorted, eq)
        if np.any(pos >= len(self._eq_sorted)) or np.any(self._eq_sorted[np.minimum(pos, len(self._eq_sorted) - 1)] != eq):
            raise UsageError(f"{self.spec.name or self.spec.family}: a run lies outside the universe")
        for i in self._eq_order[pos].tolist():
            if ties == "unq":
                out.append(i + 1)
            else:
                out.append(ties_rank(ties, int(self.cum_before[i]), int(self.mult[i])))
        return out


def check_enum_listing(spec: MapSpec) -> None:
    """UsageError when :func:`enum_listing` would have too many runs to list
    (checked before any mapping, by valuesets.check_listing)."""
    N = spec.N
    G = len(spec.gains)
    if G ** N > ENUM_LIMIT:
        raise UsageError(f"{spec.name}: {G}^{N} runs, too many to list (at most {ENUM_LIMIT}); use a smaller -N")


def enum_listing(spec: MapSpec, K: int):
    """Distinct values ascending with their run counts, by enumerating U
    (binary runs with at most K relevant documents)."""
    N = spec.N
    G = len(spec.gains)
    check_enum_listing(spec)
    runs = all_runs(N, G, 0, G ** N)
    if spec.binary and K < N:
        runs = runs[(runs > 0).sum(axis=1) <= K]
    if spec.family == "generic":
        es = EnumSystem(spec, (K,) if K < N else None)
        return es.distinct, es.mult
    order_key, eq_key = exact_keys(spec, runs)
    if isinstance(order_key, tuple):
        hi, lo = order_key
        o = np.lexsort((lo, hi))
        fl = hi
    else:
        o = np.argsort(order_key, kind="stable")
        fl = None
    eq = np.asarray(eq_key)[o]
    first = np.ones(len(o), bool)
    first[1:] = eq[1:] != eq[:-1]
    idx = np.flatnonzero(first)
    mult = np.diff(np.append(idx, len(o)))
    if fl is None:
        fl = _float_values(spec, runs[o[idx]])
        return fl, mult
    return fl[o][idx], mult


def _float_values(spec: MapSpec, runs: np.ndarray) -> np.ndarray:
    """Plain float values of runs, for display only."""
    N = spec.N
    rel = runs > 0
    fam = spec.family
    if fam == "AP":
        cnt = np.cumsum(rel, axis=1)
        ranks = np.arange(1, N + 1)
        return (rel * cnt / ranks).sum(axis=1)        # AP * R
    if fam == "RBP":
        g = np.array([float(x) for x in spec.gains])[runs]
        p = float(spec.p)
        return (1 - p) * (g * p ** np.arange(N)).sum(axis=1) / max(1.0, float(max(spec.gains)))
    if fam == "RR":
        return np.where(rel.any(axis=1), 1.0 / (rel.argmax(axis=1) + 1), 0.0)
    if fam in ("P",):
        return rel.sum(axis=1) / N
    return rel.sum(axis=1).astype(float)
