"""ipsoeval.pipeline.leaderboard: the command's one declaration, and its values
turned into the Report without click -- the command line's own numbers."""

import pytest

from ipsoeval.declare import parse
from ipsoeval.formatters import render
from ipsoeval.pipeline import leaderboard as pipeline
from tests.conftest import TESTDATA, invoke

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


def test_from_values_is_the_command_line():
    argv = ["-m", "AP", "-m", "P@10", "--samples", "99", "--seed", "5", *FILES]
    v = parse(pipeline.COMMAND, argv)
    assert v is not None and v["samples"] == 99
    report = pipeline.from_values(v)
    code, out, _ = invoke(["leaderboard", "--format", "tsv", *argv])
    assert code == 0 and render(report, "tsv") == out


def test_long_work_is_announced_through_note(monkeypatch):
    monkeypatch.setattr(pipeline, "ANNOUNCE_SECONDS", 0.0)
    notes = []
    pipeline.from_values(parse(pipeline.COMMAND, ["-m", "AP", "--samples", "50", *FILES]),
                         note=notes.append)
    assert len(notes) == 1 and notes[0].startswith("leaderboard: 50 samples x 2 runs x ")


def test_the_api_takes_the_declared_keywords_only():
    import warnings

    import ipsoeval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ipsoeval.InputWarning)
        res = ipsoeval.evaluate(FILES[0], FILES[1:], ["AP"])
    with pytest.raises(TypeError, match="'fmt'"):
        ipsoeval.leaderboard(res, fmt="tsv")      # the command line's, not the API's
