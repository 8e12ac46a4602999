"""ipsoeval ppi — human labels + machine labels: prediction-powered inference."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import ppi as pipeline

command = command_for(pipeline, progress=False)
