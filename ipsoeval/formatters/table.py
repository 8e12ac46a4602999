"""Rich tables for people (not a stable format).  The only module importing rich.

Hints a ResultSet may give in ``table_hints`` (all optional):

- ``digits``: decimals for floats (default 4).
- ``pivot``: {"index": [cols], "columns": col, "values": col} — show a wide
  table (e.g. measures × runs) instead of the long records.
- ``cell_styles``: {column: {cell text: rich style}} — colour cells by value
  (ipso's relations: ``==``, ``ni``, ``ns``, ``**``).
- ``heatmap``: {"columns": [cols], "low": 0.0, "high": 1.0} — shade numeric
  cells of those columns by value (bootstrap rank probabilities).
- ``groups``: [[group title, [cols]], …] — grouped column headers.
- ``hide``: [cols] — columns left out of the table.
- ``labels``: {column: short header} — header text shown instead of the name.
- ``token_styles``: {column: {"sep": ",", "styles": {token: style}}} — colour
  each token of a cell (ipso trajectories).
- ``sign_styles``: {column: {"positive": style, "negative": style, "zero": style}}
  — colour numeric cells by sign.
"""

from __future__ import annotations

import io
import math

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ipsoeval.results import ResultSet

_HEAT = ["grey23", "grey35", "dark_blue", "blue3", "dodger_blue2", "deep_sky_blue1",
         "cyan1", "yellow1", "orange1", "red1"]


def _fmt(v, digits: int) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        if v != 0 and (abs(v) < 10 ** -digits or abs(v) >= 1e9):
            return f"{v:.{digits}g}" if abs(v) >= 1e9 else f"{v:.2e}"
        return f"{v:.{digits}f}"
    return str(v)


def _pivot(rs: ResultSet, spec: dict) -> tuple[list[str], list[list]]:
    index, colkey, valkey = spec["index"], spec["columns"], spec["values"]
    colvals: list = []
    rows: dict[tuple, dict] = {}
    for rec in rs.records:
        c = rec.get(colkey)
        if c not in colvals:
            colvals.append(c)
        key = tuple(rec.get(i) for i in index)
        rows.setdefault(key, {})[c] = rec.get(valkey)
    header = list(index) + [str(c) for c in colvals]
    body = [list(k) + [vals.get(c) for c in colvals] for k, vals in rows.items()]
    return header, body


# rich needs about a millisecond per row: a longer table (interval-map --values
# lists tens of thousands) is laid out as plain aligned text, without colours
PLAIN_ROWS = 2000


def _header_body(rs: ResultSet):
    hints = rs.table_hints or {}
    if "pivot" in hints:
        return _pivot(rs, hints["pivot"])
    hide = set(hints.get("hide", []))
    header = [c for c in rs.columns if c not in hide]
    return header, [[rec.get(c) for c in header] for rec in rs.records]


def _plain(rs: ResultSet, header, body) -> str:
    hints = rs.table_hints or {}
    digits = int(hints.get("digits", 4))
    labels = hints.get("labels", {})
    names = [str(labels.get(c, c)) for c in header]
    cells = [[_fmt(v, digits) for v in row] for row in body]
    numeric = [any(isinstance(r[j], (int, float)) and not isinstance(r[j], bool)
                   for r in body[:50]) for j in range(len(header))]
    width = [max([len(n)] + [len(r[j]) for r in cells]) for j, n in enumerate(names)]

    def line(row):
        return "  " + "   ".join(t.rjust(w) if num else t.ljust(w)
                                  for t, w, num in zip(row, width, numeric)).rstrip()
    out = [f"  {rs.title}"] if rs.title else []
    out += [line(names), "  " + "-" * (sum(width) + 3 * (len(width) - 1))]
    out += [line(r) for r in cells]
    return "\n".join(out) + "\n\n"


def _table(rs: ResultSet, header=None, body=None) -> Table:
    hints = rs.table_hints or {}
    digits = int(hints.get("digits", 4))
    if header is None:
        header, body = _header_body(rs)
    labels = hints.get("labels", {})
    groups = {}
    for title, cols in hints.get("groups", []):
        for c in cols:
            groups[c] = title
    # every string shown is data, never rich markup: titles, headers and cells
    # are Text objects (a run named "bm25[run.txt]" or "[/tmp/x]" prints as is)
    title = Text(str(rs.title)) if rs.title is not None else None
    table = Table(title=title, box=box.SIMPLE_HEAVY, header_style="bold")
    for j, c in enumerate(header):
        name = str(labels.get(c, c))
        label = Text(f"{groups[c]}\n{name}" if c in groups else name)
        numeric = any(isinstance(r[j], (int, float)) and
                      not isinstance(r[j], bool) for r in body[:50])
        widest = max([len(_fmt(r[j], digits)) for r in body[:500]] + [1])
        table.add_column(label, justify="right" if numeric else "left", no_wrap=True,
                         min_width=min(widest, 60))
    styles = hints.get("cell_styles", {})
    tokens = hints.get("token_styles", {})
    signs = hints.get("sign_styles", {})
    heat = hints.get("heatmap") or {}
    heat_cols = set(heat.get("columns", []))
    lo, hi = float(heat.get("low", 0.0)), float(heat.get("high", 1.0))
    for row in body:
        cells = []
        for c, v in zip(header, row):
            text = _fmt(v, digits)
            style = styles.get(c, {}).get(text)
            if c in heat_cols and isinstance(v, (int, float)) and not (
                    isinstance(v, float) and math.isnan(v)):
                x = 0.0 if hi == lo else min(max((float(v) - lo) / (hi - lo), 0.0), 1.0)
                style = f"black on {_HEAT[min(int(x * len(_HEAT)), len(_HEAT) - 1)]}" \
                    if x > 0 else "grey50"
            if c in signs and isinstance(v, (int, float)) and not isinstance(v, bool) \
                    and not (isinstance(v, float) and math.isnan(v)):
                key = "positive" if v > 0 else "negative" if v < 0 else "zero"
                style = signs[c].get(key, style)
            if c in tokens and isinstance(v, str):
                spec = tokens[c]
                sep = spec.get("sep", ",")
                cell = Text()
                for i, tok in enumerate(v.split(sep)):
                    if i:
                        cell.append(sep)
                    cell.append(tok, style=spec.get("styles", {}).get(tok, ""))
                cells.append(cell)
                continue
            cells.append(Text(text, style=style or ""))
        table.add_row(*cells)
    return table


def render(sets: list[ResultSet], *, width: int | None = None, color: bool = False) -> str:
    buf = io.StringIO()
    width = width or 120
    for rs in sets:
        header, body = _header_body(rs)
        if len(body) > PLAIN_ROWS:
            buf.write(_plain(rs, header, body))
            continue
        table = _table(rs, header, body)
        # never squeeze columns out of sight: a table wider than the terminal
        # is printed at its natural width (the terminal wraps long lines)
        probe = Console(width=1000, file=io.StringIO())
        natural = Measurement.get(probe, probe.options, table).maximum
        console = Console(file=buf, width=max(width, min(natural, 1000)), force_terminal=color,
                          color_system="standard" if color else None, highlight=False)
        console.print(table)
    return buf.getvalue()
