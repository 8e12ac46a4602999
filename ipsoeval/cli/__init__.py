"""The ``ipsoeval`` command line: a click group with lazily loaded subcommands.

All exits go through :func:`run_cli`: one error type mapped to exit statuses
in one place (docs/conventions.md, "Errors and exit status"), quiet broken
pipes, no tracebacks unless asked for (``--debug`` or ``IPSOEVAL_DEBUG=1``).
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from ipsoeval._version import __version__, version_line
from ipsoeval.errors import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GateFailed,
    IpsoevalError,
)
from ipsoeval.stdio import quiet_stdout

# subcommand name -> module (ipsoeval.cli.<module>, exporting `command`)
COMMANDS = {
    "eval": "eval_cmd",
    "measures": "measures_cmd",
    "breakdown": "breakdown_cmd",
    "ipso": "ipso_cmd",
    "interval-map": "interval_map_cmd",
    "sigtest": "sigtest_cmd",
    "bootstrap": "bootstrap_cmd",
    "ppi": "ppi_cmd",
    "agree": "agree_cmd",
    "leaderboard": "leaderboard_cmd",
    "power": "power_cmd",
    "meta": "meta_cmd",
    "report": "report_cmd",
    "nuggets": "nuggets_cmd",
    "across": "across_cmd",
    "risk": "risk_cmd",
}


# each command's one-line help, as click derives it from the command's docstring
# (`ipsoeval --help` lists them without importing a command; tests/project/test_import_discipline.py
# checks each equals the command's own)
SHORT_HELP = {
    "eval": "Score runs against qrels, as trec_eval does.",
    "measures": ('List every measure with its definition, scale type and trec_eval '
                 'names (--dataset ID: the relevance levels of an ir_datasets data '
                 'set).'),
    "breakdown": ('Outcomes breakdown of runs with one relevant document per topic '
                  '(Lin, Campos, Craswell, Mitra and Yilmaz, 2021).'),
    "ipso": ("Innate pairwise SERP orderings: for each topic, is run A's SERP non-"
             'inferior (ni), non-superior (ns), equal (==) or non-separable (**) to '
             "run B's for every metric at depth k? Then the sign test of |ns| against "
             '|ni| over the topics (Moffat & Mackenzie 2024).'),
    "interval-map": ('Map per-topic scores onto an interval scale: phi(m) is the rank '
                     'of m among the distinct values the measure takes on all judged '
                     'runs of length N (Ferrante, Ferro & Fuhr 2021).'),
    "sigtest": ('Significance tests between runs on per-topic scores: paired t, '
                'Wilcoxon signed-rank, sign, rank-sum, randomization, bootstrap and, '
                'for three or more runs, ANOVA, Kruskal-Wallis, two-way ANOVA and '
                'Friedman with Tukey HSD.'),
    "bootstrap": ('Leaderboard stability under bootstrapping: resample the topics with'
                  ' replacement (same size) in each trial, rank the runs by mean '
                  "score, and report each run's expected rank, rank interval, share of"
                  ' samples at rank 1 and the bootstrap CI of its mean; optionally the'
                  ' expected rank on named topic subsets and the split-half '
                  'reliability of significance tests (Craswell et al.'),
    "ppi": ('The mean of a measure over topics from a few human-judged topics and '
            'machine labels on all of them: the prediction-powered estimate and its '
            'confidence interval (PPI++ by default, or classical PPI), beside the '
            'human-only and the auto-only estimates; for pairs of runs, the same for '
            'the paired difference.'),
    "agree": ("Agreement of two qrels on the judgments they share: Cohen's kappa "
              "(unweighted, linear, quadratic), Krippendorff's alpha (interval, "
              'ordinal) and the confusion matrix.'),
    "leaderboard": ("A leaderboard that says which differences are real: each run's "
                    'mean and CI, every pair tested with the randomised Tukey HSD '
                    '(family-wise over all pairs; Carterette 2012, Sakai 2018) beside '
                    'Tukey HSD from the two-way ANOVA, a compact letter display (runs '
                    'sharing a letter are not significantly different; Piepho 2004), '
                    'rank intervals, the group of runs indistinguishable from the best'
                    ' and the rank resolution.'),
    "power": ('Topic set size design (Sakai 2016): the number of topics the paired '
              't-test, one-way ANOVA over m systems and a confidence interval need to '
              'detect a difference delta with power 1 - beta at alpha (or to bound the'
              ' CI), from the residual variance of the two-way ANOVA (topics x runs) '
              'of the given runs; and the power and the minimal detectable difference '
              'of the collection as it is.'),
    "meta": ('Compare measures over a set of runs, to choose the one to report: '
             'discriminative power (share of run pairs a test finds significant, and '
             'the sorted p-values, Sakai 2006), swap rate over random topic halves '
             "(Voorhees & Buckley 2002) and Kendall's tau / tau_ap (Yilmaz et al."),
    "report": ("One self-contained HTML page comparing runs, to attach to a paper's "
               'repository or a CI job: the leaderboard with CIs and letter groups '
               '(randomised Tukey HSD), the significance matrix as a heat map, the '
               'per-topic differences of chosen pairs with their tests, the outcomes '
               'breakdown of the best run against the baseline (Lin et al.'),
    "nuggets": ('Nugget scores of generated answers from nugget assignment files '
                "(nuggetizer's JSONL or the long TSV): per run the mean over topics of"
                ' the strict and the partial (0.5) vital and all-nugget scores, as the'
                " TREC 2024 RAG track's AutoNuggetizer."),
    "across": "Compare runs over several test collections.",
    "risk": ("Risk-sensitive comparison of runs on per-topic scores: URisk and TRisk "
             "of each run against a baseline (Dinçer, Macdonald and Ounis, SIGIR 2014), "
             "and ZRisk and GeoRisk of each run against all of them (Dinçer, Macdonald "
             "and Ounis, SIGIR 2016)."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def format_commands(self, ctx, formatter):
        """The command list of ``ipsoeval --help`` from SHORT_HELP, as click's
        Group.format_commands writes it, without importing every command."""
        from click.utils import make_default_short_help
        limit = formatter.width - 6 - max(len(n) for n in COMMANDS)
        with formatter.section("Commands"):
            formatter.write_dl([(n, make_default_short_help(SHORT_HELP[n], limit))
                                for n in COMMANDS])

    def get_command(self, ctx, name):
        mod = COMMANDS.get(name)
        if mod is None:
            return None
        return importlib.import_module(f"ipsoeval.cli.{mod}").command

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise click.UsageError(f"no such command {name!r}{hint}", ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        # click turns a broken pipe into exit 1 (the gate's status) before
        # run_cli could see it: hand it over as something click leaves alone
        # Likewise click turns any EOFError into an abort ("interrupted", exit
        # 130); ipsoeval reads no terminal input, so one from our code is a
        # bug: run_cli reports it as an internal error.
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise _PipeClosed() from exc
        except EOFError as exc:
            raise _UnexpectedEOF(f"end of data: {exc}") from exc

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             windows_expand_args=True, **extra):
        code = run_cli(self, args, prog_name or "ipsoeval", extra)
        if standalone_mode:
            sys.exit(code)
        return code


class _UnexpectedEOF(RuntimeError):
    """An EOFError raised by a command, out of click's reach (see LazyGroup.invoke)."""


class _PipeClosed(Exception):
    """Standard output was closed by the reader (``ipsoeval … | head``)."""


def _debug_wanted(args) -> bool:
    return os.environ.get("IPSOEVAL_DEBUG", "") not in ("", "0") or "--debug" in (args or [])


def _err(msg: str) -> None:
    from ipsoeval.cli.progress import clear_bars
    clear_bars()                      # an error never lands on a progress bar's line
    try:
        sys.stderr.write(msg.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass


def _flush_stdout() -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()
    except OSError as exc:
        quiet_stdout()
        _err(f"ipsoeval: error: cannot write to standard output: {exc.strerror or exc}")
        return EXIT_INPUT
    return 0


def run_cli(group: click.Group, args, prog_name: str, extra: dict) -> int:
    if args is None:
        args = sys.argv[1:]
    args = list(args)
    obj = extra.get("obj")
    if not isinstance(obj, dict):
        obj = {} if obj is None else obj
        extra = {**extra, "obj": obj}
    if isinstance(obj, dict):          # a test may hand the same obj to several calls
        obj.pop("warnings", None)
        obj.pop("warnings_mode", None)
    try:
        click.Group.main(group, args=args, prog_name=prog_name, standalone_mode=False, **extra)
        if isinstance(obj, dict) and obj.get("warnings"):     # any not printed yet
            from ipsoeval.cli.output import flush_warnings
            flush_warnings(obj=obj)
        return _flush_stdout()
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        _err("ipsoeval: interrupted")
        return EXIT_INTERRUPTED
    except click.ClickException as exc:
        msg = exc.format_message()
        if isinstance(exc, click.exceptions.NoSuchOption) and exc.possibilities:
            msg = f"no such option {exc.option_name} (did you mean {sorted(exc.possibilities)[0]}?)"
        _err(f"ipsoeval: error: {msg}")
        return EXIT_USAGE if isinstance(exc, click.UsageError) else EXIT_INPUT
    except GateFailed as exc:
        _flush_stdout()
        _err(f"ipsoeval: gate failed: {exc.format()}")
        return exc.exit_status
    except IpsoevalError as exc:
        _err(f"ipsoeval: error: {exc.format()}")
        return exc.exit_status
    except (BrokenPipeError, _PipeClosed):
        quiet_stdout()
        return 0
    except KeyboardInterrupt:
        _err("ipsoeval: interrupted")
        return EXIT_INTERRUPTED
    except MemoryError:
        _err("ipsoeval: error: out of memory")
        return EXIT_INTERNAL
    except Exception as exc:  # a bug: one line unless debugging
        if _debug_wanted(args):
            import traceback
            traceback.print_exc()
        _err(f"ipsoeval: internal error: {type(exc).__name__}: {exc} "
             f"(please report; --debug or IPSOEVAL_DEBUG=1 shows the traceback)")
        return EXIT_INTERNAL


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"],
                                              "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="ipsoeval",
                      message=version_line())
@click.option("--debug", is_flag=True, help="Show a traceback for internal errors.")
@click.pass_context
def cli(ctx, debug):
    """trec_eval-compatible evaluation of ranked runs, with honest comparisons.

    Subcommands read TREC qrels and runs (gzip, bzip2 or xz are detected;
    '-' is standard input), score them with one engine and print trec_eval's
    layout, TSV, JSON or a table (--format).  See `ipsoeval COMMAND --help`
    and the man pages (man ipsoeval).
    """
    ctx.ensure_object(dict)
    if ctx.obj.get("env") is None:     # tests inject their own (ipsoeval.cli.environment)
        from ipsoeval.cli.environment import Environment
        ctx.obj["env"] = Environment()
    ctx.obj["debug"] = debug


def main(argv=None) -> None:  # console script entry point
    cli.main(args=argv, prog_name="ipsoeval")
