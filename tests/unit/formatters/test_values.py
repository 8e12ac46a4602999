"""ipsoeval.formatters.values: the one value spelling the text formats share."""

import math

import pytest

from ipsoeval.formatters import html, table, values


@pytest.mark.parametrize("v, tsv, page, cell", [
    (None, "", "", "–"),
    (math.nan, "", "", "–"),
    (True, "true", "yes", "yes"),
    (False, "false", "no", "no"),
    (math.inf, "inf", "inf", "inf"),
    (-math.inf, "-inf", "-inf", "-inf"),
    (0.5, "0.5", "0.5000", "0.5000"),
    (1e-5, "1e-05", "1.00e-05", "1.00e-05"),
    (1.5e12, "1500000000000.0", "1500000000000.0000", "1.5e+12"),
    (3, "3", "3", "3"),
    ("a\x1bb", "a\x1bb", "a\x1bb", "a\\x1bb"),
])
def test_every_format_spells_through_one_function(v, tsv, page, cell):
    assert values.plain(v) == tsv
    assert html.show(v) == page
    assert table._fmt(v, 4) == cell


def test_spell_takes_the_words_and_the_float_as_parameters():
    assert values.spell(None, undefined="n/a") == "n/a"
    assert values.spell(math.nan, undefined="n/a") == "n/a"
    assert values.spell(True, yes="Y", no="N") == "Y"
    assert values.spell(0.25, lambda x: f"{x:.1f}") == "0.2"
    assert values.spell("x", other=str.upper) == "X"
