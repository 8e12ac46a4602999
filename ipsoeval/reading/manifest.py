"""The manifest of ``ipsoeval across``: which runs were scored on which collection.

A tab-separated text file, one line per run file::

    collection<TAB>qrels<TAB>run

- paths are relative to the manifest's directory (absolute ones are kept);
- a qrels ``irds:DATASET_ID`` is an ir_datasets data set (``ipsoeval[irds]``);
- a qrels ``-`` makes the third column a file of per-topic scores (any format
  ``--scores`` reads: trec_eval -q, ir_measures, long TSV/CSV, JSON) holding
  the runs of that collection;
- blank lines and lines starting with ``#`` are skipped, and so is a first
  line ``collection<TAB>qrels<TAB>run`` (a header);
- every line of a collection names the same qrels; a run file is listed
  once per collection.

Every check happens when the manifest is read, before any run is: an error
is one line, ``MANIFEST:LINE: what is wrong`` (exit 3).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ipsoeval.errors import InputError

HEADER = ("collection", "qrels", "run")
SCORES = "-"


@dataclass
class Collection:
    """One collection of a manifest: its qrels (a path, ``irds:ID`` or ``-`` for
    per-topic score files) and its run files, in manifest order."""

    name: str
    qrels: str
    runs: list[str] = field(default_factory=list)
    line: int = 0                 # the manifest line that first names it

    @property
    def scores(self) -> bool:
        return self.qrels == SCORES


def _resolve(base: str, path: str) -> str:
    if path.startswith("irds:") or path == SCORES or os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(base, path))


def read_manifest(path: str) -> list[Collection]:
    """The collections of the manifest at ``path``, in the order of their first line."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read the manifest: {exc.strerror or exc}", path=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=path, line=line) from None
    base = os.path.dirname(os.path.abspath(path))
    out: dict[str, Collection] = {}
    seen: dict[tuple[str, str], int] = {}
    first = True
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if first and tuple(f.strip().lower() for f in fields) == HEADER:
            first = False
            continue
        first = False
        if len(fields) != 3:
            raise InputError(f"expected 3 tab-separated fields (collection, qrels, run), "
                             f"found {len(fields)}", path=path, line=no)
        name, qrels, run = (f.strip() for f in fields)
        for what, value in (("collection", name), ("qrels", qrels), ("run", run)):
            if not value:
                raise InputError(f"empty {what} field", path=path, line=no)
        if run == SCORES or run.startswith("irds:"):
            raise InputError(f"the run field must be a file (found {run!r})", path=path,
                             line=no)
        qrels_path = _resolve(base, qrels)
        run_path = _resolve(base, run)
        for what, p in (("qrels", qrels_path), ("run", run_path)):
            if p == SCORES or p.startswith("irds:"):
                continue
            if not os.path.exists(p):
                raise InputError(f"no such {what} file: {p}", path=path, line=no)
            if os.path.isdir(p):
                raise InputError(f"the {what} is a directory: {p}", path=path, line=no)
        col = out.get(name)
        if col is None:
            col = out[name] = Collection(name, qrels_path, line=no)
        elif col.qrels != qrels_path:
            raise InputError(f"collection {name!r} has qrels {col.qrels} on line {col.line} "
                             f"and {qrels_path} here (one qrels per collection)",
                             path=path, line=no)
        key = (name, run_path)
        if key in seen:
            raise InputError(f"run {run_path} is listed twice for collection {name!r} "
                             f"(first on line {seen[key]})", path=path, line=no)
        seen[key] = no
        col.runs.append(run_path)
    if not out:
        raise InputError("the manifest lists no run (lines: collection<TAB>qrels<TAB>run)",
                         path=path)
    return list(out.values())
