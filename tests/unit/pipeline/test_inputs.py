"""ipsoeval/pipeline/inputs.py: the helpers every command's pipeline shares."""

from __future__ import annotations

from ipsoeval.pipeline import inputs as inp


def test_duration_is_worded_the_same_by_every_estimate():
    from ipsoeval.pipeline import interval_map, leaderboard, report
    assert [inp.duration(s) for s in (5, 89.4, 90, 5399, 5400, 7200)] == [
        "5 s", "89 s", "2 min", "90 min", "1.5 h", "2.0 h"]
    for mod in (interval_map, leaderboard, report):
        assert not hasattr(mod, "duration") and not hasattr(mod, "_duration")


def test_with_params_reaches_every_table():
    from types import SimpleNamespace as NS
    rep = NS(tables=[NS(params={"x": 1}), NS(params={})])
    assert inp.with_params(rep, {"y": 2}) is rep
    assert [t.params for t in rep.tables] == [{"x": 1, "y": 2}, {"y": 2}]


def test_nugget_measures_one_check_in_each_commands_words():
    """agree --nuggets and ppi --nuggets refuse RUN arguments through one
    helper, each in its own words."""
    import pytest

    from ipsoeval.align_options import AlignOptions
    from ipsoeval.errors import UsageError
    for command, answers in (("agree", "answers"), ("ppi", "runs")):
        with pytest.raises(UsageError) as e:
            inp.nugget_measures({"runs": ["r1"], "measures": []}, AlignOptions(), command,
                                answers)
        assert str(e.value) == (f"{command} --nuggets: the {answers} are those of the "
                                f"assignment files; give no RUN arguments")


def test_aligned_report_asks_the_measures_before_reading_a_file(tmp_path):
    import pytest

    from ipsoeval.align_options import AlignOptions
    from ipsoeval.errors import UsageError
    missing = str(tmp_path / "no-such-qrels")
    with pytest.raises(UsageError):
        inp.aligned_report({"qrels": missing, "runs": [missing]}, AlignOptions(),
                           ["no_such_measure"], lambda al, req: None)
