"""The data model: parsed inputs and runs aligned to qrels as dense arrays.

Doc ids exist only in :class:`Qrels` / :class:`Run` (the reader side) and are
gone after alignment: an :class:`Aligned` holds, per run and topic, the labels
of the ranked documents in rank order, padded to a common depth.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Sentinels in Aligned.labels (int32).  Both are below any real label, so
# ``labels >= rel_level`` is False for them.
PAD = np.int32(-(2**31))          # no document at this rank (run shorter)
UNJUDGED = np.int32(-(2**31) + 1)  # retrieved, but not in the qrels
POOLED = np.int32(-(2**31) + 2)    # in the qrels with a negative label (pooled, not judged)


def judged(labels: np.ndarray) -> np.ndarray:
    """Which aligned labels are *judged*: in the qrels with a label >= 0.

    The one rule behind ``-J`` and the measure parameter ``judged_only``
    (trec_eval's form_res_rels keeps ``rel >= 0``; pytrec_eval and
    ir_measures agree): a document missing from the qrels (``UNJUDGED``), one
    with a negative qrels label (``POOLED``) and ``PAD`` are all dropped.
    Codes under ``--labels gain|probability`` are >= 0, so judged.  The C
    aligner (_core.c) applies the same test, ``label < 0`` dropped.

    Every measure that tells judged from unjudged documents uses this rule
    (and :func:`unjudged`): ``Judged@k``, the residuals ``RBPresid``,
    ``rbp_resid`` and the C/W/L ``*resid`` (a negative label is an unknown
    gain there, 1 in the best case), ``--bounds``.  docs/conventions.md,
    "Negative labels"."""
    return labels >= 0


def unjudged(labels: np.ndarray) -> np.ndarray:
    """Retrieved documents that are not :func:`judged` (``PAD`` excluded)."""
    return (labels < 0) & (labels != PAD)


@dataclass
class Qrels:
    """Relevance judgments, one row per (topic, docno).

    ``qid``/``docno`` are (n, W) uint64 matrices holding the bytes of each
    id (little endian, zero padded); rows in file order.
    """

    path: str
    qid: np.ndarray      # (n, Wq) uint64 words
    docno: np.ndarray    # (n, Wd) uint64 words
    label: np.ndarray    # int64 (--labels gain/probability: codes into ``values``)
    line: np.ndarray     # int64, 1-based line number of each judgment
    label_mode: str = "integer"        # --labels: integer | gain | probability
    values: np.ndarray | None = None   # float64 code -> label (see ipsoeval.labels)
    warnings: list[str] = field(default_factory=list)  # e.g. an id that is not UTF-8


@dataclass
class SubtopicQrels:
    """Diversity judgments (ndeval's layout ``qid subtopic docno judgment``), one
    row per (topic, subtopic, docno), rows in file order; read only when a
    diversity measure is asked for.  ``judgment`` is a natural number."""

    path: str
    qid: np.ndarray       # (n, Wq) uint64 words
    subtopic: np.ndarray  # (n, Ws) uint64 words
    docno: np.ndarray     # (n, Wd) uint64 words
    judgment: np.ndarray  # int64, >= 0
    line: np.ndarray      # int64, 1-based line numbers
    warnings: list[str] = field(default_factory=list)


@dataclass
class Subtopics:
    """The diversity judgments an :class:`Aligned` carries (no doc ids): the
    judged documents of each evaluated topic, in docno (strcmp) order, with
    their judgment for each subtopic of their topic.

    ``docs[r, t, i]`` is the row of ``grades`` of the document run ``r`` ranks
    at position ``i`` for topic ``t`` (-1: not in the qrels, or no document);
    the rows of topic ``t`` are ``first[t]:first[t + 1]``; ``grades[row, s]``
    is the judgment for the topic's subtopic ``s`` (0 where the qrels have no
    line; subtopics numbered per topic by first appearance in the file)."""

    docs: np.ndarray     # int32 (R, T, D)
    grades: np.ndarray   # int64 (N, S)
    first: np.ndarray    # int64 (T + 1,)


@dataclass
class Run:
    """A ranked run: rows in file order (not yet sorted)."""

    path: str
    name: str
    qid: np.ndarray      # (n, Wq) uint64 words
    docno: np.ndarray    # (n, Wd) uint64 words
    score: np.ndarray    # float64; for MS MARCO runs, minus the rank
    line: np.ndarray     # int64, 1-based line numbers
    fmt: str = "trec"    # "trec" or "msmarco"
    warnings: list[str] = field(default_factory=list)  # e.g. an id that is not UTF-8


@dataclass
class Aligned:
    """Runs aligned to qrels: everything a measure needs, as dense arrays.

    Shapes: R runs, T topics, D depth (the longest ranking, after ``--depth``).
    ``labels[r, t, i]`` is the qrels label of the document that run ``r``
    ranks at position ``i`` (0-based) for topic ``t``, ``UNJUDGED`` when the
    document is not in the qrels, ``POOLED`` when its qrels label is negative
    (trec_eval: in the pool but unjudged), ``PAD`` past the end of the ranking.
    """

    runs: list[str]                 # run names, length R
    topics: list[str]               # evaluated topic ids, strcmp order, length T
    labels: np.ndarray              # int32 (R, T, D)
    n_ret: np.ndarray               # int64 (R, T): documents retrieved
    rel_level: int                  # label >= rel_level is relevant (gain labels: a code;
                                    # probability labels: 0, every judged document may be)
    num_rel: np.ndarray             # int64 (T,): R, relevant documents in qrels
    num_nonrel: np.ndarray          # int64 (T,): judged non-relevant documents
    judged_labels: list[np.ndarray]  # per topic: labels of all judged docs, sorted descending
    gain_map: dict[int, float] | None = None   # --gains, None = label if > 0 else 0
    in_run: np.ndarray | None = None  # bool (R, T): topic present in the run file
    params: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # for the CLI to print
    # --labels gain/probability (ipsoeval.labels): ``labels`` hold codes, the real
    # label of code c is label_values[c] (gain: codes ordered as the values;
    # probability: one code per qrels row, its probability of relevance)
    label_mode: str = "integer"
    label_values: np.ndarray | None = None
    # tied[r, t, i] is True when the document at rank i has the same score as the one
    # at rank i - 1 (one tie group: a run of True after a False); filled by align under
    # every tie break (eval's tie warning, ipsoeval.measures.ties.tie_notes); None when
    # unknown (Aligned built from scores).  Under --tie-break expected the measures
    # average over the orders of each group (ties_averaged)
    tied: np.ndarray | None = None
    # diversity qrels (measures with Family.subtopics): per rank the document's
    # subtopic judgments; ``labels`` then hold each document's largest judgment
    subtopics: Subtopics | None = None

    # --- derived views, computed on demand -------------------------------
    @property
    def ties_averaged(self) -> bool:
        """--tie-break expected: measures take their expectation over the orders
        of the tied documents (ipsoeval.measures.ties)."""
        return self.tied is not None and self.params.get("tie_break") == "expected"

    @property
    def depth(self) -> int:
        return int(self.labels.shape[2])

    def relevant(self) -> np.ndarray:
        """bool (R, T, D): document is relevant at the relevance level."""
        return self.labels >= self.rel_level

    def judged(self) -> np.ndarray:
        """bool (R, T, D): document retrieved and judged."""
        return self.labels >= 0

    def gains(self, labels: np.ndarray | None = None) -> np.ndarray:
        """float64 gains for ``labels`` (default: the run labels).

        Label if > 0 else 0, or the ``--gains`` map (labels it does not name
        gain 0).  Sentinels gain 0.
        """
        lab = self.labels if labels is None else labels
        if self.label_mode == "gain":          # the labels are the gains
            return np.where(lab >= 0, self.label_values[np.maximum(lab, 0)], 0.0)
        if self.gain_map is None:
            return np.where(lab > 0, lab, 0).astype(np.float64)
        out = np.zeros(lab.shape, dtype=np.float64)
        for level, g in self.gain_map.items():
            out[lab == level] = g
        return out

    def ideal_gains(self, depth: int | None = None) -> np.ndarray:
        """float64 (T, n): gains of the judged documents sorted descending, padded with 0."""
        n = max((len(j) for j in self.judged_labels), default=0)
        if depth is not None:
            n = min(n, depth)
        n = max(n, 1)
        out = np.full((len(self.topics), n), PAD, dtype=np.int64)
        for t, lab in enumerate(self.judged_labels):
            m = min(len(lab), n)
            out[t, :m] = lab[:m]
        g = self.gains(out)
        g = -np.sort(-g, axis=1)
        return g


# --- nugget judgments of generated answers --------------------------------------------

# Support levels of a nugget in an answer, in order (not < partial < support);
# NUGGET_PAD marks "no nugget at this position" in the padded arrays.
SUPPORT_LEVELS = ("not_support", "partial_support", "support")
IMPORTANCE_LEVELS = ("okay", "vital")
NUGGET_PAD = np.int8(-1)


@dataclass
class NuggetJudgments:
    """Nugget assignments of generated answers: for each run (answering
    system) and topic, the topic's nuggets with their importance and the
    support the answer gives each.

    ``support`` and ``importance`` are (runs, topics, K) int8 arrays, K the
    most nuggets of any answer, padded with NUGGET_PAD: support 0/1/2 is the
    index in SUPPORT_LEVELS, importance 0/1 in IMPORTANCE_LEVELS.
    ``failed`` (same shape, bool) marks the assignments a judge failed to
    make (nuggetizer's ``failed``: scored as not_support) and
    ``failed_importance`` the nuggets whose importance failed (scored as
    okay).  ``keys[r][t]`` are the nugget ids (or texts) of the answer, in
    the order given; ``lines[r][t]`` is (path, line) of the answer's first
    line.  Every run answers every topic.
    """

    runs: list[str]
    topics: list[str]
    support: np.ndarray
    importance: np.ndarray
    failed: np.ndarray
    failed_importance: np.ndarray
    keys: list[list[tuple[str, ...]]]
    lines: list[list[tuple[str, int]]]
    paths: list[str] = field(default_factory=list)
    formats: dict = field(default_factory=dict)     # path -> jsonl | tsv

    @property
    def counts(self) -> np.ndarray:
        """(runs, topics) int64: nuggets per answer."""
        return (self.support != NUGGET_PAD).sum(axis=2)


@dataclass
class Predictors:
    """Query performance predictors: per predictor, a value per topic.

    ``values[name]`` maps a topic id to the predictor's value (finite
    float); ``names`` keeps the order the files gave them; ``sources[name]``
    is (path, line) of the predictor's first value.
    """

    names: list[str]
    values: dict[str, dict[str, float]]
    sources: dict[str, tuple[str, int]] = field(default_factory=dict)
