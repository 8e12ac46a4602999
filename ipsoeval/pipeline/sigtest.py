"""``ipsoeval sigtest``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.sigtest.common import Options, make_options
from ipsoeval.errors import UsageError
from ipsoeval.output_options import Junit
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import option_values, scores_command

COMMAND = scores_command(
    "sigtest", "Measure to compare, e.g. AP, nDCG@10, P@10, RR@10 (repeatable; see `ipsoeval "
               "measures`).  Required, except with --scores whose files hold one measure.",
    Options, Junit, engine=True)


def quick(args) -> bool:
    """``ipsoeval sigtest ARGS`` served by the quick path
    (:mod:`ipsoeval.analyses.sigtest.quick`: the compiled core, no numpy), the
    arguments read by this declaration's parser; False: declined, nothing
    printed."""
    from ipsoeval.analyses.sigtest.quick import SERVES, quick_sigtest
    from ipsoeval.declare import parse
    if args[:1] != ["sigtest"]:
        return False
    return quick_sigtest(parse(COMMAND, args[1:], serve=SERVES))


def options_of(values: dict, *, gate_option: str = "gate_test") -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    kw = option_values(COMMAND, Options, values, leave=("tests", "gate_test"))
    return make_options(list(values.get("tests") or []) if not isinstance(values.get("tests"), str)
                        else values["tests"], values.get("gate_test"),
                        gate_option=gate_option, **kw)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import engine
    from ipsoeval.analyses import sigtest as st
    from ipsoeval.analyses import validate

    fmt = inp.scores_format(v)
    align = inp.align_options(v, paired=True, note=note, command="sigtest")  # RUN dirs expanded
    measures, runs = list(v["measures"]), v["runs"]
    if not measures and fmt is None:
        raise UsageError("Missing option '-m' / '--measure'.")
    if len(runs) < 2 and fmt is None:
        raise UsageError(f"sigtest needs QRELS and at least two runs (got {len(runs)} run)")
    options = options_of(v, gate_option="--gate-test")
    options.check_inputs(labels=align.labels)                      # before reading
    if options.scale != "original" and fmt is None:   # a measure the map cannot take
        from ipsoeval.analyses.interval_map import at_cutoff
        for m in measures:
            at_cutoff(m, None)
    options.check_inputs(scores=fmt is not None)
    if fmt is not None:         # the arguments are per-topic score files
        from ipsoeval.analyses.scores import sigtest_scores
        ts = inp.command_scores(v, align, fmt, baseline=options.baseline, measures=measures,
                                  command="sigtest", warn=warn, note=note)
        measures = inp.measures_or_only(ts, measures, "sigtest", note=note)
        options.baseline = inp.score_baseline(options.baseline, ts)
        report = sigtest_scores(ts, options, measures=measures)
        _plot(v["plot"], report, list(ts.runs), ts.matrices)
        return report
    requested = engine.requested(measures)          # usage errors before reading files
    aligned, sc = inp.sweep_or_align(
        v, runs, align, requested, (options.bounds, "--bounds"),
        (options.scale != "original", f"--scale {options.scale}"), measures=measures,
        warn=warn, progress=progress)
    options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    testing = progress and progress("sigtest: testing pairs of runs")
    if sc is not None:
        report = st.run_scores(sc, options, progress=testing)
    else:
        report = st.run_aligned(aligned, requested, options, progress=testing)
    inp.with_params(report, align.as_params())
    if v["plot"]:       # per-topic differences of the pairs tested
        sc = sc or engine.evaluate(aligned, requested)
        _plot(v["plot"], report, list(aligned.runs),
              {m.name: sc.matrix(m.name) for m in sc.measures})
    return report


def _plot(path, report, runs, matrices) -> None:
    """Per-topic differences B - A of every pair and measure tested."""
    if not path:
        return
    import numpy as np

    from ipsoeval import plots
    table = report.table("tests")
    diffs = {}
    for r in table.records:
        m = r["measure"]
        if r["run_a"] == "*" or m not in matrices:
            continue
        M = np.asarray(matrices[m], dtype=np.float64)
        diffs[(r["run_a"], r["run_b"], m)] = M[runs.index(r["run_b"])] - M[runs.index(r["run_a"])]
    plots.sigtest(path, table, diffs)


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.sigtest` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import sigtest as st
    from ipsoeval.pipeline.common import _baseline, _common, _names, _requested, _scores_or_result

    options = options_of(kw)

    def on_scores(ts):
        options.check_inputs(scores=True)
        from ipsoeval.analyses.scores import sigtest_scores
        return sigtest_scores(ts, options, measures=_names(measures))

    def on_result(res):
        if len(res.runs) < 2:
            raise UsageError(f"sigtest needs at least two runs (got {len(res.runs)})")
        options.check_inputs(labels=res.aligned.label_mode)
        requested = _requested(res, measures)
        options.baseline = _baseline(res, kw.get("baseline"))
        aligned, notes = _common(res)
        return st.run_aligned(aligned, requested, options), notes

    return _scores_or_result(res, on_scores, on_result)
