"""A click command from a command's declaration (:mod:`ipsoeval.declare`):
every option and argument made from its :class:`~ipsoeval.declare.Opt`, the
help printed by :func:`ipsoeval.declare.render_help` (the same text the fast
path prints), and the command line's own bookkeeping -- where the output goes,
which table, the warnings mode, the JUnit file -- attached by the option's
name."""

from __future__ import annotations

import click

from ipsoeval.declare import Command, Opt, help_width, render_help, short_help


def _click_type(o: Opt):
    if o.kind == "choice":
        return click.Choice(list(o.choices))
    if o.kind == "int":
        if o.low is not None or o.high is not None:
            return click.IntRange(o.low, o.high, min_open=o.low_open, max_open=o.high_open)
        return click.INT
    if o.kind == "float":
        if o.low is not None or o.high is not None:
            return click.FloatRange(o.low, o.high, min_open=o.low_open, max_open=o.high_open)
        return click.FLOAT
    return click.STRING


def _hooks() -> dict:
    """The command line's bookkeeping of some options, by name: a click
    callback each (they remember values in the context for emit)."""
    from ipsoeval.cli import output as out_
    return {"fmt": out_._remember_format, "output": out_.check_output_option,
            "table": out_._remember_table, "warnings_mode": out_._remember_warnings,
            "junit": out_._remember_junit, "measures": _measures}


def _measures(ctx, param, value):
    """-m arguments parsed once into their measures (MeasureArg: still the
    text, for -R prefs and --scores, which name other measures); a warning
    where one is read as trec_eval reads it (P.1.5 as P_1)."""
    from ipsoeval.cli.output import warn
    from ipsoeval.measures import MeasureArg
    from ipsoeval.measures.names import notes
    value = tuple(v if isinstance(v, MeasureArg) else MeasureArg(v) for v in value)
    for w in notes(value):
        warn(w)
    return value


# options the command line keeps in its context rather than passing on
_NOT_PASSED = ("table", "warnings_mode", "junit")


def _callback(o: Opt, hook):
    check = o.check
    if check is None and hook is None:
        return None

    def cb(ctx, param, value):
        if hook is not None:
            value = hook(ctx, param, value)
        if check is not None and value is not None and value != () and value is not False:
            value = check(value)
        return value
    return cb


def click_option(o: Opt, hooks: dict) -> click.Option:
    kw = dict(help=o.help, hidden=o.hidden, required=o.required,
              callback=_callback(o, hooks.get(o.dest)), expose_value=o.dest not in _NOT_PASSED,
              is_eager=o.eager)
    if o.kind == "flag":
        return click.Option([*o.flags, o.dest], is_flag=True, default=bool(o.default), **kw)
    if o.kind == "count":
        return click.Option([*o.flags, o.dest], count=True, default=o.default or 0, **kw)
    if not (o.required and o.default is None):
        # a required option keeps click's "no default" (an explicit None counts as given)
        kw["default"] = o.default if not o.multiple else (o.default or ())
    return click.Option([*o.flags, o.dest], type=_click_type(o), multiple=o.multiple,
                        metavar=o.metavar, **kw)


class DeclaredCommand(click.Command):
    """A click command whose help is the declaration's, as the fast path prints it."""

    def __init__(self, decl: Command, **kw):
        self.decl = decl
        super().__init__(decl.name, help=decl.help, **kw)

    def get_help(self, ctx) -> str:
        return render_help(self.decl, help_width()).rstrip("\n")

    def get_short_help_str(self, limit: int = 45) -> str:
        return short_help(self.decl.help, limit)


def click_command(decl: Command, callback, *, cls=DeclaredCommand,
                  lists_tables: bool = False) -> click.Command:
    """``decl`` as a click command calling ``callback(ctx, values)`` with
    {name: value} of every argument and option."""
    hooks = _hooks()
    params = []
    for a in decl.arguments:
        params.append(click.Argument([a.dest], nargs=-1 if a.many else 1, required=a.required,
                                     metavar=a.metavar))
    params += [click_option(o, hooks) for o in decl.opts() if o.cli]

    def run(**values):
        return callback(click.get_current_context(), values)

    # --table list: answered before any input is read -- here, before the
    # command's own checks, unless its pipeline answers it after them
    # (``lists_tables``: from_values takes ``listing=``)
    if not lists_tables and any(o.dest == "table" for o in decl.opts()):
        from ipsoeval.cli.output import answer_table_list
        run = answer_table_list(run)

    return cls(decl, params=params, callback=run,
               context_settings={"help_option_names": ["-h", "--help"]})


def run_pipeline(ctx, v: dict, pipeline, *, pipe_default: str = "tsv",
                 progress: bool = True, lists_tables: bool = False, **kw) -> None:
    """The command line's one way through a command: ``pipeline.from_values``
    on the parsed values ``v`` (warnings and notes to the command line, a
    progress bar where ``progress``, ``--table list`` answered by the pipeline
    where ``lists_tables``; ``kw``: the command's own keywords), then the
    report emitted."""
    from ipsoeval.cli import output as out_
    out_.check_digits(ctx, v, pipe_default=pipe_default)
    if progress:
        kw["progress"] = progress_of(ctx)
    if lists_tables:
        kw["listing"] = lambda: out_.list_tables(ctx, v["output"])
    report = pipeline.from_values(v, warn=out_.warn, note=out_.note, **kw)
    if report is not None:          # None: --table list answered
        out_.emit(ctx, report, v["fmt"], v["output"], pipe_default=pipe_default,
                  digits=v.get("digits"))


def command_for(pipeline, *, pipe_default: str = "tsv", progress: bool = True,
                lists_tables: bool = False, cls=DeclaredCommand) -> click.Command:
    """The click command of ``pipeline.COMMAND`` that runs
    :func:`run_pipeline` -- the whole of most commands' command-line module."""
    def run(ctx, v: dict) -> None:
        run_pipeline(ctx, v, pipeline, pipe_default=pipe_default, progress=progress,
                     lists_tables=lists_tables)
    return click_command(pipeline.COMMAND, run, cls=cls, lists_tables=lists_tables)


def progress_of(ctx):
    """``progress(label)``: a callback ``cb(done, total)`` drawing a bar
    labelled ``label`` on standard error when the command's Environment says
    it is a terminal."""
    def make(label: str):
        from ipsoeval.cli.environment import get_env
        from ipsoeval.cli.progress import make_progress
        return make_progress(label, get_env(ctx))
    return make
