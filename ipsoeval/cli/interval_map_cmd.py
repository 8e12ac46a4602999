"""ipsoeval interval-map — measures mapped onto interval scales (Ferrante et al. 2021)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import interval_map as pipeline

command = command_for(pipeline, lists_tables=True)
