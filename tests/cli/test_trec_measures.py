"""trec_eval 10.0 measures beyond the official set: names, parameters, values.

Values are checked against trec_eval 10.0's own outputs (the golden files
in tests/data/trec_eval, NIST notice there) and against brute-force Python
references.
"""

import math

import numpy as np
import pytest

from tests.conftest import ROOT, TE, invoke


def run(*args):
    code, out, err = invoke(["eval", "--format", "trec", *args])
    assert code == 0, err
    return out


def test_rbp_is_trec_evals_rbp():
    # defect 3: `-m rbp` is trec_eval's rbp (p = 0.9, graded gains, name rbp)
    out = run("-m", "rbp", "-m", "rbp_resid", TE / "qrels.test", TE / "results.test")
    assert out == ("rbp                   \tall\t0.3234\n"
                   "rbp_resid             \tall\t0.0204\n")


def test_rbp_parameter_p():
    out = run("-m", "rbp.p=0.8", TE / "qrels.test", TE / "results.test")
    assert out.startswith("rbp_p=0.8             \tall\t")


# --- trec_eval's outputs on generated inputs ---------------------------------------

import json  # noqa: E402
from pathlib import Path  # noqa: E402

GEN = ROOT / "tests" / "data" / "trec_measures"
CASES = json.loads((GEN / "cases.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["expected"])
def test_generated_cases_byte_for_byte(case):
    got = run(*case["args"], GEN / case["qrels"], GEN / case["run"])
    want = (GEN / case["expected"]).read_text()
    # trec_eval's known bugs, listed line by line with the reason in cases.json
    for trec_line, ours in case.get("exceptions", []):
        assert case["reason"] and want.count(trec_line + "\n") == 1
        want = want.replace(trec_line + "\n", ours + "\n")
    assert got == want


# --- trec_eval's bugs: the correct value, and trec_eval's, side by side -------------

def test_fractional_gains_ideal_sorted_correctly():
    # trec_eval sorts gain levels with an int comparator (gain1 - gain2 truncated),
    # so 1.5 and 1 compare equal and its ideal ranking can put 1 before 1.5:
    # trec_eval 10.0 prints ndcg_1=1.5,2=1 301 0.1504 (all 0.3930) here.
    out = run("-q", "-m", "ndcg.1=1.5,2=1", TE / "qrels.rel_level", TE / "results.test")
    assert "ndcg_1=1.5,2=1        \t301\t0.1497\n" in out
    assert out.endswith("ndcg_1=1.5,2=1        \tall\t0.3927\n")
    # brute force with the ideal ranking sorted by gain
    assert round(_brute_ndcg("301", {1: 1.5, 2: 1.0}), 4) == 0.1497


def _read(path):
    rows = [ln.split() for ln in Path(path).read_text().splitlines() if ln.strip()]
    return rows


def _brute_ndcg(topic, pairs):
    q = {r[2]: int(r[3]) for r in _read(TE / "qrels.rel_level") if r[0] == topic}
    docs = [(float(r[4]), r[2]) for r in _read(TE / "results.test") if r[0] == topic]
    docs.sort(key=lambda x: (-x[0], [-c for c in x[1].encode()] + [1]))

    def gain(lab):
        return pairs.get(lab, float(lab)) if lab >= 0 else 0.0
    g = [gain(q[d]) if d in q else 0.0 for _, d in docs]
    ideal = sorted((gain(v) for v in q.values() if v >= 0 and gain(v) > 0), reverse=True)
    dcg = sum(x / math.log2(i + 2) for i, x in enumerate(g))
    return dcg / sum(x / math.log2(i + 2) for i, x in enumerate(ideal))


def test_rbp_graded_gains_scaled_per_topic():
    # rbp's gains are min-max scaled to [0, 1] per topic (m_rbp.c); trec_eval reads
    # min and max uninitialised: its -g build prints `-m rbp.p=0.8` on qrels.test as
    # 0.3077, but 0.0123 next to `-m yaap` (the -O2 build: `-m rbp` 0.0067).
    out = run("-q", "-m", "rbp", TE / "qrels.rel_level", TE / "results.test")
    for topic in ("301", "302", "303"):
        q = {r[2]: int(r[3]) for r in _read(TE / "qrels.rel_level") if r[0] == topic}
        top = max(v for v in q.values() if v >= 0)
        docs = [(float(r[4]), r[2]) for r in _read(TE / "results.test") if r[0] == topic]
        docs.sort(key=lambda x: (-x[0], [-c for c in x[1].encode()] + [1]))
        g = [max(q.get(d, 0), 0) / (top if top > 1 else 1) for _, d in docs]
        want = 0.1 * sum(x * 0.9 ** i for i, x in enumerate(g))
        assert f"rbp                   \t{topic}\t{want:6.4f}\n" in out
    assert run("-m", "rbp.p=0.8", TE / "qrels.test", TE / "results.test") == \
        "rbp_p=0.8             \tall\t0.3077\n"


# --- ERR ------------------------------------------------------------------------------

def _err(labels, k, gmax=4):
    s, stay = 0.0, 1.0
    for i, lab in enumerate(labels[:k]):
        r = (2 ** max(lab, 0) - 1) / 2 ** gmax
        s += stay * r / (i + 1)
        stay *= 1 - r
    return s


@pytest.mark.parametrize("seed", range(5))
def test_err_brute_force(tmp_path, seed):
    from ipsoeval import engine
    rnd = np.random.default_rng(seed)
    qrels, runl, want = [], [], {}
    for t in range(4):
        n = int(rnd.integers(1, 30))
        labels = rnd.integers(-1, 5, size=n).tolist()
        for i, lab in enumerate(labels):
            qrels.append(f"t{t} 0 d{i} {lab}")
            runl.append(f"t{t} Q0 d{i} {i} {n - i} r")
        for k in (None, 1, 5, 20):
            want[(t, k)] = _err([x if x >= 0 else 0 for x in labels], k or n)
    (tmp_path / "q").write_text("\n".join(qrels) + "\n")
    (tmp_path / "r").write_text("\n".join(runl) + "\n")
    al = engine.load(str(tmp_path / "q"), [str(tmp_path / "r")], queries="qrels")
    sc = engine.evaluate(al, ["ERR", "ERR@1", "ERR@5", "ERR@20"])
    for k, name in ((None, "ERR"), (1, "ERR@1"), (5, "ERR@5"), (20, "ERR@20")):
        got = sc.matrix(name)[0]
        for t in range(4):
            assert got[al.topics.index(f"t{t}")] == pytest.approx(want[(t, k)], abs=1e-15)


def test_err_refuses_labels_above_gmax():
    code, _, err = invoke(["eval", "-m", "ERR@10", TE / "qrels.comment.test",
                           TE / "results.comment.test.gz"])
    assert code == 0       # labels 0..3 <= 4
    code, _, err = invoke(["eval", "-m", "ERR(gmax=2)@10", TE / "qrels.comment.test",
                           TE / "results.comment.test.gz"])
    assert code == 2 and "ERR(gmax=3)" in err


# --- names and parameters -------------------------------------------------------------

@pytest.mark.parametrize("arg", ["utility.1,2", "11pt_avg.1.5", "ndcg.-1=5", "G.x=1",
                                 "rbp_resid.1=2", "rbp.p=1.5", "ndcg.1=3,1=4",
                                 "Rprec_mult.-0.5", "relstring.-3", "SetF(beta=-1)",
                                 "rbp(p=0.8)", "relstring.1e400", "utility.,,,", "ndcg.=",
                                 "ndcg.1=", "rbp.p=0", "Rprec_mult.1e300", "11pt_avg.nan",
                                 "set_F.abc", "ERR(gmax=0)@5", "ERR(gmax=1.5)", "G.1=inf",
                                 "RprecMult@0.2,0.4", "infAP@10", "Unjudged"])
def test_bad_trec_parameters_are_usage_errors(arg):
    code, out, err = invoke(["eval", "-m", arg, TE / "qrels.test", TE / "results.test"])
    assert code == 2 and out == "" and err.startswith("ipsoeval: error:"), err


def test_explicit_parameters_replace_the_default_set():
    # trec_eval computes a measure once: with parameters given, its defaults are not added
    out = run("-m", "all_trec", "-m", "P.5", "-m", "relstring.3", TE / "qrels.test",
              TE / "results.test")
    assert "\nP_5 " in out and "\nP_10 " not in out and "relstring" not in out
    out = run("-q", "-m", "all_trec", "-m", "relstring.3", TE / "qrels.test",
              TE / "results.test")
    assert "relstring_3           \t301\t'000'\n" in out and "relstring  " not in out


def test_set_nickname():
    out = run("-m", "set", TE / "qrels.test", TE / "results.test")
    assert [ln.split()[0] for ln in out.splitlines()] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
        "set_relative_P", "set_recall", "set_map", "set_F"]


def test_printed_names_parse_back():
    from ipsoeval.measures import expand_all, parse_measure
    for r in expand_all(["all_trec", "ndcg.1=3,2=9", "rbp_resid.p=0.5", "set_F.0.5",
                         "11pt_avg..25,.5", "utility.2,-1,0,0", "ERR@10", "SetF(beta=2)"]):
        m = r.measure
        assert parse_measure(m.name) == m, m.name
        if r.trec_style and m.family not in ("runid", "SetF"):
            assert parse_measure(r.label) == m, r.label


def test_canonical_names_ir_measures_style():
    from ipsoeval.measures import parse_measure
    assert parse_measure("set_P").name == "SetP"
    assert parse_measure("set_recall").name == "SetR"
    assert parse_measure("set_map").name == "SetAP"
    assert parse_measure("set_relative_P").name == "SetRelP"
    assert parse_measure("infAP").name == "infAP"
    assert parse_measure("Rprec_mult_0.20").name == "RprecMult@0.2"
    assert parse_measure("unj_5").name == "Unjudged@5"
    assert parse_measure("relative_P_10").name == "RelP@10"
    assert parse_measure("rbp").name == "rbp"
    assert parse_measure("RBP").name == "RBP(p=0.8)"


def test_relstring_tsv_and_no_summary_row():
    code, out, _ = invoke(["eval", "--format", "tsv", "-q", "-m", "relstring.5", "-m", "P_5",
                           TE / "qrels.test", TE / "results.test"])
    assert code == 0
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    assert ["STANDARD", "301", "relstring_5", "00000"] in rows
    assert not any(r[1] == "all" and r[2].startswith("relstring") for r in rows)


def test_every_new_family_on_edge_topics(tmp_path):
    # an empty ranking (-c, topic missing), a topic without relevant documents,
    # a run shorter than every cutoff: finite values, as trec_eval computes them
    (tmp_path / "q").write_text("A 0 a1 1\nA 0 a2 0\nA 0 a3 2\nA 0 a4 -1\nB 0 b1 0\nC 0 c1 1\n")
    (tmp_path / "r").write_text("A Q0 a9 1 3.0 r\nA Q0 a3 2 2.0 r\nA Q0 a4 3 1.5 r\n"
                                "B Q0 b1 1 1.0 r\nB Q0 b7 2 0.5 r\n")
    out = run("-q", "-c", "-m", "all_trec", "-m", "yaap", "-m", "dcg", "-m", "ideal_dcg",
              tmp_path / "q", tmp_path / "r")
    assert "nan" not in out
    lines = {tuple(ln.split("\t")[:2]): ln.split("\t")[2] for ln in out.splitlines()}
    assert lines[("relstring             ", "A")] == "'-2.'"
    assert lines[("relstring             ", "C")] == "''"
    assert lines[("infAP                 ", "A")] == "0.2500"    # (1/2 · (0+1/2·ε/(2ε))) …
    assert lines[("unj_5                 ", "A")] == "0.4000"
    assert lines[("rbp_resid             ", "C")] == "0.0000"


@pytest.mark.parametrize("cmd", ["sigtest", "ipso"])
def test_relstring_is_for_eval_only(cmd):
    code, _, err = invoke([cmd, "-m", "relstring", TE / "qrels.test", TE / "results.test",
                           TE / "results.trunc"])
    assert code == 2 and "eval -q only" in err


def test_nickname_in_sigtest_leaves_relstring_out():
    code, out, err = invoke(["sigtest", "-m", "all_trec", TE / "qrels.test", TE / "results.test",
                             TE / "results.trunc"])
    assert code == 0, err
    assert "relstring" not in out and "infAP" in out


def test_gain_below_one_not_sorted_under_level_zero():
    # trec_eval 10.0 prints Rndcg_1=0.5 -nan here (its comparator calls 0.5 and 0
    # equal); scaling every gain by 0.5 leaves Rndcg unchanged
    a = run("-m", "Rndcg.1=0.5", TE / "qrels.test", TE / "results.test")
    b = run("-m", "Rndcg", TE / "qrels.test", TE / "results.test")
    assert a == "Rndcg_1=0.5           \tall\t0.3232\n" and b.endswith("\t0.3232\n")
    out = run("-q", "-m", "ideal_dcg.2=0.5", TE / "qrels.rel_level", TE / "results.test")
    assert "ideal_dcg_2=0.5       \t303\t1.9767\n" in out      # trec_eval: 0.0000


def test_11pt_avg_levels_in_any_order():
    # trec_eval 10.0 prints 0.4275 for the unsorted list (its loop assumes sorted levels)
    a = run("-m", "11pt_avg.0.5,0.1", TE / "qrels.test", TE / "results.test")
    assert a == "11pt_avg_0.5,0.1      \tall\t0.3035\n"
    b = run("-m", "iprec_at_recall.0.1,0.5", TE / "qrels.test", TE / "results.test")
    x, y = (float(ln.split("\t")[2]) for ln in b.splitlines())
    assert abs((x + y) / 2 - 0.3035) < 1e-4          # printed values are rounded


def test_topic_with_only_negative_labels_has_no_ideal_gain(tmp_path):
    # trec_eval 10.0 prints ideal_dcg 2.6309 for b: topic a's levels, left in place
    (tmp_path / "q").write_text("a 0 d1 2\na 0 d2 1\nb 0 d3 -1\n")
    (tmp_path / "r").write_text("a Q0 d1 1 2 r\na Q0 d2 2 1 r\nb Q0 d3 1 1 r\n")
    out = run("-q", "-m", "ideal_dcg", tmp_path / "q", tmp_path / "r")
    assert out == ("ideal_dcg             \ta\t2.6309\n"
                   "ideal_dcg             \tb\t0.0000\n"
                   "ideal_dcg             \tall\t1.3155\n")


def test_rndcg_without_positive_gain_is_zero(tmp_path):
    # trec_eval 10.0 prints -nan for b (0/0: no change of the ideal gain)
    (tmp_path / "q").write_text("a 0 d1 1\na 0 d2 0\nb 0 d3 0\n")
    (tmp_path / "r").write_text("a Q0 d2 1 2 r\na Q0 d1 2 1 r\nb Q0 d3 1 1 r\n")
    out = run("-q", "-l", "0", "-m", "Rndcg", tmp_path / "q", tmp_path / "r")
    assert "Rndcg                 \tb\t0.0000\n" in out and "nan" not in out
