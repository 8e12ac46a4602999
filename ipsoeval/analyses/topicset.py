"""The topic set of every command, chosen by one rule in one place.

The rule (docs/conventions.md, "Topic sets"; each man page states its
command's default and why):

* A command's default is the topic set of the method it reproduces.
  ``eval`` reproduces trec_eval: ``--queries intersection``, the qrels
  topics the run has, each run on its own topics.  The commands that compare
  runs topic by topic (sigtest, bootstrap, breakdown, ipso, interval-map)
  need one topic set for every run, and their papers (and MS MARCO's and
  TREC's official evaluations, trec_eval ``-c``) count a topic a run does
  not answer as unanswered: ``--queries qrels``, every qrels topic, a topic
  missing from a run scored as an empty ranking.  :func:`default_queries`.
* ``--queries intersection`` in a command that compares runs uses the qrels
  topics *every* run has: a topic missing from one run is never scored as
  0 and never dropped for that run alone.  ``--queries strict`` requires
  the runs and the qrels to have the same topics.  :func:`select`.
* So ``eval -c`` gives exactly the means the comparisons use, and so does
  plain ``eval`` whenever every run has every qrels topic.

Whenever topics are left out or filled, one warning line says so with the
counts; what the warning says is what is done.
"""

from __future__ import annotations

import dataclasses

from ipsoeval.errors import InputError

_SKIPPED = "qrels topic(s) missing from the run skipped"


def default_queries(paired: bool) -> str:
    """The default ``--queries`` of a command (``paired``: it compares runs topic
    by topic); see the module docstring for why."""
    return "qrels" if paired else "intersection"


def select(aligned, *, paired: bool):
    """``(aligned restricted to the command's topics, warnings)``.

    ``paired``: the command compares runs topic by topic (every command but
    ``eval``).  The warnings replace ``aligned.warnings`` (the alignment's
    per-run notes, with the topic-set note rewritten for paired commands).
    """
    import numpy as np  # here: default_queries serves --help

    warnings = list(aligned.warnings)
    in_run = aligned.in_run
    if not paired or in_run is None or in_run.size == 0 or bool(in_run.all()):
        return aligned, warnings
    keep = np.flatnonzero(in_run.all(axis=0))
    lacking = (~in_run).sum(axis=1)
    dropped = len(aligned.topics) - len(keep)
    if len(keep) == 0:
        raise InputError("--queries intersection: no qrels topic is in every run "
                         f"({len(aligned.runs)} runs, {len(aligned.topics)} topics in their "
                         "union); -c scores missing topics as empty rankings")
    sub = dataclasses.replace(
        aligned,
        topics=[aligned.topics[i] for i in keep],
        labels=aligned.labels[:, keep, :],
        tied=None if aligned.tied is None else aligned.tied[:, keep, :],
        n_ret=aligned.n_ret[:, keep],
        num_rel=aligned.num_rel[keep],
        num_nonrel=aligned.num_nonrel[keep],
        judged_labels=[aligned.judged_labels[i] for i in keep],
        in_run=np.ones((len(aligned.runs), len(keep)), dtype=bool),
        warnings=[],
    )
    params = dict(aligned.params)
    if "present" in params and params["present"] is not None:
        params["present"] = np.asarray(params["present"])[:, keep]
    sub.params = params
    which = ", ".join(f"{aligned.runs[i]} lacks {int(n)}"
                      for i, n in enumerate(lacking.tolist()) if n)
    warnings = [w for w in warnings if _SKIPPED not in w]
    warnings.append(
        f"--queries intersection: {dropped} topic(s) missing from at least one run left out "
        f"({which}); the analysis uses the {len(keep)} topic(s) common to all "
        f"{len(aligned.runs)} runs (-c: every qrels topic, missing ones as empty rankings)")
    sub.warnings = list(warnings)
    return sub, warnings


def common_topics(aligned):
    """``(aligned restricted to the topics every run has, warning or None)``:
    :func:`select` for a command that compares runs, returning only the
    topic-set note (the per-run notes were printed when the runs were read)."""
    sub, warnings = select(aligned, paired=True)
    if sub is aligned:
        return aligned, None
    return sub, warnings[-1]
