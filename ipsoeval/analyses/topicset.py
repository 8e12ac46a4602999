"""The topic set an analysis uses (``--queries``), one rule for every
analysis command.

``--queries intersection`` aligns each run to the qrels topics it has; with
several runs the aligned topics are their union, and a run lacking a topic
has no score there (``Aligned.in_run`` is False).  ``eval`` averages each
run over its own topics.  The analyses (sigtest, ipso, bootstrap,
breakdown, interval-map) compare runs topic by topic, so they use the
topics **common to all runs**: :func:`common_topics` drops the others and
says so.  A missing topic is never scored as 0 under ``intersection``; that
is what ``--queries qrels`` does (the analyses' default), and says.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ipsoeval.errors import InputError


def common_topics(aligned):
    """``(aligned restricted to the topics every run has, warning or None)``."""
    in_run = aligned.in_run
    if in_run is None or in_run.size == 0 or bool(in_run.all()):
        return aligned, None
    keep = np.flatnonzero(in_run.all(axis=0))
    dropped = len(aligned.topics) - len(keep)
    if len(keep) == 0:
        raise InputError("--queries intersection: no topic is common to all runs "
                         f"({len(aligned.runs)} runs, {len(aligned.topics)} topics in their union); "
                         "use --queries qrels to score missing topics as empty rankings")
    sub = dataclasses.replace(
        aligned,
        topics=[aligned.topics[i] for i in keep],
        labels=aligned.labels[:, keep, :],
        n_ret=aligned.n_ret[:, keep],
        num_rel=aligned.num_rel[keep],
        num_nonrel=aligned.num_nonrel[keep],
        judged_labels=[aligned.judged_labels[i] for i in keep],
        in_run=np.ones((len(aligned.runs), len(keep)), dtype=bool),
        warnings=list(aligned.warnings),
    )
    note = (f"--queries intersection: {dropped} topic(s) missing from at least one run left out; "
            f"the analysis uses the {len(keep)} topic(s) common to all {len(aligned.runs)} runs")
    return sub, note
