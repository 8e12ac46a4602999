"""ipsoeval sigtest — paired significance tests that know the measure's scale, and a CI gate."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command, run_pipeline
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import sigtest as pipeline


def run(ctx, v: dict) -> None:
    if ctx.meta.get(out_.JUNIT_KEY) is not None and v["fail_if"] is None:
        raise UsageError("--junit writes the gate's report: give --fail-if too")
    run_pipeline(ctx, v, pipeline)


command = click_command(pipeline.COMMAND, run)
