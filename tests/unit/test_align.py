"""Alignment must match trec_eval 10.0.

Expected values were checked against trec_eval 10.0 (the commands are in
each test's docstring).
"""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import invoke

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python", "c-two-step")


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_run_docno_wider_than_every_qrels_docno(tmp_path):
    """Defect 1: `trec_eval -m num_rel_ret` prints 1; a 9-byte unjudged docno
    (two 8-byte words) used to make every lookup of the run miss."""
    q = _write(tmp_path, "qrels", "q1 0 AB 1\n")
    r = _write(tmp_path, "run", "q1 Q0 AB 1 3 A\nq1 Q0 xxxxxxxxx 2 2 A\n")
    code, out, _ = invoke(["eval", "--format", "trec", "-m", "num_rel_ret", q, r])
    assert code == 0
    assert out == "num_rel_ret           \tall\t1\n"


def test_judged_only_applies_after_depth_cut(tmp_path):
    """Defect 2: trec_eval cuts at -M, then -J drops unjudged documents.
    `trec_eval -q -J -c -M 5 -l 2 -m P.5 -m num_ret q r` prints 0 and 0.0000:
    the top 5 are unjudged, the relevant document is at rank 8."""
    q = _write(tmp_path, "q", "1 0 a 1\n1 0 b 0\n1 0 c 2\n")
    lines = [f"1 Q0 u{i} {i} {20 - i} T" for i in range(1, 8)] + ["1 Q0 c 8 1 T"]
    r = _write(tmp_path, "r", "\n".join(lines) + "\n")
    code, out, _ = invoke(["eval", "--format", "trec", "-q", "-J", "-c", "-M", "5", "-l", "2",
                           "-m", "P.5", "-m", "num_ret", q, r])
    assert code == 0
    assert out == ("num_ret               \t1\t0\n"
                   "P_5                   \t1\t0.0000\n"
                   "num_ret               \tall\t0\n"
                   "P_5                   \tall\t0.0000\n")


_alphabet = string.ascii_letters + string.digits + "-_.#"
_docno = st.integers(1, 70).flatmap(
    lambda n: st.text(_alphabet, min_size=n, max_size=n).filter(lambda s: not s.startswith("#")))


@given(judged=st.lists(_docno, min_size=1, max_size=12, unique=True),
       unjudged=st.lists(_docno, min_size=0, max_size=12, unique=True),
       relevant=st.data())
def test_lookup_independent_of_docno_widths(tmp_path_factory, judged, unjudged, relevant):
    """Any mix of docno lengths (1..70 bytes, word multiples included) in run
    and qrels: num_rel_ret equals a plain dict reference."""
    tmp = tmp_path_factory.mktemp("w")
    labels = relevant.draw(st.lists(st.integers(-1, 2), min_size=len(judged),
                                    max_size=len(judged)))
    qrels = dict(zip(judged, labels))
    run_docs = list(dict.fromkeys(judged[::2] + [d for d in unjudged if d not in qrels]))
    q = _write(tmp, "q", "".join(f"t1 0 {d} {lab}\n" for d, lab in qrels.items()))
    r = _write(tmp, "r", "".join(f"t1 Q0 {d} {i} {100 - i} X\n"
                                 for i, d in enumerate(run_docs, 1)))
    expect = sum(1 for d in run_docs if qrels.get(d, 0) >= 1)
    code, out, _ = invoke(["eval", "--format", "tsv", "-m", "num_rel_ret", q, r])
    assert code == 0
    assert out.splitlines()[1].split("\t")[-1] == str(expect)


def test_duplicate_docno_in_topic_absent_from_qrels(tmp_path):
    """Defect 16: a duplicate docno is an input error in every run topic, also
    in one the qrels do not have (and so is not evaluated)."""
    q = _write(tmp_path, "q", "1 0 a 1\n")
    r = _write(tmp_path, "r", "1 Q0 a 1 3 T\n2 Q0 x 1 3 T\n2 Q0 y 2 2 T\n2 Q0 x 3 1 T\n")
    code, out, err = invoke(["eval", "--format", "trec", "-m", "P.5", q, r])
    assert code == 3 and out == ""
    assert err == f"ipsoeval: error: {r}:4: duplicate docno 'x' in topic '2' (also at line 2)\n"


def test_no_judged_document_warns(tmp_path):
    """Defect 9: a run whose docnos match nothing in the qrels scored 0 silently."""
    q = _write(tmp_path, "q", "q1 0 AB 1\n")
    r = _write(tmp_path, "r", "q1 Q0 ZZ 1 3 A\n")
    code, out, err = invoke(["eval", "--format", "trec", "-m", "P.5", q, r])
    assert code == 0 and out == "P_5                   \tall\t0.0000\n"
    assert err == (f"ipsoeval: warning: {r}: none of the retrieved documents is in the qrels "
                   "(every score is 0; do the docnos have the same form?)\n")


def test_no_common_topic_warns(tmp_path):
    """Defect 9: with -c a run sharing no topic with the qrels scored 0 silently."""
    q = _write(tmp_path, "q", "q1 0 AB 1\n")
    r = _write(tmp_path, "r", "q9 Q0 AB 1 3 A\n")
    code, _, err = invoke(["eval", "--format", "trec", "-c", "-m", "P.5", q, r])
    assert code == 0
    assert err.endswith(f"ipsoeval: warning: {r}: no topic in common with the qrels "
                        "(every score is 0; are these the right qrels?)\n")


def test_swapped_arguments_are_named(tmp_path, te):
    """Defect 9: swapped QRELS and RUN said only "expected 4 fields … found 6"."""
    code, out, err = invoke(["eval", te / "results.test", te / "qrels.test"])
    assert code == 3 and out == ""
    assert err == (f"ipsoeval: error: {te / 'results.test'}:1: expected 4 fields "
                   "(qid iter docno label), found 6; did you swap QRELS and RUN?\n")
    q = _write(tmp_path, "q", "1 0 a 1\n")
    r = _write(tmp_path, "r", "1 Q0 a 1 2 T\n1 Q0 b 2 1 T\n1 0 c 0\n")
    code, _, err = invoke(["eval", q, r])     # a bad line later on: no question
    assert code == 3 and err.endswith("found 4\n")


def test_long_docnos_keep_equality_and_strcmp_order(tmp_path):
    """Ids longer than words.LONG_ID bytes are stored by prefix and serial;
    ties among long ids sharing that prefix still follow strcmp (trec_eval
    10.0 on this input: num_rel_ret 1, recip_rank 0.5000, P_1 0, P_2 0.5000:
    'short' ranks first, then p…b, p…ab, p…a, p)."""
    p = "p" * 300
    q = _write(tmp_path, "q", f"1 0 {p}b 1\n1 0 {p}ab 0\n1 0 {p}a 0\n1 0 short 0\n")
    r = _write(tmp_path, "r", "".join(f"1 Q0 {d} 1 2 T\n" for d in
                                      (f"{p}a", f"{p}ab", f"{p}b", "short", p)))
    code, out, _ = invoke(["eval", "--format", "trec", "-m", "P.1,2", "-m", "recip_rank",
                           "-m", "num_rel_ret", q, r])
    assert code == 0
    assert out == ("num_rel_ret           \tall\t1\n"
                   "recip_rank            \tall\t0.5000\n"
                   "P_1                   \tall\t0.0000\n"
                   "P_2                   \tall\t0.5000\n")


def test_one_megabyte_docno_costs_its_bytes_not_a_matrix(tmp_path):
    """Defect 17: one 1 MB docno made every row of the word matrix 1 MB wide
    (62 s and 540 MB for a 1,500-line run; gigabytes with wide qrels)."""
    from ipsoeval import reading as readers
    from ipsoeval.reading import words
    lines = [f"1 Q0 d{i} {i} {2000 - i} T" for i in range(1500)]
    lines[700] = "1 Q0 " + "x" * 1_000_000 + " 5 3.3 T"
    r = _write(tmp_path, "r", "\n".join(lines) + "\n")
    run = readers.read_run(str(r))
    assert run.docno.shape == (1500, words.ID_WORDS)
    assert words.id_bytes(run.docno[700]) == b"x" * 1_000_000
    q = _write(tmp_path, "q", "1 0 d3 1\n1 0 " + "x" * 1_000_000 + " 1\n")
    code, out, _ = invoke(["eval", "--format", "trec", "-m", "num_rel_ret", q, r])
    assert code == 0 and out == "num_rel_ret           \tall\t2\n"


def test_depth_beyond_any_run_is_no_cut(tmp_path):
    """`-M 99999999999999999999` (trec_eval: atol saturates, no cut) was an
    internal OverflowError on the compiled path (found by the 10^5 fuzz run)."""
    q = _write(tmp_path, "qrels", "1 0 a 1\n1 0 b 0\n")
    r = _write(tmp_path, "run", "1 Q0 b 1 3 A\n1 Q0 a 2 2 A\n")
    base = invoke(["eval", "-m", "P@5", "-m", "AP", "--format", "tsv", str(q), str(r)])
    huge = invoke(["eval", "-M", "99999999999999999999", "-m", "P@5", "-m", "AP",
                   "--format", "tsv", str(q), str(r)])
    assert base[0] == 0 and huge[0] == 0, huge[2]
    assert huge[1] == base[1]
