"""``-R qrels_jg``: qrels with judgment groups and the *_avgjg measures.

A qrels_jg file is a qrels file whose second column names the judgment
group (a user, an assessor): each topic has one set of judgments per group.
``map_avgjg``, ``P_avgjg`` and ``Rprec_mult_avgjg`` compute map, P and
Rprec_mult against each group's judgments and average them over the groups
of the topic (trec_eval 10.0, form_res_rels_jg.c and m_*_avgjg.c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_id
from ipsoeval.measures.trec_catalogue import JG_DESCRIPTIONS as DESCRIPTIONS  # noqa: F401
from ipsoeval.measures.trec_catalogue import JG_MEASURES as MEASURES
from ipsoeval.measures.trec_catalogue import JG_NICKNAMES as NICKNAMES  # noqa: F401
from ipsoeval.measures.trec_catalogue import P_CUTOFFS, RPREC_MULT_CUTOFFS
from ipsoeval.trecmodes.common import as_bytes, parse_table

NONPOOL = -1        # retrieved, not in this group's judgments
UNJUDGED = -2       # in the judgments with a negative label


@dataclass
class Group:
    docno: np.ndarray    # S, sorted
    rel: np.ndarray      # int64, aligned with docno


@dataclass
class JGInfo:
    path: str
    topics: dict[str, list[Group]]   # topic -> groups in strcmp order of group id


def read_qrels_jg(path: str) -> JGInfo:
    spec = {0: "words", 1: "words", 2: "words", 3: "int"}
    fields, line = parse_table(path, spec, 4, "4 fields (qid jg docno rel)", "qrels",
                               "relevance")
    qb, gb, db = as_bytes(fields[0]), as_bytes(fields[1]), as_bytes(fields[2])
    rel = fields[3].astype(np.int64)
    qu, qi = np.unique(qb, return_inverse=True)
    gu, gi = np.unique(gb, return_inverse=True)
    du, di = np.unique(db, return_inverse=True)
    order = np.lexsort((di, gi, qi))
    q_s, g_s, d_s = qi[order], gi[order], di[order]
    same = (q_s[1:] == q_s[:-1]) & (g_s[1:] == g_s[:-1]) & (d_s[1:] == d_s[:-1])
    if same.any():
        k = int(np.flatnonzero(same)[0])
        a, b = sorted((int(line[order[k]]), int(line[order[k + 1]])))
        from ipsoeval.reading import display_name
        raise InputError(f"duplicate docno {decode_id(du[d_s[k]])!r} in topic "
                         f"{decode_id(qu[q_s[k]])!r}, judgment group "
                         f"{decode_id(gu[g_s[k]])!r} (also at line {a})",
                         path=display_name(path), line=b)
    topics: dict[str, list[Group]] = {}
    head = np.flatnonzero(np.r_[True, (q_s[1:] != q_s[:-1]) | (g_s[1:] != g_s[:-1])])
    ends = np.r_[head[1:], len(order)]
    for s, e in zip(head, ends):
        rows = order[s:e]
        qid = decode_id(qu[q_s[s]])
        topics.setdefault(qid, []).append(Group(db[rows], rel[rows]))
    from ipsoeval.reading import display_name
    return JGInfo(display_name(path), topics)


def parse_params(name: str, params: str | None):
    """Cutoffs of P_avgjg / Rprec_mult_avgjg (trec_eval syntax), sorted."""
    if params is None:
        return list(P_CUTOFFS if name == "P_avgjg" else RPREC_MULT_CUTOFFS)
    try:
        if name == "P_avgjg":
            cuts = sorted(int(p) for p in params.split(","))
        else:
            cuts = sorted(float(p) for p in params.split(","))
    except ValueError:
        raise UsageError(f"bad cutoff list in measure {name}.{params!r}") from None
    if name == "P_avgjg" and cuts[0] <= 0:
        raise UsageError(f"cutoffs must be positive in measure {name}.{params}")
    if len(set(cuts)) != len(cuts):
        raise UsageError(f"duplicate cutoffs in measure {name}.{params}")
    return cuts


def labels_of(group: Group, ranked: np.ndarray | None, judged_only: bool) -> np.ndarray:
    """Labels of the ranked documents against one group's judgments."""
    if ranked is None or not len(ranked):
        return np.zeros(0, dtype=np.int64)
    n = len(group.docno)
    width = max(group.docno.dtype.itemsize, ranked.dtype.itemsize)
    d2, r2 = group.docno.astype(f"S{width}"), ranked.astype(f"S{width}")
    idx = np.minimum(np.searchsorted(d2, r2), max(n - 1, 0))
    hit = (d2[idx] == r2) if n else np.zeros(len(r2), dtype=bool)
    lab = np.full(len(r2), NONPOOL, dtype=np.int64)
    if n:
        lab[hit] = group.rel[idx[hit]]
        lab[hit & (lab < 0)] = UNJUDGED
    if judged_only:
        lab = lab[lab >= 0]
    return lab


def topic_values(groups: list[Group], ranked, wanted: dict, rel_level: int,
                 judged_only: bool) -> dict[str, float]:
    """Values of the wanted *_avgjg measures ({name: cutoffs}) for one topic."""
    out: dict[str, float] = {}
    ng = len(groups)
    acc: dict[str, float] = {}
    for g in groups:
        lab = labels_of(g, ranked, judged_only)
        num_ret = len(lab)
        hits = lab >= rel_level
        judged = lab >= 0
        num_rel_ret = int(np.count_nonzero(judged & hits))
        num_rel = int(np.count_nonzero((g.rel >= 0) & (g.rel >= rel_level)))
        if "map_avgjg" in wanted:
            pos = np.flatnonzero(hits)
            if len(pos):
                s = float(np.add.accumulate(np.arange(1, len(pos) + 1) / (pos + 1.0))[-1])
                acc["map_avgjg"] = acc.get("map_avgjg", 0.0) + s / num_rel
            else:
                acc.setdefault("map_avgjg", 0.0)
        if "P_avgjg" in wanted:
            csum = np.concatenate([[0], np.cumsum(hits)])
            for c in wanted["P_avgjg"]:
                k = f"P_avgjg_{c}"
                acc[k] = acc.get(k, 0.0) + int(csum[min(c, num_ret)]) / c
        if "Rprec_mult_avgjg" in wanted:
            after = np.concatenate([np.cumsum(hits[::-1])[::-1], [0]])  # hits in lab[i:]
            for pct in wanted["Rprec_mult_avgjg"]:
                k = f"Rprec_mult_avgjg_{pct:3.2f}"
                c = int(pct * num_rel + 0.9)
                if c > num_ret:
                    v = num_rel_ret / c
                elif c > 0:
                    rsf = num_rel_ret - int(after[c])
                    v = rsf / c if rsf > 0 else 0.0
                else:
                    v = 0.0
                acc[k] = acc.get(k, 0.0) + v
    for k, v in acc.items():
        out[k] = v / ng if ng > 1 else v
    return out


def labels(wanted: dict) -> list[str]:
    """Printed names, in trec_eval's order."""
    out = []
    for name in MEASURES:
        if name not in wanted:
            continue
        if name == "map_avgjg":
            out.append(name)
        elif name == "P_avgjg":
            out.extend(f"P_avgjg_{c}" for c in wanted[name])
        else:
            out.extend(f"Rprec_mult_avgjg_{p:3.2f}" for p in wanted[name])
    return out
