"""ipsoeval power — topic set size design (Sakai 2016) from per-topic scores."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command
from ipsoeval.pipeline import power as pipeline


def run(ctx, v: dict) -> None:
    report = pipeline.from_values(v, warn=out_.warn, note=out_.note)
    out_.emit(ctx, report, v["fmt"], v["output"], pipe_default="tsv")


command = click_command(pipeline.COMMAND, run)
