"""ipsoeval meta — measures compared over a set of runs: discriminative power,
swap rate and rank correlation."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import meta as pipeline

command = command_for(pipeline)
