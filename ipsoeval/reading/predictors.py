"""Query performance predictor files into :class:`ipsoeval.model.Predictors`.

A predictor file is either

- ``qid value`` per line (tab- or blank-separated): one predictor, named by
  the file's stem (``wig.tsv`` -> ``wig``); or
- ``predictor qid value`` per line (a long table): one predictor or more,
  named by the first column.

Blank lines and lines starting with ``#`` are skipped; a first line whose
last field is not a number and whose fields are column names (``qid``,
``query_id``, ``value``, ``score``, ``predictor``) is a header.  Every data
line of a file has the same number of fields.  A value that is not a finite
number (NaN included: a predictor that failed on a topic must say so by
leaving the topic out, not by a NaN that would drop it silently), a topic
given twice for one predictor, and a predictor given by two files are input
errors naming the file and line.
"""

from __future__ import annotations

import os

from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_text
from ipsoeval.model import Predictors
from ipsoeval.reading.grammar import check_stdin_once
from ipsoeval.reading.opening import read_bytes

_HEADER_WORDS = {"qid", "query_id", "topic", "value", "score", "predictor", "prediction"}


def _stem(path: str) -> str:
    if path == "-":
        return "stdin"
    base = os.path.basename(path)
    for ext in (".gz", ".bz2", ".xz"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return os.path.splitext(base)[0] or base


def _value(text: str, path: str, line: int) -> float:
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"predictor value is not a number ({text!r})", path=path,
                         line=line) from None
    if v != v:
        raise InputError("predictor value is NaN (leave out a topic the predictor has no "
                         "value for)", path=path, line=line)
    if v in (float("inf"), float("-inf")):
        raise InputError(f"predictor value is not finite ({text!r})", path=path, line=line)
    return v


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_file(path: str, into: Predictors) -> None:
    """Add the predictors of one file to ``into``."""
    try:
        text = decode_text(read_bytes(path))
    except OSError as e:
        raise InputError(f"cannot read predictor file: {e.strerror or e}", path=path) from None
    width = None
    first_line = True
    seen: dict[tuple[str, str], int] = {}
    own: set[str] = set()
    stem = _stem(path)
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) > 1 and any(f != f.strip() for f in fields):
            fields = [f.strip() for f in fields]
        if first_line:
            first_line = False
            if not _is_number(fields[-1]) and {f.lower() for f in fields} <= _HEADER_WORDS:
                continue        # a header
        if len(fields) not in (2, 3):
            raise InputError(f"a predictor line is 'qid value' or 'predictor qid value' "
                             f"(found {len(fields)} fields)", path=path, line=i)
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise InputError(f"{len(fields)} fields where the file's first line has {width}",
                             path=path, line=i)
        if width == 2:
            name, qid, text_v = stem, fields[0], fields[1]
        else:
            name, qid, text_v = fields
        if not qid or not name:
            raise InputError("empty predictor name or topic id", path=path, line=i)
        value = _value(text_v, path, i)
        if name not in own:
            if name in into.values:
                where, at = into.sources[name]
                raise InputError(f"predictor {name!r} is also given by {where}:{at} (name "
                                 f"each predictor once)", path=path, line=i)
            own.add(name)
            into.names.append(name)
            into.values[name] = {}
            into.sources[name] = (path, i)
        if (name, qid) in seen:
            raise InputError(f"topic {qid} given twice for predictor {name} (first at line "
                             f"{seen[name, qid]})", path=path, line=i)
        seen[name, qid] = i
        into.values[name][qid] = value
    if not own:
        raise InputError("empty predictor file (no data lines)", path=path)


def read_predictors(paths) -> Predictors:
    """The predictors of the files ``paths`` (``-``: standard input, once)."""
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise UsageError("give at least one PREDICTOR file")
    check_stdin_once(paths)
    out = Predictors(names=[], values={})
    for p in paths:
        read_file(p, out)
    return out


def predictors_from(obj) -> Predictors:
    """Predictors from the API's inputs: paths (one or a list), a
    :class:`Predictors`, or ``{name: {qid: value}}``."""
    import math
    if isinstance(obj, Predictors):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return read_predictors([obj])
    if isinstance(obj, dict):
        out = Predictors(names=[], values={})
        for name, d in obj.items():
            if not isinstance(d, dict) or not d:
                raise UsageError(f"predictor {name!r}: give a non-empty {{qid: value}} dict")
            vals = {}
            for q, v in d.items():
                v = float(v)
                if not math.isfinite(v):
                    raise UsageError(f"predictor {name!r}: topic {q}: value is not a finite "
                                     f"number ({v})")
                vals[str(q)] = v
            out.names.append(str(name))
            out.values[str(name)] = vals
        return out
    if isinstance(obj, (list, tuple)) and all(isinstance(p, (str, os.PathLike)) for p in obj):
        return read_predictors(obj)
    raise UsageError(f"predictors must be paths, a {{name: {{qid: value}}}} dict or "
                     f"Predictors (found {type(obj).__name__})")
