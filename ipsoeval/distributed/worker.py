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
    index: int            # the run's position among the runs given
    path: str
    name: str | None      # --name / --name-from-file, else None (the run's tag)
    run_format: str


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
    notes: list = dataclasses.field(default_factory=list)
    skeleton: object = None
    requested: list | None = None
    error: tuple | None = None            # (phase, kind, message, path, line)

    def exception(self) -> IpsoevalError:
        _, kind, message, path, line = self.error
        cls = {"usage": UsageError, "input": InputError}.get(kind, IpsoevalError)
        return cls(message, path=path, line=line)


def _failed(task: Task, phase: str, exc: IpsoevalError) -> RunScores:
    kind = "usage" if isinstance(exc, UsageError) else \
        "input" if isinstance(exc, InputError) else "other"
    return RunScores(task.index, task.path,
                     error=(phase, kind, exc.message, exc.path, exc.line))


def score_run(qrels, qindex, task: Task, requested, align_opts: dict, text_ok: bool,
              with_skeleton: bool) -> RunScores:
    """Read ``task``'s run (:func:`ipsoeval.reading.read_for_alignment`), align
    it to ``qrels`` under ``--queries qrels`` and score it
    (:func:`ipsoeval.engine.evaluate`); an ipsoeval error comes back as
    ``RunScores.error`` (phase ``read`` or ``align``), for the driver to
    raise the one the runs aligned together would raise."""
    from ipsoeval.align import align
    from ipsoeval.engine import evaluate
    from ipsoeval.reading import read_for_alignment

    align_opts = dict(align_opts)
    extra = align_opts.pop("params", None) or {}
    try:
        run = read_for_alignment(task.path, qindex, run_format=task.run_format, name=task.name,
                                 tie_break=align_opts["tie_break"],
                                 judged_only=align_opts["judged_only"],
                                 depth=align_opts["depth"])
    except IpsoevalError as exc:
        return _failed(task, "read", exc)
    try:
        runs = [run]
        del run
        al = align(qrels, runs, queries="qrels", qindex=qindex, release_inputs=True,
                   **align_opts)
        al.params.update(extra)
        sc = evaluate(al, requested, text_ok=text_ok)
    except IpsoevalError as exc:
        return _failed(task, "align", exc)
    rt = al.params["run_topics"][0]
    skipped = int(rt.n_extra > 0) + int(len(rt.has) < len(al.topics))
    out = RunScores(task.index, task.path, name=al.runs[0],
                    values={k: np.ascontiguousarray(v[0]) for k, v in sc.values.items()},
                    present=np.asarray(al.params["present"][0]).copy(),
                    n_ret=al.n_ret[0].copy(), run_topics=rt,
                    notes=list(al.warnings[skipped:]))
    if with_skeleton:
        out.requested = list(sc.requested)
        params = {k: v for k, v in al.params.items() if k not in ("present", "run_topics")}
        out.skeleton = dataclasses.replace(
            al, runs=[], labels=np.zeros((0, len(al.topics), 0), dtype=np.int32),
            n_ret=np.zeros((0, len(al.topics)), dtype=np.int64), in_run=None,
            params=params, warnings=[])
    return out


def local_map(qrels, tasks: list, requested, align_opts: dict, text_ok: bool,
              progress=None) -> list:
    """Every task on this machine's threads (a bounded number in flight),
    results in task order."""
    from ipsoeval.align import QrelsIndex
    from ipsoeval.parallel import parallel_map

    import threading

    qindex = QrelsIndex(qrels)
    done = [0]
    lock = threading.Lock()

    def one(task):
        res = score_run(qrels, qindex, task, requested, align_opts, text_ok,
                        with_skeleton=task.index == 0)
        with lock:                      # one progress line at a time
            done[0] += 1
            if progress is not None:
                progress(done[0], len(tasks))
        return res

    return parallel_map(one, tasks)
