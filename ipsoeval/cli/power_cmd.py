"""ipsoeval power — topic set size design (Sakai 2016) from per-topic scores."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import power as pipeline

command = command_for(pipeline, progress=False)
