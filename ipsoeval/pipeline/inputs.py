"""The one way inputs become what an analysis reads: qrels and runs (files,
directories of runs, a sweep of many runs, a Ray cluster) to aligned runs or
per-topic score matrices; per-topic score files (``--scores``) and nugget
assignments (``--nuggets``) to score sets; the alignment options checked; the
topic set chosen; the baseline checked before any file is read where it can be.

The command line and the Python API both come through here.  Nothing here
prints: warnings and notes go to the ``warn`` and ``note`` callables the
caller gives (the command line prints them on standard error, the API turns
them into Python warnings), progress to ``progress(done, total)``.
"""

from __future__ import annotations

import os

from ipsoeval.align_options import AlignOptions
from ipsoeval.errors import UsageError


def _ignore(_message: str) -> None:
    pass


# -- the alignment options of a command line -------------------------------------

def duration(secs: float) -> str:
    """A wait as a person reads it, in the notes announcing long work:
    seconds, minutes or hours."""
    if secs < 90:
        return f"{secs:.0f} s"
    if secs < 5400:
        return f"{secs / 60:.0f} min"
    return f"{secs / 3600:.1f} h"


def with_params(report, params: dict):
    """``report`` with ``params`` (how its inputs were read) in every table."""
    for rs in report.tables:
        rs.params.update(params)
    return report


def align_options(values: dict, *, paired: bool = True, label_samples: bool = False,
                  integer_labels: str | None = None, rankings: str | None = None,
                  note=_ignore, command: str = "") -> AlignOptions:
    """The AlignOptions of a command's parsed ``values`` (the runs expanded
    in place: a directory stands for its run files), checked before any file
    is read.  ``paired``: the command compares runs topic by topic (its
    default topic set is qrels); ``label_samples``: its --samples is the
    number of Monte Carlo draws under --labels probability;
    ``integer_labels``/``rankings``: the command's name when its analysis
    needs integer labels / reads the rankings themselves."""
    from ipsoeval.analyses.topicset import default_queries
    if values.get("runs"):
        from ipsoeval.reading import expand_run_paths
        given = values["runs"]
        values["runs"] = tuple(expand_run_paths(given))
        _default_baseline_note(given, values, note, command)
    output_not_an_input(values.get("output"), values.get("qrels"), values.get("runs") or ())
    queries = values.get("queries")
    if values.get("complete"):
        if queries not in (None, "qrels"):
            raise UsageError("-c/--complete conflicts with --queries " + queries)
        queries = "qrels"
    opts = AlignOptions(
        queries=queries or default_queries(paired), rel_level=values.get("rel_level", 1),
        judged_only=values.get("judged_only", False), gains=values.get("gains"),
        depth=values.get("depth"), tie_break=values.get("tie_break", "trec"),
        run_format=values.get("run_format", "auto"), names=tuple(values.get("names") or ()),
        name_from_file=values.get("name_from_file", False),
        labels=values.get("labels", "integer"),
        samples=values.get("samples") if label_samples else None, seed=values.get("seed"))
    baseline_before_reading(values, opts)
    if rankings and opts.tie_break == "expected":
        raise UsageError(f"{rankings} reads the rankings themselves, rank by rank: "
                         f"--tie-break expected (an expectation of measure values) "
                         f"does not apply; choose an order (trec, docno-asc, input)")
    if integer_labels and opts.labels != "integer":
        raise UsageError(f"{integer_labels} needs integer labels (--labels integer): "
                         f"its analysis counts relevant documents by their labels")
    return opts


def output_not_an_input(output, qrels, runs) -> None:
    """-o FILE must not name an input: it would be replaced by the output.
    trec_eval's obsolete -o takes no argument, so ``trec_eval -o qrels run``
    typed as ``ipsoeval eval -o qrels run`` would otherwise destroy the qrels."""
    if not output or output == "-":
        return
    for what, path in [("QRELS", qrels), *(("RUN", r) for r in runs)]:
        if not path or path == "-":
            continue
        try:
            same = os.path.samefile(output, path)
        except OSError:
            same = False
        if same:
            raise UsageError(f"-o/--output {output} is the {what} input; it would be replaced "
                             f"by the output (trec_eval's obsolete -o takes no argument: "
                             f"leave it out)")


def nugget_measures(v: dict, opts: AlignOptions, command: str, answers: str):
    """The measures of ``COMMAND --nuggets`` on two assignment files, after
    the checks that come first: the ``answers`` compared are the files' own
    (no RUN argument), and no option that reads run files applies."""
    from ipsoeval.analyses.nuggets import select

    if v["runs"]:
        raise UsageError(f"{command} --nuggets: the {answers} are those of the assignment "
                         f"files; give no RUN arguments")
    check_align_for_scores(opts)
    return select(list(v["measures"]))


def _default_baseline_note(given, values, note, command: str) -> None:
    """A directory's first file (in name order) becomes the default baseline of a
    --baseline command: the note says which file, and how to choose."""
    if "baseline" not in values or values.get("baseline") is not None \
            or values.get("all_pairs") or command == "bootstrap":   # its --baseline: no default
        return
    first = os.fspath(given[0]) if given else None
    if first is None or first == "-" or not os.path.isdir(first) or not values.get("runs"):
        return
    note(f"baseline: {values['runs'][0]} (the first run: the first file of {first} in name "
         f"order); --baseline chooses another")


def baseline_before_reading(values: dict, opts: AlignOptions) -> None:
    """--baseline against the run names, before any file is read, where they
    are known without reading the runs: one --name per RUN, or
    --name-from-file (with --scores or --nuggets a file may hold several runs;
    the reading checks it)."""
    base, runs = values.get("baseline"), list(values.get("runs") or ())
    if base is None or not runs or values.get("scores") or values.get("nuggets") \
            or (opts.names and len(opts.names) != len(runs)):
        return
    names = run_names(runs, opts)
    if names is None or "-" in runs:
        return
    from ipsoeval.analyses import validate
    validate.baseline(base, names, runs)


def run_names(runs, opts: AlignOptions):
    """The runs' names of --name / --name-from-file, else None (their tags)."""
    if opts.names:
        if len(opts.names) != len(runs):
            raise UsageError(f"--name given {len(opts.names)} time(s) for {len(runs)} run(s)")
        return list(opts.names)
    if opts.name_from_file:
        from ipsoeval.reading import file_stem
        return [file_stem(p) for p in runs]
    return None


# -- qrels and runs to aligned runs or score matrices ----------------------------------

def wants_subtopics(measures) -> bool:
    """Does -m ask for a diversity measure (then the qrels are read as
    ndeval's ``qid subtopic docno judgment``)?"""
    if not measures:
        return False
    from ipsoeval.measures.names import needs_subtopics
    return needs_subtopics(measures)


def collapse_warning(al, measures) -> None:
    """Add the warning for ordinary measures scored on diversity qrels
    (:func:`ipsoeval.measures.names.diversity_collapse_warning`)."""
    if al.subtopics is None:
        return
    from ipsoeval.measures.names import diversity_collapse_warning
    w = diversity_collapse_warning(measures or [])
    if w and w not in al.warnings:
        al.warnings.append(w)


def aligned_and_warnings(qrels: str, runs, opts: AlignOptions, *, paired: bool = True,
                         measures=()):
    """Read and align the inputs and choose the topic set
    (:func:`topicset.select`; ``paired``: the command compares runs topic by
    topic): (aligned, warnings)."""
    from ipsoeval import engine
    from ipsoeval.analyses.topicset import select

    runs = list(runs)
    names = run_names(runs, opts)
    al = engine.load(qrels, runs, queries=opts.queries, rel_level=opts.rel_level,
                     judged_only=opts.judged_only, gains=opts.gains, depth=opts.depth,
                     tie_break=opts.tie_break, run_format=opts.run_format, run_names=names,
                     labels=opts.labels, samples=opts.samples, seed=opts.seed,
                     subtopics=wants_subtopics(measures))
    collapse_warning(al, measures)
    return select(al, paired=paired)


def load_aligned(qrels: str, runs, opts: AlignOptions, *, paired: bool = True, measures=(),
                 warn=_ignore):
    """:func:`aligned_and_warnings`, the warnings handed to ``warn``."""
    al, warnings = aligned_and_warnings(qrels, runs, opts, paired=paired, measures=measures)
    for w in warnings:
        warn(w)
    return al


def aligned_report(v: dict, opts: AlignOptions, measures, run, *, warn=_ignore):
    """``run(aligned, requested)`` on the command line's QRELS and RUNs for
    ``measures`` (the measures asked for first: their usage errors come
    before any file is read), the alignment's params added to its Report."""
    from ipsoeval import engine

    requested = engine.requested(measures)
    aligned = load_aligned(v["qrels"], v["runs"], opts, measures=measures, warn=warn)
    return with_params(run(aligned, requested), opts.as_params())


def sweeping(engine: str, runs=(), opts: AlignOptions | None = None, *conflicts,
             measures=()) -> bool:
    """Whether the runs are scored by a sweep (:mod:`ipsoeval.distributed`):
    always with ``--engine ray``, where ``conflicts`` -- (given, option text)
    pairs of options that need the rankings on this machine -- are usage
    errors; with ``--engine local`` when there are at least
    :data:`ipsoeval.distributed.SWEEP_RUNS` runs and no such option (the
    runs are then scored a batch at a time, in a fraction of the memory of
    aligning them all; same bytes).  A bad ``--engine`` is a usage error."""
    from ipsoeval.distributed import SWEEP_RUNS, parse_engine
    probability = opts is not None and opts.labels == "probability"
    expected = opts is not None and opts.tie_break == "expected"
    diversity = wants_subtopics(measures)      # diversity qrels: read by the local engine only
    if parse_engine(engine)[0] != "local":
        for given, what in (*conflicts, (probability, "--labels probability"),
                            (expected, "--tie-break expected"),
                            (diversity, "the diversity measures")):
            if given:
                raise UsageError(f"--engine {engine} does not combine with {what} (it needs "
                                 f"the runs' rankings on this machine; use --engine local)")
        return True
    return len(runs) >= SWEEP_RUNS and "-" not in runs and not probability and not expected \
        and not diversity and not any(given for given, _ in conflicts)


def sweep_or_align(v, runs, align: AlignOptions, requested, *conflicts, measures=(),
                   warn=_ignore, progress=None):
    """(aligned, scores or None) of a command's runs: scored by a sweep where
    :func:`sweeping` says so (``conflicts`` as there; the alignment the
    Scores'), else read and aligned here (None: the caller scores them, after
    its checks on the aligned runs)."""
    if sweeping(v["engine_name"], runs, align, *conflicts, measures=measures):
        sc = load_scores(v["qrels"], runs, align, requested, engine=v["engine_name"], warn=warn,
                         progress=progress and progress(f"scoring {len(runs)} runs"))
        return sc.aligned, sc
    return load_aligned(v["qrels"], runs, align, measures=measures, warn=warn), None


def load_scores(qrels: str, runs, opts: AlignOptions, requested, *, engine: str,
                paired: bool = True, text_ok: bool = False, params=None, quiet=None,
                warn=_ignore, progress=None):
    """Read, align and score the runs through a sweep
    (:func:`ipsoeval.distributed.score_runs`): a Scores on the command's
    topics, the warnings handed to ``warn`` (``quiet(w)`` True: left out).
    ``params``: entries set in the alignment's params before scoring (eval -N)."""
    from ipsoeval.analyses.topicset import select
    from ipsoeval.distributed import SweepOptions, restrict, score_runs

    runs = list(runs)
    names = run_names(runs, opts)
    o = SweepOptions(queries=opts.queries, rel_level=opts.rel_level,
                     judged_only=opts.judged_only, gains=opts.gains, depth=opts.depth,
                     tie_break=opts.tie_break, run_format=opts.run_format, labels=opts.labels)
    sc, _ = score_runs(qrels, runs, requested, engine=engine, options=o, run_names=names,
                       text_ok=text_ok, params=params, progress=progress)
    al, warnings = select(sc.aligned, paired=paired)
    for w in warnings:
        if quiet is None or not quiet(w):
            warn(w)
    return restrict(sc, al)


# -- per-topic score files (--scores, --nuggets) ----------------------------------------

TWO_RUNS = ("risk", "sigtest", "ipso")      # commands that compare runs: two at least
ONE_MEASURE = ("risk", "sigtest", "interval-map")   # without -m: the scores' only measure


def scores_format(values: dict) -> str | None:
    """The format of per-topic score files the command line asks for (``nuggets:LAYOUT``
    for --nuggets), or None when the arguments are QRELS RUN...; the
    conflicting options refused."""
    nuggets, fmt = values.get("nuggets"), values.get("scores_format", "auto")
    layout = values.get("nuggets_format", "auto")
    if nuggets:
        if values.get("scores"):
            raise UsageError("--nuggets conflicts with --scores (the files are nugget "
                             "assignments, not per-topic scores)")
        if fmt != "auto" or values.get("scores_scale"):
            raise UsageError("--scores-format and --scores-scale apply to --scores, not "
                             "to --nuggets (use --nuggets-format)")
        return f"nuggets:{layout}"
    if layout != "auto" and "scores" in values:
        raise UsageError("--nuggets-format needs --nuggets")
    return fmt if values.get("scores") else None


def check_align_for_scores(opts: AlignOptions) -> None:
    if (opts.judged_only or opts.depth is not None or opts.rel_level != 1
            or opts.gains is not None or opts.tie_break != "trec"
            or opts.run_format != "auto" or opts.labels != "integer"):
        raise UsageError("-J, -M, -l, --gains, --tie-break, --run-format and --labels apply "
                         "to runs and qrels, not to --scores (--queries and --name do)")


def _baseline_first(baseline, files, names) -> None:
    """--baseline checked before any file is read where the run names are known
    without reading: given by --name (a FILE argument as the baseline waits
    for the reading, since one file may hold several runs)."""
    if baseline is None or not names:
        return
    if baseline in files or (os.path.exists(baseline) and any(
            f != "-" and os.path.exists(f) and os.path.samefile(f, baseline) for f in files)):
        return
    from ipsoeval.analyses import validate
    validate.baseline(baseline, list(names))


def load_score_files(files, opts: AlignOptions, fmt: str, scale, *, baseline=None,
                     measures=None, command: str | None = None, warn=_ignore, note=_ignore):
    """The per-topic scores of ``files``.  ``baseline`` (--baseline) and, with
    ``command``, the -m requirement (:func:`measures_or_only`) are checked
    before the reading where they can be and before any note is given, so
    that a refusal is the only line on standard error."""
    from ipsoeval.reading.scores import read_scores
    check_align_for_scores(opts)
    files = [f for f in files if f is not None]
    _baseline_first(baseline, files, opts.names)
    if fmt.startswith("nuggets:"):      # --nuggets: the nugget scores
        from ipsoeval.analyses.nuggets import select, topic_scores
        if measures:                    # the names are known before reading
            select([str(m) for m in measures])
        from ipsoeval.reading.nuggets import read_nuggets
        ts = topic_scores(read_nuggets(files, fmt.partition(":")[2]))
    else:
        ts = read_scores(files, fmt=fmt, queries=opts.queries, scale=scale)
    if opts.names:        # --name: once per run, in the order the files give them
        if len(opts.names) != len(ts.runs):
            raise UsageError(f"--name given {len(opts.names)} time(s) for "
                             f"{len(ts.runs)} run(s) in the scores")
        if len(set(opts.names)) != len(opts.names):
            raise UsageError("--name: run names must differ")
        ts.runs = list(opts.names)
    if baseline is not None:
        score_baseline(baseline, ts)
    if command in ONE_MEASURE and not measures and len(ts.measures) != 1:
        measures_or_only(ts, measures, command)
    if command in TWO_RUNS and len(ts.runs) < 2:  # as the analysis would say, before the notes
        raise UsageError(f"{command} needs at least two runs (the scores hold {len(ts.runs)})")
    if measures and not fmt.startswith("nuggets:"):
        from ipsoeval.reading.scores import select
        select(ts, list(measures))                # a -m the scores lack
    for n in ts.notes:
        note(n)
    for w in ts.warnings:
        warn(w)
    return ts


def command_scores(v: dict, opts: AlignOptions, fmt: str, **kw):
    """The per-topic scores of the files a command's QRELS and RUN arguments
    name under --scores (``kw``: as :func:`load_score_files` takes them)."""
    return load_score_files([v["qrels"], *v["runs"]], opts, fmt, v["scores_scale"], **kw)


def measures_or_only(ts, measures, command: str, note=_ignore) -> list[str]:
    """-m as given; without -m, the one measure the score files share (a
    note), else a usage error that lists the measures found."""
    if measures:
        return list(measures)
    if len(ts.measures) == 1:
        note(f"{command} --scores: using the scores' only measure, {ts.measures[0]}")
        return list(ts.measures)
    raise UsageError(f"Missing option '-m' / '--measure': the scores hold "
                     f"{len(ts.measures)} measures ({', '.join(ts.measures)})")


def score_baseline(value, ts):
    """--baseline NAME|FILE with --scores: a run name, or a score file holding one run."""
    from ipsoeval.analyses import validate
    return validate.baseline(value, ts.runs, ts.params.get("scores"))


def refuse(flag: bool, command: str, why: str) -> None:
    if flag:
        raise UsageError(f"{command} --scores: {why}")


# -- Python objects or paths, as the API takes them ------------------------------------

def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def _run_items(runs) -> list[tuple[object, str | None]]:
    """[(run input, name or None)] from a path, dict, DataFrame, list or {name: run}."""
    from ipsoeval.reading import is_dataframe, split_runs

    if _is_path(runs) or is_dataframe(runs):
        if is_dataframe(runs):
            parts = split_runs(runs)
            if parts is not None:
                return [(v, k) for k, v in parts.items()]
        return [(runs, None)]
    if isinstance(runs, dict):
        if not runs:
            raise UsageError("no runs given")
        first = next(iter(runs.values()))
        if isinstance(first, dict) and first and not isinstance(next(iter(first.values())), dict):
            return [(runs, None)]          # one run: {qid: {docno: score}}
        return [(v, str(k)) for k, v in runs.items()]
    if isinstance(runs, (list, tuple)):
        return [(r, None) for r in runs]
    raise UsageError(f"runs must be a path, a dict, a DataFrame, a list of these or a "
                     f"{{name: run}} dict (found {type(runs).__name__})")


def load_inputs(qrels, runs, *, queries: str = "qrels", rel_level: int = 1,
                judged_only: bool = False, gains=None, depth: int | None = None,
                tie_break: str = "trec", run_format: str = "auto", names=None,
                name_from_file: bool = False, labels: str = "integer",
                samples: int | None = None, seed: int | None = None,
                subtopics: bool = False):
    """Read (or convert) qrels and runs and align them: an :class:`~ipsoeval.model.Aligned`.
    ``labels``: integer, gain or probability (``--labels``); ``samples``/``seed``:
    the Monte Carlo draws under probability labels (``--samples``, ``--seed``);
    ``subtopics``: the qrels are diversity qrels (``qid subtopic docno
    judgment``: a file, a DataFrame with a subtopic column or a ``{qid:
    {subtopic: {docno: judgment}}}`` dict) for the diversity measures
    (:func:`ipsoeval.engine.load`)."""
    from ipsoeval import engine, reading
    from ipsoeval.align import QrelsIndex, parse_gains
    from ipsoeval.parallel import parallel_map

    if isinstance(gains, str):
        gains = parse_gains(gains)
    elif gains is not None:
        gains = parse_gains(",".join(f"{int(k)}:{float(v)!r}" for k, v in dict(gains).items()))
    if run_format not in ("auto", "trec", "msmarco"):
        raise UsageError(f"run_format must be auto, trec or msmarco (found {run_format!r})")
    items = []
    for obj, nm in _run_items(runs):
        if _is_path(obj):
            for p in reading.expand_run_paths([os.fspath(obj)]):
                items.append((p, nm))
        else:
            items.append((obj, nm))
    if not items:
        raise UsageError("at least one run is needed")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    paths = [os.fspath(x) for x in [qrels] + [o for o, _ in items] if _is_path(x)]
    reading.check_stdin_once(paths)
    table = None
    if subtopics:
        if labels != "integer" or tie_break == "expected":
            raise UsageError("diversity measures take integer judgments and do not combine "
                             "with tie_break='expected'")
        from ipsoeval.align import subtopic_qrels
        q, table = subtopic_qrels(reading.read_subtopic_qrels(os.fspath(qrels))
                                  if _is_path(qrels) else reading.subtopic_qrels_from(qrels))
    elif _is_path(qrels):
        q = reading.read_qrels(os.fspath(qrels), labels=labels)
    else:
        q = reading.qrels_from(qrels, labels=labels)
    qindex = QrelsIndex(q)

    def one(i):
        obj, nm = items[i]
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and name_from_file:
                nm = reading.file_stem(p)
            return reading.read_for_alignment(p, qindex, run_format=run_format, name=nm,
                                              tie_break=tie_break, judged_only=judged_only,
                                              depth=depth)
        return reading.run_from(obj, nm if nm is not None else f"run{i + 1}")

    run_models = parallel_map(one, range(len(items))) if len(items) > 1 else [one(0)]
    al = engine.align_read(q, run_models, qindex=qindex, queries=queries, rel_level=rel_level,
                           judged_only=judged_only, gains=gains, depth=depth,
                           tie_break=tie_break)   # run_models is ours, not the caller's
    if table is not None:
        from ipsoeval.align import attach_subtopics
        al = attach_subtopics(al, table)
    return engine.monte_carlo_options(al, samples, seed)


