"""ipsoeval ipso — innate pairwise SERP orderings (Moffat & Mackenzie 2024)."""

from __future__ import annotations

from click.core import ParameterSource

from ipsoeval.cli.build import click_command, run_pipeline
from ipsoeval.pipeline import ipso as pipeline

_EXPLICIT = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def run(ctx, v: dict) -> None:
    given = frozenset(n for n in v if ctx.get_parameter_source(n) in _EXPLICIT)
    run_pipeline(ctx, v, pipeline, lists_tables=True, given=given)


command = click_command(pipeline.COMMAND, run, lists_tables=True)
