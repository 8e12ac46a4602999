"""Number syntax and truncated lines.

Labels are ASCII integers (optional sign, digits) inside the int32 range the
label matrix can hold above its sentinels; scores are finite ASCII decimals
with an optional exponent.  Python's own int()/float() accept more (``1_0``,
full-width digits), which must not leak into what ipsoeval reads.
"""

from __future__ import annotations

import pytest

from tests.conftest import invoke

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python")


def _run_eval(tmp_path, qrels_text, run_text, *args):
    q = tmp_path / "qrels"
    q.write_text(qrels_text, encoding="utf-8")
    r = tmp_path / "run"
    r.write_text(run_text, encoding="utf-8")
    return invoke(["eval", "--format", "trec", "-m", "num_rel", *args, q, r])


@pytest.mark.parametrize("label", ["1_0", "\uff11", "1e0", "0x1", "1.0", "--1", "1-"])
def test_label_syntax_is_ascii_integer(tmp_path, label):
    code, out, err = _run_eval(tmp_path, f"q1 0 AB {label}\n", "q1 Q0 AB 1 3 A\n")
    assert code == 3 and out == ""
    assert err == f"ipsoeval: error: {tmp_path / 'qrels'}:1: label is not an integer ({label!r})\n"


@pytest.mark.parametrize("label", ["+1", "01", "-1", "2147483647", "-2147483646"])
def test_label_syntax_accepted(tmp_path, label):
    code, _, err = _run_eval(tmp_path, f"q1 0 AB {label}\n", "q1 Q0 AB 1 3 A\n")
    assert code == 0, err


@pytest.mark.parametrize("label", ["4294967296", "2147483648", "-2147483647", "-9999999999"])
def test_label_out_of_range_is_an_error(tmp_path, label):
    """A label of 2^32 used to count in num_rel yet rank as non-relevant
    (truncated to 32 bits in the label matrix)."""
    code, out, err = _run_eval(tmp_path, f"q1 0 AB 1\nq1 0 CD {label}\n", "q1 Q0 AB 1 3 A\n")
    assert code == 3 and out == ""
    assert f"qrels:2: label out of range ({int(label)};" in err


@pytest.mark.parametrize("score", ["1_0", "\uff11", "nan", "inf", "-inf", "1e400", "0x1p3",
                                   "infinity", "1e", "."])
def test_score_syntax(tmp_path, score):
    code, out, err = _run_eval(tmp_path, "q1 0 AB 1\n", f"q1 Q0 AB 1 {score} A\n")
    assert code == 3 and out == ""
    assert err.endswith(f"run:1: score is not a finite number ({score!r})\n")


@pytest.mark.parametrize("score", ["1e-3", ".5", "5.", "-0.0", "+2", "1E+2", "123456789012345678"])
def test_score_syntax_accepted(tmp_path, score):
    code, _, err = _run_eval(tmp_path, "q1 0 AB 1\n", f"q1 Q0 AB 1 {score} A\n")
    assert code == 0, err


@pytest.mark.parametrize("tail", [" ", "\t", "  "])
def test_truncated_last_line_is_malformed(tmp_path, tail):
    """`1 Q0 d2 2 1.0 ` at the end of the file has 5 fields (trec_eval:
    "Malformed line 2"); it used to be read as 6 with an empty tag."""
    code, out, err = _run_eval(tmp_path, "q1 0 AB 1\n",
                               "q1 Q0 AB 1 3 A\nq1 Q0 d2 2 1.0" + tail)
    assert code == 3 and out == ""
    assert err.endswith("run:2: expected 6 or more fields (qid Q0 docno rank score tag), "
                        "found 5\n")


def _damaged(kind: str, how: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import lzma
    c = bytearray({"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}[kind](data))
    if how == "truncated":
        return bytes(c[: len(c) * 2 // 3])
    for i in range(len(c) // 3, len(c) * 2 // 3, 97):   # bit flips in the body
        c[i] ^= 0x10
    return bytes(c)


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz"])
@pytest.mark.parametrize("how", ["truncated", "flipped"])
def test_damaged_compressed_input_is_an_input_error(tmp_path, te, kind, how):
    """Defect 7: a damaged gzip stream raised zlib.error (exit 70)."""
    run = tmp_path / "run"
    run.write_bytes(_damaged(kind, how, (te / "results.test").read_bytes()))
    code, out, err = invoke(["eval", te / "qrels.test", run])
    assert code == 3 and out == ""
    assert err.startswith(f"ipsoeval: error: {run}: corrupt or truncated {kind} data (")
    assert err.count("\n") == 1


@pytest.mark.parametrize("gains,why", [
    ("1:1,1:5", "label 1 is given twice"),
    ("1:1e308", "gains must be numbers from 0 to 1e+100"),
    ("1:inf", "gains must be numbers from 0 to 1e+100"),
])
def test_gains_refused(tmp_path, gains, why):
    """Defect 16: in `--gains 1:1,1:5` the last value used to win silently."""
    code, out, err = _run_eval(tmp_path, "q1 0 AB 1\n", "q1 Q0 AB 1 3 A\n",
                               "--format", "tsv", "--gains", gains)
    assert code == 2 and out == ""
    assert why in err and err.count("\n") == 1


def test_byte_order_mark_is_named(tmp_path):
    """A BOM would become part of the first qid (trec_eval: "result qid
    '\\ufeffq1' not found in qrels"); say what it is instead."""
    code, out, err = _run_eval(tmp_path, "\ufeffq1 0 AB 1\n", "q1 Q0 AB 1 3 A\n")
    assert code == 3 and out == ""
    assert err == (f"ipsoeval: error: {tmp_path / 'qrels'}:1: the file starts with a UTF-8 "
                   "byte-order mark (save it without one)\n")


def test_crlf_line_ends_as_trec_eval(tmp_path):
    """trec_eval 10.0 reads CRLF files like LF files (num_rel_ret 2, runid A)."""
    code, out, _ = _run_eval(tmp_path, "q1 0 AB 1\r\nq1 0 CD 1\r\n",
                             "q1 Q0 AB 1 3 A\r\nq1 Q0 CD 2 2 A\r\n", "-m", "runid")
    assert code == 0
    assert out == "runid                 \tall\tA\nnum_rel               \tall\t2\n"
