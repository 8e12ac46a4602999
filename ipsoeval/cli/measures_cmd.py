"""ipsoeval measures — the measures ipsoeval knows."""

from __future__ import annotations

import click

from ipsoeval.cli import output as out_


@click.command("measures")
@click.option("--dataset", "dataset", metavar="ID", default=None,
              help="Instead: the relevance levels of the ir_datasets data set ID (its "
                   "qrels are the QRELS argument irds:ID; needs ipsoeval[irds]).")
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, dataset, fmt, output):
    """List every measure with its definition, scale type and trec_eval names
    (--dataset ID: the relevance levels of an ir_datasets data set)."""
    from ipsoeval.measures.registry import CATALOGUE_COLUMNS, catalogue
    from ipsoeval.results import Report, ResultSet

    if dataset is not None:
        from ipsoeval.reading import relevance_levels
        rs = ResultSet(command="measures", columns=["dataset", "label", "definition"],
                       records=relevance_levels(dataset),
                       title=f"relevance levels of {dataset}", id="relevance_levels",
                       description="the ir_datasets data set's documentation of its "
                                   "relevance labels, highest first")
        out_.emit(ctx, Report("measures", [rs]), fmt, output)
        return

    rs = ResultSet(command="measures", columns=list(CATALOGUE_COLUMNS), records=catalogue(),
                   title="ipsoeval measures", id="measures",
                   description="every measure family: canonical name, an example, scale, "
                               "parameters, trec_eval names and definition")
    out_.emit(ctx, Report("measures", [rs]), fmt, output)
