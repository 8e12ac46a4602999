"""``ipsoeval report``: its declaration and the calls from inputs to the page,
made by the command line (:func:`from_values`) and the API
(:func:`from_result`).

The page's tables are leaderboard's, sigtest's and breakdown's, and so are
most of its options: the declaration takes them from those commands'
declarations, worded for the page, beside the page's own
(:class:`ipsoeval.analyses.report.options.Options`)."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field

from ipsoeval.align_options import align_group
from ipsoeval.analyses.leaderboard.options import Options as LeaderboardOptions
from ipsoeval.analyses.report.options import Options, check_tests, make_options
from ipsoeval.analyses.sigtest.common import Options as SigtestOptions
from ipsoeval.declare import Command, Group, opts_of
from ipsoeval.errors import UsageError
from ipsoeval.output_options import Output
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import QRELS_RUNS, NuggetsFormat, Progress, Scores, measures_group
from ipsoeval.stats import registry


def _only(cls, *names: str, **words) -> Group:
    """The options ``names`` of ``cls`` (another command's declaration), the
    page's wording of each in ``words`` ({name: {Opt attribute: value}})."""
    return Group(cls, without=[o.dest for o in opts_of(cls) if o.dest not in names],
                 words=words or None)


COMMAND = Command(
    "report", HELP["report"],
    arguments=QRELS_RUNS,
    groups=(
        measures_group("Measure to rank and compare runs by, e.g. nDCG@10, AP (repeatable: a "
                       "leaderboard and a heat map per measure; the first chooses the best "
                       "run).", required=True),
        _only(SigtestOptions, "baseline", baseline={
            "help": "The run the best run is compared with (breakdown, default pair).  NAME is "
                    "a run name, FILE the path of one of the RUN arguments."}),
        _only(Options, "pairs"),
        _only(SigtestOptions, "tests", tests={
            "check": check_tests,
            "help": f"Tests of the chosen pairs: {', '.join(registry.TWO_SAMPLE)} (repeatable "
                    f"or comma-separated)."}),
        Group(LeaderboardOptions, words={"samples": {
            "help": "Samples of the randomised Tukey HSD and of the pairs' randomization and "
                    "bootstrap tests."}}),
        _only(SigtestOptions, "correct", correct={
            "help": "Multiple-comparison correction of the pairs' tests (per pair) and of the "
                    "breakdown's p-values."}),
        _only(Options, "k", "title"),
        _only(Scores, "nuggets", nuggets={
            "help": "The arguments are nugget assignment files of generated answers (see "
                    "`ipsoeval nuggets`): the page compares the runs by their nugget scores "
                    "(-m nugget_vital_strict, ...), without the outcomes breakdown."}),
        NuggetsFormat,
        _only(Options, "manifest"),
        align_group(paired=True),
        _only(Output, "output", "digits", "warnings_mode", output={
            "help": "Write the page to FILE (only when everything succeeded) instead of "
                    "standard output ('-': standard output)."}, digits={
            "help": "Digits after the decimal point in the page's tables (default 4; "
                    "p-values: N significant digits; a nonzero value never prints as 0); "
                    "the page's data block keeps full precision."}),
        _only(Options, "charts"), Progress))

# an estimate of the resampling work is given first when it is longer than this
ANNOUNCE_SECONDS = 10.0
PROGRESS_LABEL = "report: leaderboard and pair tests"


@dataclass
class Page:
    """What :func:`ipsoeval.report` returns: the page (``html``), the finished
    Reports it shows (by command: leaderboard, sigtest, breakdown when it ran,
    scales), its charts as SVG strings, and its warnings and notes."""

    html: str
    reports: dict
    figures: dict
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def save(self, path) -> None:
        """Write the page to ``path`` (replaced only once it is written)."""
        from ipsoeval.writing import write_output
        write_output(os.fspath(path), self.html)


def _announce(note, secs: float, what: str) -> None:
    if secs >= ANNOUNCE_SECONDS:
        note(f"report: {what}: about {inp.duration(secs)} (--samples trades precision for time)")


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None) -> Page:
    """The page of a command line's parsed values ``v`` (its warnings in
    ``.warnings``, for the caller to give before writing it)."""
    from ipsoeval import engine
    from ipsoeval.analyses import report as rp
    from ipsoeval.analyses import validate
    from ipsoeval.formatters import html

    align = inp.align_options(v, paired=True, note=note, command="report")
    measures, runs, qrels = v["measures"], v["runs"], v["qrels"]
    options = make_options(v)                        # usage errors before reading files
    if v["nuggets"]:             # the runs' nugget scores
        if v["manifest"] is not None:
            raise UsageError("--manifest does not combine with --nuggets (a manifest lists "
                             "runs and qrels of collections)")
        return _nuggets(v, align, options, warn=warn, note=note, progress=progress)
    if v["nuggets_format"] != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    if len(runs) < 2:
        raise UsageError(f"report compares runs: it needs QRELS and at least two runs "
                         f"(got {len(runs)})")
    requested = engine.requested(measures)
    aligned = inp.load_aligned(qrels, runs, align, measures=measures, warn=warn)
    options.baseline = validate.baseline(v["baseline"], aligned.runs, runs)
    options.check(list(aligned.runs))
    sc = engine.evaluate(aligned, requested)
    nmeas = len({m.name for m in sc.measures})
    samples = options.samples
    secs = rp.estimate_seconds(len(aligned.runs), len(aligned.topics), samples, nmeas,
                               max(1, len(options.pairs)), options.tests)
    _announce(note, secs, f"{samples:,} samples x {len(aligned.runs):,} runs x "
                          f"{len(aligned.topics):,} topics"
                          + (f" x {nmeas} measures" if nmeas > 1 else ""))
    collections, manifest = None, v["manifest"]
    if manifest is not None:                 # the manifest is read and checked first
        from ipsoeval.reading.manifest import read_manifest
        collections = read_manifest(manifest)
    comp = rp.compose(aligned, sc, options, progress=progress and progress(PROGRESS_LABEL))
    if collections is not None:
        rp.add_collections(comp, collections, list(measures), align.queries,
                           progress=progress and progress("report: collections"))
    for rep in comp.reports.values():
        for t in rep.tables:
            t.params.update(align.as_params())
    figures = rp.figures(comp)
    warnings = list(comp.warnings)
    cmds = _commands(qrels, runs, list(aligned.runs), comp, options, align)
    if "across" in comp.reports:
        cmds.append(_across_line(manifest, measures, comp, align))
    page = html.render(comp.reports, figures, title=options.title,
                       meta=dict(comp.meta(), commands=cmds), notes=comp.notes,
                       warnings=warnings, digits=v.get("digits"))
    return Page(html=page, reports=comp.reports, figures=figures, warnings=warnings,
                notes=list(comp.notes))


def _nuggets(v, align, options, *, warn, note, progress) -> Page:
    """``report --nuggets FILE...``: the page on the nugget scores."""
    from ipsoeval.analyses import report as rp
    from ipsoeval.analyses import validate
    from ipsoeval.analyses.nuggets import select
    from ipsoeval.formatters import html

    files, nuggets_format = [v["qrels"], *v["runs"]], v["nuggets_format"]
    names = [m.name for m in select(list(v["measures"]))]
    ts = inp.load_score_files(files, align, f"nuggets:{nuggets_format}", (), warn=warn,
                              note=note)
    if len(ts.runs) < 2:
        raise UsageError(f"report compares runs: the nugget files hold {len(ts.runs)} run(s)")
    options.baseline = validate.baseline(v["baseline"], ts.runs)
    options.check(list(ts.runs))
    comp = rp.compose_scores(ts, options, names,
                             progress=progress and progress(PROGRESS_LABEL))
    figures = rp.figures(comp)
    warnings = list(comp.warnings)
    ms = [a for m in names for a in ("-m", m)]
    fmt = ["--nuggets-format", nuggets_format] if nuggets_format != "auto" else []
    common = ["--samples", str(options.samples), "--seed", str(options.seed),
              "--alpha", _num(options.alpha)]
    cmds = [_line(["ipsoeval", "leaderboard", "--nuggets", *files, *fmt, *ms, *common,
                   "--ci", _num(options.ci), *align.as_argv()])]
    for a, b in comp.pairs:
        cmds.append(_line(["ipsoeval", "sigtest", "--nuggets", *files, *fmt, *ms,
                           "--baseline", a, *_test_args(options), *common,
                           "--correct", options.correct, *align.as_argv()],
                          f"the rows of run_b = {b}"))
    if "compare" in comp.reports:
        from ipsoeval.analyses.report.compose import compare_options
        co = compare_options(options, comp.baseline)
        cmds.append(_line(["ipsoeval", "compare", "--nuggets", *files, *fmt, *ms,
                           "--baseline", comp.baseline,
                           *(["--test", co.test] if co.test else []),
                           "--samples", str(co.samples), *common[2:], "--correct",
                           co.correct, *align.as_argv()]))
    page = html.render(comp.reports, figures, title=options.title,
                       meta=dict(comp.meta(), commands=cmds), notes=comp.notes,
                       warnings=warnings, digits=v.get("digits"))
    return Page(html=page, reports=comp.reports, figures=figures, warnings=warnings,
                notes=list(comp.notes))


def _num(x) -> str:
    """A float option's value as the shortest text that reads back as the same
    float (``%g`` would round 0.0123456789 to 0.0123457)."""
    return repr(float(x))


def _test_args(options) -> list[str]:
    """``--test`` as report ran the pairs' tests: the tests given, else nothing,
    so that sigtest picks the same default test per measure that report did."""
    tests = options.sigtest_options().tests
    return ["--test", ",".join(tests)] if tests else []


def _line(argv: list[str], comment: str | None = None) -> str:
    text = shlex.join(argv)
    return f"{text}   # {comment}" if comment else text


def _across_line(manifest, measures, comp, align_opts) -> str:
    """The across command line of the collections section (its baseline, seed,
    alpha and samples as add_collections chose them)."""
    p = comp.reports["across"].tables[0].params
    return _line(["ipsoeval", "across", manifest,
                  *[a for m in measures for a in ("-m", str(m))],
                  "--baseline", str(p["baseline"]), "--samples", str(p["samples"]),
                  "--seed", str(p["seed"]), "--alpha", _num(p["alpha"]),
                  "--queries", align_opts.queries])


def _commands(qrels, runs, aligned_runs, comp, options, align_opts=None) -> list[str]:
    """The command lines whose tables the page holds, quoted for a POSIX shell,
    with the alignment options given to report."""
    from ipsoeval.align_options import AlignOptions
    align_opts = align_opts or AlignOptions()
    mapped = len(aligned_runs) == len(runs)
    ms = [a for m in dict.fromkeys(r["measure"] for r in comp.reports["leaderboard"]
                                   .table("resolution").records) for a in ("-m", m)]
    common = ["--seed", str(options.seed), "--alpha", _num(options.alpha)]
    out = [_line(["ipsoeval", "leaderboard", qrels, *runs, *ms,
                  "--samples", str(options.samples), *common, "--ci", _num(options.ci),
                  *align_opts.as_argv()])]
    for a, b in comp.pairs:
        if mapped:
            keep = [aligned_runs.index(a), aligned_runs.index(b)]
            files, comment = [runs[i] for i in keep], None
        else:              # run names that are not one per file: every file, A the baseline
            keep, files, comment = None, list(runs), f"the rows of run_b = {b}"
        out.append(_line(["ipsoeval", "sigtest", qrels, *files, *ms, "--baseline", a,
                          *_test_args(options), "--samples", str(options.samples), *common,
                          "--correct", options.correct, *align_opts.as_argv(keep)], comment))
    if "compare" in comp.reports:
        from ipsoeval.analyses.report.compose import compare_options
        co = compare_options(options, comp.baseline)
        out.append(_line(["ipsoeval", "compare", qrels, *runs, *ms, "--baseline", comp.baseline,
                          *(["--test", co.test] if co.test else []),
                          "--samples", str(co.samples), *common, "--correct", co.correct,
                          *align_opts.as_argv()]))
    if "breakdown" in comp.reports:
        out.append(_line(["ipsoeval", "breakdown", qrels, *runs, "--baseline", comp.baseline,
                          "-k", str(options.k), "--alpha", _num(options.alpha),
                          "--correct", options.correct,
                          *align_opts.as_argv(gains=False)],
                         f"the row of run_b = {comp.best}"))
    return out


def from_result(res, *, measures=None, charts=True, progress=None, **kw) -> Page:
    """The page of :func:`ipsoeval.report` on an EvalResult."""
    from ipsoeval import engine
    from ipsoeval.analyses import report as rp
    from ipsoeval.formatters import html
    from ipsoeval.pipeline.common import _baseline, _common, _requested, _warn

    options = make_options(kw)
    requested = _requested(res, measures)
    options.baseline = _baseline(res, kw.get("baseline"))
    aligned, notes = _common(res)
    options.check(list(aligned.runs))
    comp = rp.compose(aligned, engine.evaluate(aligned, requested), options, progress=progress)
    for rep in comp.reports.values():
        for t in rep.tables:
            t.params.update({k_: v for k_, v in res.params.items() if k_ not in t.params})
    figures = rp.figures(comp) if charts else {}
    warnings = list(notes) + [w for w in comp.warnings if w not in notes]
    _warn(warnings)
    page = html.render(comp.reports, figures, title=options.title, meta=comp.meta(),
                       notes=comp.notes, warnings=warnings)
    return Page(html=page, reports=comp.reports, figures=figures, warnings=warnings,
                notes=list(comp.notes))
