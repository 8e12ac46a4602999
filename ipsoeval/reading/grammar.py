"""What an input is: the run arguments, the file formats and the line grammar
(docs/conventions.md, "Inputs").  No numpy: the quick path and the CLI's
argument handling may import it cheaply.

Run arguments: a directory stands for every run file in it, and
``--name-from-file`` names a run by its file stem (:func:`expand_run_paths`,
:func:`file_stem`).  ``-`` is standard input, at most once per call.

Formats: a run's format (TREC or MS MARCO) is sniffed from its first data
line (:func:`sniff_run_format`) unless ``--run-format`` says it; compression
is sniffed from magic bytes by :mod:`ipsoeval.reading.opening`.

Input grammar (what both the Python reader and the compiled core accept):

- Fields are separated by runs of spaces, tabs and carriage returns; a line
  ends at LF (so CRLF files read like LF files, as in trec_eval).  Blank
  lines are skipped; a line whose first byte is ``#`` is a comment; a ``#``
  inside a field is data.  Any other control byte is "binary data".  A UTF-8
  byte-order mark at the start of a file is an error (it is not stripped).
- Runs: 6 or more fields (``qid Q0 docno rank score tag``), MS MARCO runs 3
  (``qid docno rank``).  A last line ``q Q0 d 1 1.0 `` has 5 fields: trailing
  blanks never make an empty field.  Qrels: exactly 4 fields.
- A label is ASCII: an optional sign and digits (``+1`` and ``01`` are 1),
  between -2147483646 and 2147483647 (the int32 label matrix keeps the two
  lowest values as sentinels).  ``1_0``, full-width digits, ``1e0`` and
  ``1.0`` are not labels.  A score is an ASCII decimal with an optional
  exponent (``1``, ``-.5``, ``5.``, ``1E+2``) that is finite as a double;
  NaN, infinities, ``1_0`` and hex floats are errors.
- Ids are compared by all their bytes, whatever their length; ids longer
  than LONG_ID bytes are stored by prefix and serial (:mod:`ipsoeval.reading.words`).
- A docno twice in one topic is an error (both lines named), in every topic
  of a run, evaluated or not.
- Alignment (``ipsoeval.align``): score descending, ties by docno descending
  (strcmp), cut at ``-M``, then ``-J`` drops unjudged documents.
"""

from __future__ import annotations

import os

from ipsoeval.errors import InputError, UsageError

# the layouts of per-topic score files (--scores-format; reading.scores reads them)
SCORE_FORMATS = ("auto", "trec_eval", "ir_measures", "long", "json")


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def check_stdin_once(paths) -> None:
    if sum(1 for p in paths if p == "-") > 1:
        raise UsageError("at most one input may be '-' (standard input)")


def sniff_run_format(data: bytes) -> str:
    """'msmarco' when the first data line has exactly 3 fields, else 'trec'."""
    for raw in bytes(data[:65536]).split(b"\n"):
        if not raw.strip() or raw.startswith(b"#"):
            continue
        return "msmarco" if len(raw.split()) == 3 else "trec"
    return "trec"


# The number syntax of docs/conventions.md "Inputs", ASCII only: an integer label
# is an optional sign and digits; a score is a decimal with an optional exponent.
_SYNTAX = {"INT_SYNTAX": rb"[+-]?[0-9]+\Z",
           "FLOAT_SYNTAX": rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z"}


def __getattr__(name: str):
    """INT_SYNTAX and FLOAT_SYNTAX, compiled when the Python reader first
    asks (``re`` costs the quick paths, which only need SCORE_FORMATS, ~8 ms)."""
    if name in _SYNTAX:
        import re
        globals()[name] = value = re.compile(_SYNTAX[name])
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
# labels must fit int32 (the label matrix; model.py keeps -2^31 and -2^31+1
# as sentinels, and every negative label becomes POOLED there)
LABEL_MIN, LABEL_MAX = -(2**31) + 2, 2**31 - 1


COMPRESSED = (".gz", ".bz2", ".xz")

# A QRELS argument irds:DATASET_ID names an ir_datasets data set's qrels
# (ipsoeval.reading.irds; the optional extra ipsoeval[irds]).
IRDS_PREFIX = "irds:"


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
