"""ipsoeval report — one self-contained HTML page: leaderboard, significance
matrix, per-topic differences, outcomes breakdown and scale notes."""

from __future__ import annotations

from ipsoeval.cli import output as out_
from ipsoeval.cli.build import click_command, progress_of
from ipsoeval.pipeline import report as pipeline


def run(ctx, v: dict) -> None:
    page = pipeline.from_values(v, warn=out_.warn, note=out_.note, progress=progress_of(ctx))
    out_.flush_warnings(ctx, page.warnings)     # -W error: fatal before the page is written
    if v["output"] is not None:
        out_.write_output(v["output"], page.html)
    else:
        from ipsoeval.cli.environment import get_env
        out_.write_stdout(ctx, get_env(ctx).stdout, page.html)


command = click_command(pipeline.COMMAND, run)
