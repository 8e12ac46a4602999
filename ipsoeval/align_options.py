"""The alignment options of a command (``--queries``, ``--rel-level``,
``--judged-only``, ``--gains``, ``-M``, ``--tie-break``, ...): declared once
here (:mod:`ipsoeval.declare`), without click, for every command that reads
qrels and runs, the fast paths and the API's ``evaluate``."""

from __future__ import annotations

from ipsoeval.declare import Group, option, options

QUERIES = ("intersection", "qrels", "strict")
TIE_BREAKS = ("trec", "docno-asc", "input", "expected")
RUN_FORMATS = ("auto", "trec", "msmarco")
LABELS = ("integer", "gain", "probability")

LABELS_HELP = ("What a qrels label is: an integer (trec_eval), a real gain >= 0, or the "
               "probability that the document is relevant (every measure is then its "
               "expected value; ipsoeval measures says which are exact).")


def _int64(value):
    """Labels are 64-bit integers: a level outside that range is a usage error."""
    if value is not None and not -(2 ** 63) <= value < 2 ** 63:
        from ipsoeval.errors import UsageError
        raise UsageError(f"Invalid value for '-l' / '--rel-level': {value} is not a 64-bit "
                         f"integer.")
    return value


def _queries_help(paired: bool) -> str:
    topics = ("the qrels topics every run has" if paired
              else "the qrels topics the run has (trec_eval's default)")
    return (f"Topic set: {topics} (intersection), every qrels topic, a missing one scored "
            f"as an empty ranking (qrels; -c, as trec_eval -c), or the same topics "
            f"everywhere (strict).")


@options
class AlignOptions:
    """How qrels and runs are read and aligned: the topic set, relevance, depth, ties, names, labels."""

    queries: str = option("--queries", kind="choice", choices=QUERIES, default="qrels",
                          usage="--queries [intersection|qrels|strict] | -c",
                          help=_queries_help(True), default_text="qrels")
    complete: bool = option("-c", "--complete", kind="flag", hidden=True, api=False,
                            help="Same as --queries qrels (trec_eval -c).")
    rel_level: int = option("-l", "--rel-level", kind="int", default=1, show_default=True,
                            check=_int64,
                            help="A document is relevant when its label is at least this.")
    judged_only: bool = option("-J", "--judged-only", kind="flag",
                               help="Remove unjudged documents before ranking (trec_eval -J).")
    depth: int | None = option("-M", "--depth", kind="int", low=1,
                               help="Keep at most this many documents per topic "
                                    "(trec_eval -M).")
    tie_break: str = option("--tie-break", kind="choice", choices=TIE_BREAKS, default="trec",
                            show_default=True,
                            help="Order of equal scores: docno descending (trec_eval), docno "
                                 "ascending, input order, or expected (every measure is its "
                                 "exact expectation over all orders of the tied documents; "
                                 "ipsoeval measures, column ties).")
    run_format: str = option("--run-format", kind="choice", choices=RUN_FORMATS,
                             default="auto", show_default=True,
                             help="Run file format; auto = msmarco when lines have 3 fields.")
    names: tuple = option("--name", kind="text", multiple=True, metavar="NAME", default=(),
                          help="Run name, once per run in order (default: the tag column).")
    name_from_file: bool = option("--name-from-file", kind="flag",
                                  help="Name runs by their file stems (bm25.run.gz: bm25) "
                                       "instead of their tags.")
    labels: str = option("--labels", kind="choice", choices=LABELS, default="integer",
                         show_default=True, help=LABELS_HELP)
    gains: str | None = option("--gains", metavar="MAP",
                               help="Gains for graded measures as LABEL:GAIN pairs, e.g. "
                                    "0:0,1:1,2:3 (default: the label, 0 for labels <= 0).")
    samples: int | None = None       # Monte Carlo draws under --labels probability
    seed: int | None = None

    def as_params(self) -> dict:
        out = {"queries": self.queries, "rel_level": self.rel_level,
               "judged_only": self.judged_only, "gains": self.gains, "depth": self.depth,
               "tie_break": self.tie_break}
        if self.labels != "integer":
            out["labels"] = self.labels
        return out

    def as_argv(self, keep: list[int] | None = None, *, gains: bool = True) -> list[str]:
        """These options as command-line arguments (for a command line that
        gives the same tables): the topic set always, the rest where not the
        default.  ``keep``: the positions of the runs the command line names
        (their ``--name`` values); ``gains``: whether that command takes
        --gains."""
        argv = ["--queries", self.queries]
        if self.rel_level != 1:
            argv += ["--rel-level", str(self.rel_level)]
        if self.judged_only:
            argv.append("--judged-only")
        if gains and self.gains is not None:
            argv += ["--gains", self.gains]
        if self.depth is not None:
            argv += ["--depth", str(self.depth)]
        if self.tie_break != "trec":
            argv += ["--tie-break", self.tie_break]
        if self.run_format != "auto":
            argv += ["--run-format", self.run_format]
        names = list(self.names)
        if names and keep is not None:
            names = [names[i] for i in keep if i < len(names)]
        for n in names:
            argv += ["--name", n]
        if self.name_from_file:
            argv.append("--name-from-file")
        if self.labels != "integer":
            argv += ["--labels", self.labels]
        return argv


def align_group(*, paired: bool = True, gains: bool = True, api: bool = False) -> Group:
    """The alignment options as a command takes them: ``paired``, the
    command compares runs topic by topic (its topic set defaults to qrels,
    else intersection); ``gains``: it takes --gains."""
    default = "qrels" if paired else "intersection"
    return Group(AlignOptions, without=() if gains else ("gains",), api=api,
                 words={"queries": {"help": _queries_help(paired), "default": None,
                                    "default_text": default}})
