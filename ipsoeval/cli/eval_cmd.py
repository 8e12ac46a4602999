"""ipsoeval eval — trec_eval-compatible scores."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def _print_version(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return
    from ipsoeval._version import __version__
    click.echo(f"ipsoeval eval {__version__} (trec_eval 10.0 semantics; "
               f"--trec-eval-version 9 for 9.0.8's)", err=True)
    ctx.exit(0)


def _debug_level(text: str | None):
    """-D N or N.qid: (level, qid or None)."""
    if text is None:
        return 0, None
    level, dot, qid = text.partition(".")
    try:
        lv = int(level) if level else 0
    except ValueError:
        raise click.BadParameter(f"expected N or N.qid (found {text!r})",
                                 param_hint="'-D'") from None
    return lv, (qid if dot else None)


# trec_eval's long options (getopt_long spellings) -> ours
TREC_LONG = {
    "--query_eval_wanted": "-q", "--complete_rel_info_wanted": "-c",
    "--level_for_rel": "-l", "--nosummary": "-n", "--Debug_level": "-D",
    "--Judged_docs_only": "-J", "--Number_docs_in_coll": "-N",
    "--Max_retrieved_per_topic": "-M", "--Rel_info_format": "-R",
    "--Results_format": "-T", "--Zscore": "-Z", "--version": "-v",
}


class _EvalCommand(click.Command):
    """Reads trec_eval's long option spellings (``--nosummary``,
    ``--level_for_rel=2``, ...) as the short options they stand for."""

    def parse_args(self, ctx, args):
        out = []
        for i, a in enumerate(args):
            if a == "--":
                out.extend(args[i:])
                break
            name, eq, value = a.partition("=")
            if name in TREC_LONG:
                out.append(TREC_LONG[name])
                if eq:
                    out.append(value)
            else:
                out.append(a)
        return super().parse_args(ctx, out)


@click.command("eval", cls=_EvalCommand)
@opt.qrels_and_runs
@opt.measure_option
@opt.per_query_option(help_text="Also print each topic's scores.")
@opt.alignment_options(paired=False, label_samples=True)
@opt.engine_option
@click.option("-R", "--rel-format", type=click.Choice(["qrels", "prefs", "qrels_prefs",
                                                       "qrels_jg"]),
              default="qrels", show_default=True,
              help="Format of QRELS (trec_eval -R): qrels, prefs (qid jg jsg docno level), "
                   "qrels_prefs (qrels read as preferences) or qrels_jg (2nd column = "
                   "judgment group).")
@click.option("-Z", "--zscores", "zscores_file", metavar="FILE", default=None,
              help="Print z scores (value - mean) / stddev with the 'qid measure mean "
                   "stddev' lines of FILE (trec_eval -Z).")
@click.option("-n", "--no-summary", is_flag=True,
              help="Print no 'all' lines (trec_eval -n).")
@click.option("-N", "--num-docs-in-coll", type=click.IntRange(min=0), default=None,
              help="Number of documents in the collection (trec_eval -N; used by "
                   "utility's 4th coefficient).")
@click.option("-D", "--debug-level", metavar="N[.QID]", default=None,
              help="trec_eval -D: with .QID only that topic is evaluated; the level "
                   "itself is accepted and ignored.")
@click.option("-T", "--results-format", type=click.Choice(["trec_results"]), default=None,
              help="Run format (trec_eval -T): trec_results, the one trec_eval knows (the "
                   "six-field TREC format; same as --run-format trec).")
@click.option("--trec-eval-version", type=click.Choice(["9", "10"]), default=None,
              help="Topic rules of trec_eval 9.0.8 or 10.0 where they differ (default: "
                   "ipsoeval's topic set).")
@opt.bounds_option(help_text="Add low and high: each value when the unjudged retrieved "
                             "documents are labelled the worst and the best way (every "
                             "label from 0 to the highest judged one); trec layout: "
                             "NAME_low and NAME_high lines.")
@opt.samples_option(default=1000, help_text="Monte Carlo labelings per measure without an "
                   "exact expectation under --labels probability.")
@opt.seed_option
@click.option("-v", "print_version", is_flag=True, is_eager=True, expose_value=False,
              callback=_print_version, help="Print the version on stderr and exit "
                                            "(trec_eval -v).")
@out_.format_option(pipe_default="trec")
@click.pass_context
def command(ctx, qrels, runs, measures, per_query, align_opts, engine_name, rel_format, zscores_file,
            no_summary, num_docs_in_coll, debug_level, results_format, trec_eval_version, bounds,
            samples, seed, fmt, output):
    """Score runs against qrels, as trec_eval does.

    With no -m, trec_eval's default (official) measure set.  --format trec
    reproduces trec_eval's output byte for byte; several runs print one block
    each (trec) or a run column (tsv, json, table).
    """
    from ipsoeval.analyses.evaluate import without_runid
    from ipsoeval.trecmodes import evaluate as TM

    _, only_topic = _debug_level(debug_level)
    if results_format:          # trec_eval -T trec_results: the six-field format
        if align_opts.run_format not in ("auto", "trec"):
            raise UsageError(f"-T {results_format} conflicts with --run-format "
                             f"{align_opts.run_format}")
        align_opts.run_format = "trec"
    version = trec_eval_version or "ipsoeval"
    params = {"measures": list(measures), "per_query": per_query, "rel_format": rel_format,
              "zscores": zscores_file, "no_summary": no_summary,
              "trec_eval_version": trec_eval_version, **align_opts.as_params()}
    if bounds:
        params["bounds"] = True
        for given, what in ((rel_format != "qrels", f"-R {rel_format}"),
                            (zscores_file, "-Z"), (only_topic is not None, "-D N.QID"),
                            (trec_eval_version == "9", "--trec-eval-version 9"),
                            (align_opts.labels != "integer", f"--labels {align_opts.labels}"),
                            (align_opts.tie_break == "expected", "--tie-break expected")):
            if given:
                raise UsageError(f"--bounds does not combine with {what}")
    sweep = opt.sweeping(engine_name, runs, align_opts,   # a sweep: runs scored a batch at a time
                         (rel_format != "qrels", f"-R {rel_format}"), (bounds, "--bounds"))
    if rel_format != "qrels":
        if align_opts.labels != "integer":
            raise UsageError(f"-R {rel_format} reads integer labels (--labels integer)")
        if align_opts.tie_break == "expected":
            raise UsageError(f"-R {rel_format} does not combine with --tie-break expected "
                             f"(its measures have no expectation over the tie orders)")
        mm = TM.parse_measures(rel_format, measures)   # usage errors before reading
        zs = _zscores(zscores_file)
        names = _run_names(runs, align_opts)
        results, warnings = TM.evaluate(
            rel_format, qrels, runs, mm, queries=align_opts.queries, version=version,
            depth=align_opts.depth, judged_only=align_opts.judged_only,
            rel_level=align_opts.rel_level, tie_break=align_opts.tie_break,
            run_format=align_opts.run_format, run_names=names, only_topic=only_topic)
        blocks = [(r.run, r.topics, r.columns, r.show, r.denominator) for r in results]
        rs = TM.result_set(blocks, per_query=per_query, summary=not no_summary, zscores=zs,
                           params={**params, "measures": mm.names})
        out_.emit(ctx, Report("eval", [without_runid(rs)], warnings=list(warnings)), fmt,
                  output, pipe_default="trec")
        return
    _qrels_mode(ctx, qrels, runs, measures, per_query, align_opts, zscores_file, no_summary,
                num_docs_in_coll, only_topic, version, fmt, output, params, bounds,
                engine_name=engine_name if sweep else None)


def _load(qrels, runs, align_opts, *, quiet_missing: bool):
    """opt.load_aligned, leaving out the 'missing topics' warning when trec_eval 10's
    rule turns it into an error."""
    if not quiet_missing:
        return opt.load_aligned(qrels, runs, align_opts, paired=False)
    from ipsoeval import engine
    runs = list(runs)
    names = _run_names(runs, align_opts)
    o = align_opts
    al = engine.load(qrels, runs, queries=o.queries, rel_level=o.rel_level,
                     judged_only=o.judged_only, gains=o.gains, depth=o.depth,
                     tie_break=o.tie_break, run_format=o.run_format, run_names=names,
                     labels=o.labels, samples=o.samples, seed=o.seed,
                     subtopics=opt.wants_subtopics())
    opt.collapse_warning(al)
    for w in al.warnings:
        if "missing from the run" not in w:
            out_.warn(w)
    return al


def _run_names(runs, align_opts):
    """--name / --name-from-file, as opt.load_aligned reads them."""
    if align_opts.names:
        if len(align_opts.names) != len(runs):
            raise UsageError(f"--name given {len(align_opts.names)} time(s) for "
                                 f"{len(runs)} run(s)")
        return list(align_opts.names)
    if align_opts.name_from_file:
        from ipsoeval.reading import file_stem  # --name-from-file: the file stem
        return [file_stem(p) for p in runs]
    return None


def _zscores(path):
    if path is None:
        return None
    from ipsoeval.trecmodes.zscores import read_zscores
    return read_zscores(path)


def _qrels_mode(ctx, qrels, runs, measures, per_query, align_opts, zscores_file, no_summary,
                num_docs_in_coll, only_topic, version, fmt, output, params, bounds=False,
                engine_name=None):
    import numpy as np

    from ipsoeval import engine
    from ipsoeval.analyses.evaluate import eval_results, without_runid
    from ipsoeval.errors import InputError
    from ipsoeval.trecmodes import evaluate as TM

    TM.check_mode_measures("qrels", measures)
    reqs = engine.requested(measures)          # usage errors before reading files
    if version == "9":
        reqs = TM.drop_v10_only(reqs)
    zs = _zscores(zscores_file)
    queries = align_opts.queries
    if version == "10" and queries == "intersection":
        align_opts.queries = "qrels"           # trec_eval 10 walks the qrels topics
    quiet_missing = version == "10" and queries != "qrels"
    scores = None
    if engine_name is not None:          # --engine: runs scored a batch at a time
        extra = {} if num_docs_in_coll is None else {"num_docs_in_coll": num_docs_in_coll}
        scores = opt.load_scores(qrels, runs, align_opts, reqs, engine=engine_name,
                                 paired=False, text_ok=True, ctx=ctx, params=extra,
                                 quiet=(lambda w: "missing from the run" in w)
                                 if quiet_missing else None)
        al = scores.aligned
    else:
        al = _load(qrels, runs, align_opts, quiet_missing=quiet_missing)
    align_opts.queries = queries
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
        out_.warn(w)
    params["measures"] = [r.measure.name for r in reqs]
    v9_complete = version == "9" and queries == "qrels" and present is not None
    if zs is None and only_topic is None and not v9_complete:
        rs, warnings = eval_results(scores, per_query=per_query, params=params, bounds=bounds)
        if no_summary:
            rs.records = [rec for rec in rs.records if rec["qid"] != "all"]
        out_.emit(ctx, Report("eval", [without_runid(rs)], warnings=warnings), fmt, output,
                  pipe_default="trec")
        return
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
    out_.emit(ctx, Report("eval", [without_runid(rs)]), fmt, output, pipe_default="trec")
