"""ipsoeval compare -- the results table of a paper: runs × measures, means,
significance marks, the best value in bold."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import compare as pipeline

command = command_for(pipeline)
