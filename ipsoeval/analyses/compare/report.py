"""``ipsoeval compare``: the results table of a paper.

Input: per-topic score matrices (runs × topics) per measure.  Output: a
:class:`~ipsoeval.results.Report` with

- ``comparison`` (primary): one record per run and measure (runs in input
  order, then measures in order: the cells of the table row by row) with
  the mean over topics (with ``--ci`` the t interval ``ci_low``,
  ``ci_high``), the marks as printed (``marks``) and what they stand for:
  ``better_than`` / ``worse_than`` (the runs this run is significantly
  better / worse than, comma-separated) or, with ``--marks groups``,
  ``group`` (the letter groups), and whether the test is permissible;
- ``tests``: one record per pair of runs and measure marked, with the test,
  its p-value, the corrected p-value the decision uses and the winner.

The decisions are not computed here: ``--marks baseline`` and ``pairs`` run
:func:`ipsoeval.analyses.sigtest.run` on one measure at a time, so that the
correction's family is the pairs of one measure and a cell's marks are
``sigtest``'s decisions for that pair and measure under the same test and
correction; ``--marks groups`` runs :func:`ipsoeval.analyses.leaderboard.analyse`
on one measure at a time (the randomised Tukey HSD is family-wise over all
pairs of a measure), so the letters are ``leaderboard``'s.

A run's mean is :mod:`ipsoeval.mean`'s over the topics where the measure is
defined for it (every topic of the command's topic set, unless a value is
undefined); the tests compare the topics both runs have (sigtest's) or every
run has (leaderboard's).  How the table is laid out -- bold, underline,
digits, the width of a terminal -- is the formatter's
(:mod:`ipsoeval.formatters.comparison`).
"""

from __future__ import annotations

import math

import numpy as np

from ipsoeval.analyses.compare.options import CI_LEVEL, HSD_SAMPLES, MARKS, TEST_SAMPLES, Options
from ipsoeval.errors import UsageError
from ipsoeval.results import Report, ResultSet

__all__ = ["Options", "MARKS", "run", "run_scores", "letter", "TEST_COLUMNS", "COMMAND",
           "TEST_SAMPLES", "HSD_SAMPLES"]

COMMAND = "compare"
TEST_COLUMNS = ["run_a", "run_b", "measure", "test", "n", "mean_a", "mean_b", "diff",
                "statistic", "p_value", "p_adjusted", "significant", "permissible", "better"]
TABLE_DESCRIPTION = ("one row per run and measure (the table's cells, row by row): the mean "
                     "over topics, the marks as printed and the runs they name")
TESTS_DESCRIPTION = ("per pair of runs and measure marked: the test, its p-value, the "
                     "corrected p-value deciding the mark and the better run")


def letter(i: int) -> str:
    """The letter of the i-th run (row order): a..z, A..Z, then a2.. (as the
    letter display of :mod:`ipsoeval.stats.letters` names its letters)."""
    from ipsoeval.stats.letters import letter_name
    return letter_name(i)


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _means(M: np.ndarray, ci: bool):
    """Per run: (mean, low, high) over its defined topics (ipsoeval.mean's mean;
    the t interval of leaderboard's --ci)."""
    from ipsoeval import mean as one_mean
    from ipsoeval.stats.descriptive import mean_ci
    mean = one_mean.means(M, skip_nan=True)
    lo = hi = [None] * len(mean)
    if ci:
        lo, hi = [], []
        for row in M:
            x = row[~np.isnan(row)]
            if x.size == 0:
                lo.append(None)
                hi.append(None)
                continue
            _, a, b = mean_ci(x[None, :], CI_LEVEL)
            lo.append(_f(a[0]))
            hi.append(_f(b[0]))
    return [_f(m) for m in mean], lo, hi


def _sigtest_options(options: Options, marks: str, baseline: str | None):
    from ipsoeval.analyses.sigtest.common import make_options
    return make_options([options.test] if options.test else [], None,
                        baseline=baseline if marks == "baseline" else None,
                        all_pairs=marks == "pairs", correct=options.correct,
                        alpha=options.alpha, alternative="two-sided",
                        samples=options.test_samples(), seed=options.seed)


def _pair_marks(runs, name, M, scale, higher, options, marks, baseline, warnings):
    """sigtest on this one measure: the records of its pairs (the family of
    --correct) and each pair's winner."""
    from ipsoeval.analyses import sigtest as st
    so = _sigtest_options(options, marks, baseline)
    rep = st.run(list(runs), {name: M}, {name: scale}, so,
                 lower_better=set() if higher else {name})
    for w in rep.warnings:
        if w not in warnings:
            warnings.append(w)
    out = []
    for rec in rep.table("tests").records:
        better = None
        d = rec["diff"]
        if rec["significant"] and d is not None and d != 0:
            b_wins = (d > 0) if higher else (d < 0)
            better = rec["run_b"] if b_wins else rec["run_a"]
        out.append({"run_a": rec["run_a"], "run_b": rec["run_b"], "measure": name,
                    "test": rec["test"], "n": rec["n"], "mean_a": rec["mean_a"],
                    "mean_b": rec["mean_b"], "diff": d, "statistic": rec["statistic"],
                    "p_value": rec["p_value"], "p_adjusted": rec["p_adjusted"],
                    "significant": rec["significant"], "permissible": rec["permissible"],
                    "better": better})
    return out, rep.table("tests").params.get("test_choice", {}).get(name)


def _groups(runs, topics, name, M, scale, higher, options, warnings, progress):
    """leaderboard on this one measure: each run's letters and the pairs' records."""
    from ipsoeval.analyses import leaderboard as lb
    from ipsoeval.analyses.bootstrap.resample import MeasureInput
    lo = lb.Options(samples=options.hsd_samples(), seed=options.seed, alpha=options.alpha,
                    ci=CI_LEVEL)
    rep = lb.analyse(list(runs), topics, [MeasureInput(name, M, bool(higher), scale)], lo,
                     progress=progress)
    for w in rep.warnings:
        if w not in warnings:
            warnings.append(w)
    letters = {r["run"]: r["letters"] for r in rep.table("leaderboard").records}
    n = {r["run"]: r["n"] for r in rep.table("leaderboard").records}
    out = []
    for rec in rep.table("pairs").records:
        better = None
        d = rec["diff"]
        if rec["significant"] and d is not None and d != 0:
            b_wins = (d > 0) if higher else (d < 0)
            better = rec["run_b"] if b_wins else rec["run_a"]
        out.append({"run_a": rec["run_a"], "run_b": rec["run_b"], "measure": name,
                    "test": lb.TEST, "n": n.get(rec["run_a"]), "mean_a": rec["mean_a"],
                    "mean_b": rec["mean_b"], "diff": d, "statistic": None,
                    "p_value": rec["p_value"], "p_adjusted": rec["p_value"],
                    "significant": rec["significant"], "permissible": rec["permissible"],
                    "better": better})
    return letters, out


def _correction_text(options: Options, marks: str, runs: int) -> str:
    pairs = runs - 1 if marks == "baseline" else runs * (runs - 1) // 2
    fam = f"{pairs} {'baseline ' if marks == 'baseline' else ''}pair{'s' if pairs != 1 else ''}"
    names = {"bonferroni": "Bonferroni", "holm": "Holm", "bh": "Benjamini-Hochberg"}
    if options.correct == "none":
        return f"alpha {options.alpha:g}, no correction for the {fam} of a measure"
    return f"alpha {options.alpha:g}, {names[options.correct]} correction over the {fam} " \
           f"of each measure"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _test_text(tests: dict[str, str], given: bool) -> str:
    from ipsoeval.stats.registry import _SHORT, get
    by: dict[str, list[str]] = {}
    for m, t in tests.items():
        by.setdefault(t, []).append(m)

    def title(t):
        return _SHORT.get(t, get(t).title)
    if len(by) == 1:
        text = title(next(iter(by)))
    else:
        text = ", ".join(f"{title(t)} for {_join(ms)}" for t, ms in by.items())
    return text + (", named by --test" if given else ": the test each scale permits")


def run(runs: list[str], topics: int, matrices: dict[str, np.ndarray],
        scales: dict[str, str | None], higher: dict[str, bool], options: Options, *,
        progress=None) -> Report:
    """The comparison table of ``runs`` (rows, in this order) on the measures of
    ``matrices`` (columns, in this order): see the module's docstring."""
    options.check(list(runs))
    if not matrices:
        raise UsageError("compare needs a measure: give -m MEASURE (e.g. -m nDCG@10)")
    marks = options.chosen_marks()
    base = options.baseline if options.baseline is not None else runs[0]
    measures = list(matrices)
    warnings: list[str] = []
    letters = {r: letter(i) for i, r in enumerate(runs)}
    lettered = marks in ("baseline", "pairs")      # the letters name runs
    cells: dict[tuple[str, str], dict] = {}        # (run, measure) -> its record
    tests_records: list[dict] = []
    used: dict[str, str] = {}
    perm: dict[str, bool | None] = {}
    from ipsoeval.stats import registry
    order = {r: i for i, r in enumerate(runs)}
    for idx, m in enumerate(measures):
        M = np.ascontiguousarray(np.asarray(matrices[m], dtype=np.float64))
        if M.shape != (len(runs), topics):
            raise ValueError(f"scores of {m} have shape {M.shape}, expected "
                             f"{(len(runs), topics)}")
        mean, lo, hi = _means(M, options.ci)
        for i, r in enumerate(runs):
            rec = cells[(r, m)] = {"run": r, "letter": letters[r], "measure": m,
                                   "mean": mean[i]}
            if options.ci:
                rec["ci_low"], rec["ci_high"] = lo[i], hi[i]
        if marks in ("baseline", "pairs"):
            recs, _why = _pair_marks(runs, m, M, scales.get(m), higher.get(m, True), options,
                                     marks, base, warnings)
            tests_records += recs
            used[m] = recs[0]["test"] if recs else (options.test or
                                                   registry.default_test(scales.get(m))[0])
            perm[m] = registry.permissible(scales.get(m), used[m])
            better = {r: [] for r in runs}
            worse = {r: [] for r in runs}
            for rec in recs:
                w = rec["better"]
                if w is None:
                    continue
                loser = rec["run_a"] if w == rec["run_b"] else rec["run_b"]
                better[w].append(loser)
                worse[loser].append(w)
            for r in runs:
                bt = sorted(better[r], key=order.get)
                rec = cells[(r, m)]
                rec["marks"] = "".join(letters[x] for x in bt)
                rec["better_than"] = ",".join(bt)
                rec["worse_than"] = ",".join(sorted(worse[r], key=order.get))
                rec["permissible"] = perm[m]
        elif marks == "groups":
            cb = None
            if progress is not None:
                def cb(done, total, _i=idx):
                    progress(_i * 1000 + int(1000 * done / max(total, 1)), 1000 * len(measures))
            groups, recs = _groups(runs, topics, m, M, scales.get(m), higher.get(m, True),
                                   options, warnings, cb)
            tests_records += recs
            used[m] = "randhsd"
            perm[m] = registry.permissible(scales.get(m), "randhsd")
            for r in runs:
                cells[(r, m)].update(marks=groups[r], group=groups[r], permissible=perm[m])
    columns = (["run", "letter"] if lettered else ["run"]) + ["measure", "mean"]
    if options.ci:
        columns += ["ci_low", "ci_high"]
    if marks in ("baseline", "pairs"):
        columns += ["marks", "better_than", "worse_than", "permissible"]
    elif marks == "groups":
        columns += ["marks", "group", "permissible"]
    # the table's rows are the runs: its records run by run, measures in order
    rows = [{c: cells[(r, m)].get(c) for c in columns} for r in runs for m in measures]
    # a footnote explains marks that are shown: measures without one need none
    shown = {m for (r, m), rec in cells.items() if rec.get("marks")}
    params = _params(runs, topics, measures, scales, higher, options, marks, base, used,
                     perm, shown)
    table = ResultSet(COMMAND, columns, rows, params=params, id="comparison",
                      title=params["caption"], description=TABLE_DESCRIPTION,
                      table_hints={"digits": 4})
    tests = ResultSet(COMMAND, list(TEST_COLUMNS), tests_records, params=dict(params),
                      id="tests", title=f"Tests behind the marks ({params['correction_text']})",
                      description=TESTS_DESCRIPTION,
                      table_hints={"digits": 4,
                                   "cell_styles": {"significant": {"yes": "bold green"},
                                                   "permissible": {"no": "bold red"}}})
    return Report(COMMAND, [table, tests], primary="comparison", warnings=warnings,
                  display=["comparison"])


def _params(runs, topics, measures, scales, higher, options, marks, base, used, perm,
            shown) -> dict:
    from ipsoeval.stats import registry
    a = options.alpha
    params = {
        "runs": list(runs), "measures": list(measures), "topics": topics, "marks": marks,
        "baseline": base if marks == "baseline" else None,
        "letters": {r: letter(i) for i, r in enumerate(runs)},
        "higher_is_better": {m: bool(higher.get(m, True)) for m in measures},
        "scales": {m: scales.get(m) for m in measures},
        "alpha": a, "correction": options.correct if marks in ("baseline", "pairs") else "none",
        "seed": options.seed, "ci": CI_LEVEL if options.ci else None,
        "transpose": options.transpose, "underline_second": options.underline_second,
        "mean": "mean over the topics where the measure is defined for the run "
                "(ipsoeval's one mean: correctly rounded sum / n)",
        "tests": dict(used), "permissible": dict(perm),
        "significant": "p_adjusted < alpha",
    }
    what = f"Mean of each measure over {topics} topic{'s' if topics != 1 else ''}"
    if marks in ("baseline", "pairs"):
        samples = any(registry.get(t).resampling for t in used.values())
        params["samples"] = options.test_samples() if samples else None
        params["correction_family"] = ("the baseline pairs of each measure" if marks ==
                                       "baseline" else "all pairs of runs of each measure")
        params["correction_text"] = _correction_text(options, marks, len(runs))
        params["test_note"] = registry.test_note([options.test] if options.test else [],
                                                 {m: scales.get(m) for m in measures})
        who = (f", in its pair with the baseline {base}" if marks == "baseline" else "")
        caption = (f"{what}; a cell's superscript letters name the runs it is significantly "
                   f"better than{who} ({_test_text(used, options.test is not None)}; "
                   f"{params['correction_text']}); the best value of each measure in bold")
    elif marks == "groups":
        params["samples"] = options.hsd_samples()
        params["correction_family"] = "all pairs of runs of each measure (family-wise)"
        params["correction_text"] = (f"randomised Tukey HSD, family-wise over all pairs of "
                                     f"each measure, {options.hsd_samples():,} samples, "
                                     f"alpha {a:g}")
        params["test_note"] = registry.describe_choice(
            {m: ("randhsd", scales.get(m)) for m in measures},
            fixed_by="compare --marks groups: leaderboard's letter groups")
        caption = (f"{what}; superscript letters are the groups of the randomised Tukey HSD "
                   f"({options.hsd_samples():,} samples, family-wise over all pairs of each "
                   f"measure, alpha {a:g}): runs sharing a letter are not significantly "
                   f"different; the best value of each measure in bold")
    else:
        params["correction_text"] = "no marks"
        caption = f"{what}; the best value of each measure in bold"
    if options.underline_second:
        caption += ", second best underlined"
    if options.ci:
        caption += f"; [low, high]: the {CI_LEVEL:.0%} t confidence interval of the mean"
    params["caption"] = caption + "."
    foot = []
    bad: dict[tuple, list[str]] = {}
    for m in measures:
        if perm.get(m) is False and m in shown:
            bad.setdefault((used[m], scales.get(m)), []).append(m)
    if bad:
        foot.append("† " + "; ".join(
            f"the {registry._SHORT.get(t, t)} is not permissible for {_join(ms)} ({sc} "
            f"scale; it needs an {registry.requirement(t)} scale)"
            for (t, sc), ms in bad.items())
            + "; Ferrante et al. 2021.  The marks are computed, not hidden.")
    unknown = [m for m in measures if perm.get(m) is None and m in used and m in shown]
    if unknown:
        foot.append(f"? scale unknown for {', '.join(unknown)} (--scores-scale declares it): "
                    f"whether the test is permissible is not known.")
    params["footnotes"] = foot
    return params


def run_scores(scores, options: Options, progress=None) -> Report:
    """:func:`run` on an :class:`ipsoeval.engine.Scores` (every measure it holds)."""
    from ipsoeval.engine import with_score_warnings
    from ipsoeval.stats.scales import measure_scale

    aligned = scores.aligned
    mats, scales, higher, notes = {}, {}, {}, []
    for m in scores.measures:
        if m.name in mats:
            continue
        agg = getattr(m, "agg", "mean")
        if agg not in ("mean", "mean_defined"):
            raise UsageError(f"compare tabulates means; {m.name} is aggregated as a {agg}")
        mats[m.name] = np.asarray(scores.matrix(m.name), dtype=np.float64)
        scales[m.name], why = measure_scale(m, aligned)
        if why:
            notes.append(why)
        higher[m.name] = bool(m.higher_is_better)
    out = run(list(aligned.runs), len(aligned.topics), mats, scales, higher, options,
              progress=progress)
    out.note(*notes)
    return with_score_warnings(out, scores)
