"""ipsoeval nuggets — nugget scores of generated answers."""

from __future__ import annotations

import click

from ipsoeval.cli import options as opt
from ipsoeval.cli import output as out_


@click.command("nuggets")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@opt.measure_option(help_text="Nugget score: nugget_vital_strict, nugget_all_strict, "
                              "nugget_vital, nugget_all (repeatable; default all four; see "
                              "`ipsoeval measures`).")
@opt.per_query_option(help_text="Also print each topic's scores.")
@opt.nuggets_format_option
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, files, measures, per_query, nuggets_format, fmt, output):
    """Nugget scores of generated answers from nugget assignment files
    (nuggetizer's JSONL or the long TSV): per run the mean over topics of
    the strict and the partial (0.5) vital and all-nugget scores, as the
    TREC 2024 RAG track's AutoNuggetizer.  Every run must answer the same
    topics.  The same files stand for runs and qrels in sigtest, bootstrap,
    leaderboard, power, meta, ipso (--nuggets), ppi (--nuggets --human H
    --auto A) and agree (--nuggets A B).
    """
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.reading.nuggets import read_nuggets

    sel = ng.select(list(measures))                  # usage errors before reading
    opt._output_not_an_input(output, files[0], list(files[1:]))
    j = read_nuggets(files, nuggets_format)
    report = ng.scores_report(j, [m.name for m in sel], per_query=per_query)
    out_.emit(ctx, report, fmt, output, pipe_default="tsv")
