"""Shared pieces of trec_eval's other input modes: reading, ranking, records.

The modes ``-R prefs``, ``-R qrels_prefs`` and ``-R qrels_jg`` do not fit the
dense label matrix of :class:`ipsoeval.model.Aligned` (a document has several
judgments per topic), so they keep doc ids per topic and rank each topic of a
run themselves.  Everything here returns values; nothing prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ipsoeval.align import group_ids
from ipsoeval.errors import InputError
from ipsoeval.ids import decode_id
from ipsoeval.model import Run
from ipsoeval.reading.grammar import display_name
from ipsoeval.reading.opening import iter_blocks
from ipsoeval.reading.python import count_check, parse_blocks
from ipsoeval.reading.words import words_to_bytes


def as_bytes(words: np.ndarray) -> np.ndarray:
    """(n, W) uint64 id words as a numpy ``S`` array (compares like strcmp)."""
    return words_to_bytes(words)


def parse_table(path: str, spec: dict, nfields: int, expected: str, what: str,
                number_name: str):
    """Read a whitespace separated file with exactly ``nfields`` fields a line.

    Lines starting with ``#`` are comments.  A malformed line is an
    InputError at FILE:LINE.
    """
    name = display_name(path)
    check = count_check(lambda c: c == nfields, expected)
    try:
        return parse_blocks(iter_blocks(path), name, spec, check, what)
    except InputError as exc:
        msg = exc.message
        for old, new in (("score is not a finite number", "is not a number"),
                         ("label is not an integer", "is not an integer")):
            if msg.startswith(old):
                msg = f"{number_name} {new}" + msg[len(old):]
        raise InputError(msg, path=exc.path, line=exc.line) from None


@dataclass
class RankedTopic:
    """One topic of a run: doc ids in rank order (after -M), with file lines."""

    docno: np.ndarray          # S array, rank order
    line: np.ndarray           # int64 line of each document


@dataclass
class RunTopics:
    name: str
    path: str
    topics: dict[str, RankedTopic] = field(default_factory=dict)


def rank_run(run: Run, *, docno_ties: str, depth: int | None, tie_break: str = "trec"
             ) -> RunTopics:
    """Rank every topic of a run: score descending, ties by docno.

    ``docno_ties`` is trec_eval's rule of the mode ("asc" for prefs, "desc"
    for qrels_jg); ``--tie-break`` other than trec overrides it.  A docno
    twice in one topic is an InputError.
    """
    names, codes = group_ids(run.qid)
    docs = as_bytes(run.docno)
    out = RunTopics(run.name, run.path)
    if not len(codes):
        return out
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    if tie_break == "docno-asc":
        docno_ties = "asc"
    for t, qid in enumerate(names):
        rows = order[bounds[t]:bounds[t + 1]]
        d = docs[rows]
        uniq, inv = np.unique(d, return_inverse=True)
        if len(uniq) != len(d):
            srt = np.argsort(inv, kind="stable")
            same = np.flatnonzero(inv[srt][1:] == inv[srt][:-1])[0]
            a, b = sorted((int(run.line[rows[srt[same]]]), int(run.line[rows[srt[same + 1]]])))
            raise InputError(f"duplicate docno {decode_id(uniq[inv[srt[same]]])!r}"
                             f" in topic {qid!r} (also at line {a})", path=run.path, line=b)
        score = run.score[rows]
        if tie_break == "input":
            o = np.argsort(-score, kind="stable")
        else:
            key = inv if docno_ties == "asc" else -inv
            o = np.lexsort((key, -score))
        if depth is not None:
            o = o[:depth]
        out.topics[qid] = RankedTopic(d[o], run.line[rows[o]])
    return out


# --- result columns and records --------------------------------------------


@dataclass
class Column:
    """One printed measure of one run: per-topic values and how trec_eval
    aggregates and prints them."""

    label: str                 # trec_eval's name
    kind: str                  # float | int | text
    agg: str                   # mean | sum | gm | count | text
    per_query: bool
    values: np.ndarray         # (T,) float64 (object: str for text), topic order
    text: str | None = None    # the 'all' value of a text column (runid)
    fixed_all: float | None = None  # 'all' value given as is (num_rel with -c), not z
    zkey: str | None = None    # name looked up in a -Z file (default: label)


MIN_GEO_MEAN = 0.00001
MISSING_ZSCORE = -1000000.0


def aggregate(col: Column, n_topics: int, denominator: int | None = None) -> float:
    """trec_eval's 'all' value; ``denominator`` (-c with -D qid: every judged
    topic) divides instead of the number of topics evaluated."""
    v = col.values
    n_eval = len(v)
    if denominator is not None:
        n_topics = denominator
    if col.agg == "count":
        return float(n_topics)
    if col.agg == "sum":
        s = 0.0
        for x in v:
            s += float(x)
        return s
    if col.agg == "gm":
        s = 0.0
        for x in v:
            s += float(np.log(max(float(x), MIN_GEO_MEAN)))
        s += (n_topics - n_eval) * float(np.log(MIN_GEO_MEAN))
        return float(np.exp(s / n_topics)) if n_topics else 0.0
    s = 0.0
    for x in v:
        s += float(x)
    return s / n_topics if n_topics else 0.0


def records(run: str, topics: list[str], columns: list[Column], *, per_query: bool,
            summary: bool, zscores=None, show=None,
            denominator: int | None = None) -> list[dict]:
    """trec_eval's output records of one run (per-topic block, then 'all').

    ``zscores`` (a :class:`ipsoeval.trecmodes.zscores.ZScores`) replaces each
    per-topic value by its z score before aggregating, and prefixes the
    printed names with ``Z`` as trec_eval does.  ``show`` (bool per topic)
    limits the per-topic lines printed (trec_eval 9's -c).
    """
    cols = columns
    if zscores is not None:
        cols = [zscores.transform(c, topics) for c in columns]

    def label(c: Column) -> str:
        if zscores is not None and c.kind != "text":
            return "Z" + f"{c.label:<22s}"
        return c.label

    def value(c: Column, v: float):
        if zscores is None and c.kind == "int" and float(v).is_integer():
            return int(v)       # an expected count (--labels probability) prints as a real
        return float(v)

    out: list[dict] = []
    if per_query:
        for t, qid in enumerate(topics):
            if show is not None and not show[t]:
                continue
            for c in cols:
                if not c.per_query:
                    continue
                rec = {"run": run, "qid": qid, "measure": c.label, "label": label(c),
                       "value": str(c.values[t]) if c.kind == "text"
                       else value(c, c.values[t])}
                if c.kind == "text":
                    rec["quoted"] = True     # relstring prints in quotes (trec formatter)
                out.append(rec)
    if summary:
        for c in cols:
            if c.kind == "text":
                v = c.text
            elif c.fixed_all is not None:
                v = value(c, c.fixed_all)
            else:
                v = value(c, aggregate(c, len(topics), denominator))
            out.append({"run": run, "qid": "all", "measure": c.label, "label": label(c),
                        "value": v})
    return out
