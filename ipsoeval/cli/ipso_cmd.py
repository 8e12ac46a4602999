"""ipsoeval ipso — innate pairwise SERP orderings (Moffat & Mackenzie 2024)."""

from __future__ import annotations

from click.core import ParameterSource

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command, progress_of
from ipsoeval.pipeline import ipso as pipeline

_EXPLICIT = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def run(ctx, v: dict) -> None:
    given = frozenset(n for n in v if ctx.get_parameter_source(n) in _EXPLICIT)
    report = pipeline.from_values(v, warn=out_.warn, note=out_.note, progress=progress_of(ctx),
                                  listing=lambda: out_.list_tables(ctx, v["output"]),
                                  given=given)
    if report is not None:
        out_.emit(ctx, report, v["fmt"], v["output"], pipe_default="tsv")


command = click_command(pipeline.COMMAND, run, lists_tables=True)
