"""``ipsoeval ipso``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.analyses.ipso.options import Options, cutoff_and_depths, measures_for_tests
from ipsoeval.declare import Arg, Command, Group, field_names, replace
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import NuggetsFormat, Plot, Scores, measures_group

_DEPTH = ("k", "depths")        # listed before -m, as --help always had them
COMMAND = Command(
    "ipso", HELP["ipso"],
    arguments=(Arg("qrels", "QRELS", required=False),
               Arg("runs", "RUN_A RUN_B [RUN...]", many=True, required=False)),
    groups=(Group(Options, without=[o for o in field_names(Options)
                                    if o not in _DEPTH and o != "measures"]),
            measures_group("Measure for the reporting protocol (§3.6), e.g. P@10, "
                           "RBP(p=0.8)@10, nDCG@10.  Repeatable."),
            Group(Options, without=(*_DEPTH,)),
            align_group(paired=True), Scores, NuggetsFormat, Plot, output_group("tsv")))


def _measure_names(requested) -> list[str]:
    names: list[str] = []
    for r in requested:
        if r.measure.name not in names:
            names.append(r.measure.name)
    return names


_AS_GIVEN = ("alpha", "alternative", "correct", "baseline", "all_pairs", "per_query", "samples",
             "seed")


def _options(values: dict, k: int, depths, measures: list[str], tests: list[str]) -> Options:
    """Checked Options from the command's values (or the API's keywords), with
    the cutoff, depths, measures and tests as resolved from them."""
    options = Options(k=k, depths=depths, graded=values["graded"] or "prefix",
                      measures=measures, tests=tests, **{n: values[n] for n in _AS_GIVEN})
    options.check()
    return options


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None, listing=None,
                given=frozenset()):
    """The Report of a command line's parsed values ``v``; None when
    ``listing()``, called once the options are checked and before any input
    is read, says it answered (``--table list``).  ``given``: the options
    the command line names (rel_level: -l given, even at its default, says
    the qrels are to be binarised)."""
    from ipsoeval.analyses import ipso, validate

    align = inp.align_options(v, paired=True, integer_labels="ipso", rankings="ipso",
                              note=note, command="ipso")
    fmt = inp.scores_format(v)
    if listing is not None and listing():
        return None
    qrels, runs, measures = v["qrels"], v["runs"], v["measures"]
    if fmt is not None:         # the sign test over topics on per-topic score files
        for flag, name in ((v["k"] is not None or v["depths"] is not None, "-k/--depths"),
                           (bool(v["tests"]), "--test"), (v["per_query"], "-q"),
                           (v["alternative"] != "two-sided", "--alternative"),
                           (v["enumerate_"] is not None, "--enumerate")):
            inp.refuse(flag, "ipso", f"{name} needs the rankings (QRELS and RUN files)")
        from ipsoeval.analyses.scores import ipso_scores
        ts = inp.load_score_files([qrels, *runs], align, fmt, v["scores_scale"],
                                  baseline=v["baseline"], measures=measures, command="ipso",
                                  warn=warn, note=note)
        report, _ = ipso_scores(ts, alpha=v["alpha"], measures=list(measures) or None,
                                all_pairs=v["all_pairs"], correct=v["correct"],
                                baseline=inp.score_baseline(v["baseline"], ts))
        return report
    ks = ipso.parse_enumerate(v["enumerate_"]) if v["enumerate_"] is not None else None
    if qrels is None and not runs:
        if ks is None:
            raise UsageError("ipso needs QRELS and at least two runs (or --enumerate K,...)")
        return ipso.enumerate_report(ks)
    if len(runs) < 2:
        raise UsageError(f"ipso needs QRELS and at least two runs (got {len(runs)} run)")
    tests = list(v["tests"])
    measures_for_tests(tests, measures)
    cutoff, depth_list = cutoff_and_depths(v["k"], v["depths"])
    names: list[str] = []
    if measures:
        from ipsoeval import engine
        names = _measure_names(engine.requested(measures))   # usage errors before reading
    options = _options(v, cutoff, depth_list, names, tests)
    aligned = inp.load_aligned(qrels, runs, align, measures=measures, warn=warn)
    options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    crossing = progress and options.all_pairs and progress(
        "ipso: crossings of every pair of runs")
    how = dict(gains_given=align.gains is not None, rel_level_given="rel_level" in given,
               graded_given=v["graded"] is not None)
    report = ipso.run(aligned, options, progress=crossing or None, enumerate_ks=ks, **how)
    inp.with_params(report, align.as_params())
    if v["plot"]:       # Figure 5's per-topic view needs the topic table

        from ipsoeval import plots
        topics = report.table("topics") if options.per_query else ipso.run(
            aligned, replace(options, per_query=True), **how).table("topics")
        plots.ipso(v["plot"], topics)
    return report


def from_result(res, *, measures=None, **kw):
    """The Report of :func:`ipsoeval.ipso` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import ipso as ip
    from ipsoeval.pipeline.common import _baseline, _common, _names, _report, _requested, _score_set

    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.analyses.scores import ipso_scores
        rep, _ = ipso_scores(ts, alpha=kw["alpha"], measures=_names(measures),
                             all_pairs=kw["all_pairs"], correct=kw["correct"],
                             baseline=kw["baseline"])
        return _report(rep, warnings=list(ts.warnings), params=dict(ts.params))
    if len(res.runs) < 2:
        raise UsageError(f"ipso needs at least two runs (got {len(res.runs)})")
    cutoff, depth_list = cutoff_and_depths(kw["k"], kw["depths"])
    names = _measure_names(_requested(res, measures)) if measures else []
    from ipsoeval.stats import registry
    tests = registry.parse(kw["tests"], allowed=ip.TESTS, command="ipso")
    measures_for_tests(tests, names)
    options = _options(kw, cutoff, depth_list, names, tests)
    options.baseline = _baseline(res, kw["baseline"])
    aligned, notes = _common(res, "ipso")
    report = ip.run(aligned, options, gains_given=res.params.get("gains") is not None,
                    rel_level_given=res.params.get("rel_level", 1) != 1,
                    graded_given=kw["graded"] is not None)
    return _report(report, warnings=notes, params=dict(res.params))
