"""The scoring engine: load inputs once, align, compute measures vectorised.

Every subcommand goes through :func:`load` and :func:`evaluate`; the result
is a per-measure matrix of per-topic scores (runs × topics) that feeds every
statistic.  The engine never prints: warnings travel in ``Aligned.warnings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ipsoeval.align import QrelsIndex, align, parse_gains
from ipsoeval.errors import UsageError
from ipsoeval.measures import Measure, Requested, expand_all, parse_measure
from ipsoeval.measures.kernels import Context
from ipsoeval.model import Aligned
from ipsoeval.parallel import parallel_map
from ipsoeval.reading import check_stdin_once, read_for_alignment, read_qrels


def load(qrels_path: str, run_paths, *, queries: str = "intersection", rel_level: int = 1,
         judged_only: bool = False, gains=None, depth: int | None = None,
         tie_break: str = "trec", run_format: str = "auto", run_names=None,
         labels: str = "integer", samples: int | None = None,
         seed: int | None = None, subtopics: bool = False) -> Aligned:
    """Read qrels and runs and align them (see :func:`ipsoeval.align.align`):
    :func:`ipsoeval.reading.read_qrels`, then each run by
    :func:`ipsoeval.reading.read_for_alignment` (which reader serves: the map
    in :mod:`ipsoeval.reading`).

    ``gains`` is a dict or the ``--gains`` text; ``run_names`` overrides the
    run names (default: the tag of each run's last line).  ``labels``: what
    a qrels label means (ipsoeval.labels); ``samples``/``seed``: the Monte
    Carlo draws of the measures without an exact expectation under
    ``labels="probability"`` (ipsoeval.measures.expected).  ``subtopics``: a
    diversity measure is asked for, the qrels are ndeval's ``qid subtopic
    docno judgment`` (:func:`ipsoeval.align.subtopic_qrels`).
    """
    run_paths = list(run_paths)
    if not run_paths:
        raise UsageError("at least one run file is needed")
    check_stdin_once([qrels_path, *run_paths])
    if isinstance(gains, str):
        gains = parse_gains(gains)
    if run_format not in ("auto", "trec", "msmarco"):
        raise UsageError(f"--run-format must be auto, trec or msmarco (found {run_format!r})")
    table = None
    if subtopics:
        if labels != "integer":
            raise UsageError(f"diversity measures take integer judgments (not --labels {labels})")
        if tie_break == "expected":
            raise UsageError("diversity measures do not combine with --tie-break expected")
        from ipsoeval.align import subtopic_qrels
        from ipsoeval.reading import read_subtopic_qrels
        qrels, table = subtopic_qrels(read_subtopic_qrels(qrels_path))
    else:
        qrels = read_qrels(qrels_path, labels=labels)
    qindex = QrelsIndex(qrels)

    def read(i):
        return read_for_alignment(run_paths[i], qindex, run_format=run_format,
                                  name=run_names[i] if run_names else None,
                                  tie_break=tie_break, judged_only=judged_only, depth=depth)

    # several files: read them side by side (each file then single-threaded)
    runs = parallel_map(read, range(len(run_paths))) if len(run_paths) > 1 else [read(0)]
    al = align_read(qrels, runs, qindex=qindex, queries=queries, rel_level=rel_level,
                    judged_only=judged_only, gains=gains, depth=depth, tie_break=tie_break)
    if table is not None:
        from ipsoeval.align import attach_subtopics
        al = attach_subtopics(al, table)
    return monte_carlo_options(al, samples, seed)


def monte_carlo_options(al: Aligned, samples: int | None, seed: int | None) -> Aligned:
    """Record the Monte Carlo draws and seed (``--labels probability``) in ``al.params``."""
    from ipsoeval.measures.expected import DEFAULT_SAMPLES, DEFAULT_SEED
    if samples is not None and samples < 1:
        raise UsageError(f"samples must be a positive integer (found {samples})")
    if al.label_mode == "probability" or al.ties_averaged:   # or --tie-break expected
        al.params["samples"] = DEFAULT_SAMPLES if samples is None else int(samples)
        al.params["seed"] = DEFAULT_SEED if seed is None else int(seed)
    return al


def align_read(qrels, runs: list, qindex: QrelsIndex | None = None, **options) -> Aligned:
    """Align runs that were read for this alone (they are handed over: align
    frees their big arrays as it goes).  Runs sharing a name (the same tag in
    several files) are told apart by their paths: ``tag[path]``."""
    names = [r.name for r in runs]
    if len(set(names)) != len(names):
        for r in runs:
            if names.count(r.name) > 1:
                r.name = f"{r.name}[{r.path}]"
    return align(qrels, runs, qindex=qindex or QrelsIndex(qrels), release_inputs=True,
                 **options)


@dataclass
class Scores:
    """Per-topic scores of every requested measure: ``values[name]`` is (runs, topics)."""

    aligned: Aligned
    requested: list[Requested]
    values: dict[str, np.ndarray] = field(default_factory=dict)
    # --labels probability: standard errors (runs, topics) of the Monte Carlo measures
    stderr: dict[str, np.ndarray] = field(default_factory=dict)
    # eval's tie warning when the rankings are gone (--engine: scored a batch at a
    # time): measure -> bool (runs, topics), the cells whose value the tie order
    # moves (ipsoeval.measures.ties.tie_cells); None: computed from ``aligned``
    tie_cells: dict[str, np.ndarray] | None = None

    @property
    def runs(self) -> list[str]:
        return self.aligned.runs

    @property
    def topics(self) -> list[str]:
        return self.aligned.topics

    @property
    def measures(self) -> list[Measure]:
        return [r.measure for r in self.requested]

    @property
    def distinct_measures(self) -> list[Measure]:
        """The measures in request order, each name once (``-m P@10 -m P.10``)."""
        seen: set[str] = set()
        return [m for m in self.measures if not (m.name in seen or seen.add(m.name))]

    def matrix(self, name) -> np.ndarray:
        key = name.name if isinstance(name, Measure) else name
        if key not in self.values:
            key = parse_measure(key).name
        return self.values[key]

    def mask(self) -> np.ndarray:
        al = self.aligned
        return al.in_run if al.in_run is not None else np.ones(al.n_ret.shape, dtype=bool)

    def aggregate(self, name) -> np.ndarray:
        m = name if isinstance(name, Measure) else parse_measure(name)
        return m.aggregate(self.matrix(m), self.mask())


def evaluate(aligned: Aligned, measures, *, text_ok: bool = False) -> Scores:
    """Compute measures (names, Measure or Requested objects) on all runs at once;
    text measures (relstring) only with ``text_ok`` (eval)."""
    reqs: list[Requested] = []
    for m in measures:
        if isinstance(m, Requested):
            reqs.append(m)
        elif isinstance(m, Measure):
            reqs.append(Requested(m, m.name))
        else:
            reqs.extend(expand_all([m]))
    if not text_ok:         # analyses need numbers: relstring is for eval -q only
        for r in reqs:
            if r.measure.kind == "text" and r.measure.family != "runid" \
                    and r.source not in ("all_trec", "set", "official"):
                raise UsageError(f"{r.measure.name} is text per topic, printed by "
                                 f"ipsoeval eval -q only")
        reqs = [r for r in reqs if r.measure.kind != "text" or r.measure.family == "runid"]
    if aligned.label_mode == "probability":   # prints labels: only when asked for by name
        reqs = [r for r in reqs if r.measure.family != "relstring"
                or r.source not in ("all_trec", "set", "official")]
    ctx = Context(aligned)
    scores = Scores(aligned, reqs)
    unique: dict[str, Measure] = {}
    for r in reqs:
        unique.setdefault(r.measure.name, r.measure)
    # inputs a measure refuses: before any scoring (probability labels are
    # drawn 0/1, which no measure refuses; their codes are not labels)
    for m in unique.values() if aligned.label_mode != "probability" else ():
        if m.fam.check is not None:
            m.fam.check(ctx, m)
    # arrays most measures share, computed once before the measures run side by side
    if aligned.labels.size and aligned.label_mode != "probability":
        ctx.rel_positions(aligned.rel_level)
    if aligned.label_mode == "probability":   # expected values; Monte Carlo ones share draws
        from ipsoeval.measures.expected import expectations, standard_errors
        values = expectations(ctx, list(unique.values()))
        scores.stderr = standard_errors(ctx, list(unique.values()))
    else:
        values = parallel_map(lambda m: m.compute(aligned, ctx), list(unique.values()))
        if aligned.ties_averaged:      # --tie-break expected: Monte Carlo beyond MAX_ORDERS
            from ipsoeval.measures.ties import standard_errors as tie_errors
            scores.stderr = tie_errors(ctx, list(unique.values()))
    scores.values.update(zip(unique, values))
    return scores


def score_warnings(scores: Scores) -> list[str]:
    """The warnings these scores carry whatever the analysis: the measures
    whose topics are Monte Carlo means (``--labels probability``, ``--tie-break
    expected`` beyond its orders), then, per run, the topics whose tie order
    moves a value of a requested measure (a tie group holding two different
    labels across a cutoff, or anywhere for a measure without one:
    :func:`ipsoeval.measures.ties.tie_notes`).  Every command that scores runs
    (eval, sigtest, leaderboard, report, bootstrap, ...) and the API report
    these, from here, so that the same inputs give the same warnings."""
    from ipsoeval.measures.expected import monte_carlo_notes
    from ipsoeval.measures.ties import tie_notes
    return list(monte_carlo_notes(scores)) + list(tie_notes(scores))


def with_score_warnings(report, scores: Scores):
    """``report`` (an analysis' Report on ``scores``) with :func:`score_warnings`
    first among its warnings, each once."""
    got = [w for w in score_warnings(scores) if w not in report.warnings]
    report.warnings[:0] = got
    return report


def requested(args) -> list[Requested]:
    """The measures of ``-m`` arguments (trec_eval's default set when none)."""
    return expand_all(list(args) if args else None)
