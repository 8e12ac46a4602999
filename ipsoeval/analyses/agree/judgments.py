"""The judgments two qrels share, and the qrels cut to their common topics.

A judgment is shared when both qrels judge the same (qid, docno) pair, ids
compared byte by byte.  A negative label is trec_eval's "pooled but not
judged" (docs/conventions.md, Inputs): a pair with a negative label in either
qrels is not a judgment to agree on and is left out (and counted).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ipsoeval.align import QrelsIndex
from ipsoeval.ids import id_sort_key
from ipsoeval.model import Qrels


@dataclass
class Shared:
    label_a: np.ndarray            # int64, one per shared judgment
    label_b: np.ndarray
    counts: dict = field(default_factory=dict)   # judgments_a/_b, shared, only_a/_b, negative


def shared(qa: Qrels, qb: Qrels, ia: QrelsIndex | None = None,
           ib: QrelsIndex | None = None) -> Shared:
    """Labels of the (qid, docno) pairs both qrels judge with labels >= 0,
    in QRELS_B's line order.  Building the indices checks each file for
    duplicate judgments (an input error naming both lines)."""
    ia = ia or QrelsIndex(qa)
    ib = ib or QrelsIndex(qb)
    pos_a = {t: i for i, t in enumerate(ia.topic_names)}
    map_b = np.array([pos_a.get(t, -1) for t in ib.topic_names], dtype=np.int64)
    codes = map_b[ib.codes] if len(ib.codes) else np.zeros(0, dtype=np.int64)
    rows_a = np.full(len(codes), -1, dtype=np.int64)
    sel = np.flatnonzero(codes >= 0)
    if len(sel):
        rows_a[sel] = ia.lookup(qb.docno[sel], codes[sel].astype(ia.codes.dtype))
    both = np.flatnonzero(rows_a >= 0)
    la = qa.label[rows_a[both]].astype(np.int64)
    lb = qb.label[both].astype(np.int64)
    keep = (la >= 0) & (lb >= 0)
    counts = {
        "judgments_a": int(len(qa.label)), "judgments_b": int(len(qb.label)),
        "shared": int(keep.sum()), "negative": int((~keep).sum()),
        "only_a": int(len(qa.label) - len(both)), "only_b": int(len(qb.label) - len(both)),
    }
    return Shared(la[keep], lb[keep], counts)


def common_topics(ia: QrelsIndex, ib: QrelsIndex) -> tuple[list[str], int, int]:
    """(topics both qrels have, in strcmp order; count only in A; count only in B)."""
    ta, tb = set(ia.topic_names), set(ib.topic_names)
    both = sorted(ta & tb, key=id_sort_key)   # strcmp order (ipsoeval.ids)
    return both, len(ta - tb), len(tb - ta)


def restrict(q: Qrels, index: QrelsIndex, topics: list[str]) -> Qrels:
    """``q`` with only the judgments of ``topics``."""
    want = set(topics)
    keep_code = np.array([t in want for t in index.topic_names], dtype=bool)
    rows = keep_code[index.codes] if len(index.codes) else np.zeros(0, dtype=bool)
    return Qrels(path=q.path, qid=q.qid[rows], docno=q.docno[rows], label=q.label[rows],
                 line=q.line[rows])
