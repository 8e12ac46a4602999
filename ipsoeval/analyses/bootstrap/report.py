"""Leaderboard stability and reliability: ``ipsoeval bootstrap``.

Craswell, Mitra, Yilmaz, Campos and Lin (2021), "MS MARCO: Benchmarking
Ranking Models in the Large-Data Regime", §3.1–3.2 and §4.3:

* rank stability — B trials, each resampling the topics with replacement to
  the original size and ranking all runs by mean score (Tables 1–2,
  Figure 3);
* bootstrap confidence intervals of each run's mean and, against a baseline,
  of each paired difference (percentile or BCa);
* query subsets — the expected rank on named subsets of topics side by side
  (public vs private leaderboard, §3.2, Figure 4);
* split-half reliability of significance tests (§4.3, Table 4).

The numerical core is in :mod:`bootstrap_resample` and
:mod:`bootstrap_splithalf` (plain arrays); this module turns per-topic score
matrices into :class:`~ipsoeval.results.ResultSet` records.
"""

from __future__ import annotations

import math
import os
import re
from typing import Callable

import numpy as np

from ipsoeval import reading
from ipsoeval.analyses.bootstrap import resample as br
from ipsoeval.analyses.bootstrap import splithalf as sh
from ipsoeval.analyses.bootstrap.options import (  # noqa: F401
    CI_METHODS,
    MAX_SAMPLES,
    MAX_SPLITS,
    Options,
    make_options,
    parse_list,
    parse_tests,
)
from ipsoeval.analyses.bootstrap.resample import MeasureInput
from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_id
from ipsoeval.results import Report, ResultSet
from ipsoeval.stats import registry

COMMAND = "bootstrap"
TESTS = sh.TESTS
AGGREGATES = sh.AGGREGATES
TEST_TITLES = {"sign": "sign", "ranksum": "rank-sum", "wilcoxon": "signed-rank", "t": "t"}

SUMMARY_COLUMNS = ["run", "measure", "mean", "leaderboard_rank", "expected_rank",
                   "rank_ci_low", "rank_ci_high", "p_top", "ci_low", "ci_high"]
BASELINE_COLUMNS = ["baseline", "diff", "diff_ci_low", "diff_ci_high"]
RANK_COLUMNS = ["run", "measure", "rank", "probability"]
SPLIT_COLUMNS = ["measure", "test", "aggregate", "agree", "partial", "disagree",
                 "pct_significant", "permissible"]

# Measure families where a smaller value is better.
# Aggregates that are a mean over topics (the only ones a bootstrap of the
# mean reproduces).
_MEAN_AGGS = {"mean", "mean_defined"}

Progress = Callable[[int, int], None]
Warn = Callable[[str], None]


def subset_path(spec: str) -> str:
    """The FILE of a ``[NAME=]FILE`` --queries-file argument."""
    if not os.path.exists(spec) and "=" in spec:
        return spec.split("=", 1)[1]
    return spec


# ------------------------------------------------------------ query subsets

_NAME_OK = re.compile(r"[^a-z0-9]+")


def subset_name(text: str) -> str:
    """lower_snake_case column suffix for a subset name."""
    s = _NAME_OK.sub("_", text.lower()).strip("_")
    return s or "subset"


def read_query_subset(spec: str) -> tuple[str, list[str]]:
    """Read ``[NAME=]FILE``: topic ids, the first field of each line (blank
    lines and lines starting with ``#`` skipped), so a plain list of ids and
    an MS MARCO ``qid<TAB>text`` queries file both work.  NAME defaults to
    the file name without directory and extensions."""
    path, name = spec, None
    if subset_path(spec) != spec:
        name, path = spec.split("=", 1)
    if name is None:
        base = os.path.basename(path)
        name = base.split(".")[0] or base
    name = subset_name(name)
    data = reading.read_bytes(path)          # InputError for unreadable files
    qids: list[str] = []
    seen = set()
    for line in data.split(b"\n"):
        s = line.strip()
        if not s or s.startswith(b"#"):
            continue
        q = decode_id(s.split()[0])            # ids as bytes (ipsoeval.ids)
        if q not in seen:
            seen.add(q)
            qids.append(q)
    if not qids:
        raise InputError("queries file lists no topics (found an empty file)",
                         path=reading.display_name(path))
    return name, qids


# ----------------------------------------------------------- measure facts

def higher_is_better(measure) -> bool:
    """Whether a larger value is better (False for ESL); names are parsed."""
    if isinstance(measure, str):
        from ipsoeval.measures import parse_measure
        measure = parse_measure(measure)
    return bool(measure.higher_is_better)


def _check_measure(measure) -> None:
    agg = getattr(measure, "agg", "mean")
    if agg not in _MEAN_AGGS:
        raise UsageError(f"bootstrap ranks runs by their mean; {measure.name} is aggregated "
                         f"as a {agg} (found {measure.name})")


# ------------------------------------------------------------------ helpers

def _f(v) -> float | None:
    """Python float, None for NaN/inf (undefined)."""
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


class _Phases:
    """Maps several phases of work onto one progress(done, total) callback."""

    def __init__(self, progress: Progress | None, sizes: list[int]):
        self.progress = progress
        self.total = max(1, sum(sizes))
        self.offset = 0
        self.sizes = sizes
        self.i = 0

    def phase(self) -> Progress | None:
        if self.progress is None:
            return None
        start = self.offset
        size = self.sizes[self.i]
        self.offset += size
        self.i += 1
        total = self.total
        progress = self.progress

        def cb(done: int, of: int) -> None:
            frac = 0.0 if of <= 0 else min(done / of, 1.0)
            progress(start + int(round(frac * size)), total)

        return cb

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.total, self.total)


# ------------------------------------------------------------ main analysis

def analyse(runs: list[str], topics: list[str], measures: list[MeasureInput],
            options: Options, progress: Progress | None = None,
            warn: Warn | None = None) -> Report:
    """All analyses on plain score matrices: a Report with the tables
    ``leaderboard`` (the per-run summary), ``rank_probabilities`` (long rows)
    and, with ``options.split_half``, ``split_half`` (agreement rates).  The
    primary table is split_half with ``split_half``, rank_probabilities with
    ``ranks``, else the leaderboard; people see the leaderboard and the rank
    probabilities, or the chosen table (split-half in the paper's layout).
    """
    options.check(list(runs))
    R, T = len(runs), len(topics)
    if R == 0 or T == 0:
        raise UsageError(f"bootstrap needs runs and topics (found {R} runs, {T} topics)")
    base_idx = runs.index(options.baseline) if options.baseline is not None else None
    if options.split_half and R < 2:
        raise UsageError(f"--split-half compares pairs of runs (found {R} run)")
    if options.split_half and T < 2:
        raise UsageError(f"--split-half needs at least two topics (found {T})")

    warnings: list[str] = []      # in the report (and to ``warn`` as they come)
    # subsets: topic indices
    subsets: list[tuple[str, np.ndarray]] = []
    pos = {t: i for i, t in enumerate(topics)}
    for name, qids in options.subsets:
        idx = [pos[q] for q in qids if q in pos]
        missing = len(qids) - len(idx)
        if missing:
            warnings.append(f"queries file {name!r}: {missing} of {len(qids)} topics are not "
                            f"among the {T} evaluated topics; left out")
        if not idx:
            raise UsageError(f"queries file {name!r} shares no topic with the evaluated topics "
                             f"(found 0 of {len(qids)})")
        subsets.append((name, np.array(sorted(idx), dtype=np.int64)))

    work = [options.samples] + [options.samples] * len(subsets)
    work += [options.split_half] * len(measures) if options.split_half else []
    phases = _Phases(progress, work)

    mats = [np.asarray(m.scores, dtype=np.float64) for m in measures]
    for m, x in zip(measures, mats):
        if x.shape != (R, T):
            raise ValueError(f"scores of {m.name} have shape {x.shape}, expected {(R, T)}")

    # one pass of B trials for every measure (and paired differences)
    blocks = list(mats)
    if base_idx is not None:
        blocks += [br.paired_differences(x, base_idx) for x in mats]
    trial = br.bootstrap_means(blocks, options.samples, options.seed, progress=phases.phase())
    trial_means = trial[:len(mats)]
    trial_diffs = trial[len(mats):]

    # subsets: their own resamples (seeded independently of the main trials)
    sub_stab: list[list[br.RankStability]] = []
    for k, (name, idx) in enumerate(subsets):
        rng = np.random.default_rng(np.random.SeedSequence(options.seed, spawn_key=(1, k)))
        sub_mats = [x[:, idx] for x in mats]
        tm = br.bootstrap_means(sub_mats, options.samples, options.seed,
                                progress=phases.phase(), rng=rng)
        sub_stab.append([br.rank_stability(sx, t, m.higher_is_better, br.tie_tolerance(x))
                         for sx, t, m, x in zip(sub_mats, tm, measures, mats)])

    summary_cols = list(SUMMARY_COLUMNS)
    if base_idx is not None:
        summary_cols += BASELINE_COLUMNS
    for name, _ in subsets:
        summary_cols += [f"mean_{name}", f"leaderboard_rank_{name}", f"expected_rank_{name}"]

    summary: list[dict] = []
    rank_rows: list[dict] = []
    top = R if options.top == 0 else min(options.top, R)
    for mi, (m, x) in enumerate(zip(measures, mats)):
        tol = br.tie_tolerance(x)
        stab = br.rank_stability(x, trial_means[mi], m.higher_is_better, tol)
        low, high = stab.rank_interval(options.ci)
        ci_lo, ci_hi = br.bootstrap_ci(x, trial_means[mi], options.ci, options.ci_method, tol)
        if base_idx is not None:
            d = br.paired_differences(x, base_idx)
            d_mean = br.nanmean_rows(d)
            d_lo, d_hi = br.bootstrap_ci(d, trial_diffs[mi], options.ci, options.ci_method, tol)
        exp = stab.expected_rank
        order = np.lexsort((np.arange(R), stab.leaderboard_rank))
        probs = stab.probabilities
        for r in order:
            rec = {
                "run": runs[r], "measure": m.name, "mean": _f(stab.means[r]),
                "leaderboard_rank": int(stab.leaderboard_rank[r]),
                "expected_rank": _f(exp[r]),
                "rank_ci_low": int(low[r]), "rank_ci_high": int(high[r]),
                "p_top": _f(stab.p_first[r]), "ci_low": _f(ci_lo[r]), "ci_high": _f(ci_hi[r]),
            }
            if base_idx is not None:
                is_base = r == base_idx
                rec.update(baseline=runs[base_idx],
                           diff=None if is_base else _f(d_mean[r]),
                           diff_ci_low=None if is_base else _f(d_lo[r]),
                           diff_ci_high=None if is_base else _f(d_hi[r]))
            for (name, _), stabs in zip(subsets, sub_stab):
                s = stabs[mi]
                rec[f"mean_{name}"] = _f(s.means[r])
                rec[f"leaderboard_rank_{name}"] = int(s.leaderboard_rank[r])
                rec[f"expected_rank_{name}"] = _f(s.expected_rank[r])
            summary.append(rec)
            for k in range(top):
                rank_rows.append({"run": runs[r], "measure": m.name, "rank": k + 1,
                                  "probability": float(probs[r, k])})

    params = dict(options.as_params())
    params.update(measures=[m.name for m in measures], runs=R, topics=T,
                  rank_note=registry.rank_ci_note(options.ci))
    trials_txt = f"{options.samples:,} bootstrap trials over {T:,} topics"
    results = [
        ResultSet(COMMAND, summary_cols, summary, params=params,
                  title=f"Leaderboard under {trials_txt} (seed {options.seed}); "
                        f"{options.ci:.0%} {options.ci_method} CIs; rank_ci_low..rank_ci_high: "
                        f"{options.ci:.0%} percentile interval of the rank",
                  id="leaderboard",
                  description="per run and measure: mean, leaderboard and expected rank, "
                              "percentile bootstrap interval of the rank (rank_ci_low.."
                              "rank_ci_high), share of trials at rank 1, CI of the mean",
                  table_hints={"digits": 4,
                               "heatmap": {"columns": ["p_top"], "low": 0.0, "high": 1.0},
                               "hide": ["baseline"] if base_idx is not None else []}),
        ResultSet(COMMAND, list(RANK_COLUMNS), rank_rows, params=dict(params),
                  title=f"Rank under bootstrapping: P(rank = k), {trials_txt}",
                  id="rank_probabilities",
                  description="per run, measure and rank (up to --top): the share of "
                              "trials with the run at that rank",
                  table_hints={"digits": 3,
                               "pivot": {"index": ["run", "measure"], "columns": "rank",
                                         "values": "probability"},
                               "heatmap": {"columns": [str(k + 1) for k in range(top)],
                                           "low": 0.0, "high": 1.0}}),
    ]

    if options.split_half:
        rows: list[dict] = []
        rng_seed = np.random.SeedSequence(options.seed, spawn_key=(2,))
        h = sh.split_matrix(np.random.default_rng(rng_seed), T, options.split_half)
        chosen = {}
        for m, x in zip(measures, mats):
            tests = options.tests or (registry.default_for(m.scale, TESTS),)
            chosen[m.name] = (tests[0], m.scale)
            rates = sh.split_half(x, options.split_half, None, tests=tests,
                                  aggregates=options.aggregates, alpha=options.alpha,
                                  higher_is_better=m.higher_is_better,
                                  progress=phases.phase(), h=h)
            for rt in rates:
                rows.append({"measure": m.name, "test": rt.test, "aggregate": rt.aggregate,
                             "agree": _f(rt.agree), "partial": _f(rt.partial),
                             "disagree": _f(rt.disagree),
                             "pct_significant": _f(rt.pct_significant),
                             "permissible": registry.permissible(m.scale, rt.test)})
        sp = dict(params)
        sp.update(pairs=R * (R - 1) // 2, half_sizes=[T // 2, T - T // 2])
        if not options.tests:
            sp["tests"] = {k: t for k, (t, _) in chosen.items()}
        sp["test_note"] = (registry.describe_choice(chosen) if not options.tests
                           else registry.describe_choice(chosen, given=True)
                           if len(options.tests) == 1
                           else f"Tests: {', '.join(options.tests)} (named by --test).")
        split = ResultSet(
            COMMAND, list(SPLIT_COLUMNS), rows, params=sp,
            title=f"Split-half agreement (%), {options.split_half} splits x "
                  f"{R * (R - 1) // 2} pairs, alpha {options.alpha}",
            id="split_half",
            description="per measure, test and aggregate: split-half agreement rates (%) of "
                        "significance decisions",
            table_hints={"digits": 1,
                         "cell_styles": {"permissible": {"no": "red"}}})
        split.view = table4(split)
        results.append(split)
    phases.finish()
    primary = primary_id(options)
    display = [primary] if primary != "leaderboard" else ["leaderboard", "rank_probabilities"]
    if warn is not None:
        for w in warnings:
            warn(w)
    return Report(COMMAND, results, primary=primary, display=display, warnings=warnings)


def primary_id(options: Options) -> str:
    """The table tsv/jsonl print: split-half rows, rank rows, or the leaderboard."""
    if options.split_half:
        return "split_half"
    if options.ranks:
        return "rank_probabilities"
    return "leaderboard"


def table4(rs: ResultSet) -> ResultSet:
    """Split-half rows in the layout of the paper's Table 4: one row per rate,
    one column per test (and aggregate), one block per measure."""
    cols: list[str] = []
    for rec in rs.records:
        key = TEST_TITLES[rec["test"]] + ("" if rec["aggregate"] == "mean" else " med.")
        if key not in cols:
            cols.append(key)
    records = []
    labels = [("agree", "agree"), ("partial", "part. agree"), ("disagree", "disagree"),
              ("pct_significant", "perc. signif")]
    measures = []
    for rec in rs.records:
        if rec["measure"] not in measures:
            measures.append(rec["measure"])
    for mname in measures:
        for field_, label in labels:
            row = {"measure": mname, "rate": label}
            for rec in rs.records:
                if rec["measure"] != mname:
                    continue
                key = TEST_TITLES[rec["test"]] + ("" if rec["aggregate"] == "mean" else " med.")
                row[key] = rec[field_]
            records.append(row)
    return ResultSet(rs.command, ["measure", "rate"] + cols, records, params=rs.params,
                     title=rs.title, table_hints={"digits": 1, "keys": ["measure", "rate"]})


def run(scores, options: Options, progress: Progress | None = None,
        warn: Warn | None = None) -> Report:
    """Analyses on an :class:`ipsoeval.engine.Scores` (every requested measure)."""
    mask = scores.mask()
    inputs = []
    from ipsoeval.stats.scales import measure_scale

    for meas in scores.distinct_measures:
        _check_measure(meas)
        x = np.array(scores.matrix(meas.name), dtype=np.float64)
        x[~mask] = np.nan                    # topics a run lacks (--queries intersection)
        inputs.append(MeasureInput(meas.name, x, higher_is_better(meas),
                                   measure_scale(meas, scores.aligned)[0]))
    from ipsoeval.engine import score_warnings, with_score_warnings
    if warn is not None:             # bootstrap's warnings go out as they come
        for w in score_warnings(scores):
            warn(w)
    return with_score_warnings(analyse(list(scores.runs), list(scores.topics), inputs,
                                       options, progress=progress, warn=warn), scores)
