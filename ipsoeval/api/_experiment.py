"""``ipsoeval.Experiment``: ``pyterrier.Experiment``'s parameters and result
frame, computed by ipsoeval's engine and tests, so that a notebook switches by
one import (``from ipsoeval import Experiment``).  ``ipsoeval.experiment`` is
the same function under its older name.

PyTerrier's semantics are kept, and checked against the real pyterrier by
tests/unit/api/test_experiment.py:

* systems are result frames (``qid, docno, score[, rank]``) or PyTerrier
  transformers, whose ``.transform(topics)`` is called (in ``batch_size``
  slices of the topics when given);
* ``filter_by_topics`` keeps the qrels of the topics, ``filter_by_qrels`` the
  topics of the qrels; every remaining qrels topic counts, a system that
  retrieved nothing for it scoring 0;
* columns: ``name``, one per measure (a string as it was given, a measure
  object as ``str()`` spells it); with ``baseline``, ``<m> +`` and ``<m> -``
  (topics above / below the baseline) and ``<m> p-value`` (the paired t test,
  ``test="t"``, or Wilcoxon's signed-rank test, ``test="wilcoxon"``, or the
  second item of what a ``test`` function returns, as ``scipy.stats.ttest_rel``
  returns it); with ``correction`` (statsmodels' names: ``bonferroni``,
  ``holm``, ``fdr_bh`` and their aliases), ``<m> reject`` and
  ``<m> p-value corrected`` after each ``<m> p-value``: the family is the
  systems other than the baseline, within one measure;
* ``perquery=True``: the long frame ``name, qid, measure, value`` ordered by
  name and qid (a topic without qrels: NaN, with a warning); ``"both"``: the
  pair (averages, perquery);
* ``round``: the means (and per-topic values) rounded as Python's ``round``;
  the tests use the values unrounded;
* ``dataframe=False``: dicts instead of frames; ``highlight``: a pandas
  Styler with the best value of each column in bold or coloured;
* ``"mrt"`` among the measures: the mean response time of each transformer in
  milliseconds per qrels topic (0 for a result frame);
* ``save_dir``: each transformer's results saved in PyTerrier's file
  (``<name>.res.gz`` by pyterrier.io, or ``save_format``'s), reused,
  overwritten, warned about or refused by ``save_mode``, and the summaries
  ``aggregated.csv`` and ``perquery.csv`` written on every call.

Where ipsoeval differs, by design: the measure columns are in the order the
measures were given (PyTerrier's is the order in which ir_measures' providers
return them); tied scores are ordered as trec_eval orders them for every
measure (ir_measures does so through pytrec_eval, not for ``RR@k``); Wilcoxon
ranks differences equal but for float noise as ties; ``num_q`` and ``num_rel``
count every qrels topic, as trec_eval ``-c`` does (PyTerrier's, through
ir_measures, only the topics a system retrieved for); an undefined p-value
(NaN) is left out of the correction's family; with ``perquery="both"`` the
averages leave out the topics without qrels (PyTerrier's take in their NaN).

PyTerrier's test is kept on every measure (a drop-in result); where the
project's policy would test a measure otherwise (a t test on an ordinal
measure such as RR), ``df.attrs["notes"]`` says so, with no number changed.
``extras=True`` adds ipsoeval's own columns: ``<m> permissible`` (whether the
test is permissible at the measure's scale, Ferrante et al. 2021), ``<m> sign
p-value`` (the sign test, permissible on every scale) and the outcomes
breakdown against the baseline at ``breakdown_k`` (Lin et al. 2021; only
where every topic has one relevant document, :func:`ipsoeval.analyses.
breakdown.not_applicable`).
"""

from __future__ import annotations

import builtins
import math
from collections import namedtuple
from typing import Any

from ipsoeval.api._breakdown import breakdown
from ipsoeval.api._evaluate import evaluate
from ipsoeval.api._sigtest import sigtest
from ipsoeval.errors import UsageError
from ipsoeval.interop import measure_name

# statsmodels' spellings of the corrections ipsoeval computes (multipletests
# lower-cases the name) -> ipsoeval's
CORRECTIONS = {"b": "bonferroni", "bonf": "bonferroni", "bonferroni": "bonferroni",
               "h": "holm", "holm": "holm",
               "fdr_bh": "bh", "fdr_i": "bh", "fdr_p": "bh", "fdri": "bh", "fdrp": "bh"}
TESTS = {"t": "t", "wilcoxon": "wilcoxon"}
# PyTerrier sums these over the topics instead of averaging them (by the
# column's name, as it is spelled)
SUMMED = frozenset({"num_q", "num_rel", "num_ret", "num_rel_ret",
                    "NumQ", "NumRel", "NumRet", "NumRelRet"})
BREAKDOWN_COLUMNS = {"n_both": "answered both", "n_a_only": "answered baseline only",
                     "n_b_only": "answered system only", "n_neither": "answered neither",
                     # the two tests the verdict combines (Lin et al. 2021 §5), beside it:
                     # not the measures' p-values, which test other quantities
                     "answered_sign_p_value": "breakdown answered sign p-value",
                     "esl_t_p_value": "breakdown ESL t p-value"}
# what the averages frame says about its test (``df.attrs["notes"]``)
PT_TEST_NOTE = ("Test: {title} (test={choice!r}, pyterrier.Experiment's, kept for a "
                "drop-in result).")
POLICY_NOTE = ("{title} is not permissible at the {scale} scale of {measures}: ipsoeval's "
               "policy tests {them} with the {default} (ipsoeval.sigtest; Ferrante et al. "
               "2021 §2.5); the p-values here are PyTerrier's choice.")
WILCOXON_NOTE = ("Wilcoxon ranks differences equal but for float noise as ties (0.2 "
                 "computed as 0.4 - 0.2 and as 0.6 - 0.4); pyterrier.Experiment ranks them "
                 "apart, so its p-values may differ slightly.")
UNDEFINED_NOTE = ("{measures}: a p-value is undefined (NaN: a system equal to the baseline "
                  "on every topic) and is left out of the correction's family; "
                  "pyterrier.Experiment passes it to statsmodels, which counts it "
                  "(bonferroni, holm) or returns NaN (fdr_bh).")
CALLABLE_NOTE = ("Test: the function given as test= ({name}), its second value as the "
                 "p-value, as pyterrier.Experiment takes it.")
VERDICT_NOTE = ("breakdown verdict: Lin et al. 2021 §5 at k={k}, from the sign test on the "
                "topics only one run answers and the paired t test on ESL over the topics "
                "both answer (the two 'breakdown ... p-value' columns beside it), not from "
                "'<m> p-value'.")
BACKFILL_WARNING = ("{n} topic(s) not in the qrels: their per-topic values are NaN "
                    "(pyterrier.Experiment's perquery rows), not in any mean")

ExperimentResult = namedtuple("ExperimentResult", ["averages", "perquery"])
ExperimentResult.__doc__ = ("``perquery='both'``: the averages and the per-topic results "
                            "(pyterrier.Experiment's pair)")


def Experiment(retr_systems, topics, qrels, eval_metrics=None, names=None,
               perquery=False, dataframe=True, batch_size=None, filter_by_qrels=False,
               filter_by_topics=True, baseline=None, test="t", correction=None,
               correction_alpha=0.05, highlight=None, round=None, verbose="auto",
               validate="warn", save_dir=None, save_mode="warn", save_format="trec",
               precompute_prefix=False, plan="linear", *, extras=False, breakdown_k=10):
    """``pyterrier.Experiment``, by ipsoeval: the same parameters, columns and
    numbers (see the module's documentation and docs/api.md).

    ``retr_systems``: a list of result frames or transformers (``names=``) or
    ``{name: system}``.  ``topics``: a frame with ``qid`` (None when every
    system is a result frame: no topic filter).  ``qrels``: a frame (``qid,
    docno, label``).  ``eval_metrics``: names or ir_measures measure objects.
    ``baseline``: a system's index (or name).  ``plan``, ``precompute_prefix``:
    accepted; every system runs once, one after the other (the numbers do not
    depend on the plan).  ``validate``: accepted; the result frames are always
    checked (a missing column is a UsageError).  ``save_dir``, ``save_mode``,
    ``save_format``: PyTerrier's files of the transformers' results (written,
    reused, overwritten) and its two summary CSVs.  ``extras``,
    ``breakdown_k``: ipsoeval's own columns, off by default.  Returns a pandas
    DataFrame (see ``perquery``, ``dataframe``).
    """
    _check_arguments(locals())
    if eval_metrics is None:
        raise UsageError("Experiment takes pyterrier.Experiment's arguments: (retr_systems, "
                         "topics, qrels, eval_metrics, ...); the older experiment(runs, qrels, "
                         "measures) is experiment(runs, None, qrels, measures)")
    systems, names = _systems(retr_systems, names)
    base = _baseline(baseline, names)
    if isinstance(eval_metrics, str) or not hasattr(eval_metrics, "__iter__"):
        eval_metrics = [eval_metrics]
    given = [measure_name(m) for m in eval_metrics]
    mrt = "mrt" in given
    given = [g for g in given if g != "mrt"]
    if not given:
        raise UsageError("give at least one measure other than mrt")
    if len(set(given)) != len(given):
        raise UsageError("a measure is given twice: " + ", ".join(
            sorted({g for g in given if given.count(g) > 1})))
    if isinstance(round, dict) and perquery:
        raise UsageError("round={measure: digits} applies to the means only (perquery=False)")
    topics = _read(topics, "topics")
    qrels = _read(qrels, "qrels")
    transformers = [i for i, s in enumerate(systems) if not _is_frame(s)]
    if topics is None and transformers:
        raise UsageError("topics are needed to run the transformers "
                         f"({', '.join(names[i] for i in transformers)})")
    qcol = _qid_column(qrels, "qrels") if _is_frame(qrels) else None
    topic_ids = None
    if topics is not None:
        topic_ids = [str(q) for q in topics[_qid_column(topics, "topics", ("qid",))]]
    if topics is not None and (filter_by_qrels or filter_by_topics) and qcol is None:
        raise UsageError("filter_by_topics / filter_by_qrels need the qrels as a DataFrame")
    if topics is not None and filter_by_qrels:
        have = set(qrels[qcol].astype(str))
        keep = [str(q) in have for q in topic_ids]
        topics = topics[keep]
        topic_ids = [q for q, k in zip(topic_ids, keep) if k]
        if not topic_ids:
            raise UsageError("no topic is a qrels topic (filter_by_qrels=True)")
    if topics is not None and filter_by_topics:
        qrels = qrels[qrels[qcol].astype(str).isin(set(topic_ids))]
        if len(qrels) == 0:
            raise UsageError("no qrels topic is among the topics; filter_by_topics=False "
                             "scores the qrels topics the topics lack")

    saver = _Saver(save_dir, save_mode, save_format, names, plan) \
        if save_dir is not None else None

    # run the systems (transformers on the topics), then score them all at once
    frames, times = [], []
    show = verbose is True
    for i, s in enumerate(systems):
        if show:
            import sys
            print(f"Experiment: system {i + 1}/{len(systems)}: {names[i]}", file=sys.stderr)
        if saver is not None:
            s = saver.before(i, s)
        frame, ms = _run(s, topics, batch_size)
        if saver is not None and not _is_frame(s):
            saver.write(i, frame)
        if len(frame) == 0:
            raise UsageError(f"system {names[i]!r}: no results"
                             + (f" for {len(topic_ids)} topics" if topic_ids else ""))
        frames.append(frame)
        times.append(ms)
    keys = _keys(names)
    res = evaluate(qrels, dict(zip(keys, frames)), given, queries="qrels")
    qids = [str(q) for q in res.topics]
    mats = {g: res.matrix(g) for g in given}

    pq = None
    extra: list[str] = []
    if perquery:
        # topics without qrels: NaN rows, as PyTerrier's (none with filter_by_qrels)
        have = set(qids)
        extra = [q for q in dict.fromkeys(topic_ids or ()) if q not in have]
        if extra:
            from ipsoeval.pipeline.common import _warn
            _warn([BACKFILL_WARNING.format(n=len(extra))])
        pq = _perquery(names, qids, extra, given, mats, round, dataframe)
    means = _means(names, given, mats, round)
    if mrt:
        nq = len(qids)
        for i, n in enumerate(names):
            means[i]["mrt"] = _rounded("mrt", times[i] / nq if nq else math.nan, round)
    df = None
    if (dataframe and perquery is not True) or saver is not None:
        columns = ["name", *given, *(["mrt"] if mrt else [])]
        recs = [{"name": n, **means[i]} for i, n in enumerate(names)]
        notes: list[str] = []
        if base is not None:
            columns += _tests(recs, names, base, given, mats, test, correction,
                              correction_alpha, notes, res, extras, breakdown_k)
        import pandas as pd
        df = pd.DataFrame(recs, columns=columns)
        if notes:
            df.attrs["notes"] = notes
    if saver is not None:
        saver.summaries(df, pq if perquery and dataframe else
                        _perquery(names, qids, extra, given, mats, round, True))
    if perquery is True:
        return pq
    if not dataframe:
        avg = {n: means[i] for i, n in enumerate(names)}
        return avg if pq is None else (avg, pq)
    if highlight:
        df = _highlight(df, given, base is not None, mrt, highlight)
    return df if pq is None else ExperimentResult(df, pq)


experiment = Experiment


def _check_arguments(a: dict) -> None:
    """Every parameter's value, before any work (PyTerrier's checks, as UsageErrors)."""
    if a["perquery"] not in (False, True, "both"):
        raise UsageError(f"perquery must be False, True or 'both' (found {a['perquery']!r})")
    if a["baseline"] is not None and a["perquery"]:
        raise UsageError("baseline= gives the tests of the means: not with perquery")
    if a["correction"] is not None and a["baseline"] is None:
        raise UsageError("correction= corrects the tests against a baseline: give baseline=")
    c = a["correction"]
    if c is not None and (not isinstance(c, str) or c.lower() not in CORRECTIONS):
        raise UsageError(f"correction must be one of bonferroni, holm, fdr_bh (or "
                         f"statsmodels' aliases of them: {', '.join(CORRECTIONS)}); found "
                         f"{c!r}, which ipsoeval does not compute")
    alpha = a["correction_alpha"]
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise UsageError(f"correction_alpha must be a number in (0, 1) (found {alpha!r})")
    t = a["test"]
    if not callable(t) and not (isinstance(t, str) and t in TESTS):
        raise UsageError(f"test must be 't', 'wilcoxon' or a function in scipy.stats."
                         f"ttest_rel's form (found {t!r})")
    b = a["batch_size"]
    if b is not None and (isinstance(b, bool) or not isinstance(b, int) or b < 1):
        raise UsageError(f"batch_size must be a positive integer or None (found {b!r})")
    r = a["round"]
    digits = list(r.values()) if isinstance(r, dict) else [r]
    if r is not None and not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                 for d in digits):
        raise UsageError(f"round must be an integer >= 0 or {{measure: integer >= 0}} "
                         f"(found {r!r})")
    for name, allowed in (("highlight", (None, "bold", "color", "colour")),
                          ("verbose", ("auto", True, False)),
                          ("validate", ("warn", "error", "ignore")),
                          ("save_mode", ("reuse", "overwrite", "error", "warn")),
                          ("plan", ("linear", "tree")),
                          ("dataframe", (True, False)),
                          ("precompute_prefix", (True, False)),
                          ("filter_by_qrels", (True, False)),
                          ("filter_by_topics", (True, False)),
                          ("extras", (True, False))):
        if not any(a[name] is v or (isinstance(v, str) and a[name] == v) for v in allowed):
            raise UsageError(f"{name} must be one of {', '.join(map(repr, allowed))} "
                             f"(found {a[name]!r})")
    if a["breakdown_k"] is not None and (not isinstance(a["breakdown_k"], int)
                                         or a["breakdown_k"] < 1):
        raise UsageError(f"breakdown_k must be a positive integer or None "
                         f"(found {a['breakdown_k']!r})")


class _Saver:
    """``save_dir``: each transformer's results in a file named after the
    system (PyTerrier's files, written and read by pyterrier.io for
    ``save_format="trec"``, so that either tool reuses the other's), reused
    or overwritten by ``save_mode``; and the two summaries PyTerrier writes
    on every call, ``aggregated.csv`` and ``perquery.csv``, keeping the rows
    of systems not in this call."""

    BAD = ':"%/<>^|?'

    def __init__(self, save_dir, mode, fmt, names, plan):
        import os
        import types
        if plan == "tree":
            raise UsageError("save_dir goes with plan='linear' (as in PyTerrier)")
        if not os.path.isdir(save_dir):
            raise UsageError(f"save_dir {save_dir!r} is not an existing directory")
        for n in names:
            if any(c in n for c in self.BAD + os.sep):
                raise UsageError(f"save_dir is set, and the name {n!r} cannot be a file name: "
                                 f"give names=")
        if len(set(names)) < len(names):
            raise UsageError("save_dir is set, but the systems' names are not unique: "
                             "give names=")
        if isinstance(fmt, str) and fmt == "trec":
            ext = "res.gz"
            try:
                import pyterrier.io  # noqa: F401
            except ImportError:
                raise UsageError("save_format='trec' reads and writes with pyterrier.io "
                                 "(not installed)") from None
        elif isinstance(fmt, types.ModuleType) and hasattr(fmt, "dump") and hasattr(fmt, "load"):
            ext = "mod"
        elif isinstance(fmt, tuple) and len(fmt) == 2 and all(map(callable, fmt)):
            ext = "custom"
        else:
            raise UsageError("save_format must be 'trec', a module with dump and load "
                             "(pickle) or a (read, write) pair of functions "
                             f"(found {fmt!r})")
        self.dir, self.mode, self.fmt = save_dir, mode, fmt
        self.names = names
        self.paths = [os.path.join(save_dir, f"{n}.{ext}") for n in names]

    def before(self, i, system):
        """The system to run: its saved results when they are to be reused."""
        import os
        path = self.paths[i]
        if not os.path.exists(path):
            return system
        if self.mode == "reuse":
            return self._read(path)
        if self.mode == "overwrite":
            os.remove(path)
            return system
        how = ("set save_mode='reuse' to use it, 'overwrite' to replace it")
        if self.mode == "error":
            raise UsageError(f"save_dir: {path} exists; {how}")
        from ipsoeval.pipeline.common import _warn
        _warn([f"save_dir: {path} exists and is replaced; {how}, 'error' to refuse"])
        return system

    def _read(self, path):
        import pyterrier as pt
        if isinstance(self.fmt, str):
            return pt.io.read_results(path)
        with pt.io.autoopen(path, "rb") as f:
            return self.fmt.load(f) if not isinstance(self.fmt, tuple) else self.fmt[0](f)

    def write(self, i, frame):
        import pyterrier as pt
        path = self.paths[i]
        if isinstance(self.fmt, str):
            missing = [c for c in ("qid", "docno", "score", "rank") if c not in frame.columns]
            if missing:
                raise UsageError(f"save_format='trec': the results of {self.names[i]!r} lack "
                                 f"{', '.join(missing)}; save_format=pickle keeps any frame")
            pt.io.write_results(frame, path)
            return
        with pt.io.autoopen(path, "wb") as f:
            if isinstance(self.fmt, tuple):
                self.fmt[1](frame, f)
            else:
                self.fmt.dump(frame, f)

    def summaries(self, averages, perquery):
        import os

        import pandas as pd
        for name, new in (("aggregated.csv", averages), ("perquery.csv", perquery)):
            path = os.path.join(self.dir, name)
            if os.path.exists(path):
                old = pd.read_csv(path)
                if name == "aggregated.csv" and set(old.columns) != set(new.columns):
                    from ipsoeval.pipeline.common import _warn
                    _warn([f"save_dir: {path} has other columns than this call's; the "
                           f"cells either lacks are empty"])
                old = old[~old["name"].isin(set(self.names))]
                if not old.empty:
                    new = pd.concat([new, old], ignore_index=True)
            new.to_csv(path, index=False)


def _is_frame(obj) -> bool:
    from ipsoeval.reading import is_dataframe
    return is_dataframe(obj)


def _systems(retr_systems, names):
    """(systems, names) from a {name: system} dict or a sequence (names= or str())."""
    if isinstance(retr_systems, dict):
        names = [str(k) for k in retr_systems]          # PyTerrier ignores names= here
        systems = list(retr_systems.values())
    elif _is_frame(retr_systems) or isinstance(retr_systems, (str, bytes)) \
            or not hasattr(retr_systems, "__iter__"):
        raise UsageError("retr_systems must be a list of systems (result frames or "
                         "transformers) or a {name: system} dict")
    else:
        systems = list(retr_systems)
        names = [str(s) for s in systems] if names is None else [str(n) for n in names]
        if len(names) != len(systems):
            raise UsageError(f"names given for {len(names)} system(s), but there are "
                             f"{len(systems)}")
    if not systems:
        raise UsageError("no systems given")
    for n, s in zip(names, systems):
        if not _is_frame(s) and not callable(getattr(s, "transform", None)):
            raise UsageError(f"system {n!r} is neither a result frame nor a transformer "
                             f"(found {type(s).__name__})")
    return systems, names


def _baseline(baseline, names):
    if baseline is None:
        return None
    import numpy as np
    if isinstance(baseline, (int, np.integer)) and not isinstance(baseline, bool):
        if not 0 <= baseline < len(names):
            raise UsageError(f"baseline index {baseline} is out of range "
                             f"(0..{len(names) - 1})")
        return int(baseline)
    if isinstance(baseline, str) and baseline in names:
        return names.index(baseline)
    raise UsageError(f"baseline {baseline!r} is neither a system's index nor its name "
                     f"(systems: {', '.join(names)})")


def _read(obj, what: str):
    """A topics or qrels file path is read as PyTerrier reads it."""
    if not isinstance(obj, str):
        return obj
    try:
        import pyterrier as pt
    except ImportError:
        raise UsageError(f"{what} as a path is read by pyterrier (not installed); "
                         f"pass a DataFrame") from None
    return pt.io.read_topics(obj) if what == "topics" else pt.io.read_qrels(obj)


def _qid_column(frame, what: str, columns=None) -> str:
    from ipsoeval.reading import QID_COLUMNS
    if not _is_frame(frame):
        raise UsageError(f"{what} must be a DataFrame (found {type(frame).__name__})")
    col = next((c for c in columns or QID_COLUMNS if c in frame.columns), None)
    if col is None:
        raise UsageError(f"{what}: no topic id column ({', '.join(columns or QID_COLUMNS)})")
    return col


def _run(system, topics, batch_size):
    """(result frame, milliseconds) of one system: a frame as it is, a
    transformer on the topics (in slices of batch_size)."""
    if _is_frame(system):
        return system, 0.0
    import time
    start = time.perf_counter()
    if batch_size is None or batch_size >= len(topics):
        out = system.transform(topics)
    else:
        import pandas as pd
        parts = [system.transform(topics.iloc[i:i + batch_size])
                 for i in range(0, len(topics), batch_size)]
        out = pd.concat(parts, ignore_index=True)
    return out, (time.perf_counter() - start) * 1000.0


def _keys(names):
    """Run names for the engine: the systems' names when they are plain and
    distinct (str() of a transformer may be neither), else run1, run2, ..."""
    plain = all(n and n.strip() == n and not any(c in n for c in "\t\n\r") for n in names)
    return names if plain and len(set(names)) == len(names) else \
        [f"run{i + 1}" for i in range(len(names))]


def _rounded(measure: str, value: float, digits):
    if isinstance(digits, int):
        return builtins.round(value, digits)
    if isinstance(digits, dict) and measure in digits:
        return builtins.round(value, digits[measure])
    return value


def _means(names, given, mats, digits) -> list[dict[str, float]]:
    """Each system's mean of each measure (PyTerrier sums the counts in SUMMED)."""
    from ipsoeval import mean as one_mean  # the one mean of every command
    out = [{} for _ in names]
    for g in given:
        m = mats[g]
        vals = [math.fsum(row) for row in m.tolist()] if g in SUMMED else \
            list(one_mean.means(m))
        for i in range(len(names)):
            out[i][g] = _rounded(g, float(vals[i]), digits)
    return out


def _perquery(names, qids, extra, given, mats, digits, dataframe):
    if not dataframe:       # unrounded, as PyTerrier's per-topic dicts
        return {i: {**{q: {g: float(mats[g][i, j]) for g in given}
                       for j, q in enumerate(qids)},
                    **{q: {g: math.nan for g in given} for q in extra}}
                for i in range(len(names))}
    import pandas as pd
    rows = []
    for i, n in enumerate(names):           # each system's rows, then its NaN rows
        rows += [(n, q, g, _rounded(g, float(mats[g][i, j]), digits))
                 for j, q in enumerate(qids) for g in given]
        rows += [(n, q, g, math.nan) for q in extra for g in given]
    df = pd.DataFrame(rows, columns=["name", "qid", "measure", "value"])
    # PyTerrier's order (a stable sort: within a topic the measures as given)
    df = df.sort_values(["name", "qid"], kind="stable", ignore_index=True)
    if isinstance(digits, int):
        df["value"] = df["value"].round(digits)
    return df


def _tests(recs, names, base, given, mats, test, correction, alpha, notes, res, extras,
           breakdown_k) -> list[str]:
    """The baseline columns of every measure, added to ``recs``; their names."""
    import numpy as np

    from ipsoeval.stats.scales import measure_scale
    others = [i for i in range(len(names)) if i != base]
    scales = {g: measure_scale(res._measure(g), res.aligned)[0] for g in given}
    if callable(test):
        notes.append(CALLABLE_NOTE.format(name=getattr(test, "__name__", repr(test))))
    else:
        _policy_notes(notes, test, scales)
    columns: list[str] = []
    undefined: list[str] = []
    ext = _extras(names, base, given, mats, res, scales, breakdown_k, notes) \
        if extras else None
    for g in given:
        m = mats[g]
        plus, minus, pv = f"{g} +", f"{g} -", f"{g} p-value"
        cols = [plus, minus, pv]
        if correction:
            cols += [f"{g} reject", f"{g} p-value corrected"]
        if ext is not None:
            cols += [f"{g} permissible", f"{g} sign p-value"]
        columns += cols
        d = m - m[base]
        raw = _p_values(test, m[others], m[base])
        for k, i in enumerate(others):
            recs[i].update({plus: float(np.sum(d[i] > 0)), minus: float(np.sum(d[i] < 0)),
                            pv: raw[k]})
        recs[base].update({plus: math.nan, minus: math.nan, pv: math.nan})
        if correction:
            if any(math.isnan(p) for p in raw):
                undefined.append(g)
            rej, adj = _correct(raw, correction, alpha)
            for k, i in enumerate(others):
                recs[i].update({f"{g} reject": rej[k], f"{g} p-value corrected": adj[k]})
            recs[base].update({f"{g} reject": False, f"{g} p-value corrected": math.nan})
        if ext is not None:
            for i in range(len(names)):
                recs[i].update(ext[0][g][i])
    if undefined:
        notes.append(UNDEFINED_NOTE.format(measures=", ".join(undefined)))
    if ext is not None and ext[1]:
        columns += [*BREAKDOWN_COLUMNS.values(), "breakdown verdict"]
        for i, n in enumerate(names):
            r = ext[1].get(n)
            for k, col in BREAKDOWN_COLUMNS.items():
                recs[i][col] = None if r is None else r[k]
            recs[i]["breakdown verdict"] = None if r is None else r["verdict"]
    return columns


def _p_values(test, sys_rows, base_row) -> list[float]:
    """p-values of each system's row against the baseline's."""
    import numpy as np
    if callable(test):
        return [float(test(row, base_row)[1]) for row in sys_rows]
    from ipsoeval.stats import tests
    a = np.broadcast_to(base_row, sys_rows.shape)
    fn = tests.paired_t if test == "t" else tests.wilcoxon
    return [float(p) for p in fn(a, sys_rows).pvalue.tolist()]


def _correct(raw, correction, alpha):
    """(reject, corrected) of the p-values ``raw`` (one family): corrected as
    ipsoeval's corrections compute them, rejected by statsmodels' rule for the
    method (p <= alpha / n for Bonferroni, Holm's step-down thresholds, the
    Benjamini–Hochberg step-up), so that a p-value on a threshold is decided
    as pyterrier.Experiment decides it."""
    from ipsoeval.stats.corrections import adjust_list
    method = CORRECTIONS[correction.lower()]
    adj = adjust_list(raw, method)
    n = len(raw)
    order = sorted(range(n), key=lambda i: (math.isnan(raw[i]), raw[i]))
    reject = [False] * n
    if method == "bonferroni":
        reject = [p <= alpha / n for p in raw]
    elif method == "holm":
        for r, i in enumerate(order):
            if not raw[i] <= alpha / (n - r):
                break
            reject[i] = True
    else:
        last = max((r for r, i in enumerate(order) if raw[i] <= alpha * (r + 1) / n),
                   default=-1)
        for r in range(last + 1):
            reject[order[r]] = True
    return reject, adj


def _policy_notes(notes, test, scales) -> None:
    """PyTerrier's test named, and where the project's policy would test a
    measure otherwise (a test not permissible at its scale), one note saying so."""
    from ipsoeval.stats import registry
    title = registry.get(TESTS[test]).title
    notes.append(PT_TEST_NOTE.format(title=title, choice=test))
    if test == "wilcoxon":
        notes.append(WILCOXON_NOTE)
    off: dict[str, list[str]] = {}
    for g, sc in scales.items():
        if registry.permissible(sc, TESTS[test]) is False:
            off.setdefault(sc, []).append(g)
    for sc, ms in off.items():
        default = registry.default_test(sc)[0]
        notes.append(POLICY_NOTE.format(
            title=title, scale=sc, measures=", ".join(ms),
            them="it" if len(ms) == 1 else "them",
            default=registry._SHORT.get(default, registry.get(default).title)))


def _extras(names, base, given, mats, res, scales, breakdown_k, notes):
    """ipsoeval's own columns (extras=True): ({measure: [row dict per system]},
    {system: breakdown summary})."""
    from ipsoeval.analyses.breakdown import not_applicable
    from ipsoeval.reading.scores import TopicScores
    keys = _keys(names)
    ts = TopicScores(runs=list(keys), topics=list(res.topics), matrices=mats, scales=scales,
                     higher_is_better={g: True for g in given})
    rep = sigtest(ts, baseline=keys[base], tests=["t", "sign"], correct="none")
    got = {(r["run_b"], r["measure"], r["test"]): r for r in rep.table("tests").records}
    cols: dict[str, list[dict[str, Any]]] = {}
    for g in given:
        cols[g] = []
        for i, k in enumerate(keys):
            if i == base:
                cols[g].append({f"{g} permissible": None, f"{g} sign p-value": math.nan})
                continue
            s = got[(k, g, "sign")]
            cols[g].append({f"{g} permissible": bool(got[(k, g, "t")]["permissible"]),
                            f"{g} sign p-value": math.nan if s["p_value"] is None
                            else float(s["p_value"])})
    bd: dict[str, Any] = {}
    why_not = not_applicable(res.aligned) if breakdown_k is not None else None
    if why_not:             # the one rule (report's): one relevant document per topic
        notes.append(why_not)
    elif breakdown_k is not None:
        brep = breakdown(res, k=breakdown_k, baseline=keys[base], verdict_test="esl-t")
        by_key = {r["run_b"]: r for r in brep.table("summary").records}
        bd = {n: by_key.get(k) for n, k in zip(names, keys)}
        notes.append(VERDICT_NOTE.format(k=breakdown_k))
    return cols, bd


def _highlight(df, given, tested, mrt, how):
    """A pandas Styler: the best value of each measure column (and of ``+``,
    the lowest of ``-`` and mrt) in bold, or coloured (the last of tied best
    values in green, the others light), as pyterrier.Experiment shows them."""
    best = {g: max for g in given}
    if tested:
        for g in given:
            best[f"{g} +"], best[f"{g} -"] = max, min
    if mrt:
        best["mrt"] = min

    def style(col):
        pick = best.get(col.name)
        vals = list(col)
        if pick is None:
            return [""] * len(vals)
        finite = [v for v in vals if v == v]
        if not finite:
            return [""] * len(vals)
        top = pick(finite)
        hits = [i for i, v in enumerate(vals) if v == top]
        if how == "bold":
            return ["font-weight: bold" if i in hits else "" for i in range(len(vals))]
        return ["background-color: lightgreen" if i == hits[-1] else
                "background-color: antiquewhite" if i in hits else "" for i in range(len(vals))]

    return df.style.apply(style, axis=0)
