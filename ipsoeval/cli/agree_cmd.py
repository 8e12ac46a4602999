"""ipsoeval agree — how far apart two sets of relevance labels are."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import agree as pipeline

command = command_for(pipeline)
