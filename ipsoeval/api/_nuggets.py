"""``ipsoeval.nuggets`` and ``ipsoeval.read_nuggets``: the command ``ipsoeval
nuggets`` (nugget scores of generated answers)."""

from __future__ import annotations

import os

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import nuggets as pipeline
from ipsoeval.pipeline.common import (
    _is_path,
    _names,
    _warn,
)
from ipsoeval.results import Report


def read_nuggets(paths, *, fmt: str = "auto", measures=None):
    """Nugget assignment files of generated answers (nuggetizer's JSONL or the
    long TSV) as the per-topic nugget scores, a
    :class:`ipsoeval.reading.scores.TopicScores` that :func:`sigtest`,
    :func:`bootstrap`, :func:`leaderboard`, :func:`power`, :func:`meta` and
    :func:`ipso` take (what ``--nuggets`` does on the command line)."""
    from ipsoeval.analyses.nuggets import topic_scores
    from ipsoeval.reading.nuggets import read_nuggets as rd
    ts = topic_scores(rd([os.fspath(paths)] if _is_path(paths) else
                         [os.fspath(p) for p in paths], fmt), _names(measures))
    _warn(ts.warnings)           # the scale notes: ts.scale_notes, notes of the reports
    return ts


@declared(pipeline.COMMAND, first=("paths",))
def nuggets(paths, **kw) -> Report:
    """``ipsoeval nuggets``: the nugget scores (nugget_vital_strict,
    nugget_all_strict, nugget_vital, nugget_all) of each run, the means over
    topics (with ``per_query`` each topic's too), table ``scores``."""
    return pipeline.from_paths(paths, **kw)
