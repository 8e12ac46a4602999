"""The SYNOPSIS section of every man page, generated from the commands'
declarations (:func:`ipsoeval.declare.man_synopsis`)::

    python -m ipsoeval.cli.manpages      # rewrites man/ipsoeval-*.1 in place

tests/project/test_docs.py fails while a page's SYNOPSIS differs from its
declaration's; the rest of a page (DESCRIPTION, OPTIONS, EXAMPLES) is written
by hand, and the test checks that OPTIONS names every spelling."""

from __future__ import annotations

import re
from pathlib import Path

MAN = Path(__file__).resolve().parent.parent.parent / "man"


def page(name: str) -> Path:
    return MAN / f"ipsoeval-{name}.1"


def synopsis_section(text: str) -> str:
    """The SYNOPSIS section's body of a man page's ``text``."""
    m = re.search(r"^\.SH SYNOPSIS\n(.*?)(?=^\.SH )", text, re.M | re.S)
    return m.group(1) if m else ""


def with_synopsis(text: str, synopsis: str) -> str:
    return re.sub(r"(^\.SH SYNOPSIS\n)(.*?)(?=^\.SH )", lambda m: m.group(1) + synopsis, text,
                  count=1, flags=re.M | re.S)


def main() -> None:
    from ipsoeval.declare import man_synopsis
    from ipsoeval.pipeline import COMMANDS, command
    for name in COMMANDS:
        try:
            decl = command(name)
        except ImportError:
            print(f"{name}: not declared; left alone")
            continue
        path = page(name)
        text = path.read_text()
        new = with_synopsis(text, man_synopsis(decl))
        if new != text:
            path.write_text(new)
            print(f"rewrote the SYNOPSIS of {path.name}")


if __name__ == "__main__":
    main()
