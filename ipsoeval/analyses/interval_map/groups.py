"""DCG, nDCG and RBP(p > 1/2): values as tuples of exact group coefficients,
counted by meet in the middle.

A log discount ln(b)/ln(x) depends on x only through its root a (x = a^s, a
not a perfect power): ranks sharing a root contribute rational multiples of
one real weight ln(b)/ln(a); ranks with discount 1 and ranks that are powers
of b's root are rational.  A value is a tuple of exact rational group
coefficients; distinct tuples are distinct reals (the weights 1/ln(a) of
different roots are taken to be linearly independent over Q -- conjectured,
and checked against brute force).  RBP with rational p has one group per
rank; all 2^N binary values are distinct (a +-1 polynomial has no root u/v,
v >= 2).

Counting tuples below m is a meet in the middle over two halves of the
groups, in double-double arithmetic; pairs within 1e-12 of m are decided by
structure (same tuple = equal) or in 60-digit decimal arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Sequence

import numpy as np

from ipsoeval.analyses.interval_map.common import MapSpec, Progress
from ipsoeval.errors import UsageError

# peak bytes per enumerated half-sum (hi, lo, pop, vid[, mult]) while the
# halves are built and sorted: measured (tracemalloc) 70-72 for unique
# values, 80-81 when counting ties (nDCG@20 and @30, gains 0/1/2)
SIDE_ENTRY_BYTES = 88
_HP = 60                      # decimal digits for near-tie resolution


# --------------------------------------------------------------------------
# double-double and exact helpers
# --------------------------------------------------------------------------

def two_sum(a, b):
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def dd_add(ahi, alo, bhi, blo):
    s, e = two_sum(ahi, bhi)
    e = e + (alo + blo)
    hi = s + e
    lo = e - (hi - s)
    return hi, lo


def _dec(x) -> Decimal:
    if isinstance(x, Fraction):
        return Decimal(x.numerator) / Decimal(x.denominator)
    return Decimal(x)


def _dd_of(d: Decimal) -> tuple[float, float]:
    hi = float(d)
    lo = float(d - Decimal(hi))
    return hi, lo


def _root(x: int) -> tuple[int, int]:
    """x = a**s with a not a perfect power (s maximal)."""
    for s in range(max(1, x.bit_length()), 1, -1):
        a = int(round(x ** (1.0 / s)))
        for c in (a - 1, a, a + 1):
            if c >= 2 and c ** s == x:
                return c, s
    return x, 1



@dataclass
class _Group:
    ranks: list[int]                  # 0-based ranks
    factors: list[Fraction]           # rank contribution = weight * factor * gain
    weight: Fraction | Decimal        # real weight (Fraction when rational)
    coefs: list[Fraction] = field(default_factory=list)   # distinct, ascending
    minpop: list[int] = field(default_factory=list)
    entries: list[tuple[int, int, int]] = field(default_factory=list)  # (vid, pop, mult)
    dec: list[Decimal] = field(default_factory=list)      # weight * coef, high precision
    hi: np.ndarray | None = None
    lo: np.ndarray | None = None
    denom: int = 1                    # common denominator of factor*gain
    coef_int: np.ndarray | None = None  # coefs * denom, ascending


def _dcg_groups(spec: MapSpec) -> list[_Group]:
    N = spec.N
    groups: dict[int, _Group] = {}
    rational = _Group([], [], Fraction(1))
    with localcontext() as ctx:
        ctx.prec = _HP + 10
        trec = spec.family in ("DCGtrec", "nDCGtrec")
        if trec:
            a0, t0 = 2, 1
        else:
            b = spec.b
            a0, t0 = _root(b)
        lna0 = Decimal(a0).ln()
        for i in range(1, N + 1):
            if not trec and i <= spec.b:
                rational.ranks.append(i - 1)
                rational.factors.append(Fraction(1))
                continue
            x = i + 1 if trec else i
            a, s = _root(x)
            if a == a0:
                rational.ranks.append(i - 1)
                rational.factors.append(Fraction(t0, s))
                continue
            g = groups.get(a)
            if g is None:
                g = groups[a] = _Group([], [], t0 * lna0 / Decimal(a).ln())
            g.ranks.append(i - 1)
            g.factors.append(Fraction(1, s))
    out = ([rational] if rational.ranks else []) + [groups[a] for a in sorted(groups)]
    return out


def _rbp_groups(spec: MapSpec) -> list[_Group]:
    p = spec.p
    return [_Group([i], [Fraction(1)], (1 - p) * p ** i) for i in range(spec.N)]


def _finish_group(g: _Group, gains: Sequence[Fraction]):
    states: dict[tuple[Fraction, int], int] = {(Fraction(0), 0): 1}
    for f in g.factors:
        new: dict[tuple[Fraction, int], int] = {}
        for (c, pop), m in states.items():
            for li, gv in enumerate(gains):
                k = (c + f * gv, pop + (li > 0))
                new[k] = new.get(k, 0) + m
        states = new
    coefs = sorted({c for c, _ in states})
    vid = {c: i for i, c in enumerate(coefs)}
    minpop = [10 ** 9] * len(coefs)
    for (c, pop) in states:
        j = vid[c]
        minpop[j] = min(minpop[j], pop)
    g.coefs, g.minpop = coefs, minpop
    g.entries = sorted((vid[c], pop, m) for (c, pop), m in states.items())
    with localcontext() as ctx:
        ctx.prec = _HP + 10
        w = _dec(g.weight)
        g.dec = [w * _dec(c) for c in coefs]
    dd = [_dd_of(d) for d in g.dec]
    g.hi = np.array([x[0] for x in dd])
    g.lo = np.array([x[1] for x in dd])
    den = 1
    for f in g.factors:
        for gv in gains:
            den = math.lcm(den, (f * gv).denominator)
    g.denom = den
    ints = [int(c * den) for c in coefs]
    if ints and max(abs(x) for x in ints) >= 1 << 62:
        raise UsageError(
            f"{getattr(g, 'name', '') or 'interval map'}: the gains' exact values need integers "
            f"above 2^62 (found gains {', '.join(f'{float(x):g}' for x in gains)}); the exact interval "
            f"map supports gains whose ratios and denominators are smaller: rescale --gains "
            f"(e.g. small integers such as 0:0,1:1,2:3)")
    g.coef_int = np.array(ints, dtype=np.int64)


@dataclass
class _Side:
    groups: list[int]
    hi: np.ndarray
    lo: np.ndarray
    pop: np.ndarray
    vid: np.ndarray
    mult: np.ndarray | None
    radix: list[int]


def _enumerate_side(groups: list[_Group], gidx: list[int], mode: str) -> _Side:
    hi = np.zeros(1)
    lo = np.zeros(1)
    pop = np.zeros(1, np.int64)
    vid = np.zeros(1, np.int64)
    mult = np.ones(1, np.int64) if mode == "count" else None
    radix = []
    for gi in gidx:
        g = groups[gi]
        if mode == "unq":
            ev = np.arange(len(g.coefs), dtype=np.int64)
            ep = np.array(g.minpop, np.int64)
            em = None
        else:
            ev = np.array([e[0] for e in g.entries], np.int64)
            ep = np.array([e[1] for e in g.entries], np.int64)
            em = np.array([e[2] for e in g.entries], np.int64)
        n, k = len(hi), len(ev)
        h2, l2 = dd_add(np.repeat(hi, k), np.repeat(lo, k), np.tile(g.hi[ev], n), np.tile(g.lo[ev], n))
        hi, lo = h2, l2
        pop = np.repeat(pop, k) + np.tile(ep, n)
        vid = np.repeat(vid, k) * len(g.coefs) + np.tile(ev, n)
        if mult is not None:
            mult = np.repeat(mult, k) * np.tile(em, n)
        radix.append(len(g.coefs))
    return _Side(list(gidx), hi, lo, pop, vid, mult, radix)


class GroupSystem:
    """Meet-in-the-middle counting over independent groups (see module doc)."""

    RIGHT_MAX = 1 << 25

    def __init__(self, spec: MapSpec, rational: bool):
        self.spec = spec
        self.rational = rational
        if spec.family == "RBP":
            self.groups = _rbp_groups(spec)
        else:
            self.groups = _dcg_groups(spec)
        for g in self.groups:
            _finish_group(g, spec.gains)
        self._sides: dict[str, tuple[_Side, _Side]] = {}
        self._poly = None

    # exact sizes -------------------------------------------------------------
    def n_values(self, K: int) -> int:
        if self._poly is None:
            poly = [1]
            for g in self.groups:
                gp: dict[int, int] = {}
                for mp in g.minpop:
                    gp[mp] = gp.get(mp, 0) + 1
                new = [0] * (len(poly) + max(gp))
                for i, a in enumerate(poly):
                    if a:
                        for j, b in gp.items():
                            new[i + j] += a * b
                poly = new
            self._poly = poly
        return sum(self._poly[:K + 1])

    def total_tuples(self) -> int:
        return math.prod(len(g.coefs) for g in self.groups)

    # query decomposition -------------------------------------------------------
    def query_vids(self, levels: np.ndarray) -> np.ndarray:
        """(Q, n_groups) value index of each query in each group."""
        Q = levels.shape[0]
        out = np.zeros((Q, len(self.groups)), np.int64)
        gains = self.spec.gains
        for gi, g in enumerate(self.groups):
            acc = np.zeros(Q, np.int64)
            for r, f in zip(g.ranks, g.factors):
                table = np.array([int(f * gv * g.denom) for gv in gains], np.int64)
                acc += table[levels[:, r]]
            pos = np.searchsorted(g.coef_int, acc)
            assert np.all(g.coef_int[np.minimum(pos, len(g.coef_int) - 1)] == acc)
            out[:, gi] = pos
        return out

    def query_value(self, vids_row) -> Decimal:
        with localcontext() as ctx:
            ctx.prec = _HP + 10
            return sum((self.groups[gi].dec[v] for gi, v in enumerate(vids_row)), Decimal(0))

    # sides ---------------------------------------------------------------------
    def _split(self, n_queries: int) -> tuple[list[int], list[int]]:
        sizes = [len(g.coefs) for g in self.groups]
        total = math.prod(sizes)
        target = min(self.RIGHT_MAX, max(1, int(math.sqrt(total * max(1, n_queries) * 8))))
        order = sorted(range(len(sizes)), key=lambda i: -sizes[i])
        right, left, prod = [], [], 1
        for i in order:
            if prod * sizes[i] <= target:
                right.append(i)
                prod *= sizes[i]
            else:
                left.append(i)
        return sorted(left), sorted(right)

    def estimate_bytes(self, n_queries: int, mode: str = "unq") -> int:
        """Peak memory of the two enumerated halves of the meet-in-the-middle
        count; mode "count" (ties counted) enumerates every (value,
        population) entry of a group, more than its distinct values."""
        left, right = self._split(n_queries)
        sizes = [len(g.coefs) if mode == "unq" else len(g.entries) for g in self.groups]
        n = math.prod(sizes[i] for i in left) + math.prod(sizes[i] for i in right)
        return n * SIDE_ENTRY_BYTES + (1 << 20)     # + the groups' own tables

    def _get_sides(self, mode: str, n_queries: int, progress: Progress):
        if mode not in self._sides:
            left, right = self._split(n_queries)
            if progress:
                progress(f"{self.spec.name or self.spec.family} halves", 0, 2)
            L = _enumerate_side(self.groups, left, mode)
            R = _enumerate_side(self.groups, right, mode)
            o = np.lexsort((R.lo, R.hi))
            R = _Side(R.groups, R.hi[o], R.lo[o], R.pop[o], R.vid[o],
                      None if R.mult is None else R.mult[o], R.radix)
            if progress:
                progress(f"{self.spec.name or self.spec.family} halves", 2, 2)
            self._sides[mode] = (L, R, {})
        return self._sides[mode]

    @staticmethod
    def _sub_vid(vids_row, side: _Side) -> int:
        v = 0
        for gi, r in zip(side.groups, side.radix):
            v = v * r + int(vids_row[gi])
        return v

    def _decode(self, side: _Side, v: int) -> list[tuple[int, int]]:
        out = []
        for gi, r in zip(reversed(side.groups), reversed(side.radix)):
            out.append((gi, v % r))
            v //= r
        return out

    def _side_dec(self, side: _Side, v: int) -> Decimal:
        with localcontext() as ctx:
            ctx.prec = _HP + 10
            return sum((self.groups[gi].dec[j] for gi, j in self._decode(side, v)), Decimal(0))

    def count(self, levels: np.ndarray, caps: np.ndarray, mode: str, progress: Progress = None):
        """For each query: unq -> number of distinct values <= m (with cap);
        count -> (runs < m, runs == m) with at most cap nonzero ranks."""
        Q = levels.shape[0]
        vids = self.query_vids(levels)
        L, R, rcache = self._get_sides(mode, Q, progress)
        maxpopR = int(R.pop.max()) if len(R.pop) else 0

        def right_for(j):
            if j >= maxpopR:
                j = maxpopR
            if j not in rcache:
                if j == maxpopR:
                    sel = slice(None)
                    rh, rl, rv = R.hi, R.lo, R.vid
                    rm = R.mult
                else:
                    sel = R.pop <= j
                    rh, rl, rv = R.hi[sel], R.lo[sel], R.vid[sel]
                    rm = None if R.mult is None else R.mult[sel]
                cum = None
                if rm is not None:
                    cum = np.concatenate([[0], np.cumsum(rm)])
                rcache[j] = (rh, rl, rv, rm, cum)
            return rcache[j]

        res_a = [0] * Q
        res_b = [0] * Q
        Lpops = np.unique(L.pop)
        for q in range(Q):
            if progress and q % 256 == 0:
                progress(f"{self.spec.name or self.spec.family} map", q, Q)
            K = int(caps[q])
            row = vids[q]
            mLv = self._sub_vid(row, L)
            mRv = self._sub_vid(row, R)
            mhi, mlo = 0.0, 0.0
            for gi, v in enumerate(row):
                mhi, mlo = dd_add(mhi, mlo, self.groups[gi].hi[v], self.groups[gi].lo[v])
            delta = 1e-12 * max(1.0, abs(mhi))
            a_tot = 0
            b_tot = 0
            for pl in Lpops:
                j = K - int(pl)
                if j < 0:
                    continue
                lsel = np.flatnonzero(L.pop == pl)
                rh, rl, rv, rm, cum = right_for(j)
                if not len(rh):
                    continue
                lh = L.hi[lsel]
                need = (mhi - lh)
                o = np.argsort(need, kind="stable")
                lo_i = np.empty(len(need), np.int64)
                hi_i = np.empty(len(need), np.int64)
                lo_i[o] = np.searchsorted(rh, need[o] - delta, "left")
                hi_i[o] = np.searchsorted(rh, need[o] + delta, "right")
                if mode == "unq":
                    a_tot += int(lo_i.sum())
                else:
                    a_tot += int(np.dot(cum[lo_i], L.mult[lsel]))
                band = hi_i - lo_i
                nzl = np.flatnonzero(band)
                if not len(nzl):
                    continue
                bl = np.repeat(lsel[nzl], band[nzl])
                ends = np.cumsum(band[nzl])
                br = np.repeat(lo_i[nzl] - (ends - band[nzl]), band[nzl]) + np.arange(int(ends[-1]))
                s, e = two_sum(L.hi[bl], rh[br])
                d = (s - mhi) + ((e + L.lo[bl] + rl[br]) - mlo)
                same = (L.vid[bl] == mLv) & (rv[br] == mRv)
                tiny = (np.abs(d) <= 1e-26 * max(1.0, abs(mhi))) & ~same
                if tiny.any():
                    mdec = self.query_value(row)
                    for t in np.flatnonzero(tiny):
                        with localcontext() as ctx:
                            ctx.prec = _HP + 10
                            x = self._side_dec(L, int(L.vid[bl[t]])) + self._side_dec(R, int(rv[br[t]]))
                            diff = x - mdec
                        d[t] = -1.0 if diff < 0 else (1.0 if diff > 0 else 0.0)
                        if diff == 0:
                            same[t] = True
                lt = (d < 0) & ~same
                if mode == "unq":
                    a_tot += int(np.count_nonzero(lt | same))
                else:
                    w = L.mult[bl] * rm[br]
                    a_tot += int(w[lt].sum())
                    b_tot += int(w[same].sum())
            res_a[q] = a_tot
            res_b[q] = b_tot
        if progress:
            progress(f"{self.spec.name or self.spec.family} map", Q, Q)
        return res_a, res_b

    def listing(self, K: int):
        """All distinct values (attainable with <= K nonzero ranks) with their
        run multiplicities: (hi array, Decimal-free) ascending."""
        L = _enumerate_side(self.groups, list(range(len(self.groups))), "count")
        sel = L.pop <= K
        hi, lo, vid, mult = L.hi[sel], L.lo[sel], L.vid[sel], L.mult[sel]
        o = np.argsort(vid, kind="stable")
        vid, hi, lo, mult = vid[o], hi[o], lo[o], mult[o]
        first = np.ones(len(vid), bool)
        first[1:] = vid[1:] != vid[:-1]
        idx = np.flatnonzero(first)
        m = np.add.reduceat(mult, idx) if len(idx) else mult[:0]
        hi, lo = hi[idx], lo[idx]
        o = np.lexsort((lo, hi))
        return hi[o], m[o]

