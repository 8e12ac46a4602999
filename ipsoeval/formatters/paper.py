"""Paper-ready tables (``--format latex`` / ``markdown``): what both share.

From a finished table (columns, records, params, title) this builds the rows
a paper shows: scores of ``eval`` and ``interval-map`` pivoted to runs ×
measures, numbers rounded (p-values to 3 significant digits, other floats to
the table's digits), the best value per column in bold (per measure for long
tables: the highest mean, the lowest for measures where lower is better),
and footnotes explaining every mark that occurs (``*`` significant, with the
correction named; ``†`` not permissible for the measure's scale; ``‡`` the
IPSO sign test agrees; ``?`` scale unknown).

``--digits N`` (``prepare(..., digits=N)``) sets the rounding: N decimals,
p-values N significant digits (:func:`ipsoeval.formatters.values.rounded`).

A table may give its paper layout in the ``paper`` hint, read here only (the
terminal table keeps every column)::

    {"columns": [col or joined label, ...],      # the columns shown, in order
     "labels": {col: header text},               # headers of the paper view
     "join": {label: [low_col, high_col, "interval" | "range"]},
     "digits": N,                                # decimals (default: the table's)
     "caption": text,                            # default: the table's title
     "wrap": {col: share}}                       # latex: a paragraph column

A joined column prints two columns as one cell: ``[low, high]``
(``interval``) or ``low–high`` (``range``; one value when they are equal);
or three, ``[value_col, low_col, high_col, "estimate"]``: the value with its
interval under it (latex stacks the two lines in the cell, markdown puts
them side by side), which keeps a table of several coefficients with their
intervals within the page.
Columns left out (a shell command, a long explanation) are for tsv and json.
``digits`` rounds the paper view unless ``--digits`` is given (qpp's three
correlations with their intervals fit a page at 2 decimals; the terminal
keeps 4).  A ``wrap`` column
(a sentence) is set in latex as a paragraph ``share`` of the line wide, so
that the table fits the page; markdown ignores it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ipsoeval.formatters.values import is_p as _is_p
from ipsoeval.formatters.values import rounded
from ipsoeval.results import Composed, ResultSet

MARKS = ("*", "†", "‡", "?")


@dataclass
class Cell:
    text: str
    numeric: bool = False
    bold: bool = False


@dataclass
class Paper:
    header: list[str]
    rows: list[list[Cell]]
    caption: str
    notes: list[str] = field(default_factory=list)
    numeric: list[bool] = field(default_factory=list)
    wrap: list[float | None] = field(default_factory=list)   # latex: paragraph widths


def _lower_is_better(measure: str) -> bool:
    try:
        from ipsoeval.measures import parse_measure
        return not parse_measure(measure).higher_is_better
    except Exception:             # not a measure name ipsoeval knows: higher is better
        return False


def fmt_value(v, col: str, digits: int, exact: bool = False,
              given: bool = False) -> tuple[str, bool]:
    """(text, numeric) of one value; ``exact``: a column the table hints
    declare exact (a parameter or degrees of freedom: 1, not 1.0000);
    ``given``: ``digits`` is ``--digits`` (the rounding every format shares)."""
    if exact and isinstance(v, float) and not isinstance(v, bool) and math.isfinite(v):
        return (str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)), True
    if v is None:
        return "–", False
    if isinstance(v, bool):
        return ("yes" if v else "no"), False
    if isinstance(v, int):
        return str(v), True
    if isinstance(v, float):
        if math.isnan(v):
            return "–", False
        if given:
            text = rounded(v, col, digits)
            return (text, True) if text is not None else (str(v), True)
        if _is_p(col):
            return (f"{v:.3g}" if v >= 1e-4 or v == 0 else f"{v:.1e}"), True
        return f"{v:.{digits}f}", True
    if given and isinstance(v, Composed):       # an interval, a p-value with its mark
        return v.at(digits), False
    return str(v), False


def _pivot(rs: ResultSet):
    """eval / interval-map means: rows runs, columns measures (value columns)."""
    cols = rs.columns
    if rs.command not in ("eval", "interval-map") or not {"run", "measure", "value"} <= set(cols):
        return None
    recs = rs.records
    if "qid" in cols and any(r.get("qid") != "all" for r in recs):
        return None
    vcols = ["value"] + [c for c in ("interval_value", "low", "high") if c in cols]
    suffix = {"interval_value": "interval", "low": "low", "high": "high"}   # eval --bounds
    runs, measures, cells = [], [], {}
    for r in recs:
        if r["run"] not in runs:
            runs.append(r["run"])
        for vc in vcols:
            key = r["measure"] if vc == "value" else f"{r['measure']} ({suffix[vc]})"
            if key not in measures:
                measures.append(key)
            cells[(r["run"], key)] = r.get(vc)
    return runs, measures, cells


def _joined(r: dict, spec, digits: int, given: bool) -> tuple[str, bool]:
    """The one cell of two columns (the ``paper`` hint's ``join``), or of
    a value and its interval (two lines)."""
    if len(spec) == 4:                  # [value_col, low_col, high_col, "estimate"]
        v_col, lo_col, hi_col, _ = spec
        v, vn = fmt_value(r.get(v_col), v_col, digits, given=given)
        if not vn:
            return "–", False
        ci, _ = _joined(r, [lo_col, hi_col, "interval"], digits, given)
        return (v if ci == "–" else f"{v}\n{ci}"), True
    lo_col, hi_col, style = spec
    lo, hi = r.get(lo_col), r.get(hi_col)
    (a, an), (b, bn) = (fmt_value(lo, lo_col, digits, given=given),
                        fmt_value(hi, hi_col, digits, given=given))
    if not (an and bn):
        return "–", False
    if style == "range":
        return (a if a == b else f"{a}–{b}"), False
    return f"[{a}, {b}]", False


def prepare(rs: ResultSet, digits: int | None = None) -> Paper:
    """The paper's rows of ``rs``; ``digits``: ``--digits`` (None: the
    table's own, 4 decimals unless its hints say otherwise)."""
    given = digits is not None
    hints = rs.table_hints if isinstance(rs.table_hints, dict) else {}
    if not given:
        digits = int((hints.get("paper") or {}).get("digits", hints.get("digits", 4)))
    caption = (hints.get("paper") or {}).get("caption") or rs.title \
        or f"ipsoeval {rs.command}"
    piv = _pivot(rs)
    if piv is not None:
        runs, measures, cells = piv
        header = ["run", *measures]
        rows = []
        for run in runs:
            row = [Cell(str(run))]
            for m in measures:
                t, num = fmt_value(cells.get((run, m)), "value", digits, given=given)
                row.append(Cell(t, num))
            rows.append(row)
        for j, m in enumerate(measures, 1):
            vals = [cells.get((run, m)) for run in runs]
            _bold_best(rows, j, vals, lower=_lower_is_better(m.split(" (")[0]))
        numeric = [False] + [True] * len(measures)
    else:
        labels = rs.table_hints.get("labels", {}) if isinstance(rs.table_hints, dict) else {}
        hide = set(rs.table_hints.get("hide", ())) if isinstance(rs.table_hints, dict) else set()
        exact = set(rs.table_hints.get("exact", ())) if isinstance(rs.table_hints, dict) \
            else set()
        paper = rs.table_hints.get("paper") if isinstance(rs.table_hints, dict) else None
        join = dict((paper or {}).get("join", {}))
        if paper:
            cols = [c for c in paper["columns"] if c in rs.columns or c in join]
            labels = {**labels, **paper.get("labels", {})}
        else:
            cols = [c for c in rs.columns if c not in hide]
        header = [labels.get(c, c) for c in cols]
        if len(set(header)) < len(header):      # labels that need their table groups
            header = list(cols)
        rows = []
        for r in rs.records:
            row = []
            for c in cols:
                if c in join:
                    t, num = _joined(r, join[c], digits, given)
                else:
                    t, num = fmt_value(r.get(c), c, digits, c in exact, given)
                row.append(Cell(t, num))
            rows.append(row)
        numeric = [bool(rows) and all(row[j].numeric or row[j].text == "–" for row in rows)
                   and any(row[j].numeric for row in rows) for j in range(len(cols))]
        if "measure" in cols or (paper and "measure" in rs.columns):
            for best_col in ("mean",):
                if best_col in cols:
                    j = cols.index(best_col)
                    groups: dict = {}
                    for i, r in enumerate(rs.records):
                        groups.setdefault((r.get("measure"), r.get("scale")), []).append(i)
                    for (m, _), idx in groups.items():
                        sub = [rows[i] for i in idx]
                        _bold_best(sub, j, [rs.records[i].get(best_col) for i in idx],
                                   lower=_lower_is_better(str(m)))
    notes = footnotes(rs, rows, pivot=piv is not None, cols=None if piv is not None else cols)
    wraps = (hints.get("paper") or {}).get("wrap", {}) if piv is None else {}
    wrap = [wraps.get(c) for c in cols] if piv is None else [None] * len(header)
    return Paper(header, rows, caption, notes, numeric, wrap)


def _bold_best(rows, j, vals, lower: bool) -> None:
    nums = [v for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)
            and not (isinstance(v, float) and math.isnan(v))]
    if len(nums) < 2:
        return
    best = min(nums) if lower else max(nums)
    for row, v in zip(rows, vals):
        if v == best:
            row[j].bold = True


def footnotes(rs: ResultSet, rows, pivot: bool = False, cols=None) -> list[str]:
    """The footnotes of the marks and columns shown (``cols``: the columns
    of the rows; default the table's)."""
    cols = rs.columns if cols is None else cols
    p = rs.params or {}
    seen = {m for row in rows for c in row for m in MARKS if m in c.text and not c.numeric}
    notes = []
    corr = p.get("correction", p.get("correct"))
    alpha = p.get("alpha")
    if "*" in seen or "significant" in cols:
        txt = "* significant" if "*" in seen else "significant"
        if alpha is not None:
            txt += f" at alpha = {alpha}"
        if corr and corr != "none":
            name = {"holm": "Holm", "bonferroni": "Bonferroni",
                    "bh": "Benjamini-Hochberg"}.get(corr, corr)
            txt += f", p-values {name}-corrected for multiple comparisons"
        elif corr == "none":
            txt += ", p-values not corrected for multiple comparisons"
        notes.append(txt + ".")
    if "†" in seen and "‡" in seen:
        notes.append("† the metric's test is significant; ‡ the IPSO sign test also is, "
                     "favouring the same run (Moffat and Mackenzie 2024, §3.6).")
    elif "†" in seen:
        notes.append("† the test is not permissible for the measure's scale "
                     "(Ferrante et al. 2021).")
    if "?" in seen:
        notes.append("? the measure's scale is unknown: permissibility not judged.")
    if "permissible" in cols:
        notes.append("permissible: whether the test's scale requirement is met by the "
                     "measure's scale (Ferrante et al. 2021); – unknown.")
    if any(c.bold for row in rows for c in row):
        notes.append("Bold: the best value per column" +
                     (" and measure." if "measure" in cols and not pivot else "."))
    return notes
