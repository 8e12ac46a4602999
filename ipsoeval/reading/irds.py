"""Qrels of an ir_datasets data set: the QRELS argument ``irds:DATASET_ID``
(optional extra ``ipsoeval[irds]``), e.g. ``irds:msmarco-passage/trec-dl-2019/judged``.

ir_datasets (https://ir-datasets.com) downloads a data set's qrels once,
into ``IR_DATASETS_HOME`` (default ``~/.ir_datasets``), checked by md5, and
reads them from there afterwards: the first use needs the network, later
ones do not.  ``dataset.qrels_iter()`` yields (query_id, doc_id,
relevance) rows; they become the same :class:`~ipsoeval.model.Qrels` as an
in-memory qrels (:mod:`ipsoeval.reading.memory`: the same id checks, "line"
numbers = 1-based row numbers), so alignment and every number are those of
the same qrels as a text file.  Graded labels stay graded; the data set's
documentation of its relevance levels (``qrels_defs()``) is
:func:`relevance_levels` (``ipsoeval measures --dataset ID``).

Errors, each one line: ir_datasets not installed -- a usage error naming
the extra (exit 2); an unknown id, a data set without qrels, a failed
download -- input errors (exit 3).  ir_datasets' own log lines (download
retries, hints) are silenced while it works so that a failure is that one
line; its progress bar still shows a download that works.
"""

from __future__ import annotations

import contextlib
import logging

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.model import Qrels
from ipsoeval.reading.grammar import IRDS_PREFIX
from ipsoeval.reading.memory import _labels, _reals, _words_list

INSTALL = "pip install 'ipsoeval[irds]'"


def dataset_id(spec: str) -> str:
    """``irds:ID`` → ``ID`` (a usage error when ID is empty)."""
    ident = spec[len(IRDS_PREFIX):] if spec.startswith(IRDS_PREFIX) else spec
    if not ident:
        raise UsageError(f"{spec}: no data set id after '{IRDS_PREFIX}' "
                         f"(e.g. {IRDS_PREFIX}msmarco-passage/trec-dl-2019/judged)")
    return ident


def _module():
    try:
        import ir_datasets
    except ImportError:
        raise UsageError(f"irds: qrels need ir_datasets: {INSTALL}") from None
    return ir_datasets


@contextlib.contextmanager
def _quiet():
    """ir_datasets' log lines below ERROR off while it works."""
    before = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(before)


def _load(spec: str):
    ident = dataset_id(spec)
    ird = _module()
    with _quiet():
        try:
            ds = ird.load(ident)
        except KeyError:
            raise InputError(f"unknown ir_datasets data set id {ident!r} (the ids: "
                             f"https://ir-datasets.com)", path=spec) from None
        except Exception as exc:     # a data set whose definition cannot be built
            raise InputError(f"ir_datasets cannot load the data set ({_why(exc)})",
                             path=spec) from None
    if not ds.has_qrels():
        raise InputError(f"the ir_datasets data set {ident!r} has no qrels", path=spec)
    return ds


def _why(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    if isinstance(exc, RuntimeError) and len(exc.args) == 2 and isinstance(exc.args[1], list):
        # 'All download sources failed' [(mirror, error), ...]: the first error
        errs = exc.args[1]
        if errs:
            return _why(errs[0][1])
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _download_failed(exc: BaseException) -> bool:
    if isinstance(exc, OSError):         # requests' errors are OSErrors too
        return True
    return isinstance(exc, RuntimeError) and bool(exc.args) and \
        exc.args[0] == "All download sources failed"


def read_qrels(spec: str, labels: str = "integer") -> Qrels:
    """The qrels of ``irds:ID`` as a Qrels (downloaded by ir_datasets on first use)."""
    from ipsoeval.labels import check_mode, encode
    check_mode(labels)
    ds = _load(spec)
    qids, docs, vals = [], [], []
    with _quiet():
        try:
            for q in ds.qrels_iter():
                qids.append(q.query_id)
                docs.append(q.doc_id)
                vals.append(q.relevance)
        except Exception as exc:
            if _download_failed(exc):
                raise InputError(f"download failed ({_why(exc)}); ir_datasets needs the "
                                 f"network once to fetch the qrels", path=spec) from None
            raise InputError(f"ir_datasets could not read the qrels ({_why(exc)})",
                             path=spec) from None
    if not qids:
        raise InputError("empty qrels (the data set has no judgments)", path=spec)
    qid = _words_list(qids, spec, "topic id")
    docno = _words_list(docs, spec, "document id")
    raw = np.array(vals + [None], dtype=object)[:-1]
    line = np.arange(1, len(qids) + 1, dtype=np.int64)
    if labels != "integer":
        codes, values = encode(_reals(raw, spec), line, spec, labels)
        return Qrels(path=spec, qid=qid, docno=docno, label=codes, line=line,
                     label_mode=labels, values=values)
    return Qrels(path=spec, qid=qid, docno=docno, label=_labels(raw, spec), line=line)


def relevance_levels(ident: str) -> list[dict]:
    """The data set's documentation of its relevance levels (``qrels_defs()``):
    one record per label, highest first: ``dataset, label, definition``."""
    spec = ident if ident.startswith(IRDS_PREFIX) else IRDS_PREFIX + ident
    ds = _load(spec)
    defs = ds.qrels_defs() or {}
    ident = dataset_id(spec)
    return [{"dataset": ident, "label": int(k) if isinstance(k, (int, np.integer)) else k,
             "definition": str(v)}
            for k, v in sorted(defs.items(), key=lambda kv: -_order(kv[0]))]


def _order(k) -> float:
    try:
        return float(k)
    except (TypeError, ValueError):
        return float("-inf")
