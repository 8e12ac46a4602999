"""ipsoeval measures — the measures ipsoeval knows."""

from __future__ import annotations

import click

from ipsoeval.cli import output as out_


@click.command("measures")
@out_.format_option(pipe_default="tsv")
@click.pass_context
def command(ctx, fmt, output):
    """List every measure with its definition, scale type and trec_eval names."""
    from ipsoeval.measures.registry import CATALOGUE_COLUMNS, catalogue
    from ipsoeval.results import Report, ResultSet

    rs = ResultSet(command="measures", columns=list(CATALOGUE_COLUMNS), records=catalogue(),
                   title="ipsoeval measures", id="measures",
                   description="every measure family: canonical name, an example, scale, "
                               "parameters, trec_eval names and definition")
    out_.emit(ctx, Report("measures", [rs]), fmt, output)
