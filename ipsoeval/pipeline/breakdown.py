"""``ipsoeval breakdown``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.analyses.breakdown.options import Options
from ipsoeval.declare import Arg, Command
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Plot, checked_options

COMMAND = Command(
    "breakdown", HELP["breakdown"],
    arguments=(Arg("qrels", "QRELS"), Arg("runs", "RUN...", many=True)),
    groups=(Options, align_group(paired=True, gains=False), Plot, output_group("tsv")))


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    return checked_options(COMMAND, Options, values)


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None, listing=None):
    """The Report of a command line's parsed values ``v``; None when
    ``listing()``, called once the options are checked and before any input
    is read, says it answered (``--table list``)."""
    from ipsoeval.analyses import breakdown, validate

    align = inp.align_options(v, paired=True, integer_labels="breakdown", note=note,
                              command="breakdown")
    if listing is not None and listing():
        return None
    runs = v["runs"]
    if len(runs) < 2:
        raise UsageError(f"breakdown needs QRELS and at least two runs (got {len(runs)} run)")
    options = options_of(v)                 # usage errors before reading files
    aligned = inp.load_aligned(v["qrels"], runs, align, warn=warn)
    options.baseline = validate.baseline(options.baseline, aligned.runs, runs)
    report = breakdown.run(aligned, options)
    inp.with_params(report, align.as_params())
    if v["plot"]:       # the outcome bars come from the summary
        from ipsoeval import plots
        plots.breakdown(v["plot"], report.table("summary"))
    return report


def from_result(res, **kw):
    """The Report of :func:`ipsoeval.breakdown` on an EvalResult."""
    from ipsoeval.analyses import breakdown as bd
    from ipsoeval.pipeline.common import _baseline, _common, _report, _warn

    if len(res.runs) < 2:
        raise UsageError(f"breakdown needs at least two runs (got {len(res.runs)})")
    options = options_of(kw)
    options.baseline = _baseline(res, kw.get("baseline"))
    aligned, notes = _common(res, "breakdown")
    out = bd.run(aligned, options)
    _warn(out.warnings)
    return _report(out, warnings=notes, params=dict(res.params))
