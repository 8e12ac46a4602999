"""Shared click options of the subcommands (no statistics, no output here).

A subcommand stacks the decorators it needs; :func:`alignment_options`
collects its options into one ``align_opts`` argument and :func:`load_aligned`
reads and aligns the inputs (warnings to stderr).  Where results go --
``--format``, ``-o`` and standard output -- is :mod:`ipsoeval.cli.output`.
"""

from __future__ import annotations

import click

from ipsoeval.align_options import AlignOptions
from ipsoeval.cli.output import warn
from ipsoeval.errors import UsageError

__all__ = ["AlignOptions", "qrels_and_runs", "alignment_options", "MeasureType",
           "measure_option", "per_query_option", "baseline_option", "all_pairs_option",
           "test_option", "samples_option", "seed_option", "alpha_option",
           "alternative_option", "correct_option", "load_aligned", "progress"]


def qrels_and_runs(f):
    """QRELS RUN... positional arguments ('-' = standard input, at most once)."""
    f = click.argument("runs", nargs=-1, required=True, metavar="RUN...")(f)
    return click.argument("qrels", metavar="QRELS")(f)


def _int64(ctx, param, value):
    """Labels are 64-bit integers: a level outside that range is a usage error."""
    if value is not None and not -(2 ** 63) <= value < 2 ** 63:
        raise click.BadParameter(f"{value} is not a 64-bit integer.", ctx, param)
    return value


class _QueriesOption(click.Option):
    """--queries, shown in --help as one entry with its trec_eval spelling -c
    (the -c flag itself is a hidden option): one concept, one entry."""

    def get_help_record(self, ctx):
        opts, text = super().get_help_record(ctx)
        return f"{opts} | -c", text


def _output_not_an_input(output, qrels, runs) -> None:
    """-o FILE must not name an input: it would be replaced by the output.
    trec_eval's obsolete -o takes no argument, so ``trec_eval -o qrels run``
    typed as ``ipsoeval eval -o qrels run`` would otherwise destroy the qrels."""
    import os
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


LABELS_HELP = ("What a qrels label is: an integer (trec_eval), a real gain >= 0, or the "
               "probability that the document is relevant (every measure is then its "
               "expected value; ipsoeval measures says which are exact).")


def alignment_options(*, paired: bool = True, gains: bool = True,
                      integer_labels: str | None = None, label_samples: bool = False,
                      rankings: str | None = None):
    """--queries/-c, -l, -J, --gains, -M, --tie-break, --run-format, --name, --labels.
    ``paired``: the command compares runs topic by topic (all but eval); it
    decides the default topic set (:func:`topicset.default_queries`).
    ``integer_labels``: the command's name when its analysis needs integer
    labels (--labels gain/probability is then a usage error).  A command's
    own --seed (if any) also seeds the Monte Carlo measures of --labels
    probability; ``label_samples``: its --samples is their number of draws
    (eval), else 1000 (sigtest's and bootstrap's --samples count their own
    resamples).  ``rankings``: the command's name when its analysis reads the
    rankings themselves, not measure values (--tie-break expected is then a
    usage error)."""
    from ipsoeval.analyses.topicset import default_queries as _default
    default_queries = _default(paired)
    topics_help = ("the qrels topics every run has" if paired
                   else "the qrels topics the run has (trec_eval's default)")

    def deco(f):
        import functools

        @functools.wraps(f)
        def wrapper(*args, **kw):
            if kw.get("runs"):      # a directory as RUN = every run file in it
                from ipsoeval.reading import expand_run_paths
                given = kw["runs"]
                kw["runs"] = tuple(expand_run_paths(given))
                _default_baseline_note(given, kw)
            _output_not_an_input(kw.get("output"), kw.get("qrels"), kw.get("runs") or ())
            complete = kw.pop("complete")
            queries = kw.pop("queries")
            if complete:
                if queries not in (None, "qrels"):
                    raise UsageError("-c/--complete conflicts with --queries " + queries)
                queries = "qrels"
            kw["align_opts"] = AlignOptions(
                queries=queries or default_queries, rel_level=kw.pop("rel_level"),
                judged_only=kw.pop("judged_only"), gains=kw.pop("gains", None),
                depth=kw.pop("depth"), tie_break=kw.pop("tie_break"),
                run_format=kw.pop("run_format"), names=kw.pop("name"),
                name_from_file=kw.pop("name_from_file"), labels=kw.pop("labels"),
                samples=kw.get("samples") if label_samples else None, seed=kw.get("seed"))
            _baseline_before_reading(kw)
            if rankings and kw["align_opts"].tie_break == "expected":
                raise UsageError(f"{rankings} reads the rankings themselves, rank by rank: "
                                 f"--tie-break expected (an expectation of measure values) "
                                 f"does not apply; choose an order (trec, docno-asc, input)")
            if integer_labels and kw["align_opts"].labels != "integer":
                raise UsageError(f"{integer_labels} needs integer labels (--labels integer): "
                                 f"its analysis counts relevant documents by their labels")
            return f(*args, **kw)

        opts = [
            click.option("--queries", type=click.Choice(["intersection", "qrels", "strict"]),
                         default=None, cls=_QueriesOption,
                         help=f"Topic set: {topics_help} (intersection), every qrels topic, "
                              f"a missing one scored as an empty ranking (qrels; -c, as "
                              f"trec_eval -c), or the same topics everywhere (strict).  "
                              f"[default: {default_queries}]"),
            click.option("-c", "--complete", is_flag=True, hidden=True,
                         help="Same as --queries qrels (trec_eval -c)."),
            click.option("-l", "--rel-level", type=int, default=1, show_default=True,
                         callback=_int64,
                         help="A document is relevant when its label is at least this."),
            click.option("-J", "--judged-only", is_flag=True,
                         help="Remove unjudged documents before ranking (trec_eval -J)."),
            click.option("-M", "--depth", type=click.IntRange(min=1), default=None,
                         help="Keep at most this many documents per topic (trec_eval -M)."),
            click.option("--tie-break",
                         type=click.Choice(["trec", "docno-asc", "input", "expected"]),
                         default="trec", show_default=True,
                         help="Order of equal scores: docno descending (trec_eval), docno "
                              "ascending, input order, or expected (every measure is its "
                              "exact expectation over all orders of the tied documents; "
                              "ipsoeval measures, column ties)."),
            click.option("--run-format", type=click.Choice(["auto", "trec", "msmarco"]),
                         default="auto", show_default=True,
                         help="Run file format; auto = msmarco when lines have 3 fields."),
            click.option("--name", multiple=True, metavar="NAME",
                         help="Run name, once per run in order (default: the tag column)."),
            click.option("--name-from-file", is_flag=True,
                         help="Name runs by their file stems (bm25.run.gz: bm25) instead of "
                              "their tags."),
            click.option("--labels", type=click.Choice(["integer", "gain", "probability"]),
                         default="integer", show_default=True, help=LABELS_HELP),
        ]
        if gains:
            opts.append(click.option(
                "--gains", metavar="MAP", default=None,
                help="Gains for graded measures as LABEL:GAIN pairs, e.g. 0:0,1:1,2:3 "
                     "(default: the label, 0 for labels <= 0)."))
        for o in reversed(opts):
            wrapper = o(wrapper)
        return wrapper

    return deco


def _baseline_before_reading(kw) -> None:
    """--baseline against the run names, before any file is read, where they
    are known without reading the runs: one --name per RUN, or
    --name-from-file (with --scores or --nuggets a file may hold several runs;
    the reading checks it)."""
    base, opts, runs = kw.get("baseline"), kw["align_opts"], list(kw.get("runs") or ())
    if base is None or not runs or kw.get("scores") or kw.get("nuggets") \
            or (opts.names and len(opts.names) != len(runs)):
        return
    names = run_names(runs, opts)
    if names is None or "-" in runs:
        return
    from ipsoeval.analyses import validate
    validate.baseline(base, names, runs)


class MeasureType(click.ParamType):
    """A -m argument, parsed once into its measures (ipsoeval.measures.MeasureArg:
    still the text, for -R prefs and --scores, which name other measures)."""

    name = "measure"

    def convert(self, value, param, ctx):
        from ipsoeval.measures import MeasureArg
        return value if isinstance(value, MeasureArg) else MeasureArg(value)


def _measure_notes(ctx, param, value):
    """Warn where a -m argument is read as trec_eval reads it (e.g. P.1.5 as P_1)."""
    from ipsoeval.measures.names import notes
    for w in notes(value):
        warn(w)
    return value


def measure_option(f=None, *, required: bool = False, help_text: str | None = None):
    def deco(g):
        return click.option(
            "-m", "--measure", "measures", multiple=True, type=MeasureType(),
            metavar="MEASURE", required=required, callback=_measure_notes,
            help=help_text or "Measure, e.g. P@10, nDCG@10, AP, RR@10, RBP(p=0.8)@10, or a "
                              "trec_eval name/argument (P.5,10, map, official, all_trec). "
                              "Repeatable. See `ipsoeval measures`.")(g)
    return deco(f) if f is not None else deco


def per_query_option(f=None, *, help_text: str = "Per-topic rows instead of the summary."):
    def deco(g):
        return click.option("-q", "--per-query", "per_query", is_flag=True, help=help_text)(g)
    return deco(f) if f is not None else deco


def _default_baseline_note(given, kw) -> None:
    """A directory's first file (in name order) becomes the default baseline of a
    --baseline command: the note says which file, and how to choose."""
    import os
    if "baseline" not in kw or kw.get("baseline") is not None or kw.get("all_pairs"):
        return
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.info_name == "bootstrap":    # its --baseline has no default
        return
    first = os.fspath(given[0]) if given else None
    if first is None or first == "-" or not os.path.isdir(first) or not kw.get("runs"):
        return
    from ipsoeval.cli.output import note
    note(f"baseline: {kw['runs'][0]} (the first run: the first file of {first} in name "
         f"order); --baseline chooses another")


def baseline_option(f=None, *, help_text: str = "Compare every other run against this run."):
    def deco(g):
        return click.option("--baseline", metavar="NAME|FILE", default=None,
                            help=f"{help_text}  NAME is a run name, FILE the path of one of "
                                 f"the RUN arguments.  [default: the first run]")(g)
    return deco(f) if f is not None else deco


def all_pairs_option(f=None, *, help_text: str = "Compare every pair of runs."):
    def deco(g):
        return click.option("--all-pairs", is_flag=True, help=help_text)(g)
    return deco(f) if f is not None else deco


def _parse_tests(allowed, command):
    def cb(ctx, param, value):
        from ipsoeval.stats import registry
        return tuple(registry.parse(value, allowed=allowed, command=command))
    return cb


# what every --test's [default: ...] says when none is named: the one policy
# (ipsoeval.stats.registry.DEFAULT_BY_SCALE)
def _by_scale_text() -> str:
    from ipsoeval.stats import registry
    return registry.DEFAULT_TEXT


BY_SCALE_TEXT = _by_scale_text()


def test_option(f=None, *, allowed, command: str, default_text: str, help_text: str = "Test"):
    """--test NAME: registry names or aliases, repeatable or comma-separated."""
    def deco(g):
        return click.option("--test", "tests", multiple=True, metavar="NAME",
                            callback=_parse_tests(tuple(allowed), command),
                            help=f"{help_text}: {', '.join(allowed)} (repeatable or "
                                 f"comma-separated).  [default: {default_text}]")(g)
    return deco(f) if f is not None else deco


def samples_option(f=None, *, default: int, help_text: str):
    def deco(g):
        return click.option("--samples", type=click.IntRange(min=1), default=default,
                            show_default=True, metavar="N", help=help_text)(g)
    return deco(f) if f is not None else deco


def seed_option(f):
    return click.option("--seed", type=click.IntRange(min=0), default=42, show_default=True,
                        help="Seed of the random generator (same seed, same output).")(f)


def alpha_option(f):
    return click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                        default=0.05, show_default=True,
                        help="Significance level.")(f)


def alternative_option(f=None, *, help_text: str = "Alternative hypothesis about B - A."):
    def deco(g):
        return click.option("--alternative",
                            type=click.Choice(["two-sided", "less", "greater"]),
                            default="two-sided", show_default=True, help=help_text)(g)
    return deco(f) if f is not None else deco


def correct_option(f=None, *, help_text: str = "Multiple-comparison correction across all "
                                               "p-values of the invocation."):
    def deco(g):
        return click.option("--correct", type=click.Choice(["none", "bonferroni", "holm", "bh"]),
                            default="none", show_default=True, help=help_text)(g)
    return deco(f) if f is not None else deco


def bounds_option(f=None, *, help_text: str):
    """--bounds: what the unjudged retrieved documents could change
    (ipsoeval.measures.bounds)."""
    def deco(g):
        return click.option("--bounds", is_flag=True, help=help_text)(g)
    return deco(f) if f is not None else deco


def load_aligned(qrels: str, runs, opts: AlignOptions, *, paired: bool = True):
    """Read and align the inputs, choose the topic set (:func:`topicset.select`;
    ``paired``: the command compares runs topic by topic) and print the
    warnings to stderr."""
    al, warnings = aligned_and_warnings(qrels, runs, opts, paired=paired)
    for w in warnings:
        warn(w)
    return al


def run_names(runs, opts: AlignOptions):
    """The runs' names of --name / --name-from-file, else None (their tags)."""
    if opts.names:
        if len(opts.names) != len(runs):
            raise UsageError(f"--name given {len(opts.names)} time(s) for {len(runs)} run(s)")
        return list(opts.names)
    if opts.name_from_file:
        from ipsoeval.reading import file_stem  # --name-from-file: the file stem
        return [file_stem(p) for p in runs]
    return None


def aligned_and_warnings(qrels: str, runs, opts: AlignOptions, *, paired: bool = True):
    """:func:`load_aligned` returning its warnings instead of printing them
    (ppi aligns the runs to two qrels and prints their notes once)."""
    from ipsoeval import engine
    from ipsoeval.analyses.topicset import select

    runs = list(runs)
    names = run_names(runs, opts)
    al = engine.load(qrels, runs, queries=opts.queries, rel_level=opts.rel_level,
                     judged_only=opts.judged_only, gains=opts.gains, depth=opts.depth,
                     tie_break=opts.tie_break, run_format=opts.run_format, run_names=names,
                     labels=opts.labels, samples=opts.samples, seed=opts.seed,
                     subtopics=wants_subtopics())
    collapse_warning(al)
    return select(al, paired=paired)


def collapse_warning(al) -> None:
    """Add the warning for ordinary measures scored on diversity qrels
    (:func:`ipsoeval.measures.names.diversity_collapse_warning`)."""
    if al.subtopics is None:
        return
    ctx = click.get_current_context(silent=True)
    args = ctx.params.get("measures") if ctx is not None else None
    from ipsoeval.measures.names import diversity_collapse_warning
    w = diversity_collapse_warning(args or [])
    if w and w not in al.warnings:
        al.warnings.append(w)


def wants_subtopics() -> bool:
    """Does the command's -m ask for a diversity measure (then the qrels are
    read as ndeval's ``qid subtopic docno judgment``)?"""
    ctx = click.get_current_context(silent=True)
    args = ctx.params.get("measures") if ctx is not None else None
    if not args:
        return False
    from ipsoeval.measures.names import needs_subtopics
    return needs_subtopics(args)


def progress(label: str, ctx: click.Context | None = None):
    """A progress callback ``cb(done, total)``: a bar labelled ``label`` (what is
    being done) on standard error if the command's Environment says it is a
    terminal, erased when the work is done."""
    from ipsoeval.cli.environment import get_env
    from ipsoeval.cli.progress import make_progress
    return make_progress(label, get_env(ctx))


def engine_option(f):
    """--engine local|ray|ray://HOST:PORT (ipsoeval.distributed)."""
    return click.option("--engine", "engine_name", default="local", show_default=True,
                        metavar="local|ray|ray://HOST:PORT",
                        help="Where the runs are read and scored: this machine, or a Ray "
                             "cluster (ray: RAY_ADDRESS, else a local one; "
                             "ray://HOST:PORT: that cluster), one task per run next to the "
                             "data, only per-topic scores coming back; same numbers.  Needs "
                             "the extra ipsoeval[ray].")(f)


def sweeping(engine: str, runs=(), opts: AlignOptions | None = None, *conflicts) -> bool:
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
    diversity = wants_subtopics()      # diversity qrels: read by the local engine only
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


def load_scores(qrels: str, runs, opts: AlignOptions, requested, *, engine: str,
                paired: bool = True, text_ok: bool = False, ctx=None, params=None,
                quiet=None):
    """:func:`load_aligned` + ``engine.evaluate`` through a sweep
    (:func:`ipsoeval.distributed.score_runs`): a Scores on the command's
    topics, the warnings printed (``quiet(w)`` True: left out).  ``params``:
    entries set in the alignment's params before scoring (eval -N)."""
    from ipsoeval.analyses.topicset import select
    from ipsoeval.distributed import SweepOptions, restrict, score_runs

    runs = list(runs)
    names = run_names(runs, opts)
    o = SweepOptions(queries=opts.queries, rel_level=opts.rel_level,
                     judged_only=opts.judged_only, gains=opts.gains, depth=opts.depth,
                     tie_break=opts.tie_break, run_format=opts.run_format, labels=opts.labels)
    sc, _ = score_runs(qrels, runs, requested, engine=engine, options=o, run_names=names,
                       text_ok=text_ok, params=params,
                       progress=progress(f"scoring {len(runs)} runs", ctx))
    al, warnings = select(sc.aligned, paired=paired)
    for w in warnings:
        if quiet is None or not quiet(w):
            warn(w)
    return restrict(sc, al)


def nuggets_format_option(f):
    """--nuggets-format: the one way to force the layout of nugget files."""
    return click.option("--nuggets-format", "nuggets_format",
                        type=click.Choice(["auto", "jsonl", "tsv"]), default="auto",
                        show_default=True,
                        help="Layout of the nugget assignment files: nuggetizer's JSONL "
                             "records or the long TSV 'run qid nugget_id importance "
                             "assignment' (auto: by the first character).")(f)
