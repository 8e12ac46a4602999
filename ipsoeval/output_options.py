"""Where a command's results go (``--format``, ``-o``, ``--table``, ``-W``,
``--junit``): declared once (:mod:`ipsoeval.declare`) for the command line, its
fast paths and ``--help``; the Python API returns a Report instead."""

from __future__ import annotations

from ipsoeval.declare import Group, option, options
from ipsoeval.tiewarn_text import WARNING_MODES

FORMATS = ("auto", "trec", "tsv", "json", "table",
           "jsonl", "latex", "markdown",    # paper-ready tables and JSON lines
           "parquet")                       # binary: -o FILE only
BINARY_FORMATS = ("parquet",)


@options
class Output:
    """Where the report goes and in which format."""

    fmt: str = option("--format", kind="choice", choices=FORMATS, default="auto",
                      show_default=True, api=False,
                      help="Output format; auto = table on a terminal, else tsv; parquet "
                           "needs -o FILE.")
    output: str | None = option("-o", "--output", metavar="FILE", api=False,
                                help="Write to this file (only when everything succeeded) "
                                     "instead of standard output ('-': standard output).")
    table: str | None = option("--table", metavar="ID", api=False,
                               help="Print table ID of the report instead of its primary "
                                    "table (tsv, jsonl, json, table); 'list' lists the ids.")
    digits: int | None = option(
        "--digits", kind="int", metavar="N", low=0, high=17, api=False,
        help="Digits after the decimal point in table, tsv, markdown and latex output "
             "(p-values: N significant digits; a nonzero value never prints as 0).  "
             "Default: each format's own.  Not with trec (trec_eval's %.4f) or json, jsonl, "
             "parquet (full precision): a usage error.")
    warnings_mode: str | None = option(
        "-W", "--warnings", kind="choice", choices=WARNING_MODES, api=False,
        help="Warnings: default, one line per kind (runs merged); all, one per run; error, "
             "the first is an error (exit 3, nothing written); ignore. Default: "
             "$IPSOEVAL_WARNINGS, else default.")


# the formats --digits sets (html: a command's own page format, where it has
# one); the others print what they always print: trec trec_eval's %.4f,
# json, jsonl and parquet full precision
DIGITS_FORMATS = ("table", "tsv", "latex", "markdown", "html")


def output_group(pipe_default: str = "tsv", *, digits: bool = True) -> Group:
    """The output options of a command whose output in a pipe is
    ``pipe_default`` (trec, trec_eval's layout, is eval's alone); ``digits``
    False: a command that prints no numbers to round takes no --digits."""
    choices = tuple(f for f in FORMATS if f != "trec" or pipe_default == "trec")
    return Group(Output, without=() if digits else ("digits",), words={"fmt": {
        "choices": choices,
        "help": f"Output format; auto = table on a terminal, else {pipe_default}; parquet "
                f"needs -o FILE."}})


@options
class Junit:
    """The gate's JUnit report."""

    junit: str | None = option(
        "--junit", metavar="FILE", api=False,
        help="With --fail-if, also write the gate as JUnit XML to FILE: one test case per "
             "gated comparison, a failure carrying the gate's line (for CI test reports).")
