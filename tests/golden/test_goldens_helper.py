"""tests/goldens.py, the one comparison every golden file goes through: a
last-bit move of a number passes, a move at 1e-9 fails, any change of text
fails, JSON is compared structurally."""

import json

import pytest

from tests.goldens import assert_same_output, close, output_difference

TSV = "run\tmeasure\tvalue\nbm25\tAP\t0.5472220316450305\nneural\tP@10\t0.42\n"


def test_last_digit_of_a_float_passes():
    assert_same_output(TSV, TSV.replace("0.5472220316450305", "0.5472220316450306"))
    # the shortest repr can change length with the last bit
    assert_same_output("x 0.5\n", "x 0.49999999999999994\n")


def test_a_change_at_1e9_fails():
    moved = TSV.replace("0.5472220316450305", "0.5472220321922525")   # ~1e-9 relative
    with pytest.raises(AssertionError, match="number"):
        assert_same_output(TSV, moved)


@pytest.mark.parametrize("old, new", [("bm25", "bm24"), ("AP", "Ap"), ("\t0.42", " 0.42"),
                                      ("P@10", "P@11"), ("0.42\n", "0.42")])
def test_a_changed_word_or_layout_fails(old, new):
    assert output_difference(TSV, TSV.replace(old, new)) is not None


def test_json_structurally():
    doc = {"a": [1, 0.5472220316450305, "p = 0.25 (t)"], "b": None, "c": True}
    text = json.dumps(doc, indent=1)
    assert_same_output(text, json.dumps({**doc, "a": [1, 0.5472220316450306, "p = 0.25 (t)"]}))
    for bad in ({**doc, "a": [1.0, 0.5472220316450305, "p = 0.25 (t)"]},   # int became float
                {**doc, "a": [1, 0.5472220316450305, "p = 0.26 (t)"]},     # number in a sentence
                {"b": None, "a": doc["a"], "c": True},                     # key order
                {**doc, "c": 1},                                           # bool became int
                {**doc, "a": [1, 0.5472230316450305, "p = 0.25 (t)"]}):
        assert output_difference(text, json.dumps(bad)) is not None, bad


def test_zero_inf_nan():
    assert close(5.6e-17, 0.0) and not close(1e-14, 0.0)
    assert close(float("inf"), float("inf")) and not close(1e308, float("inf"))
    assert close(float("nan"), float("nan")) and not close(0.0, float("nan"))
    assert output_difference("p inf", "p nan") is not None
