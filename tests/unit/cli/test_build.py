"""ipsoeval/cli/build.py: the click command made from a declaration."""

from __future__ import annotations

import dataclasses

from click.testing import CliRunner

from ipsoeval.declare import Arg, Command, option


@dataclasses.dataclass
class _Needed:
    given: str | None = option("--given", metavar="FILE", required=True, help="Needed.")


def test_a_required_option_left_out_is_a_usage_error():
    # an explicit default of None counts as given for click 8.2 and later
    from ipsoeval.cli.build import click_command
    seen = {}
    cmd = click_command(Command("x", "X.", (Arg("rest", "REST...", many=True, required=False),),
                                (_Needed,)), lambda ctx, v: seen.update(v))
    r = CliRunner().invoke(cmd, ["a"])
    assert r.exit_code == 2 and "Missing option '--given'" in r.output and not seen
    r = CliRunner().invoke(cmd, ["--given", "f", "a"])
    assert r.exit_code == 0 and seen == {"given": "f", "rest": ("a",)}
