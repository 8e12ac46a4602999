"""The public Python API: the engine and every analysis, without the shell.

::

    import ipsoeval
    res = ipsoeval.evaluate("qrels.txt", ["bm25.run", "neural.run"], ["AP", "nDCG@10"])
    res.mean()           # {run: {measure: value}}
    res.per_query()      # {run: {qid: {measure: value}}}
    res.to_frame()       # pandas DataFrame: run, qid, measure, value
    rep = ipsoeval.sigtest(res, baseline="bm25", tests=["t", "randomization"], correct="holm")
    rep.to_frame()       # the primary table; rep.table("...") / rep.ids for the others

Inputs go through the readers and the alignment the command line uses (same
ties, duplicates, ``-J``/``-M``/``-l``/``-c`` semantics), so the API and the
CLI give identical numbers.  Analyses return a :class:`~ipsoeval.results.Report`.
Per-topic scores from any tool (``ipsoeval.read_scores``) feed ``sigtest``,
``bootstrap``, ``leaderboard`` and ``ipso``'s sign test as well.  Nothing here prints:
input warnings are Python warnings (:class:`InputWarning`) and are kept in
``.warnings``.  See docs/api.md.

One module per command (``_evaluate``, ``_sigtest``, ``_bootstrap``, ...), each
built on ``_common`` (inputs, warnings, topic sets); ``_experiment`` is
PyTerrier's ``Experiment``; ir_measures' objects are named in
:mod:`ipsoeval.interop`.
"""

from __future__ import annotations

from ipsoeval.api._across import across
from ipsoeval.api._agree import agree
from ipsoeval.api._bootstrap import bootstrap
from ipsoeval.api._breakdown import breakdown
from ipsoeval.api._compare import Comparison, compare
from ipsoeval.api._evaluate import EvalResult, evaluate, read_scores
from ipsoeval.api._experiment import Experiment, ExperimentResult, experiment
from ipsoeval.api._interval_map import interval_map
from ipsoeval.api._ipso import ipso
from ipsoeval.api._leaderboard import leaderboard
from ipsoeval.api._meta import meta
from ipsoeval.api._nuggets import nuggets, read_nuggets
from ipsoeval.api._power import power
from ipsoeval.api._ppi import ppi
from ipsoeval.api._qpp import qpp
from ipsoeval.api._report import Page, report
from ipsoeval.api._repro import repro
from ipsoeval.api._risk import risk
from ipsoeval.api._sigtest import sigtest
from ipsoeval.pipeline.common import InputWarning, load_inputs

for _public in (InputWarning, EvalResult, Page, Comparison):      # their documented home
    _public.__module__ = __name__

__all__ = ["evaluate", "EvalResult", "sigtest", "bootstrap", "breakdown", "ipso",
           "interval_map", "InputWarning", "read_scores", "Experiment", "ExperimentResult",
           "experiment", "ppi", "agree", "leaderboard", "power", "meta", "report", "Page",
           "nuggets", "read_nuggets", "across", "risk", "qpp", "repro", "load_inputs", "compare",
           "Comparison"]
