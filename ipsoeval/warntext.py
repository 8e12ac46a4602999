"""Warnings merged by kind: what the command line prints and the Python API
warns, one line per kind of warning whatever the number of runs.

A warning about one run reads ``RUN: text`` (the run's file or name, then
what was found, with its counts).  Warnings of several runs whose text
differs only in its numbers are one kind (a warning naming a line of a file,
``FILE:LINE: text``, stays its own), and :func:`merge` writes them as
one line that states how many runs and the counts (the number when every
run has the same, else ``LOW to HIGH``); it never names the runs, whose
detail stays in the report (``--format json``'s ``warnings``) and in
``--warnings all``::

    12 runs: 35 topic(s) not in the qrels ignored

Tie warnings (:class:`~ipsoeval.tiewarn_text.TieNote`) merge the same way,
naming every measure moved in any run (:mod:`ipsoeval.tiewarn_text`, whose
text the quick path prints too).  Any other warning (one run, or one about
an option or a whole file set) is printed as it is, once.

Plain Python, no imports beyond the standard library.
"""

from __future__ import annotations

import re

from ipsoeval.tiewarn_text import WARNING_MODES, TieNote, count_text, merge_tie_notes

__all__ = ["merge", "lines", "WARNING_MODES"]

_RUN = re.compile(r"(?P<run>[^\s:][^:]*?)(?P<line>:\d+)?: (?P<rest>.+)", re.S)
_NUM = re.compile(r"\d+")


def _is_run(prefix: str) -> bool:
    """A prefix that names a file or a run (not an option like ``--bounds``,
    nor a phrase)."""
    return not prefix.startswith("-") and (not any(c.isspace() for c in prefix) or "/" in prefix)


def merge(messages) -> list[str]:
    """The warnings, each once, those of one kind over several runs merged
    into one line (at the place of the kind's first warning)."""
    groups: dict = {}
    for m in dict.fromkeys(messages):
        if isinstance(m, TieNote):
            key, item = ("tie", m.averaged), m
        else:
            mt = _RUN.fullmatch(m)
            if mt is not None and mt["line"] is None and _is_run(mt["run"]):
                rest = mt["rest"]
                key, item = ("runs", _NUM.sub("#", rest)), (mt["run"], rest, m)
            else:
                key, item = ("one", m), m
        groups.setdefault(key, []).append(item)
    out = []
    for (kind, _), items in groups.items():
        if kind == "one":
            out.extend(items)
        elif kind == "tie":
            out.append(merge_tie_notes(items))
        elif len({run for run, _, _ in items}) < 2:
            out.extend(m for _, _, m in items)
        else:
            out.append(_merge_runs(items))
    return out


def _merge_runs(items) -> str:
    """``K runs: text`` with each count of the text over the runs."""
    runs = {run for run, _, _ in items}
    parts = [_NUM.split(rest) for _, rest, _ in items]
    nums = [[int(x) for x in _NUM.findall(rest)] for _, rest, _ in items]
    text = parts[0][0]
    for j in range(len(parts[0]) - 1):
        text += count_text([n[j] for n in nums]) + parts[0][j + 1]
    return f"{len(runs)} runs: {text}"


def lines(messages, mode: str = "default") -> list[str]:
    """The warning lines printed under --warnings ``mode`` (error: as
    default, the caller refuses on the first)."""
    if mode == "ignore":
        return []
    if mode == "all":
        return [str(m) for m in dict.fromkeys(messages)]
    return merge(messages)
