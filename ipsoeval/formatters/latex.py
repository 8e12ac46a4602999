"""``--format latex``: booktabs tables for papers (see :mod:`.paper`)."""

from __future__ import annotations

from ipsoeval.formatters.paper import prepare
from ipsoeval.results import ResultSet

_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
        "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        # text-mode <, > and | print as other glyphs in LaTeX's default font encoding
        "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}
_MARKS = {"*": r"$^{*}$", "†": r"$^{\dagger}$", "‡": r"$^{\ddagger}$", "?": r"$^{?}$",
          "–": "--", "α": r"$\alpha$", "φ": r"$\phi$", "−": "--", "Δ": r"$\Delta$",
          "≥": r"$\geq$", "≤": r"$\leq$", "×": r"$\times$", "→": r"$\to$", "§": r"\S{}",
          "±": r"$\pm$", "ρ": r"$\rho$", "τ": r"$\tau$"}


def esc(text: str) -> str:
    """``text`` as LaTeX prints it: every special character escaped, the
    marks and symbols as math, and ``--`` kept two hyphens (an option such
    as ``--all-pairs`` in a note, not an en dash)."""
    out = []
    text = str(text)
    for i, ch in enumerate(text):
        if "\udc80" <= ch <= "\udcff":      # a byte of an id that is not UTF-8 (ipsoeval.ids)
            out.append(f"\\textbackslash{{}}x{ord(ch) - 0xDC00:02x}")
            continue
        if ch == "-" and text[i + 1:i + 2] == "-":
            out.append("-{}")
            continue
        if ch in "*?" and not _is_mark(text, i):
            out.append(ch)          # a run name's '*', a question's '?': plain text
            continue
        out.append(_ESC.get(ch) or _MARKS.get(ch) or ch)
    return "".join(out)


_MARK_CHARS = "*?†‡"


def _is_mark(text: str, i: int) -> bool:
    """Whether the ``*`` or ``?`` at ``i`` is a mark (after a number or
    another mark, or standing alone before a footnote's words), printed as a
    superscript, rather than part of a word ("why?", a run named ``a*b``)."""
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return ((before.isdigit() or before in _MARK_CHARS or before.isspace())
            and (after.isspace() or after in _MARK_CHARS or after in ".,;:)"))


def _stacked(text: str) -> str:
    """A cell of several lines (a value over its interval) as a tabular
    within the cell, its first line on the row's baseline, the lines
    centred on each other."""
    lines = [esc(t) for t in text.split("\n")]
    # \\ followed by '[' would read it as the optional argument of \\
    return (r"\begin{tabular}[t]{@{}c@{}}" + " \\\\{}".join(lines)
            + "\\end{tabular}")


def render_one(rs: ResultSet, notes=(), digits: int | None = None) -> str:
    p = prepare(rs, digits)
    p.notes += [f"Note: {n}" for n in notes]
    # a column of values over their intervals centred, as each cell's lines are
    stacked = [any("\n" in row[j].text for row in p.rows) for j in range(len(p.numeric))]
    align = "".join(f"p{{{w:g}\\linewidth}}" if w else "c" if st else "r" if n else "l"
                    for n, w, st in zip(p.numeric, p.wrap or [None] * len(p.numeric),
                                        stacked))
    lines = [f"% ipsoeval {rs.command}" + (f" ({rs.id})" if rs.id else ""),
             r"% needs \usepackage{booktabs}",
             r"\begin{table}[t]", r"\centering", f"\\caption{{{esc(p.caption)}}}",
             # a caption above the table: article puts no space under it
             r"\smallskip",
             f"\\begin{{tabular}}{{{align}}}", r"\toprule",
             " & ".join(esc(h) for h in p.header) + r" \\", r"\midrule"]
    for row in p.rows:
        cells = [_stacked(c.text) if "\n" in c.text else
                 (f"\\textbf{{{esc(c.text)}}}" if c.bold else esc(c.text)) for c in row]
        if cells and cells[0].startswith("["):
            # a row opening with '[' would be read as the optional argument of
            # the \\ or \midrule before it
            cells[0] = "{}" + cells[0]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if p.notes:
        lines.append(r"\par\smallskip\footnotesize")
        lines.append("\n\\par ".join(esc(n) for n in p.notes))      # a note a line
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def render(sets: list[ResultSet], notes=(), digits: int | None = None) -> str:
    """The tables; the report's ``notes`` under the last one, with its
    footnotes; ``digits``: ``--digits`` (None: each table's own)."""
    return "\n".join(render_one(rs, notes if i == len(sets) - 1 else (), digits)
                     for i, rs in enumerate(sets))
