"""``-R prefs`` and ``-R qrels_prefs``: preference judgments and the prefs_* measures.

A prefs file has lines ``qid jg jsg docno rel_level``; within one judgment
sub-group (JSG) a document with a higher rel_level is preferred to one with a
lower level; the JSGs of a judgment group (JG) together form one partial
order (transitive closure); JGs may disagree with each other.  A qrels file
read with ``-R qrels_prefs`` is the same with JG = the iteration column and
one JSG per JG.

Per topic and run, each JG's preferences are counted as fulfilled or not,
split by whether both documents were retrieved ("ret"), one was ("imp",
implied) or neither ("notoccur"), with trec_eval 10.0's exact rules,
including its quirks (docno-ascending tie-break of equal scores; the
prefs_avgjg_Rnonrel recount, which compares the last equivalence class with
its own first R members).  Written from trec_eval's documented semantics
(form_prefs_counts.c and m_prefs_*.c), vectorised per judgment group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval.errors import InputError
from ipsoeval.ids import decode_id
from ipsoeval.measures.trec_catalogue import PREFS_COUNTS as COUNTS  # noqa: F401
from ipsoeval.measures.trec_catalogue import PREFS_MEASURES as MEASURES
from ipsoeval.measures.trec_catalogue import PREFS_NICKNAMES as NICKNAMES  # noqa: F401
from ipsoeval.trecmodes.common import as_bytes, parse_table


@dataclass
class TopicPrefs:
    jg: np.ndarray       # S
    jsg: np.ndarray      # S
    docno: np.ndarray    # S
    rel: np.ndarray      # float64
    line: np.ndarray     # int64


@dataclass
class PrefsInfo:
    path: str
    mode: str                         # "prefs" | "qrels_prefs"
    topics: dict[str, TopicPrefs]     # strcmp order of topic ids


def read_prefs(path: str, mode: str = "prefs") -> PrefsInfo:
    """Read a prefs file (5 fields) or a qrels file as prefs (4 fields)."""
    if mode == "prefs":
        spec = {0: "words", 1: "words", 2: "words", 3: "words", 4: "float"}
        fields, line = parse_table(path, spec, 5, "5 fields (qid jg jsg docno rel_level)",
                                   "prefs", "rel_level")
        qid, jg, jsg, doc, rel = (fields[0], fields[1], fields[2], fields[3], fields[4])
        jsg = as_bytes(jsg)
    else:
        spec = {0: "words", 1: "words", 2: "words", 3: "float"}
        fields, line = parse_table(path, spec, 4, "4 fields (qid jg docno rel)",
                                   "qrels", "relevance")
        qid, jg, doc, rel = fields[0], fields[1], fields[2], fields[3]
        jsg = np.full(len(rel), b"0", dtype="S1")
    qb, jgb, db = as_bytes(qid), as_bytes(jg), as_bytes(doc)
    names, inv = np.unique(qb, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    bounds = np.searchsorted(inv[order], np.arange(len(names) + 1))
    topics = {}
    for t, nm in enumerate(names):
        rows = order[bounds[t]:bounds[t + 1]]
        topics[decode_id(nm)] = TopicPrefs(
            jgb[rows], jsg[rows], db[rows], np.asarray(rel[rows], dtype=np.float64),
            line[rows])
    from ipsoeval.reading import display_name
    return PrefsInfo(display_name(path), mode, topics)


# --- counting ------------------------------------------------------------------


def _pairs_less(a: np.ndarray, b: np.ndarray) -> int:
    """Number of pairs (x in a, y in b) with x < y (b sorted ascending)."""
    if not len(a) or not len(b):
        return 0
    return int((len(b) - np.searchsorted(b, a, side="right")).sum())


def _pairs_less_limited(a: np.ndarray, b: np.ndarray, limit: int) -> int:
    """Pairs with x < y and x < limit (b sorted)."""
    return _pairs_less(a[a < limit], b)


@dataclass
class JGCounts:
    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    rn: float = 0.0       # prefs_avgjg_Rnonrel term of this JG
    rnr: float = 0.0      # prefs_avgjg_Rnonrel_ret term
    short_last: bool = False  # Rnonrel recount wanted more of the last class than it has


def _div(a: float, b: float) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def _ec_jg(ecs: list[tuple[float, np.ndarray]], njr: int, ca, where) -> JGCounts:
    """A JG with one JSG: equivalence classes (level descending, ranks sorted)."""
    j = JGCounts()
    k = len(ecs)
    for lev, r in ecs:
        nret = int(np.count_nonzero(r < njr))
        if lev > 0.0:
            j.num_rel += len(r)
            j.num_rel_ret += nret
        else:
            j.num_nonrel += len(r)
            j.num_nonrel_ret += nret
    unful_ret = 0
    for e1 in range(k):
        a = ecs[e1][1]
        a_ret = a[a < njr]
        a_un = len(a) - len(a_ret)
        for e2 in range(e1 + 1, k):
            b = ecs[e2][1]
            if len(np.intersect1d(a, b)):
                where(int(np.intersect1d(a, b)[0]),
                      "occurs with different rel_levels in one judgment sub-group")
            b_ret = b[b < njr]
            b_un = len(b) - len(b_ret)
            f = _pairs_less(a_ret, b_ret)
            j.ful_ret += f
            unful_ret += len(a_ret) * len(b_ret) - f
            j.ful_imp += len(a_ret) * b_un
            j.poss_imp += a_un * len(b_ret)
            j.notoccur += a_un * b_un
    j.poss_ret = unful_ret + j.ful_ret
    j.poss_imp += j.ful_imp
    if ca is not None and k > 1:
        n = ca.shape[0]
        vec = [np.bincount(r, minlength=n) for _, r in ecs]
        below = np.zeros(n, dtype=np.int64)
        for e in range(k - 1, -1, -1):
            if e < k - 1:
                ca += np.outer(vec[e], below).astype(ca.dtype)
            below += vec[e]
    # prefs_avgjg_Rnonrel and _ret
    R, N = j.num_rel, j.num_nonrel
    if R >= N:
        j.rn = _div(j.ful_ret + j.ful_imp + j.num_rel_ret * (R - N),
                    j.poss_ret + j.poss_imp + j.notoccur + j.num_rel * (R - N))
    else:
        # trec_eval takes the first R documents of the last (lowest) class; when the
        # class is smaller (several levels <= 0) it reads past its end: undefined
        j.short_last |= len(ecs[-1][1]) < R
        last = ecs[-1][1][:R]
        ful = poss = 0
        for e1 in range(k):
            a = ecs[e1][1]
            for e2 in range(e1 + 1, k - 1):
                b = ecs[e2][1]
                f = _pairs_less_limited(a, b, njr)
                ful += f
                poss += len(a) * len(b) - f
            f = _pairs_less_limited(a, last, njr)
            ful += f
            poss += len(a) * len(last) - f
        j.rn = _div(ful, poss + ful)
    R, N = j.num_rel_ret, j.num_nonrel_ret
    if R >= N:
        j.rnr = _div(j.ful_ret + j.num_rel_ret * (R - N), j.poss_ret + j.num_rel * (R - N))
    else:
        j.short_last |= len(ecs[-1][1]) < R
        last = ecs[-1][1][:R]
        last = last[last < njr]
        ful = tot = 0
        for e1 in range(k):
            a = ecs[e1][1]
            a = a[a < njr]
            for e2 in range(e1 + 1, k - 1):
                b = ecs[e2][1]
                b = b[b < njr]
                ful += _pairs_less(a, b)
                tot += len(a) * len(b)
            ful += _pairs_less(a, last)
            tot += len(a) * len(last)
        j.rnr = _div(ful, tot)
    return j


def _closure(a: np.ndarray) -> np.ndarray:
    """Reflexive-transitive closure of a boolean relation, diagonal cleared."""
    n = a.shape[0]
    t = a.copy()
    t[np.arange(n), np.arange(n)] = True
    while True:
        m = t.astype(np.float32)
        nt = (m @ m) > 0
        if np.array_equal(nt, t):
            break
        t = nt
    t[np.arange(n), np.arange(n)] = False
    return t


def _pa_jg(ranks, rels, jsgs, n: int, njr: int, ca, where) -> JGCounts:
    """A JG with several JSGs: a preference array over its documents.

    trec_eval's array spans every judged document of the topic; the documents
    of other groups have no preference in it, so the array over this group's
    documents (kept in docid-rank order) gives the same counts.
    """
    u = np.unique(ranks)
    j, a = _pa_local(np.searchsorted(u, ranks), rels, jsgs, len(u),
                     int(np.count_nonzero(u < njr)), lambda r, what: where(int(u[r]), what))
    if ca is not None:
        ca[np.ix_(u, u)] += a
    return j


def _pa_local(ranks, rels, jsgs, n: int, njr: int, where):
    j = JGCounts()
    rel_array = np.full(n, -1.0)
    # consistency: a document with level 0 in one JSG and > 0 in another
    for i in range(len(ranks)):
        prev = rel_array[ranks[i]]
        if (prev > 0.0 and rels[i] == 0.0) or (prev == 0.0 and rels[i] > 0.0):
            where(int(ranks[i]), "has both 0 and non-0 rel_level in one judgment group")
        rel_array[ranks[i]] = rels[i]
    a = np.zeros((n, n), dtype=bool)
    ujsg, jinv = np.unique(jsgs, return_inverse=True)
    for s in range(len(ujsg)):
        sel = jinv == s
        r, lv = ranks[sel], rels[sel]
        ii, jj = np.nonzero(lv[:, None] > lv[None, :])
        a[r[ii], r[jj]] = True
    a = _closure(a)
    if (a & a.T).any():
        i, k = np.argwhere(a & a.T)[0]
        where(int(i), "is both preferred to and below another document in one judgment "
                      "group (inconsistent preferences)")
    j.num_rel_ret = int(np.count_nonzero(rel_array[:njr] > 0.0))
    j.num_nonrel_ret = int(np.count_nonzero(rel_array[:njr] == 0.0))
    j.num_rel = int(np.count_nonzero(rel_array > 0.0))
    j.num_nonrel = int(np.count_nonzero(rel_array == 0.0))

    def regions(keep):
        ak = a & keep[:, None] & keep[None, :]
        rr = ak[:njr, :njr]
        return (int(np.triu(rr, 1).sum()), int(np.tril(rr, -1).sum()),
                int(ak[:njr, njr:].sum()), int(ak[njr:, :njr].sum()), int(ak[njr:, njr:].sum()))

    allk = np.ones(n, dtype=bool)
    f_ret, u_ret, f_imp, u_imp, no = regions(allk)
    j.ful_ret, j.ful_imp, j.notoccur = f_ret, f_imp, no
    j.poss_ret = u_ret + f_ret
    j.poss_imp = u_imp + f_imp
    zero = rel_array == 0.0
    # prefs_avgjg_Rnonrel
    R, N = j.num_rel, j.num_nonrel
    if R >= N:
        j.rn = _div(j.ful_ret + j.ful_imp + j.num_rel_ret * (R - N),
                    j.poss_ret + j.poss_imp + j.notoccur + j.num_rel * (R - N))
    else:
        first = _nth_zero(zero, j.num_rel + 1, n)
        keep = ~((np.arange(n) >= first) & zero)
        f_ret, u_ret, f_imp, u_imp, no = regions(keep)
        ful = f_ret + f_imp
        j.rn = _div(ful, u_ret + u_imp + no + ful)
    R, N = j.num_rel_ret, j.num_nonrel_ret
    if R >= N:
        j.rnr = _div(j.ful_ret + j.num_rel_ret * (R - N), j.poss_ret + j.num_rel * (R - N))
    else:
        first = _nth_zero(zero[:njr], j.num_rel + 1, njr)
        keep = ~((np.arange(n) >= first) & zero)
        f_ret, u_ret, _, _, _ = regions(keep)
        j.rnr = _div(f_ret, u_ret + f_ret)
    return j, a


def _nth_zero(zero: np.ndarray, k: int, default: int) -> int:
    idx = np.flatnonzero(zero)
    return int(idx[k - 1]) if len(idx) >= k else default


MEASURE_SET = set(MEASURES)


def topic_values(tp: TopicPrefs, ranked: np.ndarray | None, wanted: set[str], path: str,
                 qid: str) -> dict[str, float]:
    """The prefs_* values of one topic for a ranking (S array, rank order).

    The key ``_short_last`` counts the judgment groups where the
    prefs_avgjg_Rnonrel recount met trec_eval's out-of-bounds read (see the man
    page): ipsoeval then uses only the documents the lowest class has.
    """
    docs, inv = np.unique(tp.docno, return_inverse=True)
    n = len(docs)
    pos = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    if ranked is not None and len(ranked):
        width = max(docs.dtype.itemsize, ranked.dtype.itemsize)
        d2, r2 = docs.astype(f"S{width}"), ranked.astype(f"S{width}")
        idx = np.searchsorted(d2, r2)
        idx = np.minimum(idx, n - 1)
        hit = d2[idx] == r2
        pos[idx[hit]] = np.flatnonzero(hit)
    retrieved = pos < np.iinfo(np.int64).max
    njr = int(np.count_nonzero(retrieved))
    docid = np.empty(n, dtype=np.int64)
    ret_idx = np.flatnonzero(retrieved)
    docid[ret_idx[np.argsort(pos[ret_idx], kind="stable")]] = np.arange(njr)
    docid[np.flatnonzero(~retrieved)] = njr + np.arange(n - njr)
    rank = docid[inv]
    doc_of_rank = np.empty(n, dtype=np.int64)
    doc_of_rank[docid] = np.arange(n)

    need_ca = bool(wanted & {"prefs_pair", "prefs_pair_ret", "prefs_pair_imp"})
    jgu, jg_inv = np.unique(tp.jg, return_inverse=True)
    jsgu, jsg_inv = np.unique(tp.jsg, return_inverse=True)
    # one judgment group, one sub-group, no document twice (qrels_prefs' usual case):
    # every pair carries one preference, so the prefs_pair measures equal prefs_simp's
    # (sums of 1.0 and 0.0 are exact) and the n x n count array is not needed
    pairs_are_simp = len(jgu) == 1 and len(jsgu) == 1 and n == len(tp.docno)
    if pairs_are_simp:
        need_ca = False
    ca = np.zeros((n, n), dtype=np.int32) if need_ca else None

    order = np.lexsort((rank, -tp.rel, jsg_inv, jg_inv))
    g_sorted = jg_inv[order]
    bounds = np.searchsorted(g_sorted, np.arange(len(jgu) + 1))
    jgs: list[JGCounts] = []
    for g in range(len(jgu)):
        rows = order[bounds[g]:bounds[g + 1]]

        def where(r, what, rows=rows, g=g):
            d = decode_id(docs[doc_of_rank[r]])
            line = int(tp.line[rows].min())
            raise InputError(f"document {d!r} {what} (topic {qid!r}, judgment group "
                             f"{decode_id(jgu[g])!r})", path=path, line=line)

        sub = jsg_inv[rows]
        if len(np.unique(sub)) > 1:
            jgs.append(_pa_jg(rank[rows], tp.rel[rows], sub, n, njr, ca, where))
        else:
            lv = tp.rel[rows]
            r = rank[rows]
            starts = np.flatnonzero(np.r_[True, lv[1:] != lv[:-1]])
            ends = np.r_[starts[1:], len(lv)]
            ecs = [(float(lv[s]), r[s:e]) for s, e in zip(starts, ends)]
            jgs.append(_ec_jg(ecs, njr, ca, where))

    out: dict[str, float] = {}
    ful_ret = sum(j.ful_ret for j in jgs)
    ful_imp = sum(j.ful_imp for j in jgs)
    poss_ret = sum(j.poss_ret for j in jgs)
    poss_imp = sum(j.poss_imp for j in jgs)
    notoccur = sum(j.notoccur for j in jgs)
    out["prefs_num_prefs_poss"] = float(poss_ret + poss_imp + notoccur)
    out["prefs_num_prefs_ful"] = float(ful_ret + ful_imp)
    out["prefs_num_prefs_ful_ret"] = float(ful_ret)
    poss = poss_ret + poss_imp + notoccur
    out["prefs_simp"] = (ful_ret + ful_imp) / poss if poss else 0.0
    out["prefs_simp_ret"] = ful_ret / poss_ret if poss_ret else 0.0
    out["prefs_simp_imp"] = (ful_ret + ful_imp) / (poss_ret + poss_imp) \
        if poss_ret + poss_imp else 0.0

    def avgjg(ful_of, poss_of):
        s = 0.0
        for j in jgs:
            p = poss_of(j)
            if p:
                s += ful_of(j) / p
        return s / len(jgs) if s > 0.0 else 0.0

    out["prefs_avgjg"] = avgjg(lambda j: j.ful_ret + j.ful_imp,
                               lambda j: j.poss_ret + j.poss_imp + j.notoccur)
    out["prefs_avgjg_ret"] = avgjg(lambda j: j.ful_ret, lambda j: j.poss_ret)
    out["prefs_avgjg_imp"] = avgjg(lambda j: j.ful_ret + j.ful_imp,
                                   lambda j: j.poss_ret + j.poss_imp)
    for name, attr in (("prefs_avgjg_Rnonrel", "rn"), ("prefs_avgjg_Rnonrel_ret", "rnr")):
        s = 0.0
        for j in jgs:
            s += getattr(j, attr)      # NaN (0/0) poisons the sum, as in trec_eval
        out[name] = s / len(jgs) if s > 0.0 else 0.0
    out["_short_last"] = float(sum(j.short_last for j in jgs))
    if pairs_are_simp:
        out["prefs_pair"] = out["prefs_simp"]
        out["prefs_pair_ret"] = out["prefs_simp_ret"]
        out["prefs_pair_imp"] = out["prefs_simp_imp"]
    if ca is not None:
        tot = ca + ca.T
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(tot > 0, ca / np.maximum(tot, 1), 0.0)
        upper = np.triu(tot > 0, 1)
        rr = upper[:njr, :njr]
        ri = upper[:njr, njr:]
        ret_vals = ratio[:njr, :njr][rr]
        imp_vals = ratio[:njr, njr:][ri]
        s_ret = _seq_sum(ret_vals)
        s_all = _seq_sum(np.concatenate([ret_vals, imp_vals]))
        n_ret, n_imp = int(rr.sum()), int(ri.sum())
        n_no = int(upper[njr:, njr:].sum())
        out["prefs_pair"] = s_all / (n_ret + n_imp + n_no) if n_ret + n_imp + n_no else 0.0
        out["prefs_pair_ret"] = s_ret / n_ret if n_ret else 0.0
        out["prefs_pair_imp"] = s_all / (n_ret + n_imp) if n_ret + n_imp else 0.0
    return out


def _seq_sum(vals: np.ndarray) -> float:
    """Sum in row-major order, one addition at a time (as trec_eval's loops)."""
    if not len(vals):
        return 0.0
    return float(np.add.accumulate(vals)[-1])
