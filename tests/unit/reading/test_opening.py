"""Readers: formats, compression, stdin, comments; every malformed case is one line."""

import bz2
import gzip
import lzma

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ipsoeval import reading as readers
from ipsoeval.errors import InputError
from ipsoeval.reading import opening
from ipsoeval.reading.words import words_to_bytes

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python")


def write(tmp_path, name, text, mode="w"):
    p = tmp_path / name
    if mode == "w":
        p.write_text(text)
    else:
        p.write_bytes(text)
    return str(p)


def ids(words):
    return [b.decode() for b in words_to_bytes(words)]


def test_run_fields_whitespace_and_comments(tmp_path):
    p = write(tmp_path, "run", "# a comment\n\n1 Q0 d#1 1 2.5 tagA\n1\tQ0\t  d2 2  -1e-3 tagB extra\n")
    r = readers.read_run(p)
    assert ids(r.qid) == ["1", "1"]
    assert ids(r.docno) == ["d#1", "d2"]
    assert r.score.tolist() == [2.5, -0.001]
    assert r.line.tolist() == [3, 4]
    assert r.name == "tagB"        # tag of the last line


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress])
def test_compressed_by_magic_not_extension(tmp_path, compress):
    p = write(tmp_path, "run.txt", compress(b"1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n"), mode="b")
    assert ids(readers.read_run(p).docno) == ["a", "b"]


def test_stdin(monkeypatch):
    import io
    import sys

    class Fake:
        buffer = io.BytesIO(b"7 0 x 1\n")

    monkeypatch.setattr(sys, "stdin", Fake)
    q = readers.read_qrels("-")
    assert ids(q.qid) == ["7"] and q.label.tolist() == [1]


def test_msmarco_autodetect(tmp_path):
    p = write(tmp_path, "run.tsv", "1\td1\t1\n1\td2\t2\n2\td3\t1\n")
    r = readers.read_run(p)
    assert r.fmt == "msmarco"
    assert r.score.tolist() == [-1.0, -2.0, -1.0]


def test_no_trailing_newline_and_crlf(tmp_path):
    p = write(tmp_path, "q", "1 0 a 1\r\n1 0 b 0", mode="w")
    q = readers.read_qrels(p)
    assert ids(q.docno) == ["a", "b"] and q.label.tolist() == [1, 0]


@pytest.mark.parametrize("text,line,msg", [
    ("1 Q0 a 1 2.0 t\n1 Q0 b 2\n", 2, "expected 6 or more fields (qid Q0 docno rank score tag), found 4"),
    ("1 Q0 a 1 2.0 t\n1 Q0 b 2 abc t\n", 2, "score is not a finite number ('abc')"),
    ("1 Q0 a 1 nan t\n", 1, "score is not a finite number ('nan')"),
    ("1 Q0 a 1 inf t\n", 1, "score is not a finite number ('inf')"),
    ("1 Q0 a 1 1.0.0 t\n", 1, "score is not a finite number ('1.0.0')"),
    ("1 Q0 a 1 1e400 t\n", 1, "score is not a finite number ('1e400')"),
])
def test_run_errors(tmp_path, text, line, msg):
    p = write(tmp_path, "run", text)
    with pytest.raises(InputError) as e:
        readers.read_run(p)
    assert e.value.format() == f"{p}:{line}: {msg}"


@pytest.mark.parametrize("text,line,msg", [
    ("1 0 a 1\n1 0 b x\n", 2, "label is not an integer ('x')"),
    ("1 0 a 1.5\n", 1, "label is not an integer ('1.5')"),
    ("1 0 a 1 extra\n", 1, "expected 4 fields (qid iter docno label), found 5"),
])
def test_qrels_errors(tmp_path, text, line, msg):
    p = write(tmp_path, "q", text)
    with pytest.raises(InputError) as e:
        readers.read_qrels(p)
    assert e.value.format() == f"{p}:{line}: {msg}"


def test_empty_and_binary_and_missing(tmp_path):
    p = write(tmp_path, "empty", "# only a comment\n\n")
    with pytest.raises(InputError, match="empty run file"):
        readers.read_run(p)
    b = write(tmp_path, "bin", b"1 Q0 a 1 2 t\n\x00\x01\x02garbage\n", mode="b")
    with pytest.raises(InputError) as e:
        readers.read_run(b)
    assert e.value.line == 2 and "binary data" in e.value.message
    with pytest.raises(InputError, match="no such file"):
        readers.read_run(str(tmp_path / "nope"))


def test_corrupt_gzip(tmp_path):
    p = write(tmp_path, "bad.gz", b"\x1f\x8b\x08\x00garbage", mode="b")
    with pytest.raises(InputError, match="corrupt or truncated gzip data"):
        readers.read_qrels(p)


def test_large_file_crosses_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(opening, "BLOCK", 64)
    lines = [f"{q} Q0 doc{i} {i} {1.0 / (i + 1):.6f} r" for q in range(3) for i in range(40)]
    p = write(tmp_path, "run", "\n".join(lines) + "\n")
    r = readers.read_run(p)
    assert len(r.score) == 120
    assert r.line.tolist() == list(range(1, 121))
    assert ids(r.docno)[:3] == ["doc0", "doc1", "doc2"]
    assert np.array_equal(r.score, [float(ln.split()[4]) for ln in lines])


decimals = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64).map(repr),
    st.decimals(allow_nan=False, allow_infinity=False, places=6,
                min_value=-10**8, max_value=10**8).map(str),
    st.integers(-10**12, 10**12).map(str),
    st.from_regex(r"\A[+-]?[0-9]{0,9}\.[0-9]{1,9}\Z"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(decimals, min_size=1, max_size=20))
def test_numbers_parse_exactly_like_strtod(tmp_path_factory, texts):
    texts = [t for t in texts if t not in (".",) and not t.endswith(".") or t[:-1].lstrip("+-").isdigit()]
    good = []
    for t in texts:
        try:
            x = float(t)
        except ValueError:
            continue
        if np.isfinite(x):
            good.append(t)
    if not good:
        return
    d = tmp_path_factory.mktemp("n")
    p = d / "run"
    p.write_text("".join(f"1 Q0 d{i} {i} {t} tag\n" for i, t in enumerate(good)))
    r = readers.read_run(str(p))
    assert r.score.tolist() == [float(t) for t in good]
