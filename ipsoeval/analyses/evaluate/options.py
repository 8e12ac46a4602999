"""The options of ``ipsoeval eval`` beyond the alignment, the measures and
the output: trec_eval's own (-R, -Z, -n, -N, -D, -T, -v), the topic rules of
a trec_eval version, the bounds and the Monte Carlo draws of --labels
probability.  Declared once (:mod:`ipsoeval.declare`); numpy-free, for
``--help`` and the fast path."""

from __future__ import annotations

from ipsoeval.analyses import common_options as co
from ipsoeval.declare import option, options
from ipsoeval.errors import UsageError

REL_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")

# trec_eval's long options (getopt_long spellings) -> ours
TREC_LONG = {
    "--query_eval_wanted": "-q", "--complete_rel_info_wanted": "-c",
    "--level_for_rel": "-l", "--nosummary": "-n", "--Debug_level": "-D",
    "--Judged_docs_only": "-J", "--Number_docs_in_coll": "-N",
    "--Max_retrieved_per_topic": "-M", "--Rel_info_format": "-R",
    "--Results_format": "-T", "--Zscore": "-Z", "--version": "-v",
}


def trec_long(args) -> list:
    """``args`` with trec_eval's long option spellings (``--nosummary``,
    ``--level_for_rel=2``) as the short options they stand for (up to ``--``)."""
    out = []
    for i, a in enumerate(args):
        if a == "--":
            out.extend(args[i:])
            break
        name, eq, value = a.partition("=")
        if name in TREC_LONG:
            out.append(TREC_LONG[name])
            if eq:
                out.append(value)
        else:
            out.append(a)
    return out


def debug_level(text: str | None):
    """-D N or N.qid: (level, qid or None)."""
    if text is None:
        return 0, None
    level, dot, qid = text.partition(".")
    try:
        lv = int(level) if level else 0
    except ValueError:
        raise UsageError(f"Invalid value for '-D': expected N or N.qid (found {text!r})") \
            from None
    return lv, (qid if dot else None)


def check_bounds(bounds: bool, *, labels: str = "integer", tie_break: str = "trec",
                 rel_format: str = "qrels", zscores=None, only_topic=None,
                 trec_eval_version=None) -> None:
    """--bounds range over the integer labellings of one ranking, under
    trec_eval's own qrels and topic rules: what else it does not combine with
    (the command line's and the API's words)."""
    if not bounds:
        return
    for given, what in ((rel_format != "qrels", f"-R {rel_format}"),
                        (zscores, "-Z"), (only_topic is not None, "-D N.QID"),
                        (trec_eval_version == "9", "--trec-eval-version 9"),
                        (labels != "integer", f"--labels {labels}"),
                        (tie_break == "expected", "--tie-break expected")):
        if given:
            raise UsageError(f"--bounds does not combine with {what}")


@options
class EvalOptions:
    """eval's own options."""

    rel_format: str = option(
        "-R", "--rel-format", kind="choice", choices=REL_FORMATS, default="qrels",
        show_default=True, api=False,
        help="Format of QRELS (trec_eval -R): qrels, prefs (qid jg jsg docno level), "
             "qrels_prefs (qrels read as preferences) or qrels_jg (2nd column = judgment "
             "group).")
    zscores_file: str | None = option(
        "-Z", "--zscores", metavar="FILE", api=False,
        help="Print z scores (value - mean) / stddev with the 'qid measure mean stddev' "
             "lines of FILE (trec_eval -Z).")
    no_summary: bool = option("-n", "--no-summary", kind="flag", api=False,
                              help="Print no 'all' lines (trec_eval -n).")
    num_docs_in_coll: int | None = option(
        "-N", "--num-docs-in-coll", kind="int", low=0, api=False,
        help="Number of documents in the collection (trec_eval -N; used by utility's 4th "
             "coefficient).")
    debug_level: str | None = option(
        "-D", "--debug-level", metavar="N[.QID]", api=False,
        help="trec_eval -D: with .QID only that topic is evaluated; the level itself is "
             "accepted and ignored.")
    results_format: str | None = option(
        "-T", "--results-format", kind="choice", choices=("trec_results",), api=False,
        help="Run format (trec_eval -T): trec_results, the one trec_eval knows (the "
             "six-field TREC format; same as --run-format trec).")
    trec_eval_version: str | None = option(
        "--trec-eval-version", kind="choice", choices=("9", "10"), api=False,
        help="Topic rules of trec_eval 9.0.8 or 10.0 where they differ (default: ipsoeval's "
             "topic set).")
    bounds: bool = option(
        "--bounds", kind="flag",
        help="Add low and high: each value when the unjudged retrieved documents are "
             "labelled the worst and the best way (every label from 0 to the highest judged "
             "one); trec layout: NAME_low and NAME_high lines.")
    # the API draws as many labelings as the engine's default unless told
    samples: int | None = co.samples(
        1000, "Monte Carlo labelings per measure without an exact expectation under --labels "
              "probability.", api_default=None)
    seed: int | None = co.seed(api_default=None)
    print_version: bool = option("-v", kind="flag", eager=True, api=False,
                                 help="Print the version on stderr and exit (trec_eval -v).")
