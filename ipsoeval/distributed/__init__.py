"""Per-run sweeps: many runs scored one by one, only per-topic scores kept.

``--engine local|ray|ray://HOST:PORT`` (eval, sigtest, bootstrap,
leaderboard; API ``evaluate(..., engine=...)``).  The qrels are read once on
the driver; each run is then read, aligned and scored on its own by
:func:`ipsoeval.distributed.worker.score_batch`, a batch of runs at a time -- in a thread here
(``local``), or in a Ray task next to the data (``ray``; the qrels put once
in Ray's object store, :mod:`ipsoeval.distributed.ray_backend`) -- and only
its per-topic score rows come back.  The driver decides the topic set
(:func:`ipsoeval.align.choose_topics`, :func:`ipsoeval.analyses.topicset.select`
for the commands that compare runs, exactly as for runs aligned together)
and assembles the runs × topics matrices in the order the runs were given,
so the numbers are those of :func:`ipsoeval.engine.load` +
:func:`ipsoeval.engine.evaluate`, byte for byte (tests/unit/analyses/across/test_distributed.py).

Runs are submitted a bounded number at a time (twice the workers), so a
directory of thousands of runs streams in bounded memory: what is held is
the score rows (runs × topics × measures floats), never the rankings.
Options that need the rankings on the driver (``--bounds``, ``--scale
interval``, ``--labels probability``, ``--tie-break expected``, trec_eval's
other input modes) are not
available through a sweep.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ipsoeval.distributed.ray_backend import RAY_HINT  # the hint only: Ray is imported late
from ipsoeval.errors import InputError, IpsoevalError, UsageError

ENGINES = ("local", "ray")
# --engine local scores this many runs or more a batch at a time (1,000 runs x
# 7,000 topics: 0.9 instead of 2.6 GB, and no slower: README, Scale-out on Ray)
SWEEP_RUNS = 64


def parse_engine(text: str | None) -> tuple[str, str | None]:
    """``(kind, address)`` of an ``--engine`` value: ``local``, ``ray`` (the
    cluster of ``RAY_ADDRESS``, else a local one) or ``ray://HOST:PORT``."""
    if text is None or text == "local":
        return "local", None
    if text == "ray":
        return "ray", None
    if text.startswith("ray://") and len(text) > len("ray://"):
        return "ray", text
    raise UsageError(f"--engine must be local, ray or ray://HOST:PORT (found {text!r})")


@dataclasses.dataclass
class SweepOptions:
    """The alignment options of a sweep (those of :func:`ipsoeval.engine.load`)."""

    queries: str = "intersection"
    rel_level: int = 1
    judged_only: bool = False
    gains: object = None
    depth: int | None = None
    tie_break: str = "trec"
    run_format: str = "auto"
    labels: str = "integer"


def score_runs(qrels_path: str, run_paths, requested, *, engine: str = "local",
               options: SweepOptions | None = None, run_names=None, text_ok: bool = False,
               params: dict | None = None, progress=None):
    """``(scores, warnings)``: an :class:`ipsoeval.engine.Scores` of ``requested``
    (a list of :class:`~ipsoeval.measures.Requested`) on every run, on the
    topics of ``options.queries`` (before :func:`topicset.select`), and the
    alignment's warnings, as :func:`ipsoeval.engine.load` gives them.

    ``params``: entries set in each run's alignment params before scoring
    (eval -N); ``progress(done, total)`` is called as runs finish."""
    from ipsoeval.align import QUERY_POLICIES, parse_gains
    from ipsoeval.distributed import worker
    from ipsoeval.reading import check_stdin_once, read_qrels

    o = options or SweepOptions()
    kind, address = parse_engine(engine)
    run_paths = list(run_paths)
    if not run_paths:
        raise UsageError("at least one run file is needed")
    if o.queries not in QUERY_POLICIES:
        raise UsageError(f"--queries must be one of {', '.join(QUERY_POLICIES)} "
                         f"(found {o.queries!r})")
    if "-" in run_paths:
        raise UsageError(f"--engine {engine}: runs are read by the workers; a run cannot be "
                         f"standard input")
    if o.labels == "probability":
        raise UsageError(f"--engine {engine} does not combine with --labels probability (its "
                         f"Monte Carlo draws span every run at once)")
    if o.tie_break == "expected":
        raise UsageError(f"--engine {engine} does not combine with --tie-break expected (its "
                         f"Monte Carlo draws span every run at once)")
    diversity = [r.measure.name for r in requested if r.measure.fam.subtopics]
    if diversity:
        raise UsageError(f"--engine {engine} does not combine with the diversity measures "
                         f"({diversity[0]}: their qrels are read by the local engine only)")
    check_stdin_once([qrels_path, *run_paths])
    gains = parse_gains(o.gains) if isinstance(o.gains, str) else o.gains
    if o.run_format not in ("auto", "trec", "msmarco"):
        raise UsageError(f"--run-format must be auto, trec or msmarco "
                         f"(found {o.run_format!r})")
    if kind == "ray":
        from ipsoeval.distributed import ray_backend
        backend = ray_backend.connect(address)         # usage/input errors before reading
    qrels = read_qrels(qrels_path, labels=o.labels)
    align_opts = {"rel_level": o.rel_level, "judged_only": o.judged_only, "gains": gains,
                  "depth": o.depth, "tie_break": o.tie_break, "params": dict(params or {})}
    tasks = [worker.Task(i, p, run_names[i] if run_names else None, o.run_format)
             for i, p in enumerate(run_paths)]
    if kind == "ray":
        results = backend.map(qrels, tasks, requested, align_opts, text_ok, progress)
    else:
        results = worker.local_map(qrels, tasks, requested, align_opts, text_ok, progress)
    return assemble(results, run_paths, requested, o.queries, qrels=qrels)


def first_error(results):
    """Raise the error the runs aligned together would raise: the first
    reading error in run order, else the first alignment error."""
    for phase in ("read", "align"):
        for res in results:
            if res.error is not None and res.error[0] == phase:
                raise res.exception()


def assemble(results: list, run_paths: list, requested, queries: str, qrels=None):
    """The runs' score rows (:class:`~ipsoeval.distributed.worker.RunScores`,
    in run order, each on every qrels topic) as one Scores on the topics of
    ``queries``, with the warnings :func:`ipsoeval.align.align` gives
    (``qrels``: the Qrels read, for their reader's notes)."""
    from ipsoeval.align import choose_topics
    from ipsoeval.engine import Scores

    first_error(results)
    warnings = list(getattr(qrels, "warnings", ()))   # the readers' notes, each once
    for r in results:
        warnings.extend(w for w in r.read_notes if w not in warnings)
    base = results[0].skeleton             # the qrels-wide facts, from the first run
    q_topics = list(base.topics)           # every qrels topic, in strcmp order
    paths = [r.path for r in results]
    topics, notes = choose_topics(queries, q_topics, paths, [r.run_topics for r in results])
    warnings.extend(notes)
    for r in results:                      # align's second loop: one note per run
        warnings.extend(r.notes)
    if not topics:
        raise InputError("no topic in common between run(s) and qrels", path=paths[0])
    pos = {t: i for i, t in enumerate(q_topics)}
    cols = np.array([pos[t] for t in topics], dtype=np.int64)
    names = [r.name for r in results]
    if len(set(names)) != len(names):      # as engine.align_read: tag[path]
        names = [f"{n}[{r.path}]" if names.count(n) > 1 else n
                 for n, r in zip(names, results)]
    R, T = len(results), len(topics)
    present = np.zeros((R, T), dtype=bool)
    n_ret = np.zeros((R, T), dtype=np.int64)
    for i, r in enumerate(results):
        present[i] = r.present[cols]
        n_ret[i] = r.n_ret[cols]
    in_run = present.copy() if queries == "intersection" else np.ones((R, T), dtype=bool)
    params = dict(base.params, queries=queries, present=present,
                  run_topics=[r.run_topics for r in results])
    al = dataclasses.replace(
        base, runs=names, topics=topics, labels=np.zeros((R, T, 0), dtype=np.int32),
        n_ret=n_ret, num_rel=base.num_rel[cols], num_nonrel=base.num_nonrel[cols],
        judged_labels=[base.judged_labels[c] for c in cols], in_run=in_run,
        params=params, warnings=list(warnings))
    reqs = results[0].requested
    scores = Scores(al, reqs)
    for key in results[0].values:
        rows = [r.values[key][cols] for r in results]
        scores.values[key] = np.stack(rows) if rows else np.zeros((0, T))
    scores.tie_cells = {k: np.stack([r.tie_cells[k][cols] for r in results])
                        for k in results[0].tie_cells}
    return scores, list(warnings)


def restrict(scores, aligned):
    """``scores`` on the topics of ``aligned`` (a :func:`topicset.select` of
    ``scores.aligned``): its matrices' columns of those topics."""
    from ipsoeval.engine import Scores

    if aligned is scores.aligned:
        return scores
    pos = {t: i for i, t in enumerate(scores.aligned.topics)}
    cols = np.array([pos[t] for t in aligned.topics], dtype=np.int64)
    out = Scores(aligned, scores.requested)
    out.values = {k: v[:, cols] for k, v in scores.values.items()}
    if scores.tie_cells is not None:
        out.tie_cells = {k: v[:, cols] for k, v in scores.tie_cells.items()}
    return out


__all__ = ["ENGINES", "RAY_HINT", "SweepOptions", "parse_engine", "score_runs", "assemble",
           "restrict", "IpsoevalError"]
