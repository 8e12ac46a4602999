"""``--labels integer|gain|probability``: what a qrels label means.

* ``integer`` (the default): trec_eval's integer labels, unchanged.
* ``gain``: a label is a finite real >= 0, the document's gain in the gain
  measures (DCG, nDCG, RBP, ERR, ...); binary measures count a document as
  relevant when its label is at least ``-l``.
* ``probability``: a label is the probability in [0, 1] that the document
  is relevant, independently of the others; a measure is reported as its
  expected value over the 2^n labelings (ipsoeval.measures.expected).

The readers parse such labels as reals in one place (:func:`encode`) and
hand the alignment integer *codes*, so alignment is the integer one: under
``gain`` the code of a label is its rank among the distinct labels (order
kept, so ``code >= c`` is ``label >= value``); under ``probability`` every
qrels row has its own code (a document's identity is what the expectations
need).  ``values[code]`` is the real label.
"""

from __future__ import annotations

import numpy as np

from ipsoeval.errors import InputError, UsageError

LABEL_MODES = ("integer", "gain", "probability")


def check_mode(mode: str) -> str:
    if mode not in LABEL_MODES:
        raise UsageError(f"--labels must be integer, gain or probability (found {mode!r})")
    return mode


def encode(values: np.ndarray, line: np.ndarray, path: str, mode: str,
           texts=None) -> tuple[np.ndarray, np.ndarray]:
    """(codes int64, values float64 per code) of real labels; InputError
    (FILE:LINE) for a label outside the mode's range.  ``texts(i)`` gives
    the label as written (for the message)."""
    v = np.asarray(values, dtype=np.float64)

    def where(i, what):
        shown = texts(i) if texts is not None else repr(float(v[i]))
        shown = shown[:-2] if shown.endswith(".0") else shown
        raise InputError(f"{what} ({shown})", path=path, line=int(line[i]))

    bad = ~np.isfinite(v)
    if bad.any():
        where(int(np.argmax(bad)), "label is not a finite number")
    if mode == "gain":
        bad = v < 0
        if bad.any():
            where(int(np.argmax(bad)), "negative gain: with --labels gain a label is a "
                                       "gain >= 0")
        table, codes = np.unique(v, return_inverse=True)
        return codes.astype(np.int64).ravel(), table.astype(np.float64)
    if mode == "probability":
        bad = (v < 0) | (v > 1)
        if bad.any():
            where(int(np.argmax(bad)), "probability outside [0, 1]: with --labels "
                                       "probability a label is the probability of relevance")
        return np.arange(len(v), dtype=np.int64), v.copy()
    raise UsageError(f"--labels {mode}: labels are not reals")


def code_level(values: np.ndarray, level: float) -> int:
    """The smallest gain code whose label is >= ``level`` (``--labels gain``)."""
    return int(np.searchsorted(values, level, side="left"))
