"""ipsoeval/pipeline/options.py: the options and the declaration parts the
commands share."""

from __future__ import annotations


def test_scores_command_keeps_each_commands_groups_in_order():
    from ipsoeval.pipeline import leaderboard, risk, sigtest
    flags = {m.__name__: [list(o.flags[:1]) for o in m.COMMAND.opts() if o.cli]
             for m in (leaderboard, risk, sigtest)}
    assert ["--plot"] not in flags["ipsoeval.pipeline.risk"]
    assert ["--engine"] in flags["ipsoeval.pipeline.sigtest"]
    assert ["--junit"] in flags["ipsoeval.pipeline.sigtest"]
    assert flags["ipsoeval.pipeline.leaderboard"][-1] != ["--plot"]     # --progress after


def test_checked_options_takes_only_the_analysis_fields():
    from ipsoeval.pipeline import ppi
    from ipsoeval.pipeline.options import checked_options, option_values
    values = {"alpha": 0.1, "method": "ppi", "measures": ("AP",), "output": None}
    assert option_values(ppi.COMMAND, ppi.Options, values) == {"alpha": 0.1, "method": "ppi"}
    assert checked_options(ppi.COMMAND, ppi.Options, values).alpha == 0.1
    assert option_values(ppi.COMMAND, ppi.Options, values, leave=("alpha",)) == {
        "method": "ppi"}
