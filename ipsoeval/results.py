"""Finished result records: the only thing formatters ever see.

Every command builds one :class:`ResultSet` (or several, printed one after the
other) and hands it to a formatter.  Columns are stable, documented
lower_snake_case names; values are Python scalars (str, int, float, bool or
None for undefined).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ResultSet:
    command: str                      # subcommand name, e.g. "eval"
    columns: list[str]                # stable column names, in output order
    records: list[dict[str, Any]]     # one flat dict per row, keys = columns
    params: dict[str, Any] = field(default_factory=dict)  # echoed in JSON "params"
    title: str | None = None          # caption for the rich table
    # Optional hints for the table formatter only (never for tsv/json):
    # {"column": {"style": "...", "digits": 4}}, "cell_styles": callable, ...
    table_hints: dict[str, Any] = field(default_factory=dict)
