"""Exact value sets M(U) of IR measures and the interval map phi (Ferrante,
Ferro & Fuhr 2021, §5): the entry points.

:func:`phi_values` maps query runs, :func:`value_listing` lists M(U); both
pick the algorithm (:func:`method_of`), none of which enumerates 2^N runs
unless N is small:

* :mod:`.closed_forms` -- P, R, RR, Success and RBP(p <= 1/2) on binary
  relevance, any N;
* :mod:`.ap` -- AP: exact integer values, ranked slice by slice without
  storing the value set;
* :mod:`.groups` -- DCG, nDCG and RBP(p > 1/2): tuples of exact group
  coefficients, counted by meet in the middle;
* :mod:`.enumerate` -- everything else (graded attainable universes, graded
  RBP, generic measures) by enumerating U, |U| <= 2^24;
* :mod:`.cache` -- the answers kept on disk;
* :mod:`.common` -- MapSpec, PhiResult, tie rules, the memory budget.

Engine-side code: no printing; long computations report through ``progress``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ipsoeval.analyses.interval_map.ap import APSystem, ap_keys, check_pass
from ipsoeval.analyses.interval_map.cache import RankMemo
from ipsoeval.analyses.interval_map.closed_forms import FAMILIES as CLOSED
from ipsoeval.analyses.interval_map.closed_forms import closed_form, closed_listing
from ipsoeval.analyses.interval_map.common import (
    DEFAULT_MAX_MEMORY,
    TIES,
    MapSpec,
    PhiResult,
    Progress,
    check_budget,
    format_bytes,
    parse_size,
    ties_rank,
    universe_size,
)
from ipsoeval.analyses.interval_map.enumerate import EnumSystem, check_enum_listing, enum_listing
from ipsoeval.analyses.interval_map.groups import GroupSystem
from ipsoeval.errors import UsageError

__all__ = ["DEFAULT_MAX_MEMORY", "TIES", "MapSpec", "PhiResult", "check_budget", "check_work",
           "format_bytes", "method_of", "parse_size", "phi_values", "value_listing"]


def method_of(spec: MapSpec, capped: bool) -> str:
    """Which algorithm maps ``spec``: closed, ap, group, enum."""
    fam = spec.family
    if fam == "generic":
        return "enum"
    if not spec.gain_based or spec.binary:
        if fam in ("P", "R", "RR", "Success"):
            return "closed"
        if fam == "AP":
            return "ap"
        if fam == "RBP":
            return "closed" if spec.p <= Fraction(1, 2) else "group"
        return "group"
    # graded gains
    if fam == "RBP":
        return "enum"
    if capped:
        return "enum"
    return "group"


def check_work(spec: MapSpec) -> None:
    """UsageError when mapping ``spec`` would take minutes: AP's value-set
    pass beyond :data:`.ap.MAX_PAIRS` candidate values (the other
    methods are bounded by --max-memory or the enumeration limit)."""
    if spec.family == "AP":
        check_pass(spec.N, spec.name)


def phi_values(spec: MapSpec, levels: np.ndarray, caps: np.ndarray | None = None,
               ties: str = "unq", progress: Progress = None, use_cache: bool = True,
               warnings: list | None = None, level_caps: np.ndarray | None = None,
               raw_values=None, method: str | None = None,
               max_bytes: int | None = None) -> PhiResult:
    """phi for each query run.

    ``levels``: (Q, N) gain-level indices (binary: 0/1), padded with 0.
    ``caps``: (Q,) largest number of relevant (nonzero) documents in the
    query's universe (N or more = no restriction).  ``level_caps``: (Q, G-1)
    per-level caps for graded attainable universes (enumeration only).
    """
    if ties not in TIES:
        raise UsageError(f"--ties must be one of {', '.join(TIES)} (found {ties!r})")
    warnings = warnings if warnings is not None else []
    levels = np.asarray(levels)
    Q, N = levels.shape[0], spec.N
    if levels.shape[1] != N:
        raise ValueError("levels must have N columns")
    caps = np.full(Q, N, np.int64) if caps is None else np.minimum(np.asarray(caps, np.int64), N)
    capped = bool((caps < N).any()) or level_caps is not None
    meth = method or method_of(spec, capped and not spec.binary)

    if meth == "closed":
        return closed_form(spec, levels > 0, caps, ties)

    if meth == "ap":
        return _ap(spec, levels, caps, ties, progress, use_cache, warnings)

    if meth == "group":
        gs = GroupSystem(spec, rational=spec.family == "RBP")
        mode = "unq" if ties == "unq" else "count"
        check_budget(f"{spec.name or spec.family}: the exact value set",
                     gs.estimate_bytes(Q, mode), max_bytes)
        a, b = gs.count(levels, caps, mode, progress)
        phis = a if ties == "unq" else [ties_rank(ties, x, y) for x, y in zip(a, b)]
        nv = [gs.n_values(int(K)) for K in caps]
        nu = [universe_size(spec, int(K)) for K in caps]
        return PhiResult(phis, nv, nu)

    # enumeration, one universe per distinct cap
    phis: list = [None] * Q
    nv: list = [0] * Q
    nu: list = [0] * Q
    if level_caps is not None:
        keyarr = [tuple(int(x) for x in row) for row in np.asarray(level_caps)]
    elif spec.binary and capped:
        keyarr = [(int(k),) for k in caps]
    else:
        keyarr = [None] * Q
    groups: dict = {}
    for q, k in enumerate(keyarr):
        groups.setdefault(k, []).append(q)
    label = f"{spec.name or spec.family} universes"
    for i, (k, qs) in enumerate(groups.items()):
        if progress:
            progress(label, i, len(groups))
        es = EnumSystem(spec, k, progress)
        r = es.rank(levels[qs], ties, None if raw_values is None else np.asarray(raw_values)[qs])
        for q, x in zip(qs, r):
            phis[q] = x
            nv[q] = es.n_values
            nu[q] = es.n_universe
    if progress:
        progress(label, len(groups), len(groups))
    return PhiResult(phis, nv, nu)


def _announce(progress: Progress, what: str, system: APSystem) -> None:
    """Tell the caller, before a value-set pass starts, about how long it takes:
    a progress callback may carry ``announce(what, seconds)`` (the CLI prints
    it on standard error when long, a terminal or not)."""
    announce = getattr(progress, "announce", None)
    if announce is not None:
        announce(what, system.pass_seconds())


def _ap(spec: MapSpec, levels, caps, ties: str, progress: Progress, use_cache: bool,
        warnings: list) -> PhiResult:
    """AP: answers from the cache, the rest in one pass over the value set."""
    N = spec.N
    check_work(spec)
    keys = ap_keys(N, levels > 0)
    nu = [universe_size(spec, int(k)) for k in caps]
    memo = RankMemo.open(f"AP|N={N}", use_cache)
    if ties == "unq":
        phi = memo.lookup(keys, caps)
        phi[keys == 0] = 1                    # the empty run: the least value for every cap
        todo = np.flatnonzero(phi < 0)
        if len(todo) or any(int(K) not in memo.n_values for K in set(caps.tolist())):
            system = APSystem(N)
            _announce(progress, f"AP@{N} value set", system)
            got, nv = system.rank_distinct(keys[todo], caps[todo], progress,
                                           every_cap=bool((caps < N).any()))
            phi[todo] = got
            memo.add(keys[todo], caps[todo], got, nv, use_cache, warnings)
        phis = [int(x) for x in phi]
    else:
        less, eq = APSystem(N).count_runs(keys, caps)
        phis = [ties_rank(ties, a, b) for a, b in zip(less, eq)]
        if any(int(K) not in memo.n_values for K in set(caps.tolist())):   # |M(U)|: one pass
            system = APSystem(N)
            _announce(progress, f"AP@{N} value set", system)
            _, nv = system.rank_distinct(keys[:0], caps[:0], progress,
                                         every_cap=bool((caps < N).any()))
            memo.add(keys[:0], caps[:0], [], nv, use_cache, warnings)
    return PhiResult(phis, [memo.n_values[int(K)] for K in caps], nu)


LISTING_LIMIT = 2_000_000       # values --values lists at most


def check_listing(spec: MapSpec, K: int | None = None, limit: int = LISTING_LIMIT):
    """UsageError when --values would list more than ``limit`` values (known
    at once where the value set is counted by groups); before any mapping."""
    N = spec.N
    K = N if K is None else min(K, N)
    meth = method_of(spec, False)
    if spec.family != "generic" and meth == "group" and spec.family != "RBP":
        n = GroupSystem(spec, rational=False).n_values(K)
        if n > limit:
            raise UsageError(f"{spec.name}: {n} distinct values at N={N}, more than --values "
                             f"lists ({limit}); use a smaller cutoff or -N")
    elif not (meth == "group" and spec.family != "RBP") and \
            not (meth == "closed" and spec.family in CLOSED):
        check_enum_listing(spec)        # value_listing enumerates the universe


def value_listing(spec: MapSpec, K: int | None = None, limit: int = LISTING_LIMIT,
                  progress: Progress = None):
    """Distinct values of M(U) ascending with the number of universe runs
    attaining each: (values float64, multiplicities int64).  For R-dependent
    measures K caps the number of relevant documents."""
    N = spec.N
    K = N if K is None else min(K, N)
    meth = method_of(spec, False)
    if meth == "group" and spec.family != "RBP":
        check_listing(spec, K, limit)
        gs = GroupSystem(spec, rational=False)
        hi, m = gs.listing(K)
        return hi, m
    if meth == "closed" and spec.family in CLOSED:
        return closed_listing(spec, K)
    return enum_listing(spec, K)
