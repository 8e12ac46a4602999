"""``ipsoeval interval-map``: its declaration and the calls from inputs to a
Report, made by the command line (:func:`from_values`) and the API
(:func:`from_result`)."""

from __future__ import annotations

from ipsoeval.analyses.interval_map.options import DEFAULT_N, Options
from ipsoeval.declare import Group, replace
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Measures, checked_options, scores_command

# a value-set pass estimated longer than this is announced first, on a pipe too
ANNOUNCE_SECONDS = 10.0

COMMAND = scores_command(
    "interval-map",
    # the API takes the measures as its second positional parameter
    Group(Measures, api=False, words={"measures": {"help": (
        "Measure to map: P, R, AP, RR, Success, ESL, DCG(b=2), nDCG(b=2), nDCG, RBP(p=0.8), "
        "... with a cutoff (its run length N) or without one (then -N); repeatable.  "
        "Required, except with --scores whose files hold one measure.")}}),
    Options)


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    return checked_options(COMMAND, Options, values)


def _progress(progress, note):
    """The analysis's ``cb(label, done, total)``: a bar per pass
    (``progress(label)``), and ``cb.announce(what, seconds)``: a note before a
    long pass, since bars are drawn on a terminal only and this line says,
    anywhere, that the silence to come is work (it is cached afterwards)."""
    bars: dict = {}

    def cb(label: str, done: int, total: int) -> None:
        if label not in bars:
            bars[label] = progress(f"interval-map: {label}")
        bars[label](done, total)

    def announce(what: str, secs: float) -> None:
        if secs >= ANNOUNCE_SECONDS:
            note(f"interval-map: {what}: about {inp.duration(secs)} (computed once, then "
                 f"cached; a smaller -N or cutoff is faster)")

    cb.announce = announce
    return cb


def _plot_tables(compute, options):
    """The per-topic and the per-run ``scores`` tables the plot draws."""
    return [compute(replace(options, per_query=pt, values=False, analyze=False,
                                        warnings=[])).table("scores") for pt in (True, False)]


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None, listing=None):
    """The Report of a command line's parsed values ``v``; None when
    ``listing()``, called once the options are checked and before any input
    is read, says it answered (``--table list``)."""
    from ipsoeval.analyses import interval_map

    align = inp.align_options(v, paired=True, integer_labels="interval-map",
                              rankings="interval-map", note=note, command="interval-map")
    fmt = inp.scores_format(v)
    if listing is not None and listing():
        return None
    measures = v["measures"]
    if not measures and fmt is None:
        raise UsageError("Missing option '-m' / '--measure'.")
    if v["tests"] and not v["analyze"]:
        raise UsageError("--test applies to --analyze: give --analyze too")
    options = options_of(v)
    plot = v["plot"]
    if fmt is not None:         # P@k, RR@k, Success@k from per-topic score files
        from ipsoeval.analyses.scores import interval_map_scores
        ts = inp.command_scores(v, align, fmt, measures=measures, command="interval-map", warn=warn,
                                  note=note)
        measures = inp.measures_or_only(ts, measures, "interval-map", note=note)
        report = interval_map_scores(ts, measures, options)
        if plot:
            tables = _plot_tables(lambda o: interval_map_scores(ts, list(measures) or None, o),
                                  options)
        report.warnings.extend(w for w in options.warnings if w not in report.warnings)
    else:
        # usage errors before reading files; no cutoff and no -N: N = 30
        plain = [interval_map.at_cutoff(m, options.N, default_N=DEFAULT_N) for m in measures]
        interval_map.check_listings(plain, options)    # too long a listing: before reading
        interval_map.check_work(plain, options)        # minutes of mapping: likewise
        aligned = inp.load_aligned(v["qrels"], v["runs"], align, measures=measures, warn=warn)
        report = interval_map.run(aligned, plain, options, progress=progress and _progress(
            progress, note))
        inp.with_params(report, align.as_params())
        if plot:        # φ per topic against the raw value, means before/after
            tables = _plot_tables(lambda o: interval_map.run(aligned, plain, o), options)
    if plot:
        from ipsoeval import plots
        plots.interval_map(plot, *tables)
    return report


def from_result(res, measures=None, **kw):
    """The Report of :func:`ipsoeval.interval_map` on an EvalResult or per-topic scores."""
    from ipsoeval.analyses import interval_map as im
    from ipsoeval.pipeline.common import _common, _names, _scores_or_result

    options = options_of(kw)

    def on_scores(ts):          # P@k, RR@k, Success@k: the map is a function of the value
        from ipsoeval.analyses.scores import interval_map_scores
        return interval_map_scores(ts, _names(measures), options)

    def on_result(res):
        names = res.measures if measures is None else _names(measures)
        plain = [im.at_cutoff(m, options.N, default_N=DEFAULT_N) for m in names]
        aligned, notes = _common(res, "interval-map")
        return im.run(aligned, plain, options), notes

    return _scores_or_result(res, on_scores, on_result)
