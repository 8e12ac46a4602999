"""ipsoeval across — runs compared over several test collections: effects
pooled by meta-analysis, a leaderboard with rank intervals, a mixed model."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import across as pipeline

command = command_for(pipeline)
