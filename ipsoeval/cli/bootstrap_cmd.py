"""ipsoeval bootstrap — leaderboard stability and reliability (Craswell et al. 2021)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import bootstrap as pipeline

command = command_for(pipeline)
