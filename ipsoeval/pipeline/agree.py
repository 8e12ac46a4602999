"""``ipsoeval agree``: its declaration and the calls from inputs to a Report,
made by the command line (:func:`from_values`) and the API (:func:`from_result`)."""

from __future__ import annotations

import os

from ipsoeval.align_options import align_group
from ipsoeval.analyses.agree.options import Nuggets, Options, make_options
from ipsoeval.declare import Arg, Command, Group, field_names
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import Measures, NuggetsFormat, Plot


def _align() -> Group:
    """The alignment options, the API's too: its topic set defaults to qrels
    (as the command line's); it reads integer labels only (no ``labels``)."""
    g = align_group(paired=True, api=True)
    g.words["queries"] = {**g.words["queries"], "default": "qrels"}
    g.words["labels"] = {"api": False}
    return g


COMMAND = Command(
    "agree", HELP["agree"],
    arguments=(Arg("qrels_a", "QRELS_A"), Arg("qrels_b", "QRELS_B"),
               Arg("runs", "[RUN...]", many=True, required=False)),
    groups=(Group(Measures, words={"measures": {
                "api": False,   # the API's fourth positional parameter
                "help": "Measure whose run rankings are compared, e.g. nDCG@10, AP, P@10 "
                        "(repeatable; needed with runs; see `ipsoeval measures`)."}}),
            Options, Nuggets, Group(NuggetsFormat, words={"nuggets_format": {"api": True}}),
            _align(), Plot, output_group("tsv")))

# the API's positional parameters: the two qrels, then runs and measures (optional)
API_FIRST = ("qrels_a", "qrels_b", ("runs", None), ("measures", None))

_OPTION_NAMES = [o.dest for o in COMMAND.opts()
                 if o.dest in field_names(Options) and o.dest != "test"]


def options_of(values: dict) -> Options:
    """The analysis's Options from the command's values (or the API's keywords), checked."""
    return make_options(values.get("test"), **{k: values[k] for k in _OPTION_NAMES})


def from_values(v: dict, *, warn=inp._ignore, note=inp._ignore, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval import reading
    from ipsoeval.analyses import agree

    align = inp.align_options(v, paired=True, note=note, command="agree")
    qrels_a, qrels_b, runs, measures = v["qrels_a"], v["qrels_b"], v["runs"], v["measures"]
    inp.output_not_an_input(v["output"], qrels_a, [qrels_b])
    if align.labels != "integer":
        raise UsageError(f"agree compares integer labels (kappa, alpha, the confusion matrix): "
                         f"--labels {align.labels} is not supported")
    options = options_of(v)
    if v["nuggets"]:            # two assigners of the same answers
        return _nuggets(v, options, align, progress=progress)
    if v["nuggets_format"] != "auto":
        raise UsageError("--nuggets-format needs --nuggets")
    options.check(list(runs))
    if runs and not measures:
        raise UsageError("agree with runs needs at least one -m MEASURE (e.g. -m nDCG@10)")
    if measures and not runs:
        raise UsageError("-m needs runs to rank: ipsoeval agree QRELS_A QRELS_B RUN RUN... "
                         "-m MEASURE")
    if v["plot"] and not runs:
        raise UsageError("--plot draws the run means under QRELS_A and QRELS_B: give two or "
                         "more runs")
    requested = None
    if runs:
        from ipsoeval import engine
        requested = engine.requested(measures)          # usage errors before reading files
    reading.check_stdin_once([qrels_a, qrels_b, *runs])
    qa = reading.read_qrels(qrels_a)
    qb = reading.read_qrels(qrels_b)
    models = _read_runs(list(runs), align) if runs else []
    comparing = progress("agree: comparing rankings") if progress and runs else None
    report = agree.run(qa, qb, models, requested, options, align=_align_params(align),
                       progress=comparing)
    _plot(v["plot"], report)
    return report


def _align_params(align) -> dict:
    """What :func:`ipsoeval.analyses.agree.run` aligns the runs with."""
    return {"queries": align.queries, "rel_level": align.rel_level,
            "judged_only": align.judged_only, "gains": align.gains, "depth": align.depth,
            "tie_break": align.tie_break}


def _read_runs(paths: list[str], align) -> list:
    """Run models read once (aligned to each qrels in turn), named as --name /
    --name-from-file say."""
    from ipsoeval import reading
    from ipsoeval.parallel import parallel_map

    names = inp.run_names(paths, align)

    def read(i):
        return reading.read_run(paths[i], run_format=align.run_format,
                                name=names[i] if names else None)

    return parallel_map(read, range(len(paths))) if len(paths) > 1 else [read(0)]


def _nuggets(v: dict, options: Options, align, *, progress=None):
    """``agree --nuggets A B``: the support labels and the rankings by nugget scores."""
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.reading import check_stdin_once
    from ipsoeval.reading.nuggets import read_nuggets

    path_a, path_b, layout = v["qrels_a"], v["qrels_b"], v["nuggets_format"]
    sel = inp.nugget_measures(v, align, "agree", "answers")
    inp.output_not_an_input(v["output"], path_a, [path_b])
    check_stdin_once([path_a, path_b])
    ja = read_nuggets([path_a], layout)
    jb = read_nuggets([path_b], layout)
    if v["plot"] and len([r for r in ja.runs if r in jb.runs]) < 2:
        raise UsageError("--plot draws the run means under A and B: the files need two or "
                         "more runs in common")
    report = ng.agree_report(ja, jb, [m.name for m in sel], options,
                             progress=progress and progress("agree: comparing rankings"))
    _plot(v["plot"], report)
    return report


def _plot(path, report) -> None:
    if path:
        from ipsoeval import plots
        plots.agree(path, report.table("means"), report.table("rankings"))


def from_result(qrels_a, qrels_b, runs=None, measures=None, *, nuggets=False,
                nuggets_format="auto", **kw):
    """The Report of :func:`ipsoeval.agree`: the two qrels as paths or
    in-memory qrels, the runs (optional) as :func:`ipsoeval.evaluate` takes
    them; ``nuggets=True``: the paths of two nugget assignment files."""
    from ipsoeval import engine, reading
    from ipsoeval.analyses import agree as ag
    from ipsoeval.pipeline.common import _is_path, _names, _run_items, _warn

    options = options_of(kw)
    if nuggets:             # agree --nuggets: two assigners' nugget assignments
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.reading.nuggets import read_nuggets as rd
        if runs is not None:
            raise UsageError("agree(nuggets=True): the answers are those of the assignment "
                             "files; give no runs")
        report = ng.agree_report(rd([os.fspath(qrels_a)], nuggets_format),
                                 rd([os.fspath(qrels_b)], nuggets_format),
                                 [m.name for m in ng.select(_names(measures))], options)
        _warn(report.warnings)
        return report
    if measures is not None:
        measures = [measures] if isinstance(measures, str) else list(measures)
    items = []
    if runs is not None:
        for obj, nm in _run_items(runs):
            if _is_path(obj):
                items.extend((p, nm) for p in reading.expand_run_paths([os.fspath(obj)]))
            else:
                items.append((obj, nm))
    names = kw.get("names")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    options.check([nm or "" for _, nm in items] if items else None)
    requested = engine.requested(measures) if items and measures else measures
    reading.check_stdin_once([os.fspath(x) for x in [qrels_a, qrels_b] + [o for o, _ in items]
                              if _is_path(x)])
    qs = [reading.read_qrels(os.fspath(q)) if _is_path(q) else reading.qrels_from(q)
          for q in (qrels_a, qrels_b)]
    models = []
    for i, (obj, nm) in enumerate(items):
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and kw.get("name_from_file"):
                nm = reading.file_stem(p)
            models.append(reading.read_run(p, run_format=kw.get("run_format", "auto"),
                                           name=nm))
        else:
            models.append(reading.run_from(obj, nm if nm is not None else f"run{i + 1}"))
    gains = kw.get("gains")
    if isinstance(gains, dict):
        gains = ",".join(f"{int(k)}:{float(v)!r}" for k, v in gains.items())
    align = {"queries": kw.get("queries", "qrels"), "rel_level": kw.get("rel_level", 1),
             "judged_only": kw.get("judged_only", False), "gains": gains,
             "depth": kw.get("depth"), "tie_break": kw.get("tie_break", "trec")}
    report = ag.run(qs[0], qs[1], models, requested, options, align=align)
    _warn(report.warnings)
    return report
