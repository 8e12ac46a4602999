"""``ipsoeval ppi``: the mean of a measure over topics from a few human-judged
topics and machine labels on all of them (prediction-powered inference).

Input: per measure, the per-topic scores of every run under the human qrels
(runs × n human topics) and under the auto qrels (runs × N auto topics); the
human topics must all be auto topics.  The human topics are the labelled
sample, the other N − n auto topics the unlabelled one (``ppi_py``'s
``Yhat_unlabeled``).  What is estimated is the mean, under human judgments,
over the population of topics the auto topics are a sample of; the human
topics are assumed to be a random subset of them (Angelopoulos et al. 2023;
Oosterhuis et al. 2024, who also show that intervals from the machine labels
alone miss the truth when those labels are biased).

Output: a :class:`~ipsoeval.results.Report` with the tables

- ``estimates``: per run, measure and method (``human``: the human topics
  alone; ``auto``: the machine labels alone, every auto topic; ``ppi++`` or
  ``ppi``): the mean, its standard error and normal interval, λ;
- ``differences`` (two or more runs): the same for the paired difference
  B − A of every pair (each method on the per-topic differences, PPI++ with
  its own λ̂), with a p-value of "no difference" from the same normal
  statistic, ``--correct`` over the pairs × measures of each method, and
  ``significant``;
- ``selection``: per run and measure, the auto-label mean on the human topics
  against the rest (Welch's t test); a warning when one differs at level
  alpha, Bonferroni-corrected over the checks -- the human topics then do
  not look like a random subset and the intervals are not to be trusted.

The statistics are :mod:`ipsoeval.stats.ppi`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Sequence

import numpy as np

from ipsoeval.analyses.ppi import METHODS
from ipsoeval.analyses.ppi.options import Options
from ipsoeval.errors import InputError, UsageError
from ipsoeval.results import Composed, Report, ResultSet
from ipsoeval.stats import ppi as sp

__all__ = ["COMMAND", "METHODS", "ESTIMATE_COLUMNS", "DIFFERENCE_COLUMNS",
           "SELECTION_COLUMNS", "Options", "MeasureInput", "split_topics", "check_measure",
           "select_measures",
           "analyse", "run"]

COMMAND = "ppi"
ESTIMATE_COLUMNS = ["run", "measure", "method", "topics", "mean", "se", "ci_low", "ci_high",
                    "width", "lambda"]
DIFFERENCE_COLUMNS = ["run_a", "run_b", "measure", "method", "topics", "diff", "se", "ci_low",
                      "ci_high", "width", "lambda", "p_value", "p_adjusted", "significant"]
SELECTION_COLUMNS = ["run", "measure", "mean_human", "mean_rest", "diff", "se", "p_value",
                     "p_adjusted", "selected"]

Warn = Callable[[str], None]

# The intervals are normal (z, variances of divisor n, as ppi_py): asymptotic.
# On n normal scores a nominal 95 % interval covers the mean with probability
# P(|t_{n-1}| < 1.96 sqrt((n - 1)/n)): 75 % for n = 3, 90 % for n = 10, 94 % for
# n = 30 (tests/cli/test_notes.py checks these with scipy).  Below this many human
# topics the inputs make the intervals unreliable: a warning (the central
# limit theorem's usual rule of thumb, which the man page states).
MIN_NORMAL_TOPICS = 30


@dataclass
class MeasureInput:
    """One measure's per-topic scores: ``human`` (runs × human topics) and
    ``auto`` (runs × auto topics), columns in the order of the topic lists
    given to :func:`analyse`."""
    name: str
    human: np.ndarray
    auto: np.ndarray
    extra: dict = field(default_factory=dict)


def check_measure(measure) -> None:
    """PPI estimates a mean over topics: only measures averaged over topics."""
    agg = getattr(measure, "agg", "mean")
    if agg != "mean":
        kind = {"mean_defined": "a mean over the topics where it is defined",
                "gm": "a geometric mean", "sum": "a sum", "count": "a count"}.get(agg, agg)
        raise UsageError(f"ppi estimates a mean over topics; {measure.name} is aggregated as "
                         f"{kind} (choose a measure averaged over topics, e.g. AP, nDCG@10)")


_GROUPS = ("all_trec", "set", "official")


def select_measures(requested) -> list:
    """The requested measures ppi can estimate: a measure named on its own must
    be averaged over topics (else a usage error); a group (official, all_trec,
    set) keeps those of its measures that are."""
    out = []
    for r in requested:
        if r.source in _GROUPS and getattr(r.measure, "agg", "mean") != "mean":
            continue
        check_measure(r.measure)
        out.append(r)
    if not out:
        raise UsageError("ppi estimates a mean over topics: none of the measures asked for "
                         "is averaged over topics (e.g. AP, nDCG@10, P@10)")
    return out


def split_topics(human_topics: Sequence[str], auto_topics: Sequence[str], *,
                 human_name: str | None = None, auto_name: str | None = None):
    """(index of each human topic among the auto topics, index of the other
    auto topics).  Input errors: no topic in common; a human topic the auto
    qrels lack (the machine labels must cover every human-judged topic)."""
    where = {t: i for i, t in enumerate(auto_topics)}
    common = [t for t in human_topics if t in where]
    if not common:
        raise InputError(f"the human qrels and the auto qrels have no topic in common "
                         f"({len(human_topics)} human topic(s), {len(auto_topics)} auto "
                         f"topic(s))", path=human_name)
    missing = [t for t in human_topics if t not in where]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise InputError(f"topic {missing[0]!r}{more} of the human qrels is not in the auto "
                         f"qrels{' ' + auto_name if auto_name else ''} (the auto labels must "
                         f"cover every human-judged topic)", path=human_name)
    lab = np.array([where[t] for t in human_topics], dtype=np.int64)
    mask = np.ones(len(auto_topics), dtype=bool)
    mask[lab] = False
    return lab, np.flatnonzero(mask)


def _f(v) -> float | None:
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def _estimates(H, A_lab, A_unl, A_all, options: Options):
    """{method: MeanCI} for the rows of H (labelled), A_lab, A_unl, A_all."""
    lam = None if options.method == "ppi++" else 1.0
    return {
        "human": sp.classical_mean(H, options.alpha),
        "auto": sp.classical_mean(A_all, options.alpha),
        options.method: sp.ppi_mean(H, A_lab, A_unl, options.alpha, lam=lam),
    }


def _pairs(runs: Sequence[str], options: Options) -> list[tuple[int, int]]:
    if len(runs) < 2:
        return []
    if options.all_pairs:
        return [(i, j) for i in range(len(runs)) for j in range(i + 1, len(runs))]
    base = list(runs).index(options.baseline) if options.baseline is not None else 0
    return [(base, j) for j in range(len(runs)) if j != base]


def _cell_at(mean, low, high, digits: int) -> str:
    from ipsoeval.formatters.values import decimals
    if low is None or high is None:
        return decimals(mean, digits)
    return f"{decimals(mean, digits)} [{decimals(low, digits)}, {decimals(high, digits)}]"


def _cell(mean, low, high) -> str:
    """``mean [ci_low, ci_high]`` with 4 decimals, or ``--digits``."""
    if mean is None:
        return "–"
    text = f"{mean:.4f}" if low is None or high is None else \
        f"{mean:.4f} [{low:.4f}, {high:.4f}]"
    return Composed(text, partial(_cell_at, mean, low, high))


def _view(rs: ResultSet, keys: list[str], value: str, methods, extra: list[str]) -> ResultSet:
    """People's layout: one row per key, a column per method holding
    ``mean [ci_low, ci_high]``, then ``extra`` columns of the PPI row."""
    rows: dict[tuple, dict] = {}
    for r in rs.records:
        k = tuple(r[c] for c in keys)
        row = rows.setdefault(k, {c: r[c] for c in keys})
        row[r["method"]] = _cell(r[value], r["ci_low"], r["ci_high"])
        if r["method"] == methods[-1]:
            row.update({c: r[c] for c in extra})
    return ResultSet(rs.command, keys + list(methods) + extra, list(rows.values()),
                     params=rs.params, title=rs.title, table_hints={"digits": 4})


def analyse(runs: Sequence[str], human_topics: Sequence[str], auto_topics: Sequence[str],
            measures: Sequence[MeasureInput], options: Options, *,
            human_name: str | None = None, auto_name: str | None = None,
            warn: Warn | None = None) -> Report:
    from ipsoeval.stats.corrections import adjust

    options.check(runs)
    runs = list(runs)
    lab, unl = split_topics(human_topics, auto_topics, human_name=human_name,
                            auto_name=auto_name)
    n, N = len(lab), len(auto_topics)
    warnings: list[str] = []
    if len(unl) == 0:
        warnings.append(f"every one of the {N} auto topic(s) is human-judged: there is no "
                        f"topic the machine labels alone speak for, so {options.method} is "
                        f"the human-only estimate (lambda 0)")
    if n < 2:
        warnings.append(f"{n} human-judged topic: the human-only and {options.method} "
                        f"intervals are undefined (they need at least 2)")
    elif n < MIN_NORMAL_TOPICS:
        warnings.append(f"only {n} human-judged topic(s): the human-only and "
                        f"{options.method} intervals are normal (asymptotic) and too narrow "
                        f"with fewer than {MIN_NORMAL_TOPICS} (their coverage falls short "
                        f"of {1 - options.alpha:.0%})")
    methods = ("human", "auto", options.method)
    est_rows: list[dict] = []
    diff_rows: list[dict] = []
    sel_rows: list[dict] = []
    pairs = _pairs(runs, options)
    ia = np.array([p[0] for p in pairs], dtype=np.int64)
    ib = np.array([p[1] for p in pairs], dtype=np.int64)
    counts = {"human": n, "auto": N, options.method: N}
    for m in measures:              # every measure checked before any is estimated
        if np.isnan(np.asarray(m.human, dtype=np.float64)).any() or \
                np.isnan(np.asarray(m.auto, dtype=np.float64)).any():
            raise UsageError(f"ppi estimates a mean over topics; {m.name} is undefined on "
                             f"some topics")
    for m in measures:
        H = np.asarray(m.human, dtype=np.float64)
        A = np.asarray(m.auto, dtype=np.float64)
        res = _estimates(H, A[:, lab], A[:, unl], A, options)
        for r, run in enumerate(runs):
            for meth in methods:
                e = res[meth]
                est_rows.append({
                    "run": run, "measure": m.name, "method": meth, "topics": counts[meth],
                    "mean": _f(e.estimate[r]), "se": _f(e.se[r]), "ci_low": _f(e.ci_low[r]),
                    "ci_high": _f(e.ci_high[r]), "width": _f(e.ci_high[r] - e.ci_low[r]),
                    "lambda": _f(e.lam[r]) if meth == options.method else None})
        if pairs:
            Hd, Ad = H[ib] - H[ia], A[ib] - A[ia]
            dres = _estimates(Hd, Ad[:, lab], Ad[:, unl], Ad, options)
            for k in range(len(pairs)):
                for meth in methods:
                    e = dres[meth]
                    diff_rows.append({
                        "run_a": runs[ia[k]], "run_b": runs[ib[k]], "measure": m.name,
                        "method": meth, "topics": counts[meth], "diff": _f(e.estimate[k]),
                        "se": _f(e.se[k]), "ci_low": _f(e.ci_low[k]),
                        "ci_high": _f(e.ci_high[k]), "width": _f(e.ci_high[k] - e.ci_low[k]),
                        "lambda": _f(e.lam[k]) if meth == options.method else None,
                        "p_value": _f(e.p_value[k])})
        d, se, p = sp.welch_t(A[:, lab], A[:, unl])
        for r, run in enumerate(runs):
            sel_rows.append({"run": run, "measure": m.name,
                             "mean_human": _f(A[r, lab].mean()),
                             "mean_rest": _f(A[r, unl].mean()) if len(unl) else None,
                             "diff": _f(d[r]), "se": _f(se[r]), "p_value": _f(p[r])})

    # --correct: the family is the pairs x measures of each method
    for meth in methods:
        rows = [r for r in diff_rows if r["method"] == meth]
        pv = np.array([np.nan if r["p_value"] is None else r["p_value"] for r in rows])
        adj = adjust(pv, options.correct) if len(rows) else pv
        for r, a in zip(rows, adj.tolist()):
            r["p_adjusted"] = _f(a)
            r["significant"] = None if r["p_adjusted"] is None \
                else bool(r["p_adjusted"] < options.alpha)
    # the selection check: Bonferroni over every (run, measure) check
    pv = np.array([np.nan if r["p_value"] is None else r["p_value"] for r in sel_rows])
    adj = adjust(pv, "bonferroni") if len(sel_rows) else pv
    flagged = []
    for r, a in zip(sel_rows, adj.tolist()):
        r["p_adjusted"] = _f(a)
        r["selected"] = None if r["p_adjusted"] is None else bool(r["p_adjusted"] < options.alpha)
        if r["selected"]:
            flagged.append(r)
    if flagged:
        worst = min(flagged, key=lambda r: r["p_adjusted"])
        warnings.append(
            f"the human-judged topics do not look like a random subset of the topics: on "
            f"{len(flagged)} of {len(sel_rows)} run/measure check(s) the auto-label mean on "
            f"them differs from the rest at level {options.alpha:g} (Welch's t test, "
            f"Bonferroni; e.g. {worst['run']} {worst['measure']}: {worst['mean_human']:.4f} "
            f"on the {n} human topics, {worst['mean_rest']:.4f} on the other {len(unl)}); "
            f"the intervals assume a random subset (see table selection)")

    params = dict(options.as_params())
    if pairs and not options.all_pairs:
        params["baseline"] = runs[pairs[0][0]]
    params.update(runs=len(runs), measures=[m.name for m in measures], human_topics=n,
                  auto_topics=N, unlabelled_topics=int(len(unl)),
                  correction_family="pairs x measures, per method",
                  selection_family="runs x measures (bonferroni)")
    level = f"{1 - options.alpha:.0%}"
    hints = {"digits": 4}
    tables = [ResultSet(
        COMMAND, list(ESTIMATE_COLUMNS), est_rows, params=params, id="estimates",
        title=f"Mean over topics: {n} human-judged of {N} topics, {level} normal intervals",
        description="per run, measure and method (human, auto, ppi++/ppi): the estimated "
                    "mean over topics, its standard error and confidence interval",
        table_hints=hints)]
    tables[0].view = _view(tables[0], ["run", "measure"], "mean", methods, ["lambda"])
    display = ["estimates"]
    if pairs:
        tables.append(ResultSet(
            COMMAND, list(DIFFERENCE_COLUMNS), diff_rows, params=dict(params), id="differences",
            title=f"Paired differences B - A, {level} normal intervals"
                  + (f", {options.correct} correction" if options.correct != "none" else ""),
            description="per pair of runs, measure and method: the estimated mean difference "
                        "B - A, its confidence interval and p-value",
            table_hints=dict(hints, cell_styles={"significant": {"yes": "bold"}})))
        tables[-1].view = _view(tables[-1], ["run_a", "run_b", "measure"], "diff", methods,
                                ["lambda", "p_adjusted", "significant"])
        tables[-1].view.table_hints["cell_styles"] = {"significant": {"yes": "bold"}}
        display.append("differences")
    tables.append(ResultSet(
        COMMAND, list(SELECTION_COLUMNS), sel_rows, params=dict(params), id="selection",
        title="Are the human topics a random subset? Auto-label means, human topics vs the rest",
        description="per run and measure: the auto-label mean on the human-judged topics and "
                    "on the rest, their difference and Welch's t-test p-value",
        table_hints=hints))
    display.append("selection")
    if warn is not None:
        for w in warnings:
            warn(w)
    return Report(COMMAND, tables, primary="estimates", display=display, warnings=warnings,
                  params=params)


def run(human_scores, auto_scores, options: Options, *, human_name: str | None = None,
        auto_name: str | None = None, warn: Warn | None = None) -> Report:
    """The analysis on two :class:`ipsoeval.engine.Scores` of the same runs and
    measures, one under the human qrels and one under the auto qrels."""
    runs = list(human_scores.runs)
    if runs != list(auto_scores.runs):
        raise UsageError("ppi: the runs scored under the human and the auto qrels differ "
                         f"({', '.join(runs)} / {', '.join(auto_scores.runs)})")
    inputs = []
    for meas in human_scores.distinct_measures:
        check_measure(meas)
        inputs.append(MeasureInput(meas.name, human_scores.matrix(meas.name),
                                   auto_scores.matrix(meas.name)))
    # the scores' own warnings (ties the order moves ...), as every command
    # gives them, each qrels named as the alignment's warnings name it
    from ipsoeval.engine import score_warnings
    found = list(dict.fromkeys(
        [f"{w} (human qrels)" for w in score_warnings(human_scores)]
        + [f"{w} (auto qrels)" for w in score_warnings(auto_scores)]))
    if warn is not None:
        for w in found:
            warn(w)
    out = analyse(runs, list(human_scores.topics), list(auto_scores.topics), inputs, options,
                  human_name=human_name, auto_name=auto_name, warn=warn)
    out.warnings[:0] = [w for w in found if w not in out.warnings]
    return out
