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

from ipsoeval._version import version_line
from ipsoeval.errors import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GateFailed,
    IpsoevalError,
)
from ipsoeval.pipeline import COMMANDS  # the one table of commands (noqa: F401)
from ipsoeval.stdio import quiet_stdout


def command_module(name: str) -> str:
    """The module of ipsoeval.cli building subcommand ``name`` (``command``)."""
    return f"ipsoeval.cli.{name.replace('-', '_')}_cmd"


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_help(self, ctx) -> str:
        """``ipsoeval --help``: from the declarations, as the fast path prints it."""
        from ipsoeval.declare import help_width
        from ipsoeval.pipeline import group_help
        return group_help(help_width()).rstrip("\n")

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        return importlib.import_module(command_module(name)).command

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


def _print_version(ctx, param, value):
    if value and not ctx.resilient_parsing:
        click.echo(version_line(), color=ctx.color)
        ctx.exit()


def _group_params() -> list:
    """The group's options, from their declaration (ipsoeval.pipeline.GROUP_OPTIONS)."""
    from ipsoeval.pipeline import GROUP_OPTIONS
    params = []
    for o in GROUP_OPTIONS:
        if o.dest == "help":
            continue                  # click's own, named by help_option_names
        extra = ({"is_eager": True, "expose_value": False, "callback": _print_version}
                 if o.dest == "version" else {})
        params.append(click.Option([*o.flags, o.dest], is_flag=True, help=o.help, **extra))
    return params


def _group(ctx, debug):
    ctx.ensure_object(dict)
    if ctx.obj.get("env") is None:     # tests inject their own (ipsoeval.cli.environment)
        from ipsoeval.cli.environment import Environment
        ctx.obj["env"] = Environment()
    ctx.obj["debug"] = debug


cli = LazyGroup(name="ipsoeval", params=_group_params(),
                callback=click.pass_context(_group),
                context_settings={"help_option_names": ["-h", "--help"],
                                  "max_content_width": 100})


def main(argv=None) -> None:  # console script entry point
    cli.main(args=argv, prog_name="ipsoeval")
