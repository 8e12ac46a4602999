"""ipsoeval leaderboard — means, CIs, rank intervals and letter groups from the
randomised Tukey HSD (Carterette 2012; Sakai 2018; Piepho 2004)."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command, progress_of
from ipsoeval.pipeline import leaderboard as pipeline


def run(ctx, v: dict) -> None:
    report = pipeline.from_values(v, warn=out_.warn, note=out_.note, progress=progress_of(ctx))
    out_.emit(ctx, report, v["fmt"], v["output"], pipe_default="tsv")


command = click_command(pipeline.COMMAND, run)
_duration = pipeline.duration       # interval-map's estimate words its wait the same way
