"""The results table of a paper (``ipsoeval compare``'s table ``comparison``)
in the formats for people: a terminal table split to the width, Markdown,
LaTeX (booktabs) and HTML (TSV and JSON print the records as every command
does).

Rows are the runs in the order given, columns the measures (``--transpose``:
the other way round).  Each cell is the mean printed to ``digits`` decimals
(4 unless --digits says otherwise), its confidence interval with ``--ci``
and its marks as superscript letters; a mark from a test not permissible
at the measure's scale carries ``†``, one whose scale is unknown ``?``, each
explained in a footnote.  The best value of each measure (the lowest where
lower is better) is in bold -- every cell whose *printed* value equals the
best printed value, so ties in the digits shown are bold together -- and,
with ``--underline-second``, the next printed value underlined.

HTML is :mod:`.html`'s (``comparison_table``, ``comparison_page``: the
report page's styling) on this module's :class:`Grid`.

The LaTeX needs nothing but ``\\usepackage{booktabs}``: superscripts are
``$^{\\mathrm{ab}}$``, bold ``\\textbf``, underline ``\\underline``, the
caption and the footnotes inside the ``table`` environment.
"""

from __future__ import annotations

import math

from ipsoeval.ids import shown
from ipsoeval.results import Report, ResultSet

# tsv is the generic formatter's (formatters/tsv.py: the records, --digits as
# every command rounds them); html is formatters/html.py's, on this Grid
FORMATS = ("table", "markdown", "latex", "html")
DIGITS = 4           # without --digits
WIDTH = 80           # the terminal table's width when none is known
GAP = 2              # spaces between the terminal table's columns
BOLD, UNDERLINE, RESET = "\x1b[1m", "\x1b[4m", "\x1b[0m"
S_CLASS = ' class="s"'        # the page's text column (left-aligned)
PLAIN_BEST, PLAIN_SECOND = "*", "+"       # the terminal table without colour


def handles(report: Report, fmt: str, table: str | None) -> bool:
    """Whether this module renders ``report`` in ``fmt`` (compare's primary
    table in a text format; json and the other tables: the generic formatters)."""
    return (report.command == "compare" and fmt in FORMATS and "comparison" in report.ids
            and (table is None or table == "comparison" or fmt == "html"))


# -- the grid every format shares --------------------------------------------------

class Cell:
    __slots__ = ("value", "text", "ci", "marks", "flag", "bold", "second")

    def __init__(self, value, text, ci, marks, flag):
        self.value, self.text, self.ci, self.marks, self.flag = value, text, ci, marks, flag
        self.bold = self.second = False


def _num(v, digits: int) -> str:
    """A mean as every format spells it, at ``digits`` decimals (never a
    nonzero mean printed as 0)."""
    from ipsoeval.formatters.values import decimals, spell
    return spell(v, lambda x: decimals(x, digits), other=lambda x: decimals(float(x), digits))


class Grid:
    """The cells of the table, by run and measure, with bold and underline
    decided on the printed values."""

    def __init__(self, rs: ResultSet, digits: int | None):
        p = rs.params
        self.digits = DIGITS if digits is None else int(digits)
        self.runs: list[str] = list(p["runs"])
        self.measures: list[str] = list(p["measures"])
        self.letters: dict[str, str] = dict(p.get("letters") or {})
        self.marks: str = p.get("marks", "none")
        self.ci = p.get("ci") is not None
        self.transpose = bool(p.get("transpose"))
        self.underline = bool(p.get("underline_second"))
        self.caption: str = rs.title or p.get("caption") or ""
        self.footnotes: list[str] = list(p.get("footnotes") or [])
        higher = p.get("higher_is_better") or {}
        perm = p.get("permissible") or {}
        rows = {(r["run"], r["measure"]): r for r in rs.records}
        self.cells: dict[tuple[str, str], Cell] = {}
        for m in self.measures:
            flag = ""
            if self.marks != "none" and m in perm:
                flag = "†" if perm[m] is False else "?" if perm[m] is None else ""
            for r in self.runs:
                rec = rows[(r, m)]
                v = rec.get("mean")
                ci = None
                if self.ci:
                    lo, hi = rec.get("ci_low"), rec.get("ci_high")
                    if lo is not None and hi is not None:
                        ci = (_num(lo, self.digits), _num(hi, self.digits))
                marks = rec.get("marks") or ""
                self.cells[(r, m)] = Cell(v, _num(v, self.digits), ci, marks,
                                          flag if marks else "")
            self._rank(m, higher.get(m, True))

    def _rank(self, m: str, higher: bool) -> None:
        """Bold on the best printed value of measure ``m``, underline on the
        next one (``--underline-second``)."""
        cells = [self.cells[(r, m)] for r in self.runs]
        printed = sorted({float(c.text) for c in cells if c.text not in ("", "inf", "-inf")}
                         | {math.inf for c in cells if c.text == "inf"}
                         | {-math.inf for c in cells if c.text == "-inf"},
                         reverse=higher)
        if not printed:
            return
        for c in cells:
            if c.text and _as_float(c.text) == printed[0]:
                c.bold = True
            elif self.underline and len(printed) > 1 and c.text \
                    and _as_float(c.text) == printed[1]:
                c.second = True

    # rows × columns of the layout (transposed or not)
    def row_keys(self) -> list[str]:
        return self.measures if self.transpose else self.runs

    def col_keys(self) -> list[str]:
        return self.runs if self.transpose else self.measures

    def cell(self, row: str, col: str) -> Cell:
        return self.cells[(col, row)] if self.transpose else self.cells[(row, col)]

    def run_label(self, run: str) -> str:
        if self.marks in ("pairs", "baseline"):
            return f"{run} ({self.letters[run]})"
        return run

    def legend(self) -> list[str]:
        """The footnotes, the bold and underline explained where the format
        cannot show them (``plain``: the terminal table without colour)."""
        return list(self.footnotes)


def _as_float(text: str) -> float:
    return math.inf if text == "inf" else -math.inf if text == "-inf" else float(text)


def notes_of(report: Report) -> list[str]:
    return [f"Note: {n}" for n in report.notes]


# -- terminal table ----------------------------------------------------------------

def _wrap(text: str, width: int) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width=max(20, width), break_long_words=True,
                         break_on_hyphens=False) or [""]


def _plain_parts(c: Cell, color: bool) -> tuple[tuple[str, int], str, str]:
    """A cell of the terminal table in three aligned parts: the value ((text,
    printed width): ANSI bold or underline with colour, else a * or +
    after it), its interval and its marks."""
    value, suffix = c.text, ""
    if c.bold:
        value, suffix = ((BOLD + value + RESET) if color else value), ("" if color else PLAIN_BEST)
    elif c.second:
        value, suffix = ((UNDERLINE + value + RESET) if color else value), \
            ("" if color else PLAIN_SECOND)
    ci = f"[{c.ci[0]}, {c.ci[1]}]" if c.ci is not None else ""
    return (value + suffix, len(c.text) + len(suffix)), ci, f"{c.marks}{c.flag}"


def _column(parts: list) -> tuple[list[tuple[str, int]], int]:
    """The cells of one column, each part aligned: values to the right, the
    intervals and marks to the left; (cells as (text, printed width), width)."""
    vw = max((p[0][1] for p in parts), default=0)
    cw = max((len(p[1]) for p in parts), default=0)
    mw = max((len(p[2]) for p in parts), default=0)
    out = []
    width = vw + (1 + cw if cw else 0) + (1 + mw if mw else 0)
    for (text, printed), ci, marks in parts:
        cell = " " * (vw - printed) + text
        if cw:
            cell += " " + ci.ljust(cw)
        if mw:
            cell += " " + marks.ljust(mw)
        out.append((cell, width))
    return out, width


def render_table(report: Report, *, width: int | None = None, color: bool = False,
                 digits: int | None = None) -> str:
    g = Grid(report.table("comparison"), digits)
    width = width or WIDTH
    rows, cols = g.row_keys(), g.col_keys()
    label_head = "measure" if g.transpose else "run"
    labels = [shown(r) if g.transpose else shown(g.run_label(r)) for r in rows]
    heads = [shown(g.run_label(c)) if g.transpose else shown(c) for c in cols]
    lw = max([len(label_head)] + [len(x) for x in labels])
    body = {}
    cw = []
    for j, c in enumerate(cols):
        cells, w = _column([_plain_parts(g.cell(r, c), color) for r in rows])
        for r, cell in zip(rows, cells):
            body[(r, c)] = cell
        cw.append(max(w, len(heads[j])))
    # column blocks that fit the width, the row labels repeated in each
    blocks: list[list[int]] = []
    cur: list[int] = []
    used = lw
    for j in range(len(cols)):
        need = GAP + cw[j]
        if cur and used + need > width:
            blocks.append(cur)
            cur, used = [], lw
        cur.append(j)
        used += need
    if cur or not blocks:
        blocks.append(cur)
    out = _wrap(g.caption, width)
    for b in blocks:
        out.append("")
        head = label_head.ljust(lw) + "".join(" " * GAP + heads[j].rjust(cw[j]) for j in b)
        out.append(head.rstrip())
        out.append("-" * lw + "".join(" " * GAP + "-" * cw[j] for j in b))
        for i, r in enumerate(rows):
            line = labels[i].ljust(lw)
            for j in b:
                text, printed = body[(r, cols[j])]
                line += " " * GAP + " " * (cw[j] - printed) + text
            out.append(line.rstrip())
    foot = []
    if not color:
        foot.append(f"{PLAIN_BEST} best value of the measure"
                    + (f"; {PLAIN_SECOND} second best" if g.underline else "") + ".")
    foot += g.legend() + notes_of(report)
    if foot:
        out.append("")
        for f in foot:
            out += _wrap(f, width)
    return "\n".join(out) + "\n"


# -- Markdown ------------------------------------------------------------------------

def _md(text: str) -> str:
    text = shown(text)
    for ch in ("\\", "|", "*", "_", "<", ">", "`"):
        text = text.replace(ch, "\\" + ch)
    return text.replace("\n", " ")


def _md_cell(c: Cell) -> str:
    if not c.text:
        return ""
    v = f"**{c.text}**" if c.bold else f"<ins>{c.text}</ins>" if c.second else c.text
    if c.ci is not None:
        v += f" [{c.ci[0]}, {c.ci[1]}]"
    if c.marks:
        v += f"<sup>{_md(c.marks)}{c.flag}</sup>"
    return v


def render_markdown(report: Report, *, digits: int | None = None) -> str:
    g = Grid(report.table("comparison"), digits)
    rows, cols = g.row_keys(), g.col_keys()
    head = ["measure" if g.transpose else "run"] + \
        [g.run_label(c) if g.transpose else c for c in cols]
    lines = [f"**{_md(g.caption)}**", ""]
    lines.append("| " + " | ".join(_md(h) for h in head) + " |")
    lines.append("|:---|" + "|".join("---:" for _ in cols) + "|")
    for r in rows:
        label = r if g.transpose else g.run_label(r)
        lines.append("| " + " | ".join([_md(label)] + [_md_cell(g.cell(r, c)) for c in cols])
                     + " |")
    foot = g.legend() + notes_of(report)
    if foot:
        lines.append("")
        lines += [_md(f) for f in foot]
    return "\n".join(lines) + "\n"


# -- LaTeX ---------------------------------------------------------------------------

def _tex(text: str) -> str:
    from ipsoeval.formatters.latex import esc
    return esc(text).replace("--", "-{}-")       # an option's dashes, not an en dash


def _tex_cell(c: Cell) -> str:
    if not c.text:
        return ""
    v = (f"\\textbf{{{c.text}}}" if c.bold else f"\\underline{{{c.text}}}" if c.second
         else c.text)
    v = v.replace("-", "$-$") if c.text.startswith("-") else v
    if c.marks:
        flag = {"†": r"\dagger", "?": r"\mathrm{?}"}.get(c.flag, "")
        v += f"$^{{\\mathrm{{{c.marks}}}{flag}}}$"
    return v


def _tex_ci(c: Cell) -> str:
    if c.ci is None or not c.text:
        return ""
    lo, hi = (x.replace("-", "$-$") if x.startswith("-") else x for x in c.ci)
    return f"{{\\scriptsize [{lo}, {hi}]}}"


def render_latex(report: Report, *, digits: int | None = None) -> str:
    g = Grid(report.table("comparison"), digits)
    rows, cols = g.row_keys(), g.col_keys()
    head = ["Measure" if g.transpose else "Run"] + \
        [g.run_label(c) if g.transpose else c for c in cols]
    lines = [r"% ipsoeval compare (comparison)", r"% needs \usepackage{booktabs}",
             r"\begin{table}[t]", r"\centering", f"\\caption{{{_tex(g.caption)}}}",
             r"\smallskip",          # a caption above the table: no space under it
             f"\\begin{{tabular}}{{l{'r' * len(cols)}}}", r"\toprule",
             " & ".join(_tex(h) for h in head) + r" \\", r"\midrule"]
    for r in rows:
        label = r if g.transpose else g.run_label(r)
        cells = [g.cell(r, c) for c in cols]
        lines.append(" & ".join([_tex(label)] + [_tex_cell(c) for c in cells]) + r" \\")
        if any(c.ci is not None for c in cells):
            # the interval on a line of its own under the mean: beside it, a
            # table of a few measures outgrows the page
            lines.append(" & ".join([""] + [_tex_ci(c) for c in cells]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    foot = g.legend() + notes_of(report)
    if foot:
        lines.append(r"\par\smallskip\footnotesize\raggedright")
        lines.append("\n\\par ".join(_tex(f) for f in foot))
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def render(report: Report, fmt: str, *, width: int | None = None, color: bool = False,
           digits: int | None = None, table: str | None = None) -> str:
    """``report``'s table ``comparison`` in ``fmt`` (one of :data:`FORMATS` but
    html, which :func:`ipsoeval.formatters.html.comparison_page` renders in the
    report page's styling)."""
    if fmt == "table":
        return render_table(report, width=width, color=color, digits=digits)
    if fmt == "markdown":
        return render_markdown(report, digits=digits)
    if fmt == "latex":
        return render_latex(report, digits=digits)
    from ipsoeval.errors import UsageError
    raise UsageError(f"compare: unknown format {fmt!r}")
