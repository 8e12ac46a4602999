"""``ipsoeval eval``: its declaration, the fast path's reading of its command
line (:func:`quick`) and the calls from a command line's values to a Report
(:func:`from_values`).

Importing this module loads no numpy and no click: the console script
parses eval's arguments with this declaration before anything heavier is
imported (:func:`quick`)."""

from __future__ import annotations

from ipsoeval.align_options import align_group
from ipsoeval.analyses.evaluate.options import EvalOptions, check_bounds, debug_level, trec_long
from ipsoeval.declare import Arg, Command, Group
from ipsoeval.errors import UsageError
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline.options import Engine, Measures, PerQuery


def _align():
    """eval's alignment options: trec_eval's topic set on the command line
    (intersection), the analyses' in the API (qrels, as ``evaluate`` always
    had)."""
    g = align_group(paired=False, api=True)
    g.words["queries"]["api_default"] = "qrels"
    return g


COMMAND = Command(
    "eval", HELP["eval"],
    arguments=(Arg("qrels", "QRELS"), Arg("runs", "RUN...", many=True)),
    groups=(Group(Measures, api=False),           # the API's third positional parameter
            Group(PerQuery, words={"per_query": {"help": "Also print each topic's scores."}},
                  api=False),
            _align(),
            Group(Engine, words={"engine_name": {"api": True, "api_name": "engine"}}),
            EvalOptions, output_group("trec")))

def quick(args) -> bool:
    """``ipsoeval eval ...`` (``args``: the whole command line after the
    program) printed by the compiled core's quick path, or False (nothing
    printed): another command, an option it does not serve, or what
    :func:`ipsoeval.reading.quick.quick_eval` declines."""
    if not args or args[0] != "eval":
        return False
    from ipsoeval.declare import parse
    from ipsoeval.reading.quick import SERVES, quick_eval
    argv = trec_long(args[1:])
    values = parse(COMMAND, argv, serve=SERVES)
    if values is None or (values["depth"] is not None
                          and not _ascii_digits(argv, COMMAND.opt("depth"))):
        return False
    return quick_eval(values)


def _ascii_digits(argv, opt) -> bool:
    """Whether every value ``argv`` gives ``opt`` is spelled in ASCII digits:
    the quick path takes a number in no other spelling (a sign, spaces, '_',
    another script's digits), leaving those to the full program."""
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            break
        for f in opt.flags:
            if a == f:
                text = argv[i] if i < len(argv) else ""
                i += 1
            elif a.startswith(f + "=" if f.startswith("--") else f) and a != f:
                text = a[len(f) + f.startswith("--"):]
            else:
                continue
            if not (text.isascii() and text.isdigit()):
                return False
            break
    return True


def from_values(v: dict, *, warn=None, note=None, progress=None):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval.analyses.evaluate import without_runid
    from ipsoeval.pipeline import inputs as inp
    from ipsoeval.results import Report
    from ipsoeval.trecmodes import evaluate as TM

    warn = warn or inp._ignore
    note = note or inp._ignore
    align = inp.align_options(v, paired=False, label_samples=True, note=note, command="eval")
    qrels, runs, measures = v["qrels"], v["runs"], v["measures"]
    per_query, rel_format, zscores_file = v["per_query"], v["rel_format"], v["zscores_file"]
    no_summary, bounds, trec_eval_version = v["no_summary"], v["bounds"], v["trec_eval_version"]
    results_format = v["results_format"]
    _, only_topic = debug_level(v["debug_level"])
    if results_format:          # trec_eval -T trec_results: the six-field format
        if align.run_format not in ("auto", "trec"):
            raise UsageError(f"-T {results_format} conflicts with --run-format "
                             f"{align.run_format}")
        align.run_format = "trec"
    version = trec_eval_version or "ipsoeval"
    params = {"measures": list(measures), "per_query": per_query, "rel_format": rel_format,
              "zscores": zscores_file, "no_summary": no_summary,
              "trec_eval_version": trec_eval_version, **align.as_params()}
    if bounds:
        params["bounds"] = True
        check_bounds(bounds, labels=align.labels, tie_break=align.tie_break,
                     rel_format=rel_format, zscores=zscores_file, only_topic=only_topic,
                     trec_eval_version=trec_eval_version)
    sweep = inp.sweeping(v["engine_name"], runs, align,      # a per-run sweep
                         (rel_format != "qrels", f"-R {rel_format}"), (bounds, "--bounds"),
                         measures=measures)
    if rel_format != "qrels":
        if align.labels != "integer":
            raise UsageError(f"-R {rel_format} reads integer labels (--labels integer)")
        if align.tie_break == "expected":
            raise UsageError(f"-R {rel_format} does not combine with --tie-break expected "
                             f"(its measures have no expectation over the tie orders)")
        mm = TM.parse_measures(rel_format, measures)   # usage errors before reading
        zs = _zscores(zscores_file)
        names = inp.run_names(list(runs), align)
        results, warnings = TM.evaluate(
            rel_format, qrels, runs, mm, queries=align.queries, version=version,
            depth=align.depth, judged_only=align.judged_only,
            rel_level=align.rel_level, tie_break=align.tie_break,
            run_format=align.run_format, run_names=names, only_topic=only_topic)
        blocks = [(r.run, r.topics, r.columns, r.show, r.denominator) for r in results]
        rs = TM.result_set(blocks, per_query=per_query, summary=not no_summary, zscores=zs,
                           params={**params, "measures": mm.names})
        return Report("eval", [without_runid(rs)], warnings=list(warnings))
    return _qrels_mode(qrels, runs, measures, per_query, align, zscores_file, no_summary,
                       v["num_docs_in_coll"], only_topic, version, params, bounds,
                       engine_name=v["engine_name"] if sweep else None, warn=warn,
                       progress=progress)


def _load(qrels, runs, align, measures, *, quiet_missing: bool, warn):
    """inputs.load_aligned, leaving out the 'missing topics' warning when
    trec_eval 10's rule turns it into an error."""
    from ipsoeval.pipeline import inputs as inp
    if not quiet_missing:
        return inp.load_aligned(qrels, runs, align, paired=False, measures=measures, warn=warn)
    from ipsoeval import engine
    runs = list(runs)
    names = inp.run_names(runs, align)
    o = align
    al = engine.load(qrels, runs, queries=o.queries, rel_level=o.rel_level,
                     judged_only=o.judged_only, gains=o.gains, depth=o.depth,
                     tie_break=o.tie_break, run_format=o.run_format, run_names=names,
                     labels=o.labels, samples=o.samples, seed=o.seed,
                     subtopics=inp.wants_subtopics(measures))
    inp.collapse_warning(al, measures)
    for w in al.warnings:
        if "missing from the run" not in w:
            warn(w)
    return al


def _zscores(path):
    if path is None:
        return None
    from ipsoeval.trecmodes.zscores import read_zscores
    return read_zscores(path)


def _qrels_mode(qrels, runs, measures, per_query, align, zscores_file, no_summary,
                num_docs_in_coll, only_topic, version, params, bounds=False,
                engine_name=None, *, warn, progress=None):
    import numpy as np

    from ipsoeval import engine
    from ipsoeval.analyses.evaluate import eval_results, without_runid
    from ipsoeval.errors import InputError
    from ipsoeval.pipeline import inputs as inp
    from ipsoeval.results import Report
    from ipsoeval.trecmodes import evaluate as TM

    TM.check_mode_measures("qrels", measures)
    reqs = engine.requested(measures)          # usage errors before reading files
    if version == "9":
        reqs = TM.drop_v10_only(reqs)
    zs = _zscores(zscores_file)
    queries = align.queries
    if version == "10" and queries == "intersection":
        align.queries = "qrels"           # trec_eval 10 walks the qrels topics
    quiet_missing = version == "10" and queries != "qrels"
    scores = None
    if engine_name is not None:          # runs scored a batch at a time
        extra = {} if num_docs_in_coll is None else {"num_docs_in_coll": num_docs_in_coll}
        scores = inp.load_scores(qrels, runs, align, reqs, engine=engine_name,
                                 paired=False, text_ok=True, params=extra,
                                 quiet=(lambda w: "missing from the run" in w)
                                 if quiet_missing else None, warn=warn,
                                 progress=progress and progress(f"scoring {len(runs)} runs"))
        al = scores.aligned
    else:
        al = _load(qrels, runs, align, measures, quiet_missing=quiet_missing, warn=warn)
    align.queries = queries
    present = al.params.get("present")
    if version == "10" and queries == "intersection" and present is not None \
            and not present.all():
        r, t = np.argwhere(~present)[0]
        raise InputError(f"qrels topic {al.topics[t]!r} is missing from the run (trec_eval 10 "
                         f"stops here; -c evaluates it as an empty ranking)", path=runs[r])
    if num_docs_in_coll is not None:
        al.params["num_docs_in_coll"] = num_docs_in_coll
    if scores is None:
        scores = engine.evaluate(al, reqs, text_ok=True)
    for w in engine.score_warnings(scores):        # every command's: ties, Monte Carlo
        warn(w)
    params["measures"] = [r.measure.name for r in reqs]
    v9_complete = version == "9" and queries == "qrels" and present is not None
    if zs is None and only_topic is None and not v9_complete:
        rs, warnings = eval_results(scores, per_query=per_query, params=params, bounds=bounds)
        if no_summary:
            rs.records = [rec for rec in rs.records if rec["qid"] != "all"]
        return Report("eval", [without_runid(rs)], warnings=warnings)
    mask = scores.mask()
    blocks = []
    for i, run in enumerate(al.runs):
        rows = np.flatnonzero(mask[i])
        denom = None
        if v9_complete:            # trec_eval 9 -c: the run's topics, divided by all judged
            rows = np.flatnonzero(mask[i] & present[i])
            denom = int(mask[i].sum())
            if not len(rows):
                raise InputError("no topic in common between run and qrels",
                                 path=runs[i] if i < len(runs) else qrels)
        if only_topic is not None:
            if only_topic not in al.topics or not mask[i, al.topics.index(only_topic)]:
                raise InputError(f"topic {only_topic!r} (-D) has no results and judgments "
                                 f"to evaluate", path=runs[i] if i < len(runs) else qrels)
            if queries == "qrels":
                denom = int(mask[i].sum())
            rows = np.array([al.topics.index(only_topic)])
        topics = [al.topics[t] for t in rows]
        cols = TM.columns_from_scores(scores, i, rows, complete=queries == "qrels")
        blocks.append((run, topics, cols, None, denom))
    rs = TM.result_set(blocks, per_query=per_query, summary=not no_summary, zscores=zs,
                       params=params)
    return Report("eval", [without_runid(rs)])


# -- the Python API: qrels and runs (paths or Python objects) to scores ---------------

def _sweep(qrels, runs, requested, engine: str, *, names, name_from_file, gains, **opts):
    """:func:`from_inputs`' scores through :func:`ipsoeval.distributed.score_runs`
    (qrels and runs given as paths)."""
    import os

    from ipsoeval import reading
    from ipsoeval.distributed import SweepOptions, score_runs
    from ipsoeval.pipeline.inputs import _is_path, _run_items

    paths, given = [], []
    for obj, nm in _run_items(runs):
        if not _is_path(obj):
            raise UsageError(f"engine={engine!r} reads run files on its workers: give runs "
                             f"as paths")
        for p in reading.expand_run_paths([os.fspath(obj)]):
            paths.append(p)
            given.append(nm)
    if not _is_path(qrels):
        raise UsageError(f"engine={engine!r}: give the qrels as a path")
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(paths):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(paths)}")
    elif name_from_file:
        names = [nm if nm is not None else reading.file_stem(p) for p, nm in zip(paths, given)]
    elif any(nm is not None for nm in given):
        names = given
    if gains is not None and not isinstance(gains, str):
        gains = ",".join(f"{int(k)}:{float(v)!r}" for k, v in dict(gains).items())
    scores, _ = score_runs(os.fspath(qrels), paths, requested, engine=engine,
                           options=SweepOptions(gains=gains, **opts), run_names=names)
    return scores


def from_inputs(qrels, runs, measures=None, **kw):
    """What :func:`ipsoeval.evaluate` returns, as the fields of its
    EvalResult: (aligned, scores, params, warnings, paths, bounds); ``kw``:
    the API's keywords of eval's declaration."""
    import os

    from ipsoeval import engine as _engine
    from ipsoeval.distributed import parse_engine
    from ipsoeval.interop import measure_names
    from ipsoeval.pipeline.common import _gains_text, _is_path, _warn, load_inputs

    queries, rel_level, judged_only = kw["queries"], kw["rel_level"], kw["judged_only"]
    gains, depth, tie_break, run_format = kw["gains"], kw["depth"], kw["tie_break"], \
        kw["run_format"]
    names, name_from_file, bounds, labels = kw["names"], kw["name_from_file"], kw["bounds"], \
        kw["labels"]
    samples, seed, engine = kw["samples"], kw["seed"], kw["engine"]
    check_bounds(bounds, labels=labels, tie_break=tie_break)
    measures = measure_names(measures)          # ir_measures objects as their names
    requested = _engine.requested(measures or None)
    subtopics = any(r.measure.fam.subtopics for r in requested)
    if parse_engine(engine)[0] != "local":     # a sweep over run files (Ray)
        if subtopics:
            raise UsageError(f"diversity measures do not combine with engine={engine!r}")
        if bounds:
            raise UsageError(f"bounds=True does not combine with engine={engine!r} (it needs "
                             f"the rankings here)")
        scores = _sweep(qrels, runs, requested, engine, queries=queries, rel_level=rel_level,
                        judged_only=judged_only, gains=gains, depth=depth,
                        tie_break=tie_break, run_format=run_format, names=names,
                        name_from_file=name_from_file, labels=labels)
        aligned = scores.aligned
    else:
        aligned = load_inputs(qrels, runs, queries=queries, rel_level=rel_level,
                              judged_only=judged_only, gains=gains, depth=depth,
                              tie_break=tie_break, run_format=run_format, names=names,
                              name_from_file=name_from_file, labels=labels, samples=samples,
                              seed=seed, subtopics=subtopics)
        if subtopics:
            from ipsoeval.measures.names import diversity_collapse_warning
            w = diversity_collapse_warning(measures or [])
            if w and w not in aligned.warnings:
                aligned.warnings.append(w)
        scores = _engine.evaluate(aligned, requested)
    params = {"queries": queries, "rel_level": rel_level, "judged_only": judged_only,
              "gains": None if labels != "integer" else _gains_text(aligned.gain_map),
              "depth": depth, "tie_break": tie_break, "labels": labels}
    notes = _engine.score_warnings(scores)       # Monte Carlo means, ties the order moves
    bnd = None
    if bounds:
        from ipsoeval.analyses.evaluate import measure_bounds
        params["bounds"] = True
        bnd = measure_bounds(scores, aligned.warnings)
    _warn(list(aligned.warnings) + notes)
    given = [runs] if _is_path(runs) else runs
    paths = None
    if isinstance(given, (list, tuple)) and all(_is_path(r) for r in given) \
            and len(given) == len(aligned.runs):
        paths = [os.fspath(r) for r in given]
    return aligned, scores, params, list(aligned.warnings) + notes, paths, bnd
