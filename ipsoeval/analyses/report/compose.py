"""``ipsoeval report``: the analyses a results page needs, composed.

Nothing here computes a statistic: every number comes from an existing
analysis, called exactly as its command calls it, so the page's numbers are
the commands' numbers:

- ``leaderboard``: :func:`ipsoeval.analyses.leaderboard.run` on every ``-m``
  measure and every run (tables ``leaderboard``, ``pairs``, ``resolution``;
  the same as ``ipsoeval leaderboard``);
- ``sigtest``: per chosen pair A:B, :func:`ipsoeval.analyses.sigtest.run` on
  the two runs with A as the baseline (table ``tests``; each pair's rows are
  ``ipsoeval sigtest QRELS A B --baseline A``'s);
- ``breakdown``: :func:`ipsoeval.analyses.breakdown.run` with the baseline
  against every run, its ``summary`` row of the best run kept (``ipsoeval
  breakdown --baseline BASE``'s row of that run); only with integer labels;
- ``scales``: per measure, its scale (:func:`ipsoeval.stats.scales.measure_scale`)
  and whether each test the page uses is permissible for it
  (:func:`ipsoeval.stats.registry.permissible`).

The best run is the first row of the first measure's leaderboard; the
default pair is (baseline, best), where the best is the best run other than
the baseline.  Per-topic differences B − A of each pair are the engine's
scores, for the figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ipsoeval.analyses.report.options import (  # noqa: F401
    MAX_PAIRS,
    Options,
    make_options,
    parse_pair,
)
from ipsoeval.results import Report, ResultSet

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Options", "Composite", "compose", "compose_scores", "figures", "parse_pair", "estimate_seconds",
           "SCALE_COLUMNS",
           "MAX_PAIRS", "TABLE_IDS", "add_collections"]

COMMAND = "report"
SCALE_COLUMNS = ["measure", "scale", "test", "test_name", "requires", "permissible", "note"]
# the tables the page shows, by the command that made them
TABLE_IDS = {"leaderboard": ("leaderboard", "pairs", "resolution"), "sigtest": ("tests",),
             "breakdown": ("summary",), "scales": ("scales",)}

Progress = Callable[[int, int], None]


@dataclass
class Composite:
    """The finished analyses of a page: ``reports`` by command (leaderboard,
    sigtest, breakdown -- absent when it could not run -- and scales), the
    per-topic differences of each drawn pair and what the page says about its
    choices."""

    reports: dict[str, Report]
    diffs: dict[tuple[str, str, str], np.ndarray]
    best: str
    baseline: str
    measure: str
    pairs: list[tuple[str, str]]
    options: Options
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    measures: list[str] = field(default_factory=list)
    n_runs: int = 0
    n_topics: int = 0

    def meta(self) -> dict:
        """What the page says about its inputs and choices (and the JSON block's
        ``report`` object)."""
        return {"best": self.best, "baseline": self.baseline, "measure": self.measure,
                "measures": list(self.measures), "pairs": [list(p) for p in self.pairs],
                "runs": self.n_runs, "topics": self.n_topics, "alpha": self.options.alpha}

    def tables(self) -> dict[str, ResultSet]:
        """Every table of the page by ``command.id`` (e.g. ``leaderboard.pairs``)."""
        return {f"{c}.{t.id}": t for c, rep in self.reports.items() for t in rep.tables}


def _phase(progress: Progress | None, lo: float, hi: float) -> Progress | None:
    if progress is None:
        return None

    def cb(done: int, total: int) -> None:
        frac = 0.0 if total <= 0 else min(done / total, 1.0)
        progress(int(round((lo + (hi - lo) * frac) * 1000)), 1000)
    return cb


def compose(aligned, scores, options: Options, progress: Progress | None = None) -> Composite:
    """Run the analyses of the page on ``aligned`` and its ``scores``
    (:func:`ipsoeval.engine.evaluate` of the requested measures)."""
    import numpy as np

    from ipsoeval.analyses import leaderboard as lb
    from ipsoeval.stats.scales import measure_scale

    runs = list(aligned.runs)
    options.check(runs)
    lopts = lb.Options(samples=options.samples, seed=options.seed, alpha=options.alpha,
                       ci=options.ci)
    board = lb.run(scores, lopts, progress=_phase(progress, 0.0, 0.8))

    measures, scales, scale_why, mats, lower = [], {}, {}, {}, set()
    for m in scores.measures:
        if m.name in mats:
            continue
        measures.append(m.name)
        mats[m.name] = np.asarray(scores.matrix(m.name), dtype=np.float64)
        scales[m.name], scale_why[m.name] = measure_scale(m, aligned)
        if not m.higher_is_better:
            lower.add(m.name)
    return _compose(runs, len(aligned.topics), board, measures, mats, scales, scale_why,
                    lower, options, progress, aligned=aligned)


def compose_scores(ts, options: Options, measures=None,
                   progress: Progress | None = None) -> Composite:
    """The page on per-topic scores alone (a TopicScores, e.g. the nugget scores
    of ``report --nuggets``): leaderboard, pair tests and scales; no outcomes
    breakdown (it needs the rankings)."""
    import numpy as np

    from ipsoeval.analyses import leaderboard as lb
    from ipsoeval.analyses.scores import leaderboard_scores
    from ipsoeval.reading.scores import select

    runs = list(ts.runs)
    options.check(runs)
    names = select(ts, measures)
    lopts = lb.Options(samples=options.samples, seed=options.seed, alpha=options.alpha,
                       ci=options.ci)
    board = leaderboard_scores(ts, lopts, measures=names, progress=_phase(progress, 0.0, 0.8))
    mats = {m: np.asarray(ts.matrices[m], dtype=np.float64) for m in names}
    why = {m: ts.scale_notes.get(m) for m in names}
    lower = {m for m in names if not ts.higher_is_better[m]}
    return _compose(runs, len(ts.topics), board, names, mats,
                    {m: ts.scales[m] for m in names}, why, lower, options, progress,
                    aligned=None)


def _compose(runs, n_topics, board, measures, mats, scales, scale_why, lower,
             options: Options, progress, *, aligned) -> Composite:
    from ipsoeval.analyses import breakdown as bd
    from ipsoeval.analyses import sigtest as st
    from ipsoeval.analyses import validate

    warnings: list[str] = list(board.warnings)
    notes: list[str] = list(board.notes)          # the measures' scales (leaderboard's)
    first = measures[0]
    baseline = validate.baseline(options.baseline, runs) if options.baseline is not None \
        else runs[0]       # the CLI and the API resolve a FILE to its run name first
    order = [r["run"] for r in board.table("leaderboard").records if r["measure"] == first]
    best = next(r for r in order if r != baseline)
    if order[0] == baseline:
        notes.append(f"the baseline {baseline} has the best mean {first}; the breakdown and "
                     f"the default pair use the best other run, {best}")
    pairs = list(options.pairs) or [(baseline, best)]

    # sigtest: one invocation per pair, A the baseline, on the two runs' scores
    records: list[dict] = []
    sig_params: dict = {}
    sig_warnings: list[str] = []
    diffs: dict[tuple[str, str, str], np.ndarray] = {}
    for n, (a, b) in enumerate(pairs):
        ia, ib = runs.index(a), runs.index(b)
        sub = {m: mats[m][[ia, ib]] for m in measures}
        rep = st.run([a, b], sub, {m: scales[m] for m in measures},
                     options.sigtest_options(baseline=a), lower_better=lower,
                     topics=n_topics,
                     progress=_phase(progress, 0.8 + 0.15 * n / len(pairs),
                                     0.8 + 0.15 * (n + 1) / len(pairs)))
        t = rep.table("tests")
        records += t.records
        sig_params = dict(t.params, runs=sorted({r for p in pairs for r in p}, key=runs.index),
                          pairs=[f"{x}:{y}" for x, y in pairs], baseline=None,
                          correction_family="the rows of one pair (each pair is its own "
                                            "invocation: ipsoeval sigtest QRELS A B "
                                            "--baseline A)")
        sig_warnings += [w for w in rep.warnings if w not in sig_warnings]
        for m in measures:
            diffs[(a, b, m)] = mats[m][ib] - mats[m][ia]
    tests = ResultSet("sigtest", list(t.columns), records, params=sig_params,
                      title="Chosen pairs: significance tests (diff = B − A)", id="tests",
                      description="per chosen pair A:B, measure and test: sigtest's rows",
                      table_hints={"digits": 4})
    sigrep = Report("sigtest", [tests], warnings=sig_warnings)
    warnings += [w for w in sig_warnings if w not in warnings]

    reports = {"leaderboard": board, "sigtest": sigrep}
    # breakdown: the baseline against every run, the best run's row kept
    if aligned is None:
        notes.append("no outcomes breakdown: it counts relevant documents in the rankings, "
                     "which per-topic scores do not have")
    elif bd.not_applicable(aligned):
        notes.append(bd.not_applicable(aligned))
    else:
        brep = bd.run(aligned, bd.Options(k=options.k, baseline=baseline,
                                          correct=options.correct, alpha=options.alpha))
        summ = brep.table("summary")
        keep = ResultSet("breakdown", list(summ.columns),
                         [r for r in summ.records if r["run_b"] == best],
                         params=dict(summ.params, run_b=best), title=summ.title, id="summary",
                         description=f"the best run ({best}) against the baseline "
                                     f"({baseline}): breakdown's summary row",
                         table_hints=summ.table_hints)
        reports["breakdown"] = Report("breakdown", [keep], warnings=list(brep.warnings))
        warnings += [f"breakdown: {w}" for w in brep.warnings]
    if progress is not None:
        progress(990, 1000)

    reports["compare"] = _table(runs, n_topics, mats, measures, scales, lower, baseline,
                                options)
    reports["scales"] = _scales(measures, scales, scale_why, options, tests, len(runs))
    if progress is not None:
        progress(1000, 1000)
    for rep in reports.values():
        for t in rep.tables:
            t.params.setdefault("report", {"best": best, "baseline": baseline,
                                           "measure": first})
    return Composite(reports=reports, diffs=diffs, best=best, baseline=baseline, measure=first,
                     pairs=pairs, options=options, warnings=warnings, notes=notes,
                     measures=measures, n_runs=len(runs), n_topics=n_topics)


def compare_options(options: Options, baseline: str):
    """The options of the page's results table (``ipsoeval compare``): every run
    against the baseline, the pairs' test when one was named (else each
    measure's default), the page's correction, alpha, samples and seed."""
    from ipsoeval.analyses import compare as cmp
    tests = options.sigtest_options().tests
    return cmp.Options(marks="baseline", baseline=baseline,
                       test=tests[0] if len(tests) == 1 else None, correct=options.correct,
                       alpha=options.alpha, samples=options.samples, seed=options.seed)


def _table(runs, n_topics, mats, measures, scales, lower, baseline, options: Options) -> Report:
    """The results table of a paper, as ``ipsoeval compare`` makes it."""
    from ipsoeval.analyses import compare as cmp
    return cmp.run(list(runs), n_topics, {m: mats[m] for m in measures},
                   {m: scales[m] for m in measures}, {m: m not in lower for m in measures},
                   compare_options(options, baseline))


def _scales(measures, scales, why, options: Options, tests: ResultSet,
            n_runs: int = 3) -> Report:
    """Which of the page's tests each measure's scale permits (Ferrante et al. 2021)."""
    from ipsoeval.stats import registry

    used = ["randhsd", "anova2"] + [t for t in dict.fromkeys(r["test"] for r in tests.records)
                                    if t in registry.REGISTRY and t not in ("randhsd", "anova2")]
    from ipsoeval.stats.scales import permissible_route
    routes = {m: permissible_route(m, scales[m], n_runs) for m in measures}
    rows = []
    for m in measures:
        for t in used:
            entry = registry.get(t)
            rows.append({"measure": m, "scale": scales[m], "test": t, "test_name": entry.title,
                         "requires": entry.requires,
                         "permissible": registry.permissible(scales[m], t),
                         "note": "; ".join(x for x in (
                             why[m], routes[m] and f"permissible: {routes[m]}") if x)})
    rs = ResultSet(COMMAND, list(SCALE_COLUMNS), rows,
                   params={"source": "Ferrante, Ferro & Fuhr 2021: a test comparing means "
                                     "needs an interval scale; the sign test an ordinal one"},
                   title="Scales and permissible tests (Ferrante et al. 2021)", id="scales",
                   description="per measure and test the page uses: the measure's scale, the "
                               "scale the test requires, and whether it is permissible")
    return Report(COMMAND, [rs])


def add_collections(comp: Composite, collections, measures, queries: str = "qrels",
                    progress: Progress | None = None) -> None:
    """The ``collections`` section: ``ipsoeval across`` on the manifest's
    collections (:func:`ipsoeval.reading.manifest.read_manifest`), with the
    page's baseline when the manifest has that run (else its first run), its
    seed, alpha and at most 1,000 bootstrap samples; stored as
    ``comp.reports["across"]``."""
    from ipsoeval.analyses import across as ac
    from ipsoeval.analyses.across import inputs

    scored, names, warnings = inputs.score(collections, measures,
                                           align=inputs.alignment(queries=queries))
    runs = {r for c in scored for r in c.runs}
    base = comp.baseline if comp.baseline in runs else None
    options = ac.Options(baseline=base, alpha=comp.options.alpha, seed=comp.options.seed,
                         samples=min(comp.options.samples, 1000))
    rep = ac.analyse(scored, names, options, progress=progress)
    comp.warnings += [f"across: {w}" for w in warnings + rep.warnings]
    comp.reports["across"] = rep


def figures(comp: Composite, *, max_panels: int = 12) -> dict[str, str]:
    """The page's charts as inline SVG (:mod:`ipsoeval.formatters.charts`):
    ``leaderboard`` (means, CIs, letters), ``differences`` (per-topic B − A
    of each chosen pair, sorted), ``forest`` (across collections, with
    ``--manifest``) and ``breakdown`` (outcome shares), each where its table
    has rows."""
    from ipsoeval.formatters import charts

    out = {"leaderboard": charts.leaderboard(comp.reports["leaderboard"].table("leaderboard"),
                                             max_panels=max_panels)}
    tests = comp.reports["sigtest"].table("tests")
    if tests.records:
        # per pair and measure one row, in the table's order: the t test's (the
        # mean difference and its t interval), else the first (a measure on an
        # ordinal scale has no t row by default: its panel stays)
        rows: dict = {}
        for r in tests.records:
            key = (r["run_a"], r["run_b"], r["measure"])
            if key not in rows or (r["test"] == "t" and rows[key]["test"] != "t"):
                rows[key] = r
        shown = ResultSet("sigtest", tests.columns, list(rows.values()), params=tests.params,
                          id="tests")
        out["differences"] = charts.differences(shown, comp.diffs, max_panels=max_panels)
    if "across" in comp.reports and comp.reports["across"].table("pooled").records:
        rep = comp.reports["across"]
        out["forest"] = charts.forest(rep.table("effects"), rep.table("pooled"),
                                      max_panels=max_panels)
    if "breakdown" in comp.reports and comp.reports["breakdown"].table("summary").records:
        out["breakdown"] = charts.breakdown(comp.reports["breakdown"].table("summary"))
    return out


def estimate_seconds(runs: int, topics: int, samples: int, measures: int = 1,
                     pairs: int = 1, tests: list[str] | None = None) -> float:
    """Rough wall time of the resampling work: the leaderboard's randomised
    HSD plus the pairs' resampling tests (randomization, bootstrap)."""
    from ipsoeval.analyses import leaderboard
    from ipsoeval.stats import registry

    secs = leaderboard.estimate_seconds(runs, topics, samples, measures)
    resampling = sum(1 for t in (tests or ()) if registry.get(t).resampling)
    # a paired resampling test: about one leaderboard cell per sample and topic
    secs += leaderboard.estimate_seconds(1, topics, samples, measures * pairs * resampling)
    return secs
