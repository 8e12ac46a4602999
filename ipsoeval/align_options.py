"""The alignment options of a command line (``--queries``, ``--rel-level``,
``--judged-only``, ``--gains``, ``-M``, ``--tie-break``, ...), as
:func:`ipsoeval.cli.options.alignment_options` collects them -- in a module
of their own, without click, so that sigtest's quick path states the same
params as the full program."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AlignOptions:
    queries: str = "qrels"
    rel_level: int = 1
    judged_only: bool = False
    gains: str | None = None
    depth: int | None = None
    tie_break: str = "trec"
    run_format: str = "auto"
    names: tuple = ()
    name_from_file: bool = False
    labels: str = "integer"          # --labels (ipsoeval.labels)
    samples: int | None = None       # Monte Carlo draws under --labels probability
    seed: int | None = None

    def as_params(self) -> dict:
        out = {"queries": self.queries, "rel_level": self.rel_level,
               "judged_only": self.judged_only, "gains": self.gains, "depth": self.depth,
               "tie_break": self.tie_break}
        if self.labels != "integer":
            out["labels"] = self.labels
        return out
