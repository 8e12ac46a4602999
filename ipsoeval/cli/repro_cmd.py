"""ipsoeval repro — how close a reproduced or replicated experiment comes to the
original one (Breuer et al., SIGIR 2020; repro_eval's measures, with intervals)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import repro as pipeline

command = command_for(pipeline)
