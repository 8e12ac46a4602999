"""The ``ipsoeval`` command line: a click group with lazily loaded subcommands.

All exits go through :func:`run_cli`: one error type mapped to exit statuses
in one place (docs/conventions.md, "Errors and exit status"), quiet broken
pipes, no tracebacks unless asked for (``--debug`` or ``IPSOEVAL_DEBUG=1``).
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback

import click

from ipsoeval._version import __version__
from ipsoeval.errors import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GateFailed,
    IpsoevalError,
)

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
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

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
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise _PipeClosed() from exc

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             windows_expand_args=True, **extra):
        code = run_cli(self, args, prog_name or "ipsoeval", extra)
        if standalone_mode:
            sys.exit(code)
        return code


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


def quiet_stdout() -> None:
    """Point standard output at /dev/null (after a closed pipe or a write
    error), so that the exit is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
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
    try:
        click.Group.main(group, args=args, prog_name=prog_name, standalone_mode=False, **extra)
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
            traceback.print_exc()
        _err(f"ipsoeval: internal error: {type(exc).__name__}: {exc} "
             f"(please report; --debug or IPSOEVAL_DEBUG=1 shows the traceback)")
        return EXIT_INTERNAL


def _core_note() -> str:
    """Which reading core this install has: the compiled one, or the pure-Python
    path of an install built without a C compiler (setup.py says so then)."""
    import importlib.util
    if importlib.util.find_spec("ipsoeval._core") is not None:
        return "compiled core"
    return "pure-Python core: built without a C compiler, reading is slower"


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"],
                                              "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="ipsoeval",
                      message=f"%(prog)s, version %(version)s ({_core_note()})")
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
