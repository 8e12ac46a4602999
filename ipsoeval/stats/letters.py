"""Compact letter display of all-pairwise comparisons (Piepho 2004, "An
algorithm for a letter-based representation of all-pairwise comparisons",
JCGS 13(2), 456–466): insert-and-absorb followed by sweeping.

Two items share a letter exactly when they are *not* significantly different:
every non-significant pair shares at least one letter and no significant pair
shares one.  Items are sets of a bit mask (Python int) per letter.

- insert: start with one letter held by every item; for each significant pair
  (i, j), every letter holding both is replaced by two copies, one without i
  and one without j; a new letter that is a subset of another is absorbed
  (dropped);
- sweep: an item is removed from a letter when each of its partners there
  shares another letter with it, so no letter is redundant.

Letters are named in the order of their first item (items come in display
order, best first): a–z, A–Z, then a2–z2, A2–Z2, a3, ... (one token is a
letter followed by an optional number, so a display reads back uniquely).
"""

from __future__ import annotations

import string

import numpy as np

_ALPHABET = string.ascii_lowercase + string.ascii_uppercase


def letter_name(i: int) -> str:
    """The i-th letter token: a..z, A..Z, a2..Z2, a3, ..."""
    rnd, pos = divmod(i, len(_ALPHABET))
    return _ALPHABET[pos] + (str(rnd + 1) if rnd else "")


def _absorb_new(cols: list[int], new: list[int]) -> list[int]:
    """Add the masks of ``new`` to ``cols``, keeping only maximal sets: a new
    mask inside another column is absorbed (and one holding an earlier new
    mask replaces it)."""
    out = list(cols)
    for m in new:
        if any(m | c == c for c in out):
            continue
        out = [c for c in out if c | m != m]
        out.append(m)
    return out


def insert_absorb(k: int, significant: np.ndarray) -> list[int]:
    """Letters (bit masks over items 0..k−1) after insert-and-absorb."""
    sig = np.asarray(significant, dtype=bool)
    cols = [(1 << k) - 1] if k else []
    for i in range(k):
        for j in range(i + 1, k):
            if not (sig[i, j] or sig[j, i]):
                continue
            both = (1 << i) | (1 << j)
            hit = [c for c in cols if c & both == both]
            if not hit:
                continue
            keep = [c for c in cols if c & both != both]
            new = []
            for c in hit:
                new.append(c & ~(1 << i))
                new.append(c & ~(1 << j))
            cols = _absorb_new(keep, new)
    return cols


def sweep(k: int, cols: list[int], significant: np.ndarray) -> list[int]:
    """Remove redundant memberships (Piepho 2004, the sweeping step): item i
    leaves a letter when every other item holding it shares another letter
    with i (and i keeps a letter)."""
    cols = list(cols)
    for ci in range(len(cols)):
        for i in range(k):
            bit = 1 << i
            c = cols[ci]
            if not c & bit:
                continue
            partners = 0            # items sharing another letter with i
            for x, o in enumerate(cols):
                if x != ci and o & bit:
                    partners |= o
            if not partners:
                continue            # i's only letter
            if (c & ~bit) & ~partners == 0:
                cols[ci] = c & ~bit
    return [c for c in cols if c]


def letters(significant: np.ndarray, order=None) -> list[str]:
    """The letter display of each item (a string of tokens).

    ``significant``: (k, k) bool, symmetric (the upper or lower triangle is
    enough).  ``order``: display order of the items (best first); letters are
    named in the order of the first item holding them.
    """
    sig = np.asarray(significant, dtype=bool)
    k = sig.shape[0]
    if k == 0:
        return []
    order = list(range(k)) if order is None else [int(x) for x in order]
    pos = {item: p for p, item in enumerate(order)}
    cols = sweep(k, insert_absorb(k, sig), sig)

    def first(c: int) -> tuple:
        members = sorted(pos[i] for i in range(k) if c >> i & 1)
        return tuple(members)

    cols.sort(key=first)
    names = [letter_name(x) for x in range(len(cols))]
    return ["".join(names[x] for x, c in enumerate(cols) if c >> i & 1) for i in range(k)]


def parse(display: str) -> list[str]:
    """Tokens of one item's display (``"ab2c"`` → ["a", "b2", "c"])."""
    import re
    return re.findall(r"[A-Za-z][0-9]*", display)
