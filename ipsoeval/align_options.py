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

    def as_argv(self, keep: list[int] | None = None, *, gains: bool = True) -> list[str]:
        """These options as command-line arguments (for a command line that
        gives the same tables): the topic set always, the rest where not the
        default.  ``keep``: the positions of the runs the command line names
        (their ``--name`` values); ``gains``: whether that command takes
        --gains."""
        argv = ["--queries", self.queries]
        if self.rel_level != 1:
            argv += ["--rel-level", str(self.rel_level)]
        if self.judged_only:
            argv.append("--judged-only")
        if gains and self.gains is not None:
            argv += ["--gains", self.gains]
        if self.depth is not None:
            argv += ["--depth", str(self.depth)]
        if self.tie_break != "trec":
            argv += ["--tie-break", self.tie_break]
        if self.run_format != "auto":
            argv += ["--run-format", self.run_format]
        names = list(self.names)
        if names and keep is not None:
            names = [names[i] for i in keep if i < len(names)]
        for n in names:
            argv += ["--name", n]
        if self.name_from_file:
            argv.append("--name-from-file")
        if self.labels != "integer":
            argv += ["--labels", self.labels]
        return argv
