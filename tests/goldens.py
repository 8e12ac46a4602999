"""One comparison for every golden output file: text exact, numbers to a
stated tolerance.

A golden file pins what a command prints.  Its words, column names, order and
layout are the contract and are compared exactly.  Its numbers are the result
of floating-point sums, BLAS calls and special functions whose last bit may
move between numpy/scipy releases (a pairwise sum reordered, a vectorised
kernel, a new ``log1p``); such a move is no change of output a user could
act on, and it must not turn a fresh clone red.  So the numbers are compared
with

    |actual - expected| <= max(REL * |expected|, ABS)

REL = 1e-10 is wide enough for the moves measured between the oldest and
the newest numpy/scipy that pyproject.toml allows (1.26/1.11 against
2.4/1.17): up to 1e-16 relative in most numbers, 3e-12 in across's bootstrap
interval of a pooled mean (its resampled variances are one-pass sums with
cancellation, and REML's tau^2 follows them); a factor of 30 above that.  It
is still a million times narrower than the changes real defects made to these
files (a wrong tau^2 in REML moved the fourth digit; a wrong p-value moves
far more) and fails a move at 1e-9 (tests/golden/test_goldens_helper.py).  ABS =
1e-15 only lets a difference that cancels to zero come out as a few units of
1e-16 (an exact 0 against 5.6e-17); everything in the goldens that is not a
cancellation is a mean, p-value or count far above it.  Infinities and NaNs
must match exactly.

Where the exact bytes are the point -- ``eval --format trec`` against
trec_eval's own output files, which print ``%.4f`` -- the tests keep
comparing strings with ``==``, not with this helper.

JSON text is compared structurally: the same keys in the same order, the
same types, strings through the text rule above (so a number inside a
sentence is a number), numbers within the tolerance.
"""

from __future__ import annotations

import json
import math
import re

REL = 1e-10
ABS = 1e-15

# a number as the commands print it: optional sign, digits with an optional
# fraction (or a fraction alone), optional exponent; inf and nan are words.
# A digit run glued to letters (P@10, bm25, run-2) is a number too: it is
# compared within the tolerance, which for integers means exactly.
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _tokens(text: str) -> list:
    """``text`` as alternating text pieces (str) and numbers (float)."""
    out, pos = [], 0
    for m in _NUMBER.finditer(text):
        out.append(text[pos:m.start()])
        out.append(float(m.group()))
        pos = m.end()
    out.append(text[pos:])
    return out


def close(a: float, b: float, rel: float = REL, abs_: float = ABS) -> bool:
    """True when ``a`` (actual) equals ``b`` (expected) within the tolerance."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(rel * abs(b), abs_)


def _diff_text(actual: str, expected: str, rel: float, abs_: float, where: str) -> str | None:
    ta, te = _tokens(actual), _tokens(expected)
    if len(ta) != len(te):
        return _first_text_difference(actual, expected, where)
    for i, (x, y) in enumerate(zip(ta, te)):
        if i % 2 == 0:
            if x != y:
                return _first_text_difference(actual, expected, where)
        elif not close(x, y, rel, abs_):
            return (f"{where}: number {x!r} differs from the golden {y!r} by "
                    f"{abs(x - y):.3g} (allowed: {max(rel * abs(y), abs_):.3g})")
    return None


def _first_text_difference(actual: str, expected: str, where: str) -> str:
    al, el = actual.splitlines(), expected.splitlines()
    for n, (x, y) in enumerate(zip(al, el), 1):
        if x != y:
            return f"{where}: line {n} differs in its text:\n  actual:   {x!r}\n  expected: {y!r}"
    return f"{where}: {len(al)} lines against the golden's {len(el)}"


def _diff_json(a, e, rel: float, abs_: float, where: str) -> str | None:
    if isinstance(e, bool) or isinstance(a, bool) or e is None or a is None:
        return None if (type(a) is type(e) and a == e) else \
            f"{where}: {a!r} differs from the golden {e!r}"
    if isinstance(e, (int, float)) and isinstance(a, (int, float)):
        if type(a) is not type(e):
            return f"{where}: {a!r} ({type(a).__name__}) against the golden {e!r} " \
                   f"({type(e).__name__})"
        return None if close(float(a), float(e), rel, abs_) else \
            f"{where}: {a!r} differs from the golden {e!r} by {abs(a - e):.3g}"
    if isinstance(e, str) and isinstance(a, str):
        return _diff_text(a, e, rel, abs_, where)
    if isinstance(e, list) and isinstance(a, list):
        if len(a) != len(e):
            return f"{where}: {len(a)} items against the golden's {len(e)}"
        for i, (x, y) in enumerate(zip(a, e)):
            d = _diff_json(x, y, rel, abs_, f"{where}[{i}]")
            if d:
                return d
        return None
    if isinstance(e, dict) and isinstance(a, dict):
        if list(a) != list(e):
            return f"{where}: keys {list(a)} against the golden's {list(e)}"
        for k in e:
            d = _diff_json(a[k], e[k], rel, abs_, f"{where}.{k}")
            if d:
                return d
        return None
    return f"{where}: {type(a).__name__} against the golden's {type(e).__name__}"


def output_difference(expected: str, actual: str, *, rel: float = REL, abs_: float = ABS,
                      json_: bool | None = None, name: str = "output") -> str | None:
    """None when ``actual`` is ``expected`` under the rule above, else a
    sentence saying where they first differ.  ``json_`` None: JSON when the
    expected text parses as a JSON document."""
    if json_ is None:
        json_ = expected.lstrip()[:1] in ("{", "[")
    if json_:
        try:
            e = json.loads(expected)
        except ValueError:
            json_ = False
        else:
            try:
                a = json.loads(actual)
            except ValueError as exc:
                return f"{name}: not JSON ({exc})"
            return _diff_json(a, e, rel, abs_, name)
    return _diff_text(actual, expected, rel, abs_, name)


def assert_same_output(expected: str, actual: str, *, rel: float = REL, abs_: float = ABS,
                       json_: bool | None = None, name: str = "output") -> None:
    """Assert ``actual`` is the golden ``expected``: text exact, numbers
    within ``rel`` (relative) or ``abs_`` (absolute), JSON structurally."""
    d = output_difference(expected, actual, rel=rel, abs_=abs_, json_=json_, name=name)
    assert d is None, d
