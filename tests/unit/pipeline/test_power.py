"""ipsoeval.pipeline.power: the command's one declaration (--delta is the
API's ``delta``), and its values turned into the Report without click."""

import ipsoeval
from ipsoeval.analyses.power import DEFAULT_DELTA, Options
from ipsoeval.declare import parse
from ipsoeval.formatters import render
from ipsoeval.pipeline import power as pipeline
from tests.conftest import TESTDATA, invoke

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]
ARGV = ["-m", "AP", "--delta", "0.05,0.1", "--design", "t,ci", "--half-width", "0.02", *FILES]


def test_delta_is_one_name_for_the_option_and_the_api():
    assert pipeline.COMMAND.opt("delta").flags == ("--delta",)
    assert Options().delta == (DEFAULT_DELTA,)


def test_from_values_is_the_command_line():
    report = pipeline.from_values(parse(pipeline.COMMAND, ARGV))
    code, out, _ = invoke(["power", "--format", "tsv", *ARGV])
    assert code == 0 and render(report, "tsv") == out


def test_the_api_is_the_command_line():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ipsoeval.InputWarning)
        res = ipsoeval.evaluate(FILES[0], FILES[1:], ["AP"])
        report = ipsoeval.power(res, delta=[0.05, 0.1], designs="t,ci", half_width=0.02)
    code, out, _ = invoke(["power", "--format", "tsv", *ARGV])
    assert render(report, "tsv") == out
