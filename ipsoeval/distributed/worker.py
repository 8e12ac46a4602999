"""One run read, aligned and scored on its own: what a sweep's worker does
(a thread here, a Ray task on a cluster), returning only per-topic scores.

The run is aligned under ``--queries qrels`` (every qrels topic a column, a
missing one an empty ranking), so that its rows can be cut to whatever topic
set the driver decides once every run is in (:func:`ipsoeval.distributed.assemble`).
A topic's score depends only on that run's ranking and that topic's
judgments, so the cut rows equal those of the runs aligned together.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ipsoeval.errors import InputError, IpsoevalError, UsageError


@dataclasses.dataclass
class Task:
    """One run: its position among the runs given, path and name (--name /
    --name-from-file, else None: the run's tag)."""

    index: int
    path: str
    name: str | None
    run_format: str


def batches(tasks: list, workers: int, most: int = 16) -> list[list[Task]]:
    """The runs cut into consecutive batches, a task each: about four per
    worker, at most ``most`` runs in one (few runs: one run a task).  A batch
    is aligned and scored in one go, which spreads the per-call costs; its
    rankings are held only while it is scored."""
    size = max(1, min(most, len(tasks) // max(1, 4 * workers)))
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


@dataclasses.dataclass
class RunScores:
    """What comes back of one run: its name, its per-topic rows over every
    qrels topic, which of them the run has, its topic summary and notes; the
    first run also carries the qrels-wide facts (``skeleton``: an Aligned
    without rankings) and the measures as evaluated (``requested``)."""

    index: int
    path: str
    name: str = ""
    values: dict = dataclasses.field(default_factory=dict)   # measure -> (Tq,) row
    present: np.ndarray | None = None     # bool (Tq,): qrels topic in the run file
    n_ret: np.ndarray | None = None       # int64 (Tq,)
    run_topics: object = None             # ipsoeval.align.RunTopics
    notes: list = dataclasses.field(default_factory=list)    # align's per-run note
    read_notes: list = dataclasses.field(default_factory=list)  # the reader's (non-UTF-8 ids)
    skeleton: object = None
    requested: list | None = None
    error: tuple | None = None            # (phase, kind, message, path, line)
    tie_cells: dict = dataclasses.field(default_factory=dict)  # measure -> (Tq,) (ties.tie_cells)

    def exception(self) -> IpsoevalError:
        _, kind, message, path, line = self.error
        cls = {"usage": UsageError, "input": InputError}.get(kind, IpsoevalError)
        return cls(message, path=path, line=line)


def _failed(task: Task, phase: str, exc: IpsoevalError) -> RunScores:
    kind = "usage" if isinstance(exc, UsageError) else \
        "input" if isinstance(exc, InputError) else "other"
    return RunScores(task.index, task.path,
                     error=(phase, kind, exc.message, exc.path, exc.line))


def score_batch(qrels, qindex, tasks: list, requested, align_opts: dict,
                text_ok: bool) -> list:
    """Read each run of ``tasks`` (:func:`ipsoeval.reading.read_for_alignment`),
    align them to ``qrels`` under ``--queries qrels`` and score them
    (:func:`ipsoeval.engine.evaluate`): a RunScores per run, in order; the
    batch holding run 0 also carries the skeleton.  An ipsoeval error comes
    back as ``RunScores.error`` (phase ``read`` or ``align``), for the driver
    to raise the one the runs aligned together would raise."""
    from ipsoeval.align import align, reader_notes
    from ipsoeval.engine import evaluate
    from ipsoeval.reading import read_for_alignment

    align_opts = dict(align_opts)
    extra = align_opts.pop("params", None) or {}
    runs, out = [], []
    for task in tasks:
        try:
            runs.append(read_for_alignment(task.path, qindex, run_format=task.run_format,
                                           name=task.name, tie_break=align_opts["tie_break"],
                                           judged_only=align_opts["judged_only"],
                                           depth=align_opts["depth"]))
            out.append(RunScores(task.index, task.path,
                                 read_notes=list(getattr(runs[-1], "warnings", ()))))
        except IpsoevalError as exc:
            out.append(_failed(task, "read", exc))
    if any(r.error is not None for r in out):   # the driver raises the first reading error
        return out
    n_read = len(reader_notes(qrels, runs))     # align's first warnings
    try:
        al = align(qrels, runs, queries="qrels", qindex=qindex, release_inputs=True,
                   **align_opts)
        del runs
        al.params.update(extra)
        sc = evaluate(al, requested, text_ok=text_ok)
    except IpsoevalError as exc:     # the batch's first error in run order, as align raises
        out[0] = _failed(tasks[0], "align", exc)
        return out
    n_first = n_read + sum(int(rt.n_extra > 0) + int(len(rt.has) < len(al.topics))
                           for rt in al.params["run_topics"])
    notes = list(al.warnings[n_first:])     # align's second loop: at most one per run, in order
    present = np.asarray(al.params["present"])
    from ipsoeval.measures.ties import tie_cells
    cells = tie_cells(sc)
    for i, res in enumerate(out):
        res.tie_cells = {k: v[i].copy() for k, v in cells.items()}
        res.name = al.runs[i]
        res.values = {k: np.ascontiguousarray(v[i]) for k, v in sc.values.items()}
        res.present = present[i].copy()
        res.n_ret = al.n_ret[i].copy()
        res.run_topics = al.params["run_topics"][i]
        if notes and notes[0].startswith(f"{res.path}: "):
            res.notes = [notes.pop(0)]
    if tasks[0].index == 0:
        res = out[0]
        res.requested = list(sc.requested)
        params = {k: v for k, v in al.params.items() if k not in ("present", "run_topics")}
        res.skeleton = dataclasses.replace(
            al, runs=[], labels=np.zeros((0, len(al.topics), 0), dtype=np.int32),
            n_ret=np.zeros((0, len(al.topics)), dtype=np.int64), in_run=None, tied=None,
            params=params, warnings=[])
    return out


def local_map(qrels, tasks: list, requested, align_opts: dict, text_ok: bool,
              progress=None) -> list:
    """Every run on this machine's threads, a batch per thread (a bounded
    number in flight), results in run order."""
    import threading

    from ipsoeval.align import QrelsIndex
    from ipsoeval.parallel import parallel_map, workers

    qindex = QrelsIndex(qrels)
    done = [0]
    lock = threading.Lock()

    def one(batch):
        res = score_batch(qrels, qindex, batch, requested, align_opts, text_ok)
        with lock:                      # one progress line at a time
            done[0] += len(batch)
            if progress is not None:
                progress(done[0], len(tasks))
        return res

    return [r for rs in parallel_map(one, batches(tasks, workers())) for r in rs]
