"""Predictor files: both layouts, the header, and one error line (FILE:LINE)
for each kind of bad input."""

from __future__ import annotations

import pytest

from ipsoeval.errors import InputError, UsageError
from ipsoeval.reading.predictors import predictors_from, read_predictors


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_two_columns_named_by_the_stem(tmp_path):
    p = write(tmp_path, "clarity.tsv", "# comment\n1\t0.5\n2 0.25\n\n3   -1e-3\n")
    got = read_predictors([p])
    assert got.names == ["clarity"]
    assert got.values["clarity"] == {"1": 0.5, "2": 0.25, "3": -0.001}


def test_long_table_with_header(tmp_path):
    p = write(tmp_path, "all.tsv", "predictor\tqid\tvalue\nwig\t1\t2\nnqc\t1\t3\nwig\t2\t4\n")
    got = read_predictors([p])
    assert got.names == ["wig", "nqc"]
    assert got.values == {"wig": {"1": 2.0, "2": 4.0}, "nqc": {"1": 3.0}}


def test_several_files_in_order(tmp_path):
    a = write(tmp_path, "a.txt", "1 1\n")
    b = write(tmp_path, "b.txt", "1 2\n")
    assert read_predictors([b, a]).names == ["b", "a"]


@pytest.mark.parametrize("text,line,words", [
    ("1 0.5\n2 nan\n", 2, "NaN"),
    ("1 0.5\n2 NaN\n", 2, "NaN"),
    ("1 0.5\n2 abc\n", 2, "not a number"),
    ("1 0.5\n2 inf\n", 2, "not finite"),
    ("1 0.5\n1 0.7\n", 2, "topic 1 given twice"),
    ("1 0.5\n2 0.5 7\n", 2, "3 fields where"),
    ("1 0.5 7 8\n", 1, "found 4 fields"),
])
def test_bad_lines(tmp_path, text, line, words):
    p = write(tmp_path, "p.txt", text)
    with pytest.raises(InputError) as e:
        read_predictors([p])
    assert e.value.path == p and e.value.line == line
    assert words in e.value.message
    assert "\n" not in str(e.value)


def test_duplicate_topic_in_long_form(tmp_path):
    p = write(tmp_path, "l.tsv", "wig 1 2\nnqc 1 2\nwig 1 3\n")
    with pytest.raises(InputError, match="topic 1 given twice for predictor wig"):
        read_predictors([p])


def test_a_predictor_in_two_files(tmp_path):
    a = write(tmp_path, "wig.txt", "1 1\n")
    b = write(tmp_path, "l.tsv", "wig 1 2\n")
    with pytest.raises(InputError, match="also given by"):
        read_predictors([a, b])


def test_empty_file(tmp_path):
    p = write(tmp_path, "e.txt", "# nothing\n\n")
    with pytest.raises(InputError, match="empty predictor file"):
        read_predictors([p])


def test_api_dicts():
    got = predictors_from({"a": {1: 0.5, "2": 1}})
    assert got.names == ["a"] and got.values["a"] == {"1": 0.5, "2": 1.0}
    with pytest.raises(UsageError, match="not a finite"):
        predictors_from({"a": {1: float("nan")}})
