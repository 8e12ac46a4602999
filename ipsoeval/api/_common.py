"""Inputs and the helpers every analysis of the API shares: reading and aligning
qrels and runs as the command line does, the warnings, the topic set, the
baseline and the measures asked for."""

from __future__ import annotations

import math
import os
import warnings as _warnings
from typing import Any

from ipsoeval.errors import UsageError
from ipsoeval.interop import measure_names
from ipsoeval.results import Report


class InputWarning(UserWarning):
    """Suspicious but valid input (what the CLI prints as ``ipsoeval: warning:``)."""


def _warn(messages) -> None:
    """One InputWarning per kind of warning (:mod:`ipsoeval.warntext`: the runs
    merged, as the CLI prints them; ``.warnings`` keeps each run's), every
    call.  Shown as one line, ``<ipsoeval>:0: InputWarning: TEXT``: no
    source line of the caller is echoed (the location names no file)."""
    from ipsoeval.warntext import merge
    for m in merge(messages):
        _warnings.warn_explicit(str(m), InputWarning, "<ipsoeval>", 0, module="ipsoeval")


def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def _run_items(runs) -> list[tuple[Any, str | None]]:
    """[(run input, name or None)] from a path, dict, DataFrame, list or {name: run}."""
    from ipsoeval.reading import is_dataframe, split_runs

    if _is_path(runs) or is_dataframe(runs):
        if is_dataframe(runs):
            parts = split_runs(runs)
            if parts is not None:
                return [(v, k) for k, v in parts.items()]
        return [(runs, None)]
    if isinstance(runs, dict):
        if not runs:
            raise UsageError("no runs given")
        first = next(iter(runs.values()))
        if isinstance(first, dict) and first and not isinstance(next(iter(first.values())), dict):
            return [(runs, None)]          # one run: {qid: {docno: score}}
        return [(v, str(k)) for k, v in runs.items()]
    if isinstance(runs, (list, tuple)):
        return [(r, None) for r in runs]
    raise UsageError(f"runs must be a path, a dict, a DataFrame, a list of these or a "
                     f"{{name: run}} dict (found {type(runs).__name__})")


def load_inputs(qrels, runs, *, queries: str = "qrels", rel_level: int = 1,
                judged_only: bool = False, gains=None, depth: int | None = None,
                tie_break: str = "trec", run_format: str = "auto", names=None,
                name_from_file: bool = False, labels: str = "integer",
                samples: int | None = None, seed: int | None = None,
                subtopics: bool = False):
    """Read (or convert) qrels and runs and align them: an :class:`~ipsoeval.model.Aligned`.
    ``labels``: integer, gain or probability (``--labels``); ``samples``/``seed``:
    the Monte Carlo draws under probability labels (``--samples``, ``--seed``);
    ``subtopics``: the qrels file is diversity qrels (``qid subtopic docno
    judgment``) for the diversity measures (:func:`ipsoeval.engine.load`)."""
    from ipsoeval import engine, reading
    from ipsoeval.align import QrelsIndex, parse_gains
    from ipsoeval.parallel import parallel_map

    if isinstance(gains, str):
        gains = parse_gains(gains)
    elif gains is not None:
        gains = parse_gains(",".join(f"{int(k)}:{float(v)!r}" for k, v in dict(gains).items()))
    if run_format not in ("auto", "trec", "msmarco"):
        raise UsageError(f"run_format must be auto, trec or msmarco (found {run_format!r})")
    items = []
    for obj, nm in _run_items(runs):
        if _is_path(obj):
            for p in reading.expand_run_paths([os.fspath(obj)]):
                items.append((p, nm))
        else:
            items.append((obj, nm))
    if not items:
        raise UsageError("at least one run is needed")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    paths = [os.fspath(x) for x in [qrels] + [o for o, _ in items] if _is_path(x)]
    reading.check_stdin_once(paths)
    table = None
    if subtopics:
        if not _is_path(qrels):
            raise UsageError("diversity measures read their qrels from a file "
                             "(qid subtopic docno judgment)")
        if labels != "integer" or tie_break == "expected":
            raise UsageError("diversity measures take integer judgments and do not combine "
                             "with tie_break='expected'")
        from ipsoeval.align import subtopic_qrels
        q, table = subtopic_qrels(reading.read_subtopic_qrels(os.fspath(qrels)))
    elif _is_path(qrels):
        q = reading.read_qrels(os.fspath(qrels), labels=labels)
    else:
        q = reading.qrels_from(qrels, labels=labels)
    qindex = QrelsIndex(q)

    def one(i):
        obj, nm = items[i]
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and name_from_file:
                nm = reading.file_stem(p)
            return reading.read_for_alignment(p, qindex, run_format=run_format, name=nm,
                                              tie_break=tie_break, judged_only=judged_only,
                                              depth=depth)
        return reading.run_from(obj, nm if nm is not None else f"run{i + 1}")

    run_models = parallel_map(one, range(len(items))) if len(items) > 1 else [one(0)]
    al = engine.align_read(q, run_models, qindex=qindex, queries=queries, rel_level=rel_level,
                           judged_only=judged_only, gains=gains, depth=depth,
                           tie_break=tie_break)   # run_models is ours, not the caller's
    if table is not None:
        from ipsoeval.align import attach_subtopics
        al = attach_subtopics(al, table)
    return engine.monte_carlo_options(al, samples, seed)


def _value(kind: str, v):
    v = float(v)
    if math.isnan(v):
        return None
    return int(v) if kind == "int" and v.is_integer() else v   # expected counts: reals


def _gains_text(gmap) -> str | None:
    if not gmap:
        return None
    return ",".join(f"{k}:{v:g}" for k, v in gmap.items())


def _report(report: Report, *, warnings=(), params=None) -> Report:
    """An analysis' Report with the input notes first among its warnings and the
    inputs' params in every table (the analysis' own params win)."""
    report.warnings[:0] = [w for w in warnings if w not in report.warnings]
    for t in report.tables:
        if params:
            t.params.update({k: v for k, v in params.items() if k not in t.params})
    report.params.update(params or {})
    return report


def _common(res, what: str | None = None):
    """The topics an analysis uses (topicset.select); the note when they differ
    from the evaluated ones (the alignment's own warnings were given by evaluate).
    ``what``: an analysis that counts relevant documents by their integer labels."""
    from ipsoeval.analyses.topicset import common_topics
    if what is not None and res.aligned.label_mode != "integer":
        raise UsageError(f"{what} needs integer labels (labels=\"integer\"): its analysis "
                         f"counts relevant documents by their labels")
    aligned, note = common_topics(res.aligned)
    notes = [note] if note else []
    _warn(notes)
    return aligned, notes


def _baseline(res, baseline):
    """baseline= NAME|FILE: a run name, or the path the run was read from."""
    from ipsoeval.analyses import validate
    return validate.baseline(baseline, res.runs, getattr(res, "paths", None))


def _requested(res, measures):
    from ipsoeval import engine
    names = res.measures if measures is None else measure_names(measures)
    return engine.requested(names)


def _names(measures):
    """Measure names from names or ir_measures objects (None stays None)."""
    return measure_names(measures)


def _score_set(res):
    from ipsoeval.reading.scores import TopicScores
    return res if isinstance(res, TopicScores) else None
