"""``--format parquet -o FILE``: one table (the primary, or ``--table ID``) as
a Parquet file, the table TSV would print, with typed columns (optional
extra ``ipsoeval[arrow]``, pyarrow).

A column's type follows its values: integers int64, numbers float64 (a
column mixing integers and reals: float64), booleans bool, anything else
text (the TSV spelling).  An undefined value (None, NaN: empty in TSV,
null in JSON) is a null.  Column names and order are the TSV header's.
Binary output: it goes to a file (``-o``), never to a terminal or a pipe
(:mod:`ipsoeval.cli.output` refuses it before any input is read).
"""

from __future__ import annotations

import math

from ipsoeval.errors import UsageError
from ipsoeval.formatters.values import plain, scalar
from ipsoeval.results import ResultSet


def _column(values: list):
    """(pyarrow type name, values) for one column."""
    vals = [scalar(v) for v in values]
    vals = [None if (isinstance(v, float) and math.isnan(v)) else v for v in vals]
    present = [v for v in vals if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return "bool", vals
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present) \
            and all(-(2 ** 63) <= v < 2 ** 63 for v in present):
        return "int64", vals
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in present):
        return "float64", [None if v is None else float(v) for v in vals]
    texts = [None if v is None else plain(v) for v in vals]
    try:
        for t in texts:
            if t is not None:
                t.encode("utf-8")
    except UnicodeEncodeError:
        # ids that are not UTF-8 (man ipsoeval, IDENTIFIERS): a binary column of
        # their original bytes, as Parquet runs carry them (byte-faithful)
        return "binary", [None if t is None else t.encode("utf-8", "surrogateescape")
                          for t in texts]
    return "string", texts


def need_pyarrow():
    """pyarrow, or the usage error naming the extra (exit 2)."""
    try:
        import pyarrow
    except ImportError:
        raise UsageError("--format parquet needs pyarrow: pip install 'ipsoeval[arrow]'") \
            from None
    return pyarrow


def render_bytes(rs: ResultSet) -> bytes:
    """The bytes of a Parquet file holding ``rs``."""
    pa = need_pyarrow()
    import pyarrow.parquet as pq
    types = {"bool": pa.bool_(), "int64": pa.int64(), "float64": pa.float64(),
             "string": pa.string(), "binary": pa.binary()}
    arrays = []
    for c in rs.columns:
        kind, vals = _column([rec.get(c) for rec in rs.records])
        arrays.append(pa.array(vals, type=types[kind]))
    table = pa.Table.from_arrays(arrays, names=list(rs.columns))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()
