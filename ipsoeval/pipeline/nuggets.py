"""``ipsoeval nuggets``: its declaration and the calls from nugget assignment
files to a Report, made by the command line (:func:`from_values`) and the API
(:func:`from_paths`)."""

from __future__ import annotations

import os

from ipsoeval.declare import Arg, Command, Group
from ipsoeval.output_options import output_group
from ipsoeval.pipeline import HELP
from ipsoeval.pipeline import inputs as inp
from ipsoeval.pipeline.options import NuggetsFormat, PerQuery, measures_group

COMMAND = Command(
    "nuggets", HELP["nuggets"],
    arguments=(Arg("files", "FILE...", many=True),),
    groups=(measures_group("Nugget score: nugget_vital_strict, nugget_all_strict, "
                           "nugget_vital, nugget_all (repeatable; default all four; see "
                           "`ipsoeval measures`)."),
            Group(PerQuery, words={"per_query": {"help": "Also print each topic's scores."}}),
            # the API's keyword for the layout is fmt (it has no output format)
            Group(NuggetsFormat, words={"nuggets_format": {"api": True, "api_name": "fmt"}}),
            output_group("tsv")))


def from_values(v: dict):
    """The Report of a command line's parsed values ``v``."""
    from ipsoeval.analyses import nuggets as ng
    from ipsoeval.reading.nuggets import read_nuggets

    files = list(v["files"])
    sel = ng.select(list(v["measures"]))                  # usage errors before reading
    inp.output_not_an_input(v["output"], files[0], files[1:])
    j = read_nuggets(tuple(files), v["nuggets_format"])
    return ng.scores_report(j, [m.name for m in sel], per_query=v["per_query"])


def from_paths(paths, *, measures=None, per_query: bool = False, fmt: str = "auto"):
    """The Report of :func:`ipsoeval.nuggets` on a path or a list of paths."""
    from ipsoeval.analyses.nuggets import scores_report
    from ipsoeval.pipeline.common import _names, _warn
    from ipsoeval.reading.nuggets import read_nuggets
    files = [os.fspath(paths)] if inp._is_path(paths) else [os.fspath(p) for p in paths]
    out = scores_report(read_nuggets(files, fmt), _names(measures), per_query=per_query)
    _warn(out.warnings)
    return out
