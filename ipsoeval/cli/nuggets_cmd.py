"""ipsoeval nuggets — nugget scores of generated answers."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command
from ipsoeval.pipeline import nuggets as pipeline


def run(ctx, v: dict) -> None:
    out_.check_digits(ctx, v, pipe_default="tsv")
    out_.emit(ctx, pipeline.from_values(v), v["fmt"], v["output"], pipe_default="tsv",
              digits=v["digits"])


command = click_command(pipeline.COMMAND, run)
