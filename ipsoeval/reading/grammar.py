"""Run arguments as a researcher gives them (issue 13): a directory stands for
every run file in it, and ``--name-from-file`` names a run by its file stem."""

from __future__ import annotations

import os

COMPRESSED = (".gz", ".bz2", ".xz")


def file_stem(path: str) -> str:
    """``runs/bm25.run.gz`` → ``bm25`` (compression suffix, then one extension,
    removed; a name that would be empty stays whole); ``-`` → ``stdin``."""
    if path == "-":
        return "stdin"
    base = os.path.basename(os.path.normpath(path))
    for ext in COMPRESSED:
        if base.endswith(ext) and len(base) > len(ext):
            base = base[: -len(ext)]
            break
    stem = os.path.splitext(base)[0]
    return stem or base


def expand_run_paths(paths) -> list[str]:
    """A directory stands for every file in it, sorted by name (hidden files and
    subdirectories skipped); an empty directory is an input error."""
    from ipsoeval.errors import InputError
    out: list[str] = []
    for p in paths:
        p = os.fspath(p)
        if p != "-" and os.path.isdir(p):
            files = sorted(f for f in os.listdir(p)
                           if not f.startswith(".") and os.path.isfile(os.path.join(p, f)))
            if not files:
                raise InputError("directory holds no run file", path=p)
            out.extend(os.path.join(p, f) for f in files)
        else:
            out.append(p)
    return out
