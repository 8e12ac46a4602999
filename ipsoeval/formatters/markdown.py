"""``--format markdown``: pipe tables for READMEs and notebooks (see :mod:`.paper`)."""

from __future__ import annotations

from ipsoeval.formatters.paper import prepare
from ipsoeval.ids import shown
from ipsoeval.results import ResultSet


def _cell(text: str) -> str:
    text = shown(text)      # bytes of ids that are not UTF-8 as \xNN (ipsoeval.ids)
    return text.replace("|", r"\|").replace("\n", " ").replace("*", r"\*")


def render_one(rs: ResultSet, notes=(), digits: int | None = None) -> str:
    p = prepare(rs, digits)
    p.notes += [f"Note: {n}" for n in notes]
    lines = [f"**{_cell(p.caption)}**", ""]
    lines.append("| " + " | ".join(_cell(h) for h in p.header) + " |")
    lines.append("|" + "|".join("---:" if n else ":---" for n in p.numeric) + "|")
    for row in p.rows:
        cells = [(f"**{_cell(c.text)}**" if c.bold else _cell(c.text)) for c in row]
        lines.append("| " + " | ".join(cells) + " |")
    if p.notes:
        lines.append("")
        lines.extend(_cell(n) for n in p.notes)
    return "\n".join(lines) + "\n"


def render(sets: list[ResultSet], notes=(), digits: int | None = None) -> str:
    """The tables; the report's ``notes`` under the last one, with its
    footnotes; ``digits``: ``--digits`` (None: each table's own)."""
    return "\n".join(render_one(rs, notes if i == len(sets) - 1 else (), digits)
                     for i, rs in enumerate(sets))
