"""AP@N on binary relevance: exact ranks among the distinct values, without
storing the value set.

AP * R * lcm(1..N) is an integer S, the sum over the relevant ranks i of
c_i * L / i (c_i relevant documents up to rank i, L = lcm(1..N)).  A run
splits into its first h = N // 2 ranks (prefix) and the rest (suffix): with c
relevant documents and sum S_p in the prefix, S = S_p + c*H + T, where
H = sum L/i and T = sum j*L/i over the suffix's relevant ranks i (j counted
within the suffix).  For each c, A_c holds the distinct prefix sums and B_c
the distinct suffix values c*H + T, each with the least number of relevant
documents reaching it; every value of the universe is a + b with a in A_c,
b in B_c for some c.

ties unq (:meth:`APSystem.rank_distinct`): the value range is cut into
slices of about ``SLICE`` pairs (placed by a histogram estimate of the pair
sums).  A slice's pairs are generated, packed with their number of relevant
documents (value << 6 | count, so the first of equal values carries the
least count), sorted, de-duplicated and counted by that least count; queries
whose value falls in the slice are ranked within it.  Nothing outlives a
slice but counts, so memory is a few slices whatever N, and slices are
independent (threads may take them in any order).  At N = 30: 9.0e8 pairs,
426,591,837 distinct values, about 900 slices.

ties min/max/mid (:meth:`APSystem.count_runs`): runs are counted with their
multiplicities by meet in the middle per query, without any value set.
"""

from __future__ import annotations

import math
import threading

import numpy as np

from ipsoeval.analyses.interval_map.common import Progress
from ipsoeval.errors import UsageError

MAX_N = 36          # N * lcm(1..N) << SHIFT must fit in 63 bits
SHIFT = 6           # low bits of a packed key: the number of relevant documents
MASK = (1 << SHIFT) - 1
THREADS = 1         # worker threads of a pass (see _run_slices)
# candidate values (pairs) one pass may rank: AP@32 3.5e9 (about 45 s of CPU on
# the project's machine, quiet; AP@30 9.0e8 takes 11 s) passes, AP@33 6.9e9
# (minutes) and above are refused before any input is read
MAX_PAIRS = 4_000_000_000
# seconds of one pass per candidate value (AP@30: 11 s quiet, 20-40 s on a
# shared machine); the estimate printed before a long pass
SECONDS_PER_PAIR = 1.5e-8


def check_pass(N: int, name: str = "") -> None:
    """UsageError when the value-set pass of AP@N would rank more than
    MAX_PAIRS candidate values (or N exceeds MAX_N): at most 0.4 s to tell
    (the tables of AP@36), nothing to do while 2^N, a bound on the pairs, is
    below the limit."""
    if (1 << N) <= MAX_PAIRS:
        return
    pairs = APSystem(N).pair_count()
    if pairs > MAX_PAIRS:
        raise UsageError(f"{name or f'AP@{N}'}: the exact value set at N={N} means ranking "
                         f"{pairs:,} candidate values, minutes of work (at most "
                         f"{MAX_PAIRS:,}); use a smaller cutoff or -N")


def ap_keys(N: int, rel: np.ndarray) -> np.ndarray:
    """S = AP * R * lcm(1..N) of each row of ``rel`` (runs of length N)."""
    L = math.lcm(*range(1, N + 1)) if N else 1
    cnt = np.zeros(rel.shape[0], np.int64)
    S = np.zeros(rel.shape[0], np.int64)
    for i in range(1, N + 1):
        bit = rel[:, i - 1].astype(np.int64)
        cnt += bit
        S += bit * cnt * (L // i)
    return S


class APSystem:
    """The prefix and suffix tables of AP@N (see the module doc)."""

    SLICE = 1 << 20      # pairs per slice: its arrays stay in the processor's cache
    BUCKETS = 1 << 16    # value buckets of the pair-count estimate that places the slices

    def __init__(self, N: int):
        if N > MAX_N:
            raise UsageError(f"AP: the interval map needs N <= {MAX_N} (found N={N}; the values "
                             f"are exact 63-bit integers); use a smaller cutoff or -N")
        self.N = N
        self.L = L = math.lcm(*range(1, N + 1)) if N else 1
        self.h = h = N // 2
        pm = np.arange(1 << h, dtype=np.int64)
        cnt = np.zeros(len(pm), np.int64)
        S = np.zeros(len(pm), np.int64)
        for i in range(1, h + 1):
            bit = (pm >> (h - i)) & 1
            cnt += bit
            S += bit * cnt * (L // i)
        self.pre_c, self.pre_S = cnt, S
        t = N - h
        sm = np.arange(1 << t, dtype=np.int64)
        sc = np.zeros(len(sm), np.int64)
        H = np.zeros(len(sm), np.int64)
        T = np.zeros(len(sm), np.int64)
        for i in range(h + 1, N + 1):
            bit = (sm >> (N - i)) & 1
            sc += bit
            H += bit * (L // i)
            T += bit * sc * (L // i)
        self.suf_c, self.suf_H, self.suf_T = sc, H, T

    # -- per-c tables -----------------------------------------------------------
    def _A(self, c: int):
        """Distinct prefix sums with c relevant documents and their multiplicities."""
        v = np.sort(self.pre_S[self.pre_c == c])
        if not len(v):
            return v, v
        first = np.ones(len(v), bool)
        first[1:] = v[1:] != v[:-1]
        idx = np.flatnonzero(first)
        mult = np.diff(np.append(idx, len(v)))
        return v[idx], mult

    def _B(self, c: int, with_mult: bool = False):
        """Suffix values c*H+T: (values, minpop), or with_mult (values, pop, mult)."""
        vals = c * self.suf_H + self.suf_T
        key = (vals << SHIFT) | self.suf_c
        key.sort()
        if not with_mult:
            v = key >> SHIFT
            first = np.ones(len(v), bool)
            first[1:] = v[1:] != v[:-1]
            return v[first], (key & MASK)[first]
        first = np.ones(len(key), bool)
        first[1:] = key[1:] != key[:-1]
        idx = np.flatnonzero(first)
        mult = np.diff(np.append(idx, len(key)))
        k = key[idx]
        return k >> SHIFT, k & MASK, mult

    def pass_seconds(self) -> float:
        """About how long a pass of :meth:`rank_distinct` takes."""
        return self.pair_count() * SECONDS_PER_PAIR

    def pair_count(self) -> int:
        """Candidate values a pass of :meth:`rank_distinct` ranks: the pairs
        of A_c and B_c over every c (9.0e8 at N = 30)."""
        return sum(len(self._A(c)[0]) * len(self._B(c)[0]) for c in range(self.h + 1))

    # -- counting runs (ties min/max/mid) ----------------------------------------
    def count_runs(self, keys: np.ndarray, caps: np.ndarray):
        """less[q] = #runs with S < key and popcount <= cap; eq[q] likewise with S == key."""
        Q = len(keys)
        less = [0] * Q
        eq = [0] * Q
        for c in range(self.h + 1):
            A, Am = self._A(c)
            if not len(A):
                continue
            cumA = np.concatenate([[0], np.cumsum(Am)])
            Bv, Bp, Bm = self._B(c, with_mult=True)
            for q in range(Q):
                K = int(caps[q]) - c
                if K < 0:
                    continue
                sel = Bp <= K
                bv, bm = Bv[sel], Bm[sel]
                m = int(keys[q])
                lo = np.searchsorted(A, m - bv[::-1], "left")[::-1]
                hi = np.searchsorted(A, m - bv[::-1], "right")[::-1]
                less[q] += int(np.dot(cumA[lo], bm))
                eq[q] += int(np.dot(cumA[hi] - cumA[lo], bm))
        return less, eq

    # -- distinct values (ties unq) ------------------------------------------------
    def _tables(self) -> None:
        """Concatenated tables: row r of A (class c) pairs with B's block c."""
        As = [self._A(c)[0] for c in range(self.h + 1)]
        Bs = [self._B(c) for c in range(self.h + 1)]
        self._As = As
        self._Bv = [bv for bv, _ in Bs]
        self._Boff = np.cumsum([0] + [len(bv) for bv in self._Bv])
        self._Aval = np.concatenate(As)
        self._Bval = np.concatenate(self._Bv)
        self._Akey = self._Aval << SHIFT
        self._Bkey = np.concatenate([(bv << SHIFT) | (bp + c) for c, (bv, bp) in enumerate(Bs)])

    def _positions(self, x: int) -> np.ndarray:
        """For every row a of A: the first index of B's block with a + b >= x."""
        return np.concatenate([np.searchsorted(bv, (x - a)[::-1], "left")[::-1] + off
                               for a, bv, off in zip(self._As, self._Bv, self._Boff)])

    def _boundaries(self) -> list[int]:
        """Value bounds of slices of about SLICE pairs each (histogram estimate)."""
        top = self.N * self.L + 1
        nb = self.BUCKETS
        w = max(1, -(-top // nb))
        n = 2 * nb
        spec = np.zeros(n // 2 + 1, complex)
        for a, b in zip(self._As, self._Bv):
            if len(a):
                spec += (np.fft.rfft(np.bincount(a // w, minlength=nb), n)
                         * np.fft.rfft(np.bincount(b // w, minlength=nb), n))
        cum = np.cumsum(np.maximum(np.fft.irfft(spec, n), 0.0))
        n_slices = max(1, int(math.ceil(cum[-1] / self.SLICE)))
        bounds = [0]
        for s in range(1, n_slices):
            x = (int(np.searchsorted(cum, s * cum[-1] / n_slices)) + 1) * w
            if x > bounds[-1] and x < top:
                bounds.append(x)
        bounds.append(top + 1)
        return bounds

    def _slice(self, lo: int, hi: int, qkeys: np.ndarray, qcaps: np.ndarray, pops: bool,
               buf: dict):
        """Distinct values in [lo, hi): counts by least number of relevant
        documents (``pops``; else all in bin 0), and for each query (sorted)
        the distinct values <= its key counted up to its cap.  ``buf`` holds
        the thread's work arrays, reused from slice to slice."""
        N = self.N
        st = buf["en"] if buf.get("hi") == lo else self._positions(lo)   # the previous slice's end
        en = buf["en"] = self._positions(hi)
        buf["hi"] = hi
        cnt = en - st
        nz = np.flatnonzero(cnt)
        hist = np.zeros(N + 1, np.int64)
        within = np.zeros(len(qkeys), np.int64)
        if not len(nz):
            if len(qkeys):
                raise AssertionError("AP key not in value set")
            return hist, within
        cn, st = cnt[nz], st[nz]
        ends = np.cumsum(cn)
        tot = int(ends[-1])
        if buf.get("n", 0) < tot:
            buf.update(n=tot, ar=np.arange(tot, dtype=np.int64), key=np.empty(tot, np.int64),
                       first=np.empty(tot, bool))
        key, first = buf["key"][:tot], buf["first"][:tot]
        Atab, Btab = (self._Akey, self._Bkey) if pops else (self._Aval, self._Bval)
        idx = np.repeat(st - (ends - cn), cn)        # row r: B indices st[r] .. st[r]+cn[r]-1
        idx += buf["ar"][:tot]
        Btab.take(idx, out=key)
        del idx
        key += np.repeat(Atab[nz], cn)
        key.sort()
        first[0] = True
        if pops:
            v = key >> SHIFT
            np.not_equal(v[1:], v[:-1], out=first[1:])
            del v
            at = np.searchsorted(key, (qkeys << SHIFT) | MASK, "right")
            found = (key[np.maximum(at - 1, 0)] >> SHIFT) == qkeys
        else:
            np.not_equal(key[1:], key[:-1], out=first[1:])
            at = np.searchsorted(key, qkeys, "right")
            found = key[np.maximum(at - 1, 0)] == qkeys
        if not np.all(found & (at > 0)):
            raise AssertionError("AP key not in value set")
        prev = 0
        for j, (p, K) in enumerate(zip(at.tolist(), qcaps.tolist())):
            hist += self._segment(key, first, prev, p, pops)
            within[j] = hist[:K + 1].sum()
            prev = p
        hist += self._segment(key, first, prev, tot, pops)
        return hist, within

    def _segment(self, key, first, a: int, b: int, pops: bool) -> np.ndarray:
        out = np.zeros(self.N + 1, np.int64)
        if b <= a:
            return out
        if pops:
            f = key[a:b][first[a:b]] & MASK
            out += np.bincount(f, minlength=self.N + 1)
        else:
            out[0] = np.count_nonzero(first[a:b])
        return out

    def rank_distinct(self, keys: np.ndarray, caps: np.ndarray, progress: Progress = None,
                      threads: int | None = None, every_cap: bool = False):
        """For each query: the number of distinct values <= its key reached with
        at most its cap relevant documents (phi, ties unq); and n_values, a
        dict K -> |M(U)|: every K 0..N when a cap is below N or ``every_cap``,
        else K = N only (then the slices need no counts of relevant documents)."""
        N = self.N
        keys = np.asarray(keys, np.int64)
        caps = np.minimum(np.asarray(caps, np.int64), N)
        pops = every_cap or bool((caps < N).any())
        self._tables()
        bounds = self._boundaries()
        n = len(bounds) - 1
        order = np.argsort(keys, kind="stable")
        sk, sc = keys[order], caps[order]
        sl = np.searchsorted(np.asarray(bounds, dtype=np.int64), sk, "right") - 1
        starts = np.searchsorted(sl, np.arange(n + 1))
        hists = np.zeros((n, N + 1), np.int64)
        within = np.zeros(len(keys), np.int64)
        label = f"AP@{N} value set"

        local = threading.local()

        def one(i: int) -> None:
            a, b = starts[i], starts[i + 1]
            buf = local.__dict__.setdefault("buf", {})
            hists[i], within[a:b] = self._slice(bounds[i], bounds[i + 1], sk[a:b], sc[a:b],
                                                pops, buf)

        _run_slices(one, n, threads, progress, label)
        before = np.zeros((n + 1, N + 1), np.int64)
        np.cumsum(hists, axis=0, out=before[1:])
        cum_before = np.cumsum(before, axis=1)          # [slice, K]: values with minpop <= K
        phi = np.empty(len(keys), np.int64)
        phi[order] = cum_before[sl, sc] + within
        total = cum_before[n]
        n_values = {K: int(total[K]) for K in range(N + 1)} if pops else {N: int(total[N])}
        return [int(x) for x in phi], n_values


def _run_slices(one, n: int, threads: int | None, progress: Progress, label: str) -> None:
    """Call ``one(i)`` for i in 0..n-1 on ``threads`` worker threads; the
    first error stops the others.  Default one: at N = 30 under a load of 10-12
    on two cores, one thread took 25-29 s wall and 12 s of CPU, two threads
    31 s and 13.5 s (part of a slice holds the GIL)."""
    threads = max(1, min(threads or THREADS, n))
    state = {"next": 0, "done": 0, "err": None}
    cond = threading.Condition()

    def worker() -> None:
        while True:
            with cond:
                if state["err"] is not None or state["next"] >= n:
                    return
                i = state["next"]
                state["next"] += 1
            try:
                one(i)
            except BaseException as e:  # handed to the caller
                with cond:
                    if state["err"] is None:
                        state["err"] = e
                    cond.notify_all()
                return
            with cond:
                state["done"] += 1
                cond.notify_all()

    ths = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    for t in ths:
        t.start()
    try:
        while True:
            with cond:
                cond.wait_for(lambda: state["err"] is not None or state["done"] >= n
                              or state["done"] != state.get("shown"), timeout=0.5)
                done, err = state["done"], state["err"]
                state["shown"] = done
            if err is not None:
                raise err
            if progress:
                progress(label, done, n)
            if done >= n:
                break
    finally:
        with cond:
            if state["err"] is None and state["done"] < n:
                state["err"] = KeyboardInterrupt()
            cond.notify_all()
        for t in ths:
            t.join()
