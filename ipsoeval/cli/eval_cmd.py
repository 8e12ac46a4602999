"""ipsoeval eval — trec_eval-compatible scores."""

from __future__ import annotations

import click

from ipsoeval.analyses.evaluate.options import trec_long
from ipsoeval.cli.build import DeclaredCommand, command_for
from ipsoeval.pipeline import evaluate as pipeline


def _print_version(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return
    from ipsoeval._version import __version__
    click.echo(f"ipsoeval eval {__version__} (trec_eval 10.0 semantics; "
               f"--trec-eval-version 9 for 9.0.8's)", err=True)
    ctx.exit(0)


class _EvalCommand(DeclaredCommand):
    """Reads trec_eval's long option spellings (``--nosummary``,
    ``--level_for_rel=2``, ...) as the short options they stand for; -v
    prints the version on stderr and exits, before anything else is checked."""

    def __init__(self, decl, **kw):
        super().__init__(decl, **kw)
        for p in self.params:
            if p.name == "print_version":
                p.callback, p.expose_value = _print_version, False

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, trec_long(args))


command = command_for(pipeline, pipe_default="trec", cls=_EvalCommand)
