"""Inputs and the helpers every analysis of the API shares: reading and aligning
qrels and runs as the command line does, the warnings, the topic set, the
baseline and the measures asked for."""

from __future__ import annotations

import math
import warnings as _warnings

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


from ipsoeval.pipeline.inputs import _is_path, _run_items, load_inputs  # noqa: E402,F401


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


def _scores_or_result(res, on_scores, on_result) -> Report:
    """The Report of an API analysis on per-topic scores or on an EvalResult:
    ``on_scores(ts)`` on a TopicScores, else ``on_result(res)``, which gives
    the analysis's output and the inputs' notes (:func:`_common`); the
    output's warnings issued, then the notes and the inputs' params added
    (:func:`_report`)."""
    ts = _score_set(res)
    if ts is not None:
        out = on_scores(ts)
        notes = list(ts.warnings)     # ts.notes: how the files were read, not warnings
        params = dict(ts.params)
    else:
        out, notes = on_result(res)
        params = dict(res.params)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=params)


def _aligned_or_scores(res, measures, options, run_aligned, on_scores) -> Report:
    """:func:`_scores_or_result` for an analysis that runs on the common
    topics' aligned data, ``run_aligned(aligned, requested, options)``, or on
    per-topic scores, ``on_scores(ts, measures, options)``."""
    def on_result(res):
        requested = _requested(res, measures)
        aligned, notes = _common(res)
        return run_aligned(aligned, requested, options), notes

    return _scores_or_result(res, lambda ts: on_scores(ts, measures, options), on_result)


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
