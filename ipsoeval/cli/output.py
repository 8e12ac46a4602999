"""Where results go: ``--format``, ``-o FILE``, standard output and warnings.

:func:`emit` renders a finished :class:`~ipsoeval.results.Report` in the
chosen format (one table for tsv/jsonl, ``--table ID`` or ``--table list``),
writes it and applies the report's gate;
:func:`warn` collects a warning; :func:`flush_warnings` prints those
collected, one line per kind (:mod:`ipsoeval.warntext`), when the output is
about to be written -- or, under ``--warnings error``, refuses with the first
(exit 3, nothing written).  A command that fails prints its error alone.
A report's notes (``Report.notes``: a scale, the test chosen) are no
warnings: the formatters render them with the output, and nothing here
holds them back or makes them fatal (docs/conventions.md, "Warnings and
notes").  :func:`note` is a third thing: a line about the run itself.
"""

from __future__ import annotations

import os
import stat
import sys

import click

from ipsoeval.cli.environment import get_env
from ipsoeval.cli.progress import clear_bars
from ipsoeval.errors import GateFailed, InputError, UsageError
from ipsoeval.formatters import (
    BINARY_FORMATS,
    as_report,
    render,
    render_bytes,
    resolve,
    table_list,
)
from ipsoeval.stdio import quiet_stdout, warn_lines
from ipsoeval.writing import _output_error, mkstemp, write_output

__all__ = ["concrete_format", "emit", "warn", "note",
           "flush_warnings", "check_output", "write_output", "write_stdout", "quiet_stdout"]


TABLE_KEY = "ipsoeval.table"

# Every table a command's report can hold, with its description (the one the
# report's ResultSet carries) and, when it is there only with some options or
# data, when.  ``--table list`` answers from here without reading any input or
# running the analysis; --table ID is checked against it when parsed.
# tests/golden/test_output_contract.py checks the reports against this list.
TABLES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "eval": (("scores", "one row per run, topic (qid all: the aggregate) and measure", ""),),
    "measures": (
        ("measures", "every measure family: canonical name, an example, scale, parameters, "
                     "trec_eval names and definition", "without --dataset"),
        ("relevance_levels", "the ir_datasets data set's documentation of its relevance "
                             "labels, highest first", "with --dataset")),
    "breakdown": (
        ("summary", "per pair of runs: outcome shares, the tests of outcomes 2 and 3, and "
                    "the verdict", ""),
        ("topics", "per pair of runs and topic: the outcome (1, 2A, 2B, 3) and each run's "
                   "first relevant rank", "")),
    "ipso": (
        ("depths", "per depth: SERP pairs of all run pairs and topics that are equal, "
                   "separable, non-separable (Table 3)", "with --all-pairs"),
        ("agreement", "per measure and test: run pairs where the metric test and the IPSO "
                      "sign test agree or not (Figure 7)", "with --all-pairs and -m"),
        ("pairs", "per pair of runs (and depth): the five IPSO groups and the sign test of "
                  "|ns| against |ni|; with -m the metric tests", ""),
        ("topics", "per pair of runs and topic: SERPs, IPSO relation, trajectory and score "
                   "differences B - A (Figure 5)", "with -q"),
        ("enumerate", "per k: equal, separable and non-separable among all binary SERP "
                      "pairs of length k, exactly (Table 2)", "with --enumerate"),
        ("sign_test", "per pair of runs and measure, topics where each run scores better "
                      "and the exact sign test", "with --scores")),
    "interval-map": (
        ("scores", "per run and measure (-q: and topic; qid all = mean): the value, its "
                   "interval-mapped value and the size of the value set", ""),
        ("values", "per measure: each value of the value set with its phi, the universe "
                   "runs reaching it and the runs observed at it", "with --values"),
        ("value_quantiles", "per measure: the value reached at fractions 0, 1/20, ..., 1 of "
                            "the universe runs sorted by value", "with --values"),
        ("tau", "per measure: Kendall's tau between the run rankings by M and by phi(M), "
                "overall and per topic (Table 2)", "with --analyze"),
        ("tau_measures", "per pair of measures: Kendall's tau of their run rankings, "
                         "original and mapped (Table 4)", "with --analyze and two or more -m"),
        ("flips", "per measure and test: significant run pairs on the original and the "
                  "mapped values, and the decisions that flip (Tables 5-6)",
         "with --analyze and two or more runs")),
    "sigtest": (
        ("tests", "one row per pair of runs, measure and test (omnibus tests: run_a = run_b "
                  "= *; without --test one test per pair and measure, why it was chosen in "
                  "why)", ""),
        ("flips", "per measure and test, significant pairs on the original and the "
                  "interval-mapped values and the decisions that flip", "with --scale both")),
    "bootstrap": (
        ("leaderboard", "per run and measure: mean, leaderboard and expected rank, "
                        "percentile bootstrap interval of the rank (rank_ci_low.."
                        "rank_ci_high), share of trials at rank 1, CI of the mean", ""),
        ("rank_probabilities", "per run, measure and rank (up to --top): the share of "
                               "trials with the run at that rank", ""),
        ("split_half", "per measure, test and aggregate: split-half agreement rates (%) of "
                       "significance decisions", "with --split-half")),
    "ppi": (
        ("estimates", "per run, measure and method (human, auto, ppi++/ppi): the estimated "
                      "mean over topics, its standard error and confidence interval", ""),
        ("differences", "per pair of runs, measure and method: the estimated mean difference "
                        "B - A, its confidence interval and p-value", "with two or more runs"),
        ("selection", "per run and measure: the auto-label mean on the human-judged topics "
                      "and on the rest, their difference and Welch's t-test p-value", "")),
    "agree": (
        ("agreement", "chance-corrected agreement of the labels both qrels give (one row per "
                      "statistic)", ""),
        ("confusion", "count of shared judgments per (label under A, label under B); every "
                      "label each qrels uses, zero counts included", ""),
        ("rankings", "per measure: rank correlations of the run means under A and B, and "
                     "the pairs whose significance appears, disappears or flips",
         "with runs"),
        ("means", "per run and measure: the mean under each qrels and the rank (1 = best)",
         "with runs"),
        ("changes", "each pair of runs significant under one qrels only (appears: B only; "
                    "disappears: A only) or under both in opposite directions (flips)",
         "with runs")),
    "leaderboard": (
        ("leaderboard", "per run and measure, best first: mean, CI, rank, the ranks "
                        "consistent with the HSD groups (rank_best..rank_worst), "
                        "letters, whether in the top group", ""),
        ("pairs", "per pair of runs and measure: the randomised Tukey HSD p-value and "
                  "Tukey HSD's q and p-value", ""),
        ("resolution", "per measure: pairs separated by each test and their share, the best "
                       "run and the size of its group, letters used", "")),
    "compare": (
        ("comparison", "one row per run and measure (the table's cells, row by row): the "
                       "mean over topics, the marks as printed and the runs they name", ""),
        ("tests", "per pair of runs and measure marked: the test, its p-value, the corrected "
                  "p-value deciding the mark and the better run", "")),
    "power": (
        ("power", "per measure, delta and design: topics needed, power now, minimal "
                  "detectable difference now", ""),
        ("curve", "power of the t and anova designs at up to 60 numbers of topics from 2 to "
                  "1.5 times the larger of the current and the needed number (at most 10 "
                  "times the current, 100,000)", "")),
    "meta": (
        ("summary", "per measure and test: share of run pairs significant, rank by it, swap "
                    "rate and the difference with few swaps", ""),
        ("asl", "per measure and test, the p-value of every run pair, ascending", ""),
        ("swap", "per measure and bin of |difference| on one half, the share of comparisons "
                 "the other half orders the other way", ""),
        ("correlation", "per pair of measures: Kendall's tau_b and tau_ap both ways and "
                        "their mean", "")),
    "nuggets": (
        ("scores", "one row per run, topic (qid all: the mean over topics) and nugget score",
         ""),),
    "risk": (
        ("urisk", "per run, measure and risk alpha: URisk, TRisk and its p-value against "
                  "the baseline", ""),
        ("zrisk", "per run, measure and risk alpha: ZRisk and GeoRisk over all the runs", "")),
    "qpp": (
        ("correlations", "per measure and predictor: Pearson's r, Spearman's rho, Kendall's "
                         "tau-b with p-values and intervals, and sMARE", ""),
        ("topics", "per measure, predictor and topic: the score, the predictor's value, "
                   "both ranks and sARE", "with -q"),
        ("pairs", "per measure and pair of predictors: the difference of their r, rho "
                  "(Williams t, Zou interval) and tau (paired bootstrap)",
         ""),
        ("anova", "per measure: the two-way ANOVA of sARE with topic and predictor as "
                  "factors, no interaction", ""),
        ("tukey", "per measure and pair of predictors: Tukey's HSD on sARE with the ANOVA's "
                  "residual mean square", "")),
    "repro": (
        ("repro", "per measure: ER and Delta RI with their bootstrap intervals, and whether "
                  "the reproduced effect is distinguishable from the original one", ""),
        ("tests", "per measure and run: the original and reproduced means, their difference "
                  "with its interval, RMSE, nRMSE and repro_eval's t test", ""),
        ("order", "per run: the mean KTU and RBO over the topics between the original and "
                  "the reproduced rankings", "reproducibility from runs"),
        ("order_topics", "per run and topic: KTU and RBO", "reproducibility from runs"),
        ("scores", "per measure and topic: the scores of the four runs", ""),
        ("verdict", "per measure: whether the reproduced effect is distinguishable from the "
                    "original one at --alpha", "")),
    "across": (
        ("pooled", "each run's effect against the baseline pooled over the collections: "
                   "random effects (tau^2 by --method), fixed effect beside, Q, I^2, "
                   "prediction interval", ""),
        ("effects", "each run's effect against the baseline on each collection, with its "
                    "weights", ""),
        ("leaderboard", "pooled ranking with bootstrap rank intervals (topics resampled "
                        "within each collection), beside the mean of means and the mean "
                        "rank", ""),
        ("notes", "where the mean of means and the mean rank rank the runs differently "
                  "from the pooled estimate", ""),
        ("collection_means", "each run's mean and rank on each collection", ""),
        ("mixed", "REML estimate of each run's mean in the linear mixed model", ""),
        ("mixed_model", "variance components and the system test of the linear mixed model",
         ""),
        ("contrasts", "every pair of runs in the mixed model, Wald z, p corrected by "
                      "--correct", "")),
}
TABLE_IDS = {cmd: tuple(t[0] for t in tables) for cmd, tables in TABLES.items()}


def _primary(command: str, params: dict) -> str:
    """The table tsv/jsonl print for these options (as the analyses choose it)."""
    if command == "bootstrap":
        return "split_half" if params.get("split_half") else \
            "rank_probabilities" if params.get("ranks") else "leaderboard"
    if command == "interval-map":
        return "tau" if params.get("analyze") else "values" if params.get("values") else \
            "scores"
    if command in ("ipso", "breakdown"):
        if command == "ipso" and params.get("scores"):
            return "sign_test"
        if command == "ipso" and params.get("enumerate_") is not None and not params.get("runs"):
            return "enumerate"
        return "topics" if params.get("per_query") else TABLE_IDS[command][0 if command ==
                                                                          "breakdown" else 2]
    if command == "qpp":
        return "topics" if params.get("per_query") else "correlations"
    if command == "measures":
        return "relevance_levels" if params.get("dataset") else "measures"
    return TABLE_IDS[command][0]


def _n_runs(params: dict) -> int:
    """Runs given (a directory, or per-topic --scores files, count as several):
    no file is read."""
    import os
    if params.get("scores") or params.get("nuggets"):     # the runs are inside the files
        return 2
    runs = params.get("runs") or ()
    return sum(2 if os.path.isdir(str(r)) else 1 for r in runs)


# when a table is there, from the options alone (its "when" text above)
_WHEN = {
    "with --dataset": lambda p: p.get("dataset") is not None,
    "without --dataset": lambda p: p.get("dataset") is None,
    "with --all-pairs": lambda p: bool(p.get("all_pairs")),
    "with --all-pairs and -m": lambda p: bool(p.get("all_pairs") and p.get("measures")),
    "with -q": lambda p: bool(p.get("per_query")),
    "with --enumerate": lambda p: p.get("enumerate_") is not None,
    "with --scores": lambda p: bool(p.get("scores")),
    "with --values": lambda p: bool(p.get("values")),
    "with --analyze": lambda p: bool(p.get("analyze")),
    "with --analyze and two or more -m": lambda p: bool(p.get("analyze"))
    and len(p.get("measures") or ()) >= 2,
    "with --analyze and two or more runs": lambda p: bool(p.get("analyze"))
    and _n_runs(p) >= 2,
    "with --scale both": lambda p: p.get("scale") == "both",
    "with --split-half": lambda p: bool(p.get("split_half")),
    "with two or more runs": lambda p: _n_runs(p) >= 2,
    "with runs": lambda p: _n_runs(p) >= 1,
}


def _present(command: str, tid: str, when: str, params: dict) -> bool:
    if command == "ipso" and params.get("scores"):          # per-topic score files
        return tid == "sign_test"
    if command == "ipso" and params.get("enumerate_") is not None and not params.get("runs"):
        return tid == "enumerate"
    test = _WHEN.get(when)
    return test is None or test(params)


def table_catalogue(command: str, params: dict) -> str:
    """``--table list`` without the analysis: the tables ``command`` writes with
    these options, ``ID<TAB>description`` (with when it is there); the primary
    table ends in ``(primary)``.  Decided from the options alone: no input is
    read."""
    primary = _primary(command, params)
    lines = []
    for tid, desc, when in TABLES[command]:
        if not _present(command, tid, when, params):
            continue
        if when:
            desc += f" ({when})"
        if tid == primary:
            desc += " (primary)"
        lines.append(f"{tid}\t{desc}")
    return "\n".join(lines) + "\n"


def answer_table_list(f):
    """Wrap a command's callback: with ``--table list`` print the catalogue of
    its tables and return before any input is read or analysed."""
    import functools

    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        ctx = click.get_current_context()
        if ctx.meta.get(TABLE_KEY) == "list" and ctx.command.name in TABLES:
            output = kwargs.get("output")
            env = get_env(ctx)
            _write(ctx, env, output, table_catalogue(ctx.command.name, ctx.params))
            return None
        return f(*args, **kwargs)
    return wrapped


def list_tables(ctx, output) -> bool:
    """``--table list`` of a declared command, answered from its options alone
    (no input read): True when it was asked for and printed."""
    if ctx.meta.get(TABLE_KEY) != "list" or ctx.command.name not in TABLES:
        return False
    _write(ctx, get_env(ctx), output, table_catalogue(ctx.command.name, ctx.params))
    return True


def _remember_table(ctx, param, value):
    if value is not None:
        known = TABLE_IDS.get(ctx.command.name)
        if value != "list" and known is not None and value not in known:
            raise click.BadParameter(f"{ctx.command.name} has no table {value!r} (tables: "
                                     f"{', '.join(known)}; 'list' names those of an "
                                     f"invocation)", ctx, param)
        ctx.meta[TABLE_KEY] = value
    return value


_FMT_KEY, _OUT_KEY = "ipsoeval.fmt", "ipsoeval.output"


def _check_binary(ctx) -> None:
    """--format parquet (binary) needs -o FILE and pyarrow: refused (usage error,
    exit 2) as soon as both options are parsed, before any input is read."""
    if _FMT_KEY not in ctx.meta or _OUT_KEY not in ctx.meta:
        return
    fmt, output = ctx.meta[_FMT_KEY], ctx.meta[_OUT_KEY]
    if fmt not in BINARY_FORMATS:
        return
    if output is None or output == "-":
        raise UsageError(f"--format {fmt} writes a binary file: give it with -o FILE "
                         f"(never to a terminal or a pipe)")
    from ipsoeval.formatters.parquet import need_pyarrow
    need_pyarrow()


def _remember_format(ctx, param, value):
    ctx.meta[_FMT_KEY] = value
    _check_binary(ctx)
    return value


_MODE_KEY, _PENDING_KEY = "warnings_mode", "warnings"


def _root_obj(ctx=None) -> dict | None:
    if ctx is None:
        ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    obj = ctx.find_root().obj
    return obj if isinstance(obj, dict) else None


def _remember_warnings(ctx, param, value):
    from ipsoeval.tiewarn_text import WARNINGS_ENV, warnings_mode
    mode = warnings_mode(value)
    if mode is None:
        raise UsageError(f"{WARNINGS_ENV}={os.environ.get(WARNINGS_ENV)!r} names no warnings "
                         f"mode (default, all, error or ignore)")
    obj = _root_obj(ctx)
    if obj is not None:
        obj[_MODE_KEY] = mode
    return value


JUNIT_KEY = "ipsoeval.junit"


def _remember_junit(ctx, param, value):
    if value is not None:
        check_output(value)
        ctx.meta[JUNIT_KEY] = value
    return value


def warn(message: str) -> None:
    """Collect a warning for :func:`flush_warnings` (printed at once when no
    command is running)."""
    obj = _root_obj()
    if obj is None:
        _print_warnings([message])
    else:
        obj.setdefault(_PENDING_KEY, []).append(message)


def note(message: str) -> None:
    """Write ``ipsoeval: note: MESSAGE`` now (an estimate of a long wait: not a
    warning about the input, so neither merged, held back nor made fatal)."""
    clear_bars()
    try:
        sys.stderr.write(f"ipsoeval: note: {message}\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass


def _print_warnings(lines) -> None:
    if not lines:
        return
    clear_bars()
    warn_lines(lines)


def take_warnings(obj: dict | None, more=()) -> list[str]:
    """The warnings collected (and ``more``), each once; forgotten here."""
    pending = obj.pop(_PENDING_KEY, []) if obj is not None else []
    return list(dict.fromkeys([*pending, *more]))


def flush_warnings(ctx=None, more=(), *, obj: dict | None = None) -> list[str]:
    """Print the warnings collected and ``more`` under the --warnings mode:
    one line per kind, every one, or none; under ``error`` raise an
    InputError (exit 3) with the first instead.  Returns them all (each
    run's detail)."""
    if obj is None:
        obj = _root_obj(ctx)
    messages = take_warnings(obj, more)
    if not messages:
        return messages
    from ipsoeval.tiewarn_text import warnings_mode
    from ipsoeval.warntext import lines
    mode = (obj or {}).get(_MODE_KEY) or warnings_mode() or "default"
    if mode == "error":
        first = lines(messages)
        more_ = f"; {len(first) - 1} more warning(s)" if len(first) > 1 else ""
        raise InputError(f"{first[0]} (a warning, fatal under --warnings error{more_})")
    _print_warnings(lines(messages, mode))
    return messages


def concrete_format(ctx: click.Context | None, fmt: str, output: str | None = None, *,
                    pipe_default: str = "tsv") -> str:
    """The format ``fmt`` stands for: ``auto`` is table when the output is
    standard output and the Environment says it is a terminal, else
    ``pipe_default``."""
    tty = output is None and get_env(ctx).stdout_isatty
    return resolve(fmt, pipe_default=pipe_default, isatty=lambda: tty)


def check_digits(ctx: click.Context, v: dict, *, pipe_default: str = "tsv") -> None:
    """``--digits N`` with a format that keeps its own digits -- trec
    (trec_eval's ``%.4f``), json, jsonl, parquet (full precision), given or
    what ``auto`` is here -- is a usage error, before any input is read:
    the rounding asked for would silently not happen."""
    digits = v.get("digits")
    if digits is None:
        return
    from ipsoeval.output_options import DIGITS_FORMATS
    concrete = concrete_format(ctx, v.get("fmt") or "auto", v.get("output"),
                               pipe_default=pipe_default)
    if concrete in DIGITS_FORMATS:
        return
    keeps = "trec_eval's %.4f" if concrete == "trec" else "full precision"
    given = f"--format {concrete}" if v.get("fmt") not in (None, "auto") else \
        f"--format auto ({concrete} here)"
    raise UsageError(f"--digits sets the digits of {', '.join(DIGITS_FORMATS[:4])}; "
                     f"{given} keeps {keeps}: leave out --digits or give --format tsv")


def emit(ctx: click.Context, report, fmt: str, output: str | None = None, *,
         pipe_default: str = "tsv", digits: int | None = None) -> str:
    """The one way out of a command: print the report's warnings on stderr,
    render the report (``--table ID`` or its primary table; ``--table list``:
    the ids) in the concrete format, write it (stdout or -o FILE), then apply
    the report's gate (exit 1 when it failed).  Returns the format used.

    Tables are laid out for the Environment's width and coloured only when
    they go to standard output and the Environment allows colour."""
    report = as_report(report)
    report.warnings[:] = flush_warnings(ctx, report.warnings)
    env = get_env(ctx)
    want = ctx.meta.get(TABLE_KEY)
    concrete = concrete_format(ctx, fmt, output, pipe_default=pipe_default)
    if want == "list":
        _write(ctx, env, output, table_list(report))
        return concrete
    if want is not None and want not in report.ids:
        raise UsageError(f"--table: no table {want!r} here (tables: {', '.join(report.ids)}; "
                         f"--table list describes them)")
    if concrete in BINARY_FORMATS:
        if output is None or output == "-":
            raise UsageError(f"--format {concrete} writes a binary file: give it with -o FILE")
        write_output(output, render_bytes(report, concrete, table=want))
    else:
        text = render(report, concrete, table=want, width=env.width,
                      color=env.color and output is None, color_system=env.color_system,
                      digits=digits)
        _write(ctx, env, output, text)
    junit = ctx.meta.get(JUNIT_KEY)
    if junit is not None and report.gate is not None:
        from ipsoeval.formatters.junit import render_junit
        write_output(junit, render_junit(report))
    if report.gate is not None:
        if not report.gate.passed:
            raise GateFailed(report.gate.reason)
        try:
            env.stdout.flush()
            env.stderr.write(f"ipsoeval: gate passed: {report.gate.reason}\n")
            env.stderr.flush()
        except (BrokenPipeError, OSError):
            pass
    return concrete


def _write(ctx, env, output, text: str) -> None:
    if output is not None:
        write_output(output, text)
    else:
        write_stdout(ctx, env.stdout, text)


# --- where the output goes ---------------------------------------------------
#
# -o FILE: a regular file (or a path that does not exist yet) is written to a
# temporary file in the same directory and renamed over it only when
# everything succeeded, so a failed run never leaves a half-written or empty
# file; the new file gets the mode the umask allows (an existing file keeps its
# mode).  A symlink is followed: its target is replaced, the link stays.
# Anything that is not a regular file (/dev/null, /dev/stdout, a fifo, a
# terminal) is opened and written directly, never replaced.  Whether the
# target can be written is checked when the option is parsed, before any
# input is read.

def check_output_option(ctx, param, value):
    """Every command's -o callback: ``-`` is standard output (as no -o), any
    other FILE is checked now, before any input is read."""
    from ipsoeval.writing import output_path
    value = output_path(value)
    if value is not None:
        check_output(value)
    ctx.meta[_OUT_KEY] = value
    _check_binary(ctx)
    return value


def check_output(path: str) -> None:
    """Raise UsageError/InputError now when ``path`` cannot be written later."""
    if path == "":
        raise UsageError("-o/--output: empty file name")
    try:
        st = os.stat(path)      # follows links, even /proc's (/dev/stdout)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise _output_error(path, "is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if not os.access(path, os.W_OK):
            raise _output_error(path, "permission denied")
        return
    d = os.path.dirname(os.path.realpath(path)) or "."
    if not os.path.isdir(d):
        shown = os.path.dirname(path) if not os.path.islink(path) else d
        raise _output_error(path, f"no such directory {shown or '.'}")
    try:                       # the only sure test (root, read-only mounts, /proc)
        fd, probe = mkstemp(".ipsoeval-", d)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _output_error(path, exc.strerror or str(exc)) from None


def _write_text(stream, text: str) -> None:
    """Write text; ids that are not UTF-8 (surrogateescape strs, ipsoeval.ids)
    are written as their original bytes, as -o FILE writes them."""
    if text.isascii():
        stream.write(text)
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:           # raised before anything is written
        buf = getattr(stream, "buffer", None)
        if buf is None:
            raise
        stream.flush()
        buf.write(text.encode(getattr(stream, "encoding", None) or "utf-8", "surrogateescape"))


def write_stdout(ctx: click.Context | None, stream, text: str) -> None:
    """Write to standard output.  A closed pipe ends the output quietly (the
    command goes on, so a gate still decides the exit status); any other
    write error (a full disk) is an I/O error, exit 3."""
    try:
        _write_text(stream, text)
        stream.flush()
    except BrokenPipeError:
        quiet_stdout()
        if ctx is not None:
            obj = ctx.find_root().obj
            if isinstance(obj, dict):
                obj["stdout_closed"] = True
    except OSError as exc:
        quiet_stdout()
        raise InputError(f"cannot write to standard output: {exc.strerror or exc}") from None
