"""ipsoeval leaderboard — means, CIs, rank intervals and letter groups from the
randomised Tukey HSD (Carterette 2012; Sakai 2018; Piepho 2004)."""

from __future__ import annotations

from ipsoeval.cli.build import command_for
from ipsoeval.pipeline import leaderboard as pipeline

command = command_for(pipeline)
