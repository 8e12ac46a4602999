"""ipsoeval breakdown — how one run is "better" than another (Lin et al. 2021)."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command, progress_of
from ipsoeval.pipeline import breakdown as pipeline


def run(ctx, v: dict) -> None:
    report = pipeline.from_values(v, warn=out_.warn, note=out_.note, progress=progress_of(ctx),
                                  listing=lambda: out_.list_tables(ctx, v["output"]))
    if report is not None:
        out_.emit(ctx, report, v["fmt"], v["output"], pipe_default="tsv")


command = click_command(pipeline.COMMAND, run, lists_tables=True)
