"""ipsoeval risk — risk-sensitive comparison of runs: URisk/TRisk against a
baseline, ZRisk/GeoRisk over all runs (Dinçer, Macdonald and Ounis 2014, 2016)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import risk as pipeline

command = command_for(pipeline, lists_tables=True)
