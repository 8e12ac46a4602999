"""ipsoeval.pipeline.risk: risk declared once; the CLI and the API meet in it."""

import inspect

import pytest
from conftest import TESTDATA, invoke

import ipsoeval
from ipsoeval.declare import parse
from ipsoeval.errors import UsageError
from ipsoeval.pipeline import risk as pipeline

AD = TESTDATA / "adhoc"
FILES = [str(AD / "qrels.txt"), str(AD / "run-bm25.txt"), str(AD / "run-neural.txt")]


def test_the_api_keeps_its_keywords_and_defaults():
    # a repeatable option's declared default is the API's default
    assert str(inspect.signature(ipsoeval.risk)) == (
        "(res, *, measures=None, baseline=None, risk_alphas=(1.0, 5.0), alpha=0.05)")
    assert "``risk_alphas`` (--risk-alpha)" in ipsoeval.risk.__doc__


def test_risk_alpha_is_read_once_for_every_door():
    assert parse(pipeline.COMMAND, ["--risk-alpha", "2,0.5", "--risk-alpha", "2", *FILES]) \
        is not None
    v = parse(pipeline.COMMAND, ["-m", "AP", "--risk-alpha", "2,0.5", "--risk-alpha", "2",
                                 *FILES])
    assert pipeline.options_of({**v, "risk_alphas": [2.0, 0.5]}).risk_alphas == [2.0, 0.5]
    code, _, err = invoke(["risk", "-m", "AP", "--risk-alpha", "x", *FILES])
    assert code == 2 and "Invalid value for '--risk-alpha': 'x' is not a number" in err
    with pytest.raises(UsageError, match="at least one value"):
        ipsoeval.risk(None, risk_alphas=[])


def test_the_command_line_and_the_api_give_the_same_tables():
    v = parse(pipeline.COMMAND, ["-m", "AP", "--baseline", "neural", *FILES])
    v["risk_alphas"] = [1.0, 5.0]       # what the option's check makes of its default
    cli = pipeline.from_values(v)
    api = ipsoeval.risk(ipsoeval.evaluate(FILES[0], FILES[1:], measures=["AP"]),
                        measures=["AP"], baseline="neural")
    for tid in ("urisk", "zrisk"):
        assert cli.table(tid).records == api.table(tid).records


def test_table_list_after_the_option_checks_before_reading(tmp_path):
    missing = [str(tmp_path / "q"), str(tmp_path / "a"), str(tmp_path / "b")]
    code, out, err = invoke(["risk", "--table", "list", "-m", "AP", *missing])
    assert code == 0 and out.startswith("urisk\t") and err == ""
    code, _, err = invoke(["risk", "--table", "list", "--nuggets", "--scores", *missing])
    assert code == 2 and "--nuggets conflicts with --scores" in err
