"""Tables for people at a terminal (not a stable format).  The only module importing rich.

A table chooses its shape for the width it is given (the Environment's
terminal width), so that no line is longer than that width:

1. long headers wrap at ``_``, ``-``, ``/`` and spaces (``leaderboard_rank``
   shows as ``leaderboard_`` over ``rank``); the names are not changed;
2. long text cells (definitions, comma lists, verdicts) wrap at spaces and
   after commas;
3. a pivoted table (``pivot`` hint, e.g. eval's measures x runs) whose value
   columns do not fit turns around: the pivot's columns become rows (many
   runs are rows, not columns);
4. what still does not fit is shown in blocks of columns ("part 1/3", ...),
   each repeating the key columns (the ``keys`` hint, else the pivot's
   index, else the leading row labels: identifier columns -- run, run_a,
   run_b, qid, measure, test, ... -- and text columns such as bootstrap's
   ``rate``, up to the first column of numbers).

A grouped header (``groups`` hint) is one line of titles over the columns
they span.  Every string shown is data, never markup: rich only renders the
styles chosen here, and control characters in data are shown escaped.

Hints a ResultSet may give in ``table_hints`` (all optional; read here and,
for ``digits``/``labels``/``hide``, by formatters/paper.py):

- ``digits``: decimals for floats (an int; default 4).  ``--digits N``
  overrides it: N decimals, p-values N significant digits
  (:func:`ipsoeval.formatters.values.rounded`).
- ``exact``: [cols] -- columns of parameters and degrees of freedom (risk's
  ``risk_alpha``, an F test's ``f_df1``): each value printed as the number it
  is (1, 5, 0.5, 193), never rounded to ``digits`` decimals.
- ``pivot``: {"index": [cols], "columns": col, "values": col} -- show a wide
  table (e.g. measures x runs) instead of the long records.
- ``labels``: {column: header text} -- shown instead of the column name.
- ``hide``: [cols] -- columns left out of the table.
- ``keys``: [cols] -- the row-label columns a table split into parts repeats
  in every part (default: the leading identifier and text columns).
- ``groups``: [[group title, [cols]], ...] -- a title over those columns.
- ``cell_styles``: {column: {cell text: rich style}} -- colour cells by value
  (ipso's relations ``==``, ``ni``, ``ns``, ``**``; sigtest's ``yes``).
- ``token_styles``: {column: {"sep": ",", "styles": {token: style}}} --
  colour each token of a cell (ipso trajectories).
- ``sign_styles``: {column: {"positive": style, "negative": style, "zero":
  style}} -- colour numeric cells by sign.
- ``heatmap``: {"columns": [cols], "low": 0.0, "high": 1.0} -- shade numeric
  cells by value on a scale monotonic in the value (see :func:`heat_style`).
- ``paper``: the layout of latex and markdown only (read by
  formatters/paper.py, which documents it); the terminal table ignores it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.color import ColorSystem
from rich.style import Style

from ipsoeval.formatters.values import rounded, spell
from ipsoeval.results import Composed, ResultSet

__all__ = ["render", "exact_text", "heat_style", "HEAT_RAMP", "DEFAULT_WIDTH", "KNOWN_HINTS"]

KNOWN_HINTS = frozenset({"digits", "exact", "pivot", "labels", "hide", "keys", "groups", "cell_styles",
                         "token_styles", "sign_styles", "heatmap", "paper"})

DEFAULT_WIDTH = 80

# Leading columns with these names identify a row: repeated in every block.
KEY_COLUMNS = ("run", "run_a", "run_b", "baseline", "qid", "measure", "scale", "test", "k")

HEADER_BREAKS = "_-/ "
CELL_BREAKS = " ,"
WRAP_CELLS_FROM = 16          # a text column narrower than this is never wrapped

# --- the heat scale ----------------------------------------------------------
#
# 256 colours and truecolor: eight steps from dark purple through teal and
# green to yellow (after viridis), whose lightness grows strictly with the
# value, each with the foreground (#000000 or #ffffff) of higher contrast --
# at least 4.5:1 (WCAG AA) -- so a cell reads the same on dark and light
# terminals: it sets both its colours.  Every step is a colour of the xterm
# 256-colour cube, so 256 colours show exactly the same scale.  Sixteen
# colours cannot promise an order of lightness (themes remap them), so there
# the scale is one of emphasis: plain, bold, then reverse video (the
# terminal's own colours swapped).  Zero (or undefined) is never shaded.

HEAT_RAMP = ["#5f005f", "#005f87", "#5f5faf", "#008787", "#00af87", "#5fd75f", "#d7d75f",
             "#ffff5f"]


def _luminance(rgb) -> float:
    def lin(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(l1: float, l2: float) -> float:
    hi, lo = max(l1, l2), min(l1, l2)
    return (hi + 0.05) / (lo + 0.05)


def _heat_fg(hex_color: str) -> str:
    rgb = tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    lum = _luminance(rgb)
    return "#000000" if _contrast(lum, 0.0) >= _contrast(lum, 1.0) else "#ffffff"


def heat_style(x: float, color_system: str = "truecolor") -> str:
    """The style of a heat-map cell at ``x`` in [0, 1] (0 = the scale's low end)."""
    if not x > 0:
        return ""
    x = min(x, 1.0)
    if color_system == "standard":
        return "" if x <= 1 / 3 else "bold" if x <= 2 / 3 else "reverse bold"
    bg = HEAT_RAMP[min(int(x * len(HEAT_RAMP)), len(HEAT_RAMP) - 1)]
    return f"{_heat_fg(bg)} on {bg}"


# --- cell text ---------------------------------------------------------------

def _fmt(v, digits: int, col: str | None = None) -> str:
    """A cell's text: ``digits`` decimals (the table's hint), tiny and huge
    values in scientific notation; with ``col`` (``--digits`` given, the
    value's column) the rounding every format shares under ``--digits``."""
    if col is not None:
        return spell(v, lambda x: rounded(x, col, digits), undefined="–", yes="yes", no="no",
                     other=lambda x: _clean(x.at(digits) if isinstance(x, Composed)
                                            else str(x)))

    def finite(x: float) -> str:
        if x != 0 and (abs(x) < 10 ** -digits or abs(x) >= 1e9):
            return f"{x:.{digits}g}" if abs(x) >= 1e9 else f"{x:.2e}"
        return f"{x:.{digits}f}"
    return spell(v, finite, undefined="–", yes="yes", no="no", other=lambda x: _clean(str(x)))


def exact_text(v) -> str | None:
    """A float of an ``exact`` column as the number it is: an integer value
    without decimals (1.0: "1"), another as its shortest round-trip text
    (0.5); None for anything else (formatted as usual)."""
    if isinstance(v, float) and not isinstance(v, bool) and math.isfinite(v):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    return None


# (U+DC80..U+DCFF: a byte of an id that is not UTF-8, ipsoeval.ids: shown as \xNN)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udcff]")
_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _clean(s: str) -> str:
    """Data as text: control and direction characters shown escaped, never obeyed."""
    if not _CONTROL.search(s):
        return s
    return _CONTROL.sub(lambda m: _ESCAPES.get(m.group(), _escape(ord(m.group()))), s)


def _escape(c: int) -> str:
    if 0xDC80 <= c <= 0xDCFF:
        return f"\\x{c - 0xDC00:02x}"
    return f"\\u{c:04x}" if c > 0xff else f"\\x{c:02x}"


def _numeric(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# --- wrapping ----------------------------------------------------------------

def _pieces(text: str, breaks: str) -> list[str]:
    """``text`` cut after each break character (the pieces join to ``text``)."""
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in breaks:
            out.append(text[start:i + 1])
            start = i + 1
    if start < len(text):
        out.append(text[start:])
    return out


def _narrowest(text: str, breaks: str) -> int:
    """The width ``text`` can wrap to without cutting a piece."""
    return max((cell_len(p.rstrip(" ")) for p in _pieces(text, breaks)), default=0)


def _fold(text: str, width: int) -> list[str]:
    """Cut ``text`` into lines of at most ``width`` cells (at least one character each)."""
    out, cur, w = [], "", 0
    for ch in text:
        cw = cell_len(ch)
        if cur and w + cw > width:
            out.append(cur)
            cur, w = "", 0
        cur += ch
        w += cw
    out.append(cur)
    return out


def _wrap(text: str, width: int, breaks: str) -> list[tuple[int, int]]:
    """Lines of ``text`` at most ``width`` cells wide, as (start, end) offsets;
    spaces at a line's ends are dropped, a piece wider than ``width`` is cut."""
    if cell_len(text) <= width:
        return [(0, len(text))]
    lines: list[tuple[int, int]] = []
    start = end = pos = 0
    for p in _pieces(text, breaks):
        nxt = pos + len(p)
        if end > start and cell_len(text[start:nxt].rstrip(" ")) > width:
            lines.append((start, end))
            start = pos
        end = nxt
        pos = nxt
    lines.append((start, end))
    out = []
    for s, e in lines:
        while s < e and text[s] == " ":
            s += 1
        while e > s and text[e - 1] == " ":
            e -= 1
        if cell_len(text[s:e]) <= width:
            out.append((s, e))
            continue
        for part in _fold(text[s:e], width):
            out.append((s, s + len(part)))
            s += len(part)
    return out or [(0, 0)]


# --- the grid ----------------------------------------------------------------

@dataclass
class _Col:
    name: str                      # column name (pivot: the pivot column's value)
    label: str                     # header text
    numeric: bool
    texts: list[str]
    spans: list[list[tuple[int, int, str]]]   # per cell: (start, end, style)
    key: bool = False
    group: str | None = None
    wrap: bool = False             # cells may wrap
    widths: list[int] = field(default_factory=list)   # of texts, in cells
    cell_nat: int = 0
    cell_min: int = 0
    head_nat: int = 0
    head_min: int = 0

    def measure(self) -> None:
        self.widths = [len(t) if t.isascii() else cell_len(t) for t in self.texts]
        self.cell_nat = max(self.widths, default=0)
        self.head_nat = cell_len(self.label)
        self.head_min = _narrowest(self.label, HEADER_BREAKS)
        self.wrap = (not self.numeric and not self.key and self.cell_nat >= WRAP_CELLS_FROM
                     and any((" " in t or "," in t) for t in self.texts))
        self.cell_min = max((_narrowest(t, CELL_BREAKS) for t in self.texts), default=0) \
            if self.wrap else self.cell_nat

    @property
    def nat(self) -> int:
        return max(self.cell_nat, self.head_nat, 1)

    @property
    def least(self) -> int:
        return max(self.cell_min, self.head_min, 1)


@dataclass
class _Grid:
    title: str | None
    cols: list[_Col] = field(default_factory=list)
    nrows: int = 0


def _overhead(n: int) -> int:
    """Characters of a table's widest line (its rule) besides the cells: two
    spaces before the first cell, three between cells, one after the last."""
    return 3 * n


def _records_grid(rs: ResultSet, hints: dict) -> tuple[list[str], list[list], list[str]]:
    hide = set(hints.get("hide", []))
    header = [c for c in rs.columns if c not in hide]
    body = [[rec.get(c) for c in header] for rec in rs.records]
    return header, body, list(header)


def _label(v) -> bool:
    """A cell that names its row: text that is not a number (or empty)."""
    if v is None or isinstance(v, bool):
        return True
    if not isinstance(v, str):
        return False
    try:
        float(v)
    except ValueError:
        return True
    return v.strip() == ""


def _key_columns(header: list[str], body: list[list], hints: dict) -> list[str]:
    """The row-label columns every block repeats: the ``keys`` hint, else the
    leading identifier columns (:data:`KEY_COLUMNS`) and after them the short
    text columns (bootstrap's ``rate``) when a column of numbers follows."""
    if "keys" in hints:
        return [c for c in hints["keys"] if c in header]
    keys = []
    for c in header:
        if c not in KEY_COLUMNS:
            break
        keys.append(c)
    more = []
    for i in range(len(keys), len(header)):
        col = [row[i] for row in body]
        if not body or not all(_label(v) for v in col) or all(v is None for v in col):
            # short text labels count only when a column of numbers follows them
            numeric = any(v is not None for v in col) and \
                all(v is None or _numeric(v) for v in col)
            return keys + more if numeric else keys
        if max(len(str(v)) for v in col if v is not None) >= WRAP_CELLS_FROM:
            return keys
        more.append(header[i])
    return keys


def _pivot_grid(rs: ResultSet, spec: dict):
    index, colkey, valkey = list(spec["index"]), spec["columns"], spec["values"]
    colvals: list = []
    seen = set()
    rows: dict[tuple, dict] = {}
    for rec in rs.records:
        c = rec.get(colkey)
        if c not in seen:
            seen.add(c)
            colvals.append(c)
        key = tuple(rec.get(i) for i in index)
        rows.setdefault(key, {})[c] = rec.get(valkey)
    header = index + [str(c) for c in colvals]
    body = [list(k) + [vals.get(c) for c in colvals] for k, vals in rows.items()]
    return header, body, index


def _build(rs: ResultSet, header, body, keys, style_names=None, digits=None,
           value_col=None) -> _Grid:
    """``digits``: ``--digits`` (None: the table's hint); ``value_col``: the
    column a pivot's value cells come from (whether they are p-values)."""
    hints = rs.table_hints or {}
    given = digits is not None
    if not given:
        digits = int(hints.get("digits", 4))
    exact = set(hints.get("exact", ()))
    labels = hints.get("labels", {})
    groups = {}
    for title, cols in hints.get("groups", []):
        for c in cols:
            groups[c] = title
    styles = hints.get("cell_styles", {})
    tokens = hints.get("token_styles", {})
    signs = hints.get("sign_styles", {})
    heat = hints.get("heatmap") or {}
    heat_cols = set(heat.get("columns", []))
    lo, hi = float(heat.get("low", 0.0)), float(heat.get("high", 1.0))
    grid = _Grid(title=_clean(str(rs.title)) if rs.title is not None else None,
                 nrows=len(body))
    for j, name in enumerate(header):
        values = [row[j] for row in body]
        src = value_col if value_col is not None and name not in keys else name
        texts = [(exact_text(v) if name in exact else None)
                 or _fmt(v, digits, src if given else None) for v in values]
        col = _Col(name=name, label=_clean(str(labels.get(name, name))),
                   numeric=any(_numeric(v) for v in values), texts=texts,
                   spans=[[] for _ in texts], key=name in keys, group=groups.get(name))
        col.group = _clean(str(col.group)) if col.group is not None else None
        for i, (v, text) in enumerate(zip(values, texts)):
            sname = style_names[i][j] if style_names is not None else name
            if sname is None:
                continue
            style = styles.get(sname, {}).get(text, "") if sname in styles else ""
            if sname in heat_cols and _numeric(v) and not (isinstance(v, float) and math.isnan(v)):
                x = 0.0 if hi == lo else (float(v) - lo) / (hi - lo)
                style = "heat:%r" % x
            if sname in signs and _numeric(v) and not (isinstance(v, float) and math.isnan(v)):
                style = signs[sname].get("positive" if v > 0 else "negative" if v < 0
                                         else "zero", style)
            if sname in tokens and isinstance(v, str) and text == v:
                spec = tokens[sname]
                sep = spec.get("sep", ",")
                pos = 0
                for tok in v.split(sep):
                    st = spec.get("styles", {}).get(tok, "")
                    if st:
                        col.spans[i].append((pos, pos + len(tok), st))
                    pos += len(tok) + len(sep)
                continue
            if style:
                col.spans[i].append((0, len(text), style))
        col.measure()
        grid.cols.append(col)
    return grid


def _fit(cols: list[_Col], width: int) -> list[int] | None:
    """Column widths that make ``cols`` fit in ``width``: first headers wrap,
    then long text cells; None when even that is too wide."""
    avail = width - _overhead(len(cols))
    nat = [c.nat for c in cols]
    if sum(nat) <= avail:
        return nat
    # 1. the longest headers wrap (at the largest cap that fits); cells keep their width
    floor = [max(c.cell_nat, c.head_min, 1) for c in cols]
    if sum(floor) <= avail:
        for cap in range(max(nat) - 1, 0, -1):
            ws = [n if c.head_nat <= cap else
                  max(c.cell_nat, _wrapped_width(c.label, max(cap, c.head_min)), 1)
                  for c, n in zip(cols, nat)]
            if sum(ws) <= avail:
                return ws
        return floor
    # 2. headers at their narrowest; long text cells wrap, the widest first
    least = [c.least for c in cols]
    if sum(least) > avail:
        return None
    for cap in range(max(floor) - 1, 0, -1):
        ws = [max(lst, min(f, cap)) if c.wrap else f for c, lst, f in zip(cols, least, floor)]
        if sum(ws) <= avail:
            return ws
    return least


def _wrapped_width(text: str, width: int) -> int:
    return max((cell_len(text[s:e]) for s, e in _wrap(text, width, HEADER_BREAKS)), default=0)


@dataclass
class _Block:
    cols: list[_Col]
    ws: list[int]
    details: list[_Col] = field(default_factory=list)   # shown under each row


def _blocks(grid: _Grid, width: int) -> list[_Block]:
    """The grid as one or more blocks of columns, each with its widths.

    A table that fits only by wrapping a long prose column (a definition)
    into a narrow column shows that column instead as an indented line
    under each row, at nearly the full width."""
    cols = grid.cols
    ws = _fit(cols, width)
    if ws is not None and not any(c.wrap and w < c.cell_nat for c, w in zip(cols, ws)):
        return [_Block(cols, ws)]
    details = [c for c in cols if c.wrap and c.cell_nat > width // 2]
    if details:
        blocks = _pack([c for c in cols if c not in details], width)
        blocks[0].details = details
        return blocks
    if ws is not None:
        return [_Block(cols, ws)]
    return _pack(cols, width)


def _pack(cols: list[_Col], width: int) -> list[_Block]:
    """``cols`` in as few blocks as fit ``width``, each repeating the key columns."""
    ws = _fit(cols, width)
    if ws is not None:
        return [_Block(cols, ws)]
    keys = [c for c in cols if c.key]
    rest = [c for c in cols if not c.key]
    if not keys and cols:
        keys, rest = cols[:1], cols[1:]
    while len(keys) > 1 and sum(c.least for c in keys) + _overhead(len(keys) + 1) > width // 2:
        rest.insert(0, keys.pop())            # keys take at most half the width
    base = sum(c.least for c in keys) + _overhead(len(keys) + 1)

    def need(c: _Col) -> int:
        # a block of keys and c fits without wrapping c's cells, if it can
        floor = max(c.cell_nat, c.head_min, 1)
        return floor if base + floor <= width else c.least

    def pack(limit: int) -> list[list[_Col]]:
        blocks: list[list[_Col]] = []
        cur: list[_Col] = []
        used = base
        for c in rest:
            if cur and used + need(c) + 3 > limit:
                blocks.append(cur)
                cur, used = [], base
            cur.append(c)
            used += need(c) + (3 if len(cur) > 1 else 0)
        if cur or not blocks:
            blocks.append(cur)
        return blocks

    def title_lines(blocks: list[list[_Col]]) -> int:
        """Lines the tallest group title needs (a title over narrow columns wraps)."""
        most = 0
        for b in blocks:
            j = 0
            while j < len(b):
                k = j
                while k + 1 < len(b) and b[k + 1].group == b[j].group:
                    k += 1
                if b[j].group is not None:
                    span = sum(need(c) for c in b[j:k + 1]) + 3 * (k - j)
                    most = max(most, len(_wrap(b[j].group, max(span, 1), " ")))
                j = k + 1
        return most

    def split_groups(blocks: list[list[_Col]]) -> tuple[int, int]:
        return title_lines(blocks), sum(
            1 for a, b in zip(blocks, blocks[1:])
            if a and b and a[-1].group is not None and a[-1].group == b[0].group)

    blocks = pack(width)
    # as many blocks, evened out, and cut between column groups where that can be
    # (a group's title over one narrow column would need many lines)
    total = sum(need(c) + 3 for c in rest)
    best = None
    for limit in range(min(width, base + total // len(blocks)), width + 1):
        even = pack(limit)
        if len(even) <= len(blocks):
            score = (*split_groups(even), limit)
            if best is None or score < best[0]:
                best = (score, even)
    if best is not None:
        blocks = best[1]
    out = []
    for b in blocks:
        bc = keys + b
        out.append(_Block(bc, _fit(bc, width) or [c.least for c in bc]))
    return out


def _choose_grid(rs: ResultSet, width: int, digits: int | None = None) -> _Grid:
    hints = rs.table_hints or {}
    spec = hints.get("pivot")
    if not spec:
        header, body, _ = _records_grid(rs, hints)
        return _build(rs, header, body, set(_key_columns(header, body, hints)), digits=digits)
    grid = _pivot_build(rs, spec, digits=digits)
    if len(_blocks(grid, width)) > 1 and spec["index"]:
        # many pivot columns (e.g. runs): they become rows
        turned = {"index": list(spec["index"][:-1]) + [spec["columns"]],
                  "columns": spec["index"][-1], "values": spec["values"]}
        grid = _pivot_build(rs, turned, styled_by=spec["columns"], digits=digits)
    return grid


def _pivot_build(rs: ResultSet, spec: dict, styled_by: str | None = None,
                 digits: int | None = None) -> _Grid:
    header, body, index = _pivot_grid(rs, spec)
    names = None
    if styled_by is not None:
        # style a turned pivot's values by the column they had before turning
        pos = index.index(styled_by)
        names = [[None] * len(index) + [str(row[pos])] * (len(row) - len(index))
                 for row in body]
    return _build(rs, header, body, set(index), names, digits=digits,
                  value_col=spec["values"])


# --- drawing -----------------------------------------------------------------

Line = list[tuple[str, str]]     # (text, style) spans


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * max(0, width - cell_len(text))
    return gap + text if right else text + gap


def _cell_lines(col: _Col, i: int, width: int) -> list[Line]:
    text, spans = col.texts[i], col.spans[i]
    ranges = _wrap(text, width, CELL_BREAKS) if col.wrap else [(0, len(text))]
    whole = spans[0][2] if len(spans) == 1 and spans[0][:2] == (0, len(text)) else None
    out = []
    for s, e in ranges:
        piece = text[s:e]
        if whole is not None:                     # one style: the whole cell, padding too
            out.append([(_pad(piece, width, col.numeric), whole)])
            continue
        segs: Line = []
        pos = s
        for a, b, st in spans:
            a, b = max(a, s), min(b, e)
            if a >= b:
                continue
            if a > pos:
                segs.append((text[pos:a], ""))
            segs.append((text[a:b], st))
            pos = b
        if pos < e:
            segs.append((text[pos:e], ""))
        gap = " " * max(0, width - cell_len(piece))
        out.append([(gap, "")] + segs if col.numeric else segs + [(gap, "")])
    return out


def _join(cells: list[Line]) -> Line:
    line: Line = [(" ", "")]
    for j, c in enumerate(cells):
        line.append((" " if j == 0 else "   ", ""))
        line.extend(c)
    return line


def _group_lines(cols: list[_Col], ws: list[int]) -> list[Line]:
    if not any(c.group for c in cols):
        return []
    spans = []                                 # (title, first column, last column)
    for j, c in enumerate(cols):
        if c.group is not None and spans and spans[-1][0] == c.group and spans[-1][2] == j - 1:
            spans[-1][2] = j
        else:
            spans.append([c.group, j, j])
    texts = []                                 # per span: its lines, and its width
    for title, a, b in spans:
        w = sum(ws[a:b + 1]) + 3 * (b - a)
        if title is None:
            texts.append(([], w))
            continue
        lines = [title[s:e] for s, e in _wrap(title, w, " ")]
        last = lines[-1]
        if cell_len(last) + 2 <= w:
            lines[-1] = last + " " + "─" * (w - cell_len(last) - 1)
        texts.append((lines, w))
    height = max(len(t) for t, _ in texts)
    out = []
    for r in range(height):
        cells = []
        for lines, w in texts:
            k = r - (height - len(lines))          # bottom-aligned, next to the header
            cells.append([(_pad(lines[k] if 0 <= k < len(lines) else "", w, False), "bold")])
        out.append(_join(cells))
    return out


DETAIL_INDENT = 6


def _draw_block(block: _Block, nrows: int, width: int) -> list[Line]:
    cols, ws = block.cols, block.ws
    lines = _group_lines(cols, ws)
    heads = [[col.label[s:e] for s, e in _wrap(col.label, w, HEADER_BREAKS)]
             for col, w in zip(cols, ws)]
    height = max(len(h) for h in heads)
    for r in range(height):
        cells = []
        for col, w, h in zip(cols, ws, heads):
            k = r - (height - len(h))
            cells.append([(_pad(h[k] if k >= 0 else "", w, col.numeric), "bold")])
        lines.append(_join(cells))
    dw = max(width - DETAIL_INDENT - 1, 10)
    for d in block.details:
        for s, e in _wrap(d.label, dw, HEADER_BREAKS):
            lines.append([(" " * DETAIL_INDENT, ""), (d.label[s:e], "bold")])
    total = sum(ws) + _overhead(len(ws))
    lines.append([(" " + "━" * (max(total, min(width, DETAIL_INDENT + max(
        (c.cell_nat for c in block.details), default=0))) - 1), "")])
    tall = any(c.wrap and c.cell_nat > w for c, w in zip(cols, ws))
    plain = not any(c.wrap for c in cols)
    for i in range(nrows):
        if plain and not any(c.spans[i] for c in cols):      # the common row, quickly
            parts = [" " * (w - c.widths[i]) + c.texts[i] if c.numeric
                     else c.texts[i] + " " * (w - c.widths[i]) for c, w in zip(cols, ws)]
            lines.append([("  " + "   ".join(parts), "")])
            per_col = None
        else:
            per_col = [_cell_lines(col, i, w) for col, w in zip(cols, ws)]
        for d in block.details if per_col is None else ():
            if d.texts[i] and d.texts[i] != "–":
                for seg in _cell_lines(d, i, dw):
                    lines.append([(" " * DETAIL_INDENT, "")] + seg)
        if per_col is None:
            continue
        height = max(len(p) for p in per_col)
        if tall and i:
            lines.append([])
        for r in range(height):
            lines.append(_join([p[r] if r < len(p) else [(" " * w, "")]
                                for p, w in zip(per_col, ws)]))
        for d in block.details:
            if d.texts[i] and d.texts[i] != "–":
                for seg in _cell_lines(d, i, dw):
                    lines.append([(" " * DETAIL_INDENT, "")] + seg)
    return lines


def _title_lines(title: str, table_width: int, width: int) -> list[Line]:
    tw = min(width, max(table_width, min(cell_len(title) + 4, 72)))
    out = []
    for s, e in _wrap(title, max(tw - 4, 10), " "):
        t = title[s:e]
        left = max(0, (tw - cell_len(t)) // 2)
        out.append([(" " * left, ""), (t, "italic")])
    return out


class _Painter:
    """Spans to text: plain, or with the styles rendered for a colour system."""

    SYSTEMS = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT,
               "truecolor": ColorSystem.TRUECOLOR}

    def __init__(self, color: bool, color_system: str):
        self.color = color
        self.color_system = color_system
        self.system = self.SYSTEMS.get(color_system, ColorSystem.STANDARD)
        self.cache: dict[str, Style | None] = {}

    def style(self, name: str) -> Style | None:
        st = self.cache.get(name, False)
        if st is False:
            spec = heat_style(float(name[5:]), self.color_system) if name.startswith("heat:") \
                else name
            p = Style.parse(spec) if spec else None
            # a fresh Style: rich caches a parsed style's codes for the first
            # colour system it was rendered with
            st = None if p is None or p._null else Style(
                color=p.color, bgcolor=p.bgcolor, bold=p.bold, dim=p.dim, italic=p.italic,
                underline=p.underline, reverse=p.reverse)
            self.cache[name] = st
        return st

    def _visible_blank(self, name: str) -> bool:
        st = self.style(name)
        return st is not None and bool(st.bgcolor or st.reverse or st.underline)

    def line(self, spans: Line) -> str:
        spans = list(spans)
        while spans:     # no trailing blanks (unless they show: a background, reverse, underline)
            text, name = spans[-1]
            if name and self.color and self._visible_blank(name):
                break
            kept = text.rstrip(" ")
            if kept:
                spans[-1] = (kept, name)
                break
            spans.pop()
        if not self.color:
            return "".join(t for t, _ in spans)
        out = []
        for text, name in spans:
            st = self.style(name) if name and text else None
            out.append(st.render(text, color_system=self.system) if st is not None else text)
        return "".join(out)


def _note_lines(notes, width: int) -> list[Line]:
    """The report's notes under the last table: ``note: TEXT``, wrapped to
    ``width`` with the continuation lines indented under the text."""
    out: list[Line] = []
    for n in notes:
        text = _clean(str(n))
        body = max(width - 2 - len("note: "), 10)
        for i, (s, e) in enumerate(_wrap(text, body, " ")):
            lead = "  note: " if i == 0 else " " * (2 + len("note: "))
            out.append([(lead, ""), (text[s:e], "italic")])
    return out


def render(sets: list[ResultSet], *, width: int | None = None, color: bool = False,
           color_system: str = "standard", notes=(), digits: int | None = None) -> str:
    """The tables of ``sets`` laid out for ``width`` columns (default 80),
    the report's ``notes`` under the last; ``digits``: ``--digits`` (None:
    each table's own)."""
    width = max(int(width or DEFAULT_WIDTH), 20)
    painter = _Painter(color, color_system)
    out: list[str] = []
    for rs in sets:
        grid = _choose_grid(rs, width, digits)
        blocks = _blocks(grid, width)
        for n, block in enumerate(blocks, 1):
            table_width = sum(block.ws) + _overhead(len(block.ws))
            lines: list[Line] = []
            if grid.title and n == 1:
                lines += _title_lines(grid.title, table_width, width)
            if len(blocks) > 1:
                lines.append([(" " * 2, ""), (f"part {n}/{len(blocks)}", "italic")])
            lines.append([])
            lines += _draw_block(block, grid.nrows, width)
            lines.append([])
            out.extend(painter.line(ln) for ln in lines)
    if notes:
        out.extend(painter.line(ln) for ln in _note_lines(notes, width) + [[]])
    return "\n".join(out) + ("\n" if out else "")
