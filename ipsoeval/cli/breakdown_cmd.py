"""ipsoeval breakdown — how one run is "better" than another (Lin et al. 2021)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import breakdown as pipeline

command = command_for(pipeline, lists_tables=True)
