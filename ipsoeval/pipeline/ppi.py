"""``ipsoeval ppi``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

import os

from ipsoeval.align_options import align_group
from ipsoeval.analyses.ppi.options import Judgments, Nuggets, Options
from ipsoeval.declare import Arg, Command, Group
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import NuggetsFormat, Plot, checked_options, measures_group

COMMAND = Command(
    "ppi", HELP["ppi"],
    arguments=(Arg("runs", "RUN...", many=True, required=False),),
    groups=(Judgments,
            measures_group("Measure averaged over topics, e.g. nDCG@10, AP, P@10, RR@10 "
                           "(repeatable; see `ipsoeval measures`); required, except with "
                           "--nuggets (default: every nugget score)."),
            Nuggets, Group(NuggetsFormat, words={"nuggets_format": {"api": True}}), Options,
            align_group(paired=True), Plot, output_group("tsv")))


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    return checked_options(COMMAND, Options, values)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine
    from ipsoeval.analyses import ppi, validate
    from ipsoeval.reading import check_stdin_once, display_name

    align = inp.align_options(v, paired=True, note=note, command="ppi")
    runs, human, auto, measures = v["runs"], v["human"], v["auto"], v["measures"]
    options = options_of(v)
    if v["nuggets"]:            # human and automatic nugget assignments
        return _nuggets(v, options, align, warn=warn)
    if v["nuggets_format"] != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    if not runs:
        raise UsageError("Missing argument 'RUN...'.")
    if not measures:
        raise UsageError("Missing option '-m' / '--measure'.")
    requested = ppi.select_measures(engine.requested(measures))   # before reading files
    if "-" in runs:
        raise UsageError("ppi reads every run twice (once per qrels): give the runs as "
                         "files, not '-' (standard input may be --human or --auto)")
    for q in (human, auto):
        inp.output_not_an_input(v["output"], q, runs)
    check_stdin_once([human, auto, *runs])
    h_al, h_warn = inp.aligned_and_warnings(human, runs, align, measures=measures)
    a_al, a_warn = inp.aligned_and_warnings(auto, runs, align, measures=measures)
    # the topics first: an input error is the one line printed
    ppi.split_topics(h_al.topics, a_al.topics, human_name=display_name(human),
                     auto_name=display_name(auto))
    seen = set()
    # the human qrels cover a sample of the topics by design: runs' topics
    # beyond them are expected (the auto side still reports topics beyond all)
    h_warn = [w for w in h_warn if not w.endswith(" topic(s) not in the qrels ignored")]
    for label, ws in (("human qrels", h_warn), ("auto qrels", a_warn)):
        for w in ws:
            if w not in seen:
                seen.add(w)
                warn(f"{w} ({label})")
    options.baseline = validate.baseline(options.baseline, h_al.runs, runs)
    h_sc = engine.evaluate(h_al, requested)
    a_sc = engine.evaluate(a_al, requested)
    report = ppi.run(h_sc, a_sc, options, human_name=display_name(human),
                     auto_name=display_name(auto))
    inp.with_params(report, align.as_params())
    _plot(v["plot"], report)
    return report


def _nuggets(v: dict, options: Options, align, *, warn):
    """``ppi --nuggets --human H --auto A``: PPI on each run's nugget scores."""
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.analyses import ppi, validate
    from ipsoeval.reading import check_stdin_once, display_name
    from ipsoeval.reading.nuggets import failed_warnings, read_nuggets

    human, auto, layout = v["human"], v["auto"], v["nuggets_format"]
    sel = inp.nugget_measures(v, align, "ppi", "runs")
    for q in (human, auto):
        inp.output_not_an_input(v["output"], q, [])
    check_stdin_once([human, auto])
    hj = read_nuggets([human], layout)
    aj = read_nuggets([auto], layout)
    inputs = ng.ppi_inputs(hj, aj, [m.name for m in sel])
    options.baseline = validate.baseline(options.baseline, aj.runs)
    for label, j in (("human", hj), ("auto", aj)):
        for w in failed_warnings(j):
            warn(f"{label} nuggets: {w}")
    report = ppi.analyse(list(aj.runs), list(hj.topics), list(aj.topics), inputs, options,
                         human_name=display_name(human), auto_name=display_name(auto))
    inp.with_params(report, {"nuggets": True, "nuggets_format": layout})
    _plot(v["plot"], report)
    return report


def _plot(path, report) -> None:
    if path:
        from ipsoeval import plots
        plots.ppi(path, report.table("estimates"))


def from_result(human, auto, *, measures=None, nuggets=False, nuggets_format="auto", **kw):
    """The Report of :func:`ipsoeval.ppi` on two EvalResults of the same runs
    (or, ``nuggets=True``, the paths of two nugget assignment files)."""
    from ipsoeval import engine
    from ipsoeval.analyses import ppi as pp
    from ipsoeval.pipeline.common import _baseline, _common, _names, _report, _requested, _warn

    options = options_of(kw)
    if nuggets:
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.analyses import validate
        from ipsoeval.reading.nuggets import failed_warnings
        from ipsoeval.reading.nuggets import read_nuggets as rd
        hj = rd([os.fspath(human)], nuggets_format)
        aj = rd([os.fspath(auto)], nuggets_format)
        inputs = ng.ppi_inputs(hj, aj, [m.name for m in ng.select(_names(measures))])
        options.baseline = (validate.baseline(options.baseline, aj.runs)
                            if options.baseline else None)
        out = pp.analyse(list(aj.runs), list(hj.topics), list(aj.topics), inputs, options,
                         human_name=os.fspath(human), auto_name=os.fspath(auto))
        _warn(out.warnings)
        return _report(out, warnings=failed_warnings(hj) + failed_warnings(aj))
    for res in (human, auto):
        if not hasattr(res, "aligned"):     # an EvalResult holds its rankings
            raise UsageError("ppi needs the rankings: give the EvalResult of "
                             "ipsoeval.evaluate (per-topic scores alone are not enough)")
    if list(human.runs) != list(auto.runs):
        raise UsageError(f"ppi needs the same runs under both qrels (human: "
                         f"{', '.join(human.runs)}; auto: {', '.join(auto.runs)})")
    requested = pp.select_measures(_requested(human, measures))
    options.baseline = _baseline(human, options.baseline)
    h_al, h_notes = _common(human)
    a_al, a_notes = _common(auto)
    out = pp.run(engine.evaluate(h_al, requested), engine.evaluate(a_al, requested), options)
    _warn(out.warnings)
    return _report(out, warnings=h_notes + a_notes, params=dict(auto.params))
