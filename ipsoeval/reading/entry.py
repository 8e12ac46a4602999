"""The entry for runs and qrels (re-exported by :mod:`ipsoeval.reading`): which
reader serves a call, decided in one place.

- :func:`read_qrels` / :func:`read_run`: the compiled core first, when it is
  built and enabled (``IPSOEVAL_CORE``) and the input is not stdin; it
  declines (None) anything it is not sure of, and the reference Python
  reader then reads the same bytes and gives the one result or error.
  Qrels under ``--labels gain|probability`` (real labels) are read by the
  Python reader alone.
- :func:`read_for_alignment`: a run read to be aligned at once to a known
  qrels (``engine.load`` and the API): the compiled core reads and aligns it
  in one pass (a :class:`~ipsoeval.reading.compiled.Streamed`, no row
  arrays) when the file's topics each occupy one block of lines; otherwise
  :func:`read_run`, and :mod:`ipsoeval.align` aligns the Run.
- In-memory inputs (dicts, DataFrames): :func:`qrels_from` / :func:`run_from`
  of :mod:`ipsoeval.reading.memory`, which build the same model.
"""

from __future__ import annotations

from ipsoeval.errors import UsageError
from ipsoeval.model import Qrels, Run
from ipsoeval.reading import compiled, python
from ipsoeval.reading.grammar import (
    IRDS_PREFIX,
    check_stdin_once,
    display_name,
    expand_run_paths,
    file_stem,
    sniff_run_format,
)
from ipsoeval.reading.memory import (
    QID_COLUMNS,
    is_dataframe,
    qrels_from,
    run_from,
    split_runs,
    subtopic_qrels_from,
)
from ipsoeval.reading.opening import iter_blocks, read_bytes, table_kind

__all__ = ["read_qrels", "read_run", "read_for_alignment", "qrels_from", "run_from",
           "subtopic_qrels_from",
           "is_dataframe", "split_runs", "check_stdin_once", "expand_run_paths", "file_stem",
           "display_name", "read_bytes", "QID_COLUMNS", "relevance_levels"]


def relevance_levels(dataset_id: str) -> list[dict]:
    """The ir_datasets data set's documentation of its relevance labels
    (``ipsoeval measures --dataset ID``; :func:`ipsoeval.reading.irds.relevance_levels`)."""
    from ipsoeval.reading import irds
    return irds.relevance_levels(dataset_id)


def read_qrels(path: str, data: bytes | None = None, labels: str = "integer") -> Qrels:
    """Qrels of a file (``-`` is stdin; ``data``: the file's bytes, already
    read).  ``labels`` gain/probability (``--labels``, ipsoeval.labels): real
    labels, read by the Python reader alone and coded.  ``irds:DATASET_ID``:
    the qrels of an ir_datasets data set (:mod:`ipsoeval.reading.irds`); a
    Parquet/Arrow file (magic bytes): :mod:`ipsoeval.reading.arrow`."""
    if data is None and path.startswith(IRDS_PREFIX):
        from ipsoeval.reading import irds
        return irds.read_qrels(path, labels=labels)
    kind = table_kind(path, data)
    if kind is not None:
        if data is not None:
            raise UsageError(f"{display_name(path)}: a {kind} table must be read from a file")
        from ipsoeval.reading import arrow
        return arrow.read_qrels(path, kind, labels=labels)
    if labels != "integer":
        return python.read_real_qrels(path, data, labels)
    if compiled.enabled():     # None when it declines: the Python reader decides
        got = compiled.read_qrels(path, data)
        if got is not None:
            return got
    return python.read_qrels(path, data)


def read_subtopic_qrels(path: str, data: bytes | None = None):
    """Diversity qrels (``qid subtopic docno judgment``, ndeval's layout) of a
    file, by the Python reader; read only when a diversity measure is asked for."""
    if data is None and (path.startswith(IRDS_PREFIX) or table_kind(path, None) is not None):
        raise UsageError(f"{display_name(path)}: diversity measures read a text qrels file "
                         f"(qid subtopic docno judgment)")
    return python.read_subtopic_qrels(path, data)


def read_run(path: str, run_format: str = "auto", name: str | None = None,
             data: bytes | None = None) -> Run:
    """A TREC (6+ fields) or MS MARCO (3 fields) run; ``run_format`` auto
    sniffs the first data line; ``name`` overrides the run's tag.  A
    Parquet/Arrow file (magic bytes) is read by :mod:`ipsoeval.reading.arrow`
    (its columns decide the format)."""
    kind = table_kind(path, data)
    if kind is not None:
        if data is not None:
            raise UsageError(f"{display_name(path)}: a {kind} table must be read from a file")
        from ipsoeval.reading import arrow
        return arrow.read_run(path, kind, name)
    blocks = iter_blocks(path, data)
    first = next(blocks, b"")
    fmt = sniff_run_format(first) if run_format == "auto" else run_format
    if compiled.enabled() and path != "-":   # None: declined, the Python reader decides
        got = compiled.read_run(path, fmt, name, data)
        if got is not None:
            blocks.close()
            return got

    def all_blocks():
        if first:
            yield first
        yield from blocks

    return python.read_run(path, fmt, name, all_blocks(), explicit=run_format != "auto")


def read_for_alignment(path: str, qindex, *, run_format: str = "auto",
                       name: str | None = None, tie_break: str = "trec",
                       judged_only: bool = False, depth: int | None = None):
    """A run file read to be aligned to ``qindex``'s qrels (an
    :class:`ipsoeval.align.QrelsIndex`) by ``engine.align_read`` with the
    same options: read and aligned in one pass by the compiled core (a
    ``Streamed``) when it can be, else a Run."""
    if compiled.enabled():      # None: declined (compressed, not grouped by topic, ...)
        kind = table_kind(path)
        if kind is None:
            got = compiled.stream_run(path, run_format, name, qindex, tie_break=tie_break,
                                      judged_only=judged_only, depth=depth)
        else:                   # a Parquet/Arrow table: its batches, the same pass
            from ipsoeval.reading import arrow
            got = arrow.stream_run(path, kind, name, qindex, tie_break=tie_break,
                                   judged_only=judged_only, depth=depth)
        if got is not None:
            return got
    return read_run(path, run_format=run_format, name=name)
