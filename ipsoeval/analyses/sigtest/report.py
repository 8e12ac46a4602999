"""``ipsoeval sigtest``: paired significance tests that know the measure's scale.

Input: per-topic score matrices (runs × topics) per measure, from
``engine.evaluate``.  Output: a :class:`~ipsoeval.results.Report` with the
long table ``tests``, a record per (pair, measure, test) (people see it
wide: :func:`wide_table`), with ``scale="both"`` the table ``flips`` of
decisions that flip between the original and the interval-mapped values
(Ferrante et al. 2021, Tables 5–6), and the CI gate's decision.

Without ``--test`` each (pair, measure) is tested once, with the test its
scale permits (:func:`ipsoeval.stats.registry.default_test`: t for interval
and ratio scales, sign for ordinal ones); the record's ``why`` says which
and why, and the correction family is the rows reported.  With ``--test``
every named test runs, and each test's rows are their own family (tests that
are alternatives to each other are not corrected together).

Tests, the scale each requires and their aliases are those of the test
registry (:mod:`ipsoeval.stats.registry`; ``ipsoeval sigtest --help`` lists
them): paired t, Wilcoxon signed-rank, sign, rank-sum, randomization and
bootstrap compare two runs; anova, kruskal, anova2 and friedman compare
three or more.

The omnibus tests (last four) give one record with run_a = run_b = "*" and,
for each compared pair, a record with the Tukey HSD statistic and p-value
(already adjusted for all pairs of runs of that measure, so they are left out
of ``--correct``'s family and their p_adjusted equals p_value).
"""

from __future__ import annotations

from functools import partial
from typing import Callable

import numpy as np

from ipsoeval.analyses.sigtest import DEFAULT_TEXT, OMNIBUS, PAIRWISE, TESTS  # noqa: F401
from ipsoeval.analyses.sigtest.common import (  # noqa: F401  (the package's names)
    BOUNDS_COLUMNS,
    COLUMNS,
    FLIP_COLUMNS,
    MAX_SAMPLES,
    SCALES,
    TESTS_DESCRIPTION,
    Options,
    decide_gate,
    family_key,
    family_text,
    make_options,
    pairs_of,
    parse_tests,
    report_params,
    undefined_warning,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Composed, Report, ResultSet
from ipsoeval.stats import registry


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if np.isnan(x) else x


def _floats(a) -> list:
    """Python floats of an array, None for NaN."""
    return [None if x != x else x for x in np.asarray(a, dtype=np.float64).reshape(-1).tolist()]


def _pairwise(test: str, A: np.ndarray, B: np.ndarray, options: Options):
    return registry.run(test, A, B, alternative=options.alternative, samples=options.samples,
                        seed=options.seed)


def _analyse(runs: list[str], matrices: dict[str, np.ndarray], scales: dict[str, str | None],
             options: Options, pairs: list[tuple[int, int]], warnings: list[str],
             progress: Callable | None, scale_label: str | None) -> list[dict]:
    """Records (with p_adjusted filled) for one scale."""
    from ipsoeval.stats.corrections import adjust
    from ipsoeval.stats.descriptive import paired_summary

    ia = np.array([p[0] for p in pairs], dtype=np.int64)
    ib = np.array([p[1] for p in pairs], dtype=np.int64)
    records: list[dict] = []
    in_family: list[str | None] = []
    total = sum(len(options.tests_for(scales.get(m))) for m in matrices)
    done = 0
    undefined: dict[str, int] = {}
    for mname, M in matrices.items():
        M = np.asarray(M, dtype=np.float64)
        A, B = M[ia], M[ib]
        summ = paired_summary(A, B, options.level)
        base = []
        c_n, c_w, c_t, c_l = (summ.n.tolist(), summ.wins.tolist(), summ.ties.tolist(),
                              summ.losses.tolist())
        c_ma, c_mb, c_d, c_lo, c_hi, c_e = (_floats(x) for x in (
            summ.mean_a, summ.mean_b, summ.diff, summ.ci_low, summ.ci_high, summ.effect_size))
        for k in range(len(pairs)):
            base.append({
                "run_a": runs[ia[k]], "run_b": runs[ib[k]], "measure": mname,
                "n": c_n[k], "mean_a": c_ma[k], "mean_b": c_mb[k], "diff": c_d[k],
                "ci_low": c_lo[k], "ci_high": c_hi[k], "effect_size": c_e[k],
                "wins": c_w[k], "ties": c_t[k], "losses": c_l[k],
            })
        per_test: dict[str, tuple[np.ndarray, np.ndarray, bool]] = {}
        omni_rows: list[dict] = []
        mtests = options.tests_for(scales.get(mname))
        why = None if options.tests else registry.default_test(scales.get(mname))[1]
        for test in mtests:
            perm = registry.permissible(scales.get(mname), test)
            if test in PAIRWISE:
                res = _pairwise(test, A, B, options)
                stat = np.asarray(res.statistic, dtype=np.float64).reshape(-1)
                pv = np.asarray(res.pvalue, dtype=np.float64).reshape(-1)
                per_test[test] = (stat, pv, True)
            else:
                X = M
                keep = ~np.isnan(X).any(axis=0)
                if keep.sum() < 2:
                    res = None
                    stat = np.full(len(pairs), np.nan)
                    pv = np.full(len(pairs), np.nan)
                else:
                    res = registry.omnibus(test, X)
                    tk = registry.tukey(test, X, res)
                    stat = tk.statistic[ia, ib]
                    pv = tk.pvalue[ia, ib]
                per_test[test] = (stat, pv, False)
                omni_rows.append({
                    "run_a": "*", "run_b": "*", "measure": mname, "test": test,
                    "n": int(keep.sum()), "mean_a": None, "mean_b": None, "diff": None,
                    "ci_low": None, "ci_high": None, "effect_size": None, "wins": None,
                    "ties": None, "losses": None,
                    "statistic": _f(res.statistic) if res else None,
                    "p_value": _f(res.pvalue) if res else None,
                    "p_adjusted": None, "significant": False, "permissible": perm,
                })
                if res is None or np.isnan(res.pvalue):
                    undefined[test] = undefined.get(test, 0) + 1
            nbad = int(np.isnan(pv).sum())
            if nbad:
                undefined[test] = undefined.get(test, 0) + nbad
            done += 1
            if progress is not None:
                progress(done, total)
        cols = {}
        for test in mtests:
            stat, pv, fam = per_test[test]
            cols[test] = (_floats(stat), _floats(pv), fam,
                          registry.permissible(scales.get(mname), test))
        for k in range(len(pairs)):
            for test in mtests:
                stats_, ps, fam, perm = cols[test]
                rec = dict(base[k])
                rec["test"] = test
                rec["statistic"] = stats_[k]
                rec["p_value"] = ps[k]
                rec["p_adjusted"] = None if fam else ps[k]
                rec["significant"] = False
                rec["permissible"] = perm
                if why is not None:
                    rec["why"] = why
                records.append(rec)
                in_family.append(family_key(rec, options))
        for rec in omni_rows:
            records.append(rec)
            in_family.append(family_key(rec, options))
    # correction within each family (family_key)
    for key in dict.fromkeys(f for f in in_family if f is not None):
        fam_idx = [i for i, f in enumerate(in_family) if f == key]
        raw = np.array([np.nan if records[i]["p_value"] is None else records[i]["p_value"]
                        for i in fam_idx], dtype=np.float64)
        adj = adjust(raw, options.correct) if raw.size else raw
        for i, p in zip(fam_idx, adj):
            records[i]["p_adjusted"] = _f(p)
    for rec in records:
        p = rec["p_adjusted"]
        rec["significant"] = bool(p is not None and p < options.alpha)
        if scale_label is not None:
            rec["scale"] = scale_label
    for test, count in undefined.items():
        warnings.append(undefined_warning(test, count, scale_label))
    return records


def _bounds_check(records: list[dict], runs: list[str], matrices: dict, bound_matrices: dict,
                  options: Options, lower_better: set[str], warnings: list[str]) -> None:
    """Fill ``p_bounds`` and ``survives_bounds`` of each record: the test run again
    with, on every topic, the winner of the pair (by the sign of diff) at its
    ``low`` and the loser at its ``high`` (the other way round where a smaller
    value is better), the p-values corrected over the same family as
    ``p_adjusted``.  ``survives_bounds``: still significant, with the same
    winner; None where the result was not significant (or is a Tukey HSD
    row, or a bound is undefined)."""
    from ipsoeval.stats.corrections import adjust

    index = {r: i for i, r in enumerate(runs)}
    worst: dict[int, float] = {}
    flipped: dict[int, bool] = {}
    undefined = 0
    by_key: dict[tuple[str, str], list[int]] = {}
    for n, rec in enumerate(records):
        rec["p_bounds"] = None
        rec["survives_bounds"] = None
        if rec["run_a"] != "*" and rec["test"] in PAIRWISE:
            by_key.setdefault((rec["measure"], rec["test"]), []).append(n)
    for (mname, test), rows in by_key.items():
        low, high = (np.asarray(x, dtype=np.float64) for x in bound_matrices[mname])
        ia = np.array([index[records[n]["run_a"]] for n in rows])
        ib = np.array([index[records[n]["run_b"]] for n in rows])
        d = np.array([np.nan if records[n]["diff"] is None else records[n]["diff"]
                      for n in rows])
        if mname in lower_better:
            d = -d
        b_wins = (d > 0)[:, None]
        A = np.where(b_wins, high[ia], low[ia])       # the loser at its best …
        B = np.where(b_wins, low[ib], high[ib])       # … the winner at its worst
        res = _pairwise(test, A, B, options)
        pv = np.asarray(res.pvalue, dtype=np.float64).reshape(-1)
        with np.errstate(invalid="ignore"):
            wd = np.nanmean(B - A, axis=1) if A.shape[1] else np.full(len(rows), np.nan)
        wd = np.where(b_wins[:, 0], wd, -wd)          # the winner's margin
        M = np.asarray(matrices[mname], dtype=np.float64)
        lost = (np.isnan(A) & ~np.isnan(M[ia])) | (np.isnan(B) & ~np.isnan(M[ib]))
        for k, n in enumerate(rows):
            if d[k] == 0 or np.isnan(d[k]):
                continue
            if lost[k].any():
                undefined += 1
                continue
            worst[n] = float(pv[k])
            flipped[n] = not (wd[k] > 0)
    keys = [family_key(rec, options) for rec in records]
    fam, adj = [], []
    for key in dict.fromkeys(k for k in keys if k is not None):
        idx = [n for n, k in enumerate(keys) if k == key]
        raw = np.array([worst.get(n, np.nan if records[n]["p_value"] is None
                                  else records[n]["p_value"]) for n in idx], dtype=np.float64)
        fam += idx
        adj += list(adjust(raw, options.correct) if raw.size else raw)
    for n, p in zip(fam, adj):
        if n not in worst:
            continue
        rec = records[n]
        rec["p_bounds"] = _f(p)
        if rec["significant"]:
            rec["survives_bounds"] = bool(p == p and p < options.alpha and not flipped[n])
    if undefined:
        warnings.append(f"--bounds: {undefined} comparison(s) left without p_bounds: a "
                        f"bound is undefined (see ipsoeval eval --bounds)")


def _flips(orig: list[dict], interval: list[dict], options: Options) -> list[dict]:
    """S2NS / NS2S counts per (measure, test) over the pair records."""
    out: dict[tuple[str, str], dict] = {}
    key_of = {}
    for rec in interval:
        if rec["run_a"] == "*":
            continue
        key_of[(rec["run_a"], rec["run_b"], rec["measure"], rec["test"])] = rec["significant"]
    for rec in orig:
        if rec["run_a"] == "*":
            continue
        k = (rec["measure"], rec["test"])
        row = out.setdefault(k, {"measure": k[0], "test": k[1], "pairs": 0, "sig_original": 0,
                                 "sig_interval": 0, "s2ns": 0, "ns2s": 0, "changed": None})
        s_o = rec["significant"]
        s_i = key_of.get((rec["run_a"], rec["run_b"], rec["measure"], rec["test"]), False)
        row["pairs"] += 1
        row["sig_original"] += int(s_o)
        row["sig_interval"] += int(s_i)
        row["s2ns"] += int(s_o and not s_i)
        row["ns2s"] += int(s_i and not s_o)
    for row in out.values():
        if row["sig_original"]:
            row["changed"] = (row["s2ns"] + row["ns2s"]) / row["sig_original"]
    return list(out.values())


def run(runs: list[str], matrices: dict[str, np.ndarray], scales: dict[str, str | None],
        options: Options, *, interval_matrices: dict[str, np.ndarray] | None = None,
        lower_better: set[str] | None = None, topics: int | None = None,
        progress: Callable | None = None, bound_matrices: dict | None = None) -> Report:
    """Run every requested test on every pair and measure: a Report with the
    table ``tests`` (primary; one record per pair, measure and test) and, with
    ``scale="both"``, ``flips``; ``report.gate`` with ``fail_if``.

    ``matrices``: measure name → (runs, topics) float array (NaN = undefined);
    ``scales``: measure name → "ordinal" | "interval" | "ratio" | None;
    ``interval_matrices``: the interval-mapped matrices (needed for
    ``scale`` interval/both); ``lower_better``: names of measures where a
    smaller value is better (for ``fail_if="worse"`` and ``bounds``);
    ``bound_matrices``: measure name → (low, high) matrices (needed for
    ``options.bounds``: the columns p_bounds and survives_bounds).
    """
    options.check(runs)
    if options.scale != "original" and interval_matrices is None:
        raise UsageError("--scale interval/both needs the interval-mapped scores")
    lower_better = lower_better or set()
    pairs = pairs_of(runs, options)
    warnings: list[str] = []
    results: list[ResultSet] = []
    columns = list(COLUMNS)
    if options.scale == "both":
        columns.insert(columns.index("measure") + 1, "scale")
    orig = inter = None
    if options.scale in ("original", "both"):
        orig = _analyse(runs, matrices, scales, options, pairs, warnings, progress,
                        "original" if options.scale == "both" else None)
    if options.scale in ("interval", "both"):
        iscales = {m: "interval" for m in interval_matrices}
        inter = _analyse(runs, interval_matrices, iscales, options, pairs, warnings, progress,
                         "interval" if options.scale == "both" else None)
    if options.bounds:
        if bound_matrices is None:
            raise UsageError("--bounds needs the qrels and the runs (the low and high values)")
        columns.extend(BOUNDS_COLUMNS)
        _bounds_check(orig, runs, matrices, bound_matrices, options, lower_better, warnings)
    records = (orig or []) + (inter or [])
    if not options.tests:
        columns.append("why")
    used = list(dict.fromkeys(r["test"] for r in records))
    params = report_params(runs, pairs, list(matrices), scales, options, used)
    if topics is not None:
        params["topics"] = topics
    tests = ResultSet(
        command="sigtest", columns=columns, records=records, params=params,
        title="Significance tests (diff = B − A)", id="tests", description=TESTS_DESCRIPTION,
        table_hints={"digits": 4,
                     "cell_styles": {"significant": {"yes": "bold green"},
                                     "permissible": {"no": "bold red"}}})
    tests.view = wide_table(tests)
    results.append(tests)
    if options.scale == "both":
        results.append(ResultSet(
            command="sigtest", columns=list(FLIP_COLUMNS), records=_flips(orig, inter, options),
            params={"alpha": options.alpha, "correction": options.correct,
                    "changed": "(s2ns + ns2s) / sig_original"},
            title="Decisions flipped by the interval mapping (S2NS: significant → not; "
                  "NS2S: not → significant)", id="flips",
            description="per measure and test, significant pairs on the original and the "
                        "interval-mapped values and the decisions that flip"))
    gate = None
    if options.fail_if is not None:
        gate = decide_gate(orig if orig is not None else inter, params["baseline"], matrices,
                           options, lower_better)
    return Report("sigtest", results, primary="tests", warnings=warnings, gate=gate)


def run_aligned(aligned, measures, options: Options, progress: Callable | None = None) -> Report:
    """Evaluate ``measures`` (names or Requested) on ``aligned`` and run :func:`run`."""
    from ipsoeval import engine

    options.check(list(aligned.runs))
    return run_scores(engine.evaluate(aligned, measures), options, progress=progress)


def run_scores(scores, options: Options, progress: Callable | None = None) -> Report:
    """:func:`run` on an :class:`ipsoeval.engine.Scores` (every measure it holds)."""
    aligned = scores.aligned
    options.check(list(aligned.runs))
    interval = None
    from ipsoeval.stats.scales import measure_scale

    scale_notes: list[str] = []
    names: list[str] = []
    scales: dict[str, str | None] = {}
    lower: set[str] = set()
    mats: dict[str, np.ndarray] = {}
    for m in scores.measures:
        if m.name in mats:
            continue
        names.append(m.name)
        mats[m.name] = scores.matrix(m.name)
        scales[m.name], why = measure_scale(m, aligned)
        if why:
            scale_notes.append(why)
        if not m.higher_is_better:
            lower.add(m.name)
    # a measure's scale is what the method implies (a note); Monte Carlo
    # means and ties the order moves are what these inputs do (warnings)
    from ipsoeval.engine import score_warnings
    map_warnings: list[str] = score_warnings(scores)
    if options.scale != "original" and aligned.label_mode != "integer":
        from ipsoeval.errors import UsageError
        raise UsageError(f"--scale {options.scale} maps measures through their integer-label "
                         f"values (interval-map): it needs --labels integer")
    bnd = None
    if options.bounds:
        from ipsoeval.measures.bounds import bounds as measure_bounds
        bnd = {m.name: measure_bounds(aligned, m, mats[m.name], map_warnings)
               for m in scores.measures if m.name in mats}
    if options.scale != "original":
        from ipsoeval.analyses.interval_map import mapped_matrices
        interval = mapped_matrices(aligned, [m for m in scores.measures if m.name in mats],
                                   warnings=map_warnings)
        interval = {k: np.asarray(v, dtype=np.float64) for k, v in interval.items()}
    out = run(list(aligned.runs), mats, scales, options, interval_matrices=interval,
              lower_better=lower, topics=len(aligned.topics), progress=progress,
              bound_matrices=bnd)
    out.warnings[:0] = [w for w in map_warnings if w not in out.warnings]
    out.note(*scale_notes)
    return out


def _interval_at(low: float, high: float, digits: int) -> str:
    from ipsoeval.formatters.values import decimals
    return "..".join(("+" if x >= 0 else "") + decimals(x, digits) for x in (low, high))


def _interval(low: float, high: float) -> Composed:
    """``+0.027..+0.067``: 3 decimals, or ``--digits``."""
    return Composed(f"{low:+.3f}..{high:+.3f}", partial(_interval_at, low, high))


def _marked_at(p: float, mark: str, digits: int) -> str:
    from ipsoeval.formatters.values import p_text
    return p_text(p, digits) + mark


def _marked(p: float, mark: str) -> Composed:
    """A p-value with its marks: 2 significant digits, or ``--digits``
    (:func:`ipsoeval.formatters.values.p_text`)."""
    return Composed(f"{p:.2g}{mark}", partial(_marked_at, p, mark))


def wide_table(rs: ResultSet) -> ResultSet:
    """The long records of :func:`run` as one row per (pair, measure) with, per
    test, the (corrected) p-value with a significance mark
    ("*": significant, "†": the test is not permissible for the measure's
    scale).  For ``--format table`` only; tsv/json keep the long records."""
    tests: list[str] = []
    rows: dict[tuple, dict] = {}
    has_scale = "scale" in rs.columns
    by_scale = "why" in rs.columns          # no --test: one test per pair and measure
    whys: dict[str, list[str]] = {}
    unknown = False
    bounded = False
    corrected = rs.params.get("correction", "none") != "none"
    for rec in rs.records:
        t = rec["test"]
        if t not in tests:
            tests.append(t)
        key = (rec.get("scale"), rec["measure"], rec["run_a"], rec["run_b"])
        row = rows.get(key)
        if row is None:
            row = {"run_a": rec["run_a"], "run_b": rec["run_b"], "measure": rec["measure"],
                   "n": rec["n"], "mean_a": rec["mean_a"], "mean_b": rec["mean_b"],
                   "diff": rec["diff"],
                   "ci95": None if rec["ci_low"] is None else
                   _interval(rec["ci_low"], rec["ci_high"]),
                   "effect_size": rec["effect_size"],
                   "w/t/l": None if rec["wins"] is None else
                   f"{rec['wins']}/{rec['ties']}/{rec['losses']}"}
            if has_scale:
                row["scale"] = rec.get("scale")
            rows[key] = row
        p = rec["p_adjusted"]
        mark = ("*" if rec["significant"] else "") + ("†" if rec["permissible"] is False else "")
        if rec.get("survives_bounds") is False:     # --bounds: not in the worst case
            mark += "!"
            bounded = True
        if rec["permissible"] is None:      # --scores: the measure's scale is unknown
            mark += "?"
            unknown = True
        if by_scale:
            row["test"], row["p"] = t, None if p is None else _marked(p, mark)
            whys.setdefault(rec.get("why"), []).append(rec["measure"])
        else:
            row[f"{t}:p"] = None if p is None else _marked(p, mark)
    cols = ["run_a", "run_b", "measure"] + (["scale"] if has_scale else []) + \
        ["n", "mean_a", "mean_b", "diff", "ci95", "effect_size", "w/t/l"]
    groups: list = []
    labels = {"effect_size": "effect", "measure": "measure"}
    if by_scale:
        cols += ["test", "p"]
    for t in [] if by_scale else tests:
        cols.append(f"{t}:p")
        labels[f"{t}:p"] = t
    records = [{c: r.get(c) for c in cols} for r in rows.values()]
    family = rs.params.get("correction_family", "")
    title = (f"{rs.title or ''}; "
             + ("p-value of the test the measure's scale permits" if by_scale
                else "p-values per test")
             + (f" ({rs.params.get('correction')}-corrected over {family})" if corrected
                else "")
             + f": * significant at alpha {rs.params.get('alpha')}"
             + "; † not permissible for the measure's scale"
             + ("; ? scale unknown (--scores-scale declares it)" if unknown else "")
             + "".join(f"; {', '.join(dict.fromkeys(ms))}: {why}" for why, ms in whys.items())
             + ("; ! not significant with the unjudged documents at their worst for the "
                "winner (--bounds)" if bounded else ""))
    return ResultSet(command=rs.command, columns=cols, records=records, params=rs.params,
                     title=title, table_hints={"digits": 4, "groups": groups, "labels": labels,
                                               "sign_styles": {"diff": {"positive": "green",
                                                                        "negative": "red"}}})
