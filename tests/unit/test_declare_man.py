"""ipsoeval/declare.py, the man page's SYNOPSIS made from a declaration."""

from __future__ import annotations

from ipsoeval.declare import Arg, Command, man_synopsis, option, options


@options
class _Opts:
    human: str | None = option("--human", metavar="HUMAN", required=True, help="Needed.")
    flag: bool = option("--flag", kind="flag", help="A flag.")


def test_required_options_have_no_brackets_and_an_arguments_brackets_are_kept_once():
    cmd = Command("x", "X.", (Arg("a", "A"), Arg("runs", "[RUN...]", many=True,
                                                  required=False)), (_Opts,))
    assert man_synopsis(cmd) == (".B ipsoeval x\n.I A\n.RI [ RUN... ]\n"
                                 '.B \\-\\-human\n.I "HUMAN"\n.RB [ \\-\\-flag ]\n')
