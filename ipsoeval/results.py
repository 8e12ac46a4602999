"""Finished results: the only thing formatters ever see.

A :class:`Table` (alias :class:`ResultSet`) is one table: a stable ``id``
(the JSON key, what ``--table ID`` names), columns (stable, documented
lower_snake_case names, see ``man ipsoeval``, COLUMNS) and records whose
values are Python scalars (str, int, float, bool or None for undefined).  A
table may carry a ``view``: the same data laid out for people (a wide
pivot, the paper's layout), which only the human formats (table, latex,
markdown) show; tsv, jsonl and json always print the records.

A :class:`Report` is what one analysis returns: its named tables in output
order, the id of the primary one (what tsv and jsonl print unless ``--table``
picks another), the ids the human formats show by default, the warnings met
on the way, the notes and, for a command with a CI gate, the gate's decision.

Warnings and notes are two things (docs/conventions.md, "Warnings and
notes").  A *warning* says these inputs may make a number wrong or
surprising (ties across a cutoff, topics missing, too few human topics): the
CLI prints it on stderr once per kind and ``-W error`` makes it fatal; the
API warns it.  A *note* says what the method always implies (a measure's
scale, the permissible route, the test chosen and why): it goes with the
output -- a footer under the table layout, a footnote in latex and
markdown, the ``notes`` list of JSON -- and is never fatal; tsv, jsonl,
trec and parquet, one table each, leave it out.  The CLI
hands a Report to :func:`ipsoeval.cli.output.emit`; the Python API returns it
to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False      # typing costs ~3 ms to import; annotations only
if TYPE_CHECKING:
    from typing import Any


@dataclass
class ResultSet:
    command: str                      # subcommand name, e.g. "eval"
    columns: list[str]                # stable column names, in output order
    records: list[dict[str, Any]]     # one flat dict per row, keys = columns
    params: dict[str, Any] = field(default_factory=dict)  # echoed in JSON "params"
    title: str | None = None          # caption for people (table, latex, markdown)
    # Optional hints for people's formats only (never for tsv/json); the
    # vocabulary is ipsoeval.formatters.table's docstring (KNOWN_HINTS)
    table_hints: dict[str, Any] = field(default_factory=dict)
    id: str = ""                      # stable table id (JSON key, --table ID)
    description: str = ""             # one line for --table list and JSON (no data in it)
    view: ResultSet | None = None     # the layout people see (human formats only)
    trec: ResultSet | None = None     # eval: trec_eval's layout, with its runid lines

    def to_frame(self):
        """The table as a pandas DataFrame (pandas is an optional extra)."""
        return _frame(self.columns, self.records)

    def shown(self) -> ResultSet:
        """What the human formats render: the view, else the table itself."""
        return self.view if self.view is not None else self


Table = ResultSet


class Composed(str):
    """Text a view composed from numbers (an interval ``+0.027..+0.067``, a
    p-value with its mark ``2.8e-07*``): a str like any other, which also
    knows how to compose itself again with ``--digits`` decimals
    (``at(digits)``, what the human formats print under ``--digits``).
    ``make(digits)`` composes it: a module-level function or a
    ``functools.partial`` of one, so that a report still pickles."""

    __slots__ = ("_make",)

    def __new__(cls, text: str, make):
        self = super().__new__(cls, text)
        self._make = make
        return self

    def at(self, digits: int) -> str:
        return self._make(digits)

    def __reduce__(self):
        # copy and pickle keep the recipe (a module-level function or a
        # functools.partial of one pickles; the views make theirs so)
        return (Composed, (str(self), self._make))


@dataclass
class Gate:
    """A CI gate's decision: ``passed`` False makes the CLI exit 1.  ``cases``:
    each comparison the gate looked at, ``(name, classname, failure)`` with
    ``failure`` the line for it when it failed the gate, else None (the
    JUnit report, ``--junit FILE``)."""
    passed: bool
    reason: str = ""
    cases: list = field(default_factory=list)


# params whose text is also one of the report's notes
NOTE_PARAMS = ("test_note", "rank_note")


@dataclass
class Report:
    command: str
    tables: list[Table]
    primary: str | None = None        # id of the table tsv/jsonl print; default the first
    warnings: list[str] = field(default_factory=list)
    gate: Gate | None = None
    params: dict[str, Any] = field(default_factory=dict)
    display: list[str] | None = None  # ids the human formats show; default every table
    # what the method always implies, printed with the output (never a warning)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self):
        seen = set()
        for t in self.tables:
            if not t.id or t.id in seen:
                raise ValueError(f"{self.command}: table ids must be given and differ "
                                 f"(found {t.id!r})")
            seen.add(t.id)
            if not t.command:
                t.command = self.command
        if self.primary is None and self.tables:
            self.primary = self.tables[0].id
        # the sentences naming the test chosen and what a rank interval is
        # are notes wherever a command states them (its params)
        # (first, so a note added after construction follows them whichever
        # path built the report)
        said = [t for p in [self.params] + [t.params for t in self.tables]
                for t in (p.get(k) for k in NOTE_PARAMS) if t]
        self.notes[:0] = [t for t in dict.fromkeys(said) if t not in self.notes]

    @property
    def ids(self) -> list[str]:
        return [t.id for t in self.tables]

    def note(self, *texts: str) -> Report:
        """Add notes (each once, in order; empty ones skipped); returns self."""
        for t in texts:
            if t and t not in self.notes:
                self.notes.append(str(t))
        return self

    def table(self, id: str | None = None) -> Table:
        """The table ``id`` (default: the primary table)."""
        want = id if id is not None else self.primary
        for t in self.tables:
            if t.id == want:
                return t
        raise KeyError(f"no table {want!r} in this report (tables: {', '.join(self.ids)})")

    def shown(self) -> list[Table]:
        """The tables the human formats show by default (views where given)."""
        ids = self.display if self.display is not None else self.ids
        return [self.table(i).shown() for i in ids]

    def to_frame(self, id: str | None = None):
        """Table ``id`` (default: the primary) as a pandas DataFrame."""
        return self.table(id).to_frame()


def _frame(columns, records):
    try:
        import pandas as pd
    except ImportError:
        from ipsoeval.errors import UsageError
        raise UsageError("to_frame() needs pandas: pip install 'ipsoeval[pandas]' "
                         "(or pip install pandas)") from None
    rows = [{c: r.get(c) for c in columns} for r in records]
    try:
        return pd.DataFrame.from_records(rows, columns=columns)
    except UnicodeEncodeError:
        # ids that are not UTF-8 (surrogateescape strs, man ipsoeval IDENTIFIERS):
        # pandas' Arrow-backed strings (pandas 3 with pyarrow) cannot hold them,
        # object columns can, and keep them reversible
        cols = {c: [r[c] for r in rows] for c in columns}
        return pd.DataFrame({c: pd.Series(v, dtype=object)
                             if any(isinstance(x, str) for x in v) else pd.Series(v)
                             for c, v in cols.items()}, columns=columns)
