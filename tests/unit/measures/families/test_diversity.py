"""The diversity measures outside the differential suite: hand-worked values,
reading diversity qrels only when one is asked for, the commands they work in,
and the one-line refusals (tests/differential/test_ndeval.py compares the
values with ndeval's)."""

import math

import pytest

from ipsoeval import engine
from tests.conftest import invoke

QRELS = """1 a d1 1
1 a d2 0
1 b d2 1
1 b d3 2
1 c d4 1
1 a d5 1
1 c d5 1
2 x e1 0
"""
RUN = """1 Q0 d5 1 9 r
1 Q0 d9 2 8 r
1 Q0 d2 3 7 r
1 Q0 d1 4 6 r
2 Q0 e1 1 3 r
"""


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    r2 = tmp_path / "r2.txt"
    r2.write_text(RUN.replace(" r\n", " s\n").replace("d9", "d4"))
    return q, r, r2


def _values(q, r, measures, **kw):
    al = engine.load(str(q), [str(r)], subtopics=True, **kw)
    sc = engine.evaluate(al, measures)
    return {m: sc.matrix(m)[0].tolist() for m in measures}, al


def test_hand_worked_topic(files):
    # topic 1: subtopics a (d1, d5), b (d2, d3), c (d4, d5): S = 3; the run ranks
    # d5 (a, c), d9 (unjudged), d2 (b), d1 (a).  alpha = 1/2:
    # gains 2, 0, 1, 1/2; alpha-DCG@4 = 2 + 1/log2(4) + 0.5/log2(5)
    v, al = _values(files[0], files[1], ["alpha_DCG@1", "alpha_DCG@4", "P_IA@4",
                                          "StRecall@2", "StRecall@4", "AP_IA", "NRBP"])
    dcg = 2 + 1 / 2 + 0.5 / math.log2(5)
    ideal_ideal = sum(3 * 0.5 ** i / math.log2(i + 2) for i in range(4))
    assert v["alpha_DCG@1"][0] == 2.0                 # not divided at k = 1 (ndeval)
    assert math.isclose(v["alpha_DCG@4"][0], dcg / ideal_ideal, rel_tol=1e-12)
    assert math.isclose(v["P_IA@4"][0], 4 / (4 * 3))  # (d5:a,c) (d2:b) (d1:a)
    assert v["StRecall@2"][0] == pytest.approx(2 / 3)
    assert v["StRecall@4"][0] == 1.0
    # AP per subtopic: a: (1/1 + 2/4)/2, b: (1/3)/2, c: (1/1)/2
    assert math.isclose(v["AP_IA"][0], ((1 + 0.5) / 2 + (1 / 3) / 2 + 1 / 2) / 3)
    # NRBP: (1 - 0.5 * 0.5)/3 * (2 + 0 + 1 * 0.25 + 0.5 * 0.125)
    assert math.isclose(v["NRBP"][0], 0.75 / 3 * (2 + 0.25 + 0.0625))
    # topic 2: no relevant subtopic: every measure 0
    assert all(x[1] == 0.0 for x in v.values())
    # other measures see each document's largest judgment
    assert al.num_rel.tolist() == [5, 0]


def test_greedy_ideal_breaks_ties_by_the_largest_docno(tmp_path):
    # d1 (a, b) first; then d2 (c) and d3 (c) gain 1 each: ndeval takes d3 (larger
    # docno); with d3 also relevant to a, d3 gains 1.5 after d1 and is taken either way
    q = tmp_path / "q"
    q.write_text("1 a d1 1\n1 b d1 1\n1 c d2 1\n1 c d3 1\n1 d d2 1\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 d1 1 3 r\n1 Q0 d3 2 2 r\n")
    v, _ = _values(q, r, ["alpha_nDCG@2"])
    # ideal by ndeval: d1 (2), then d2 (c, d: 2) beats d3 (c: 1) -- gains 2, 2
    ideal = 2 + 2 / math.log2(3)
    assert math.isclose(v["alpha_nDCG@2"][0], (2 + 1 / math.log2(3)) / ideal, rel_tol=1e-12)


def test_ordinary_qrels_meaning_is_untouched_without_a_diversity_measure(files):
    # column 2 is trec_eval's ignored iteration: d2 twice in topic 1 is an error only
    # for trec_eval's reading, which happens when no diversity measure is asked for
    q, r, _ = files
    code, out, err = invoke(["eval", "-m", "P@5", q, r])
    assert code == 3 and "duplicate docno 'd2'" in err
    code, out, err = invoke(["eval", "-m", "alpha_nDCG@5", "-m", "P@5", q, r])
    assert code == 0, err


@pytest.mark.parametrize("cmd", [["sigtest", "--format", "tsv"],
                                 ["leaderboard", "--format", "tsv"],
                                 ["bootstrap", "--seed", "1", "--format", "tsv"], ["report"]])
def test_works_in_the_analyses(files, cmd):
    q, r, r2 = files
    code, out, err = invoke([*cmd, "-m", "alpha_nDCG@5", "-m", "nNRBP", q, r, r2])
    assert code == 0, err
    assert "alpha_nDCG@5" in out


def test_scores_round_trip(files, tmp_path):
    q, r, r2 = files
    code, out, err = invoke(["eval", "-q", "-m", "ERR_IA@5", "--format", "tsv", q, r, r2])
    assert code == 0, err
    s = tmp_path / "s.tsv"
    s.write_text(out)
    code, out2, err = invoke(["sigtest", "--scores", s, "-m", "ERR_IA@5", "--format", "tsv"])
    assert code == 0, err
    assert "ERR_IA@5" in out2


@pytest.mark.parametrize("extra,text", [
    (["--bounds"], "--bounds is not defined for alpha_nDCG@5"),
    (["--tie-break", "expected"], "do not combine with --tie-break expected"),
    (["--labels", "probability"], "take integer judgments"),
])
def test_refused_with_one_line(files, extra, text):
    q, r, _ = files
    code, out, err = invoke(["eval", *extra, "-m", "alpha_nDCG@5", q, r])
    assert code == 2 and text in err and err.count("\n") == 1 and out == ""


@pytest.mark.parametrize("qrels,text", [
    ("1 a d1 -1\n", "1: a diversity judgment must be a whole number"),
    ("1 a d1 1\n1 a d1 0\n", "2: duplicate judgment of docno 'd1' for subtopic 'a'"),
    ("1 a d1\n", "1: expected 4 fields"),
])
def test_bad_diversity_qrels(tmp_path, files, qrels, text):
    q = tmp_path / "bad"
    q.write_text(qrels)
    code, out, err = invoke(["eval", "-m", "alpha_nDCG@5", q, files[1]])
    assert code == 3 and text in err and err.count("\n") == 1, err


def test_api(files):
    import ipsoeval
    q, r, _ = files
    res = ipsoeval.evaluate(str(q), [str(r)], ["alpha_nDCG@4"], queries="intersection")
    assert res.matrix("alpha_nDCG@4").shape == (1, 2)


def test_many_runs_are_not_swept_and_ray_is_refused(files, tmp_path):
    # from SWEEP_RUNS runs on, --engine local scores a batch at a time from the plain
    # qrels reader: the diversity measures keep the whole-load path
    from ipsoeval.distributed import SWEEP_RUNS
    q, r, _ = files
    runs = []
    for i in range(SWEEP_RUNS):
        p = tmp_path / f"run{i}"
        p.write_text(RUN)
        runs.append(p)
    code, out, err = invoke(["eval", "--name-from-file", "-m", "alpha_nDCG@4", q, *runs])
    assert code == 0, err
    code, out, err = invoke(["eval", "--engine", "ray", "-m", "alpha_nDCG@4", q, r])
    assert code == 2 and "diversity measures" in err


def test_judged_only_removes_unjudged_documents_first(files, tmp_path):
    # ir_measures' judged_only (its pyndeval provider drops the run's documents not in
    # the qrels before calling ndeval): the value on the run without them
    q, r, _ = files
    judged = tmp_path / "judged.txt"
    judged.write_text("".join(ln + "\n" for ln in RUN.splitlines() if " d9 " not in ln))
    names = ["alpha_nDCG@2", "alpha_DCG@3", "ERR_IA@2", "nERR_IA@2", "P_IA@2", "AP_IA"]
    v, _ = _values(q, r, [f"{n.split('@')[0]}(judged_only=True)"
                          + (f"@{n.split('@')[1]}" if "@" in n else "") for n in names])
    w, _ = _values(q, judged, names)
    assert list(v.values()) == list(w.values())
    assert list(v.values()) != list(_values(q, r, names)[0].values())


def test_tie_warning_sees_subtopic_judgments(tmp_path):
    # d1 and d2 have the same largest judgment but different subtopics: their tie
    # order moves alpha_nDCG@1, so eval warns
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 a d1 1\n1 b d2 1\n1 b d3 1\n")
    r.write_text("1 Q0 d3 1 5 r\n1 Q0 d1 2 3 r\n1 Q0 d2 3 3 r\n")
    code, out, err = invoke(["eval", "-m", "alpha_nDCG@2", q, r])
    assert code == 0 and "tied scores" in err and "alpha_nDCG@2" in err
