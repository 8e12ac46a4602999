"""The checks every analysis' ``Options.check()`` shares, apart from the maths.

An analysis validates its options once, before any input is read (scipy's
pattern: the function checks its arguments, the algorithm assumes them).
Each check raises :class:`~ipsoeval.errors.UsageError` naming the option as
the command line spells it (docs/conventions.md, "Options"), so the CLI and
the Python API give the same message.
"""

from __future__ import annotations

import os

from ipsoeval.errors import UsageError

TYPE_CHECKING = False      # typing costs ~3 ms to import; annotations only
if TYPE_CHECKING:
    from typing import Sequence

CORRECTIONS = ("none", "bonferroni", "holm", "bh")
ALTERNATIVES = ("two-sided", "less", "greater")
MAX_SAMPLES = 100_000_000       # --samples of any Monte Carlo procedure


def alpha(value: float) -> None:
    if not 0.0 < value < 1.0:
        raise UsageError(f"--alpha must be between 0 and 1 (found {value})")


def correct(value: str) -> None:
    if value not in CORRECTIONS:
        raise UsageError(f"--correct must be one of {', '.join(CORRECTIONS)} (found {value!r})")


def alternative(value: str) -> None:
    if value not in ALTERNATIVES:
        raise UsageError(f"--alternative must be one of {', '.join(ALTERNATIVES)} "
                         f"(found {value!r})")


def samples(value: int, maximum: int = MAX_SAMPLES) -> None:
    if value < 1:
        raise UsageError(f"--samples must be at least 1 (found {value})")
    if value > maximum:
        raise UsageError(f"--samples must be at most {maximum:,} (found {value})")


def seed(value: int) -> None:
    if value < 0:
        raise UsageError(f"--seed must be a non-negative integer (found {value})")


def tests(names: Sequence[str], allowed: Sequence[str], command: str) -> None:
    if not names:
        raise UsageError("--test: no test given")
    for t in names:
        from ipsoeval.stats import registry  # (its import costs eval's quick path ~25 ms)
        registry.get(t, allowed=allowed, command=command)


def baseline(value: str | None, runs: Sequence[str], paths: Sequence[str] | None = None,
             ) -> str | None:
    """The run name ``--baseline NAME|FILE`` means: a run's name, or the path of
    one of the RUN arguments (as given, or the same file).  None stays None."""
    if value is None:
        return None
    runs = list(runs)
    named = [i for i, r in enumerate(runs) if r == value]
    if len(named) > 1:
        raise UsageError(f"--baseline: {len(named)} runs are named {value!r}; give them "
                         f"distinct names with --name")
    by_path: list[int] = []
    if paths is not None and len(paths) == len(runs):
        by_path = [i for i, p in enumerate(paths) if p == value]
        if not by_path and os.path.exists(value):
            real = os.path.realpath(value)
            by_path = [i for i, p in enumerate(paths)
                       if p != "-" and os.path.realpath(p) == real]
    if not named and len(by_path) > 1:
        raise UsageError(f"--baseline {value!r}: that file holds {len(by_path)} runs "
                         f"({', '.join(runs[i] for i in by_path)}); give the run's name")
    if named and by_path and by_path != named:
        raise UsageError(f"--baseline {value!r} is the name of run {runs[named[0]]!r} and the "
                         f"file of run {runs[by_path[0]]!r}; rename one with --name")
    hit = named or by_path
    if not hit:
        raise UsageError(f"--baseline {value!r} is neither a run name nor a RUN argument "
                         f"(runs: {', '.join(runs)})")
    return runs[hit[0]]
