"""Nugget evaluation of generated answers.

References: every per-topic score and every mean equals castorini's
nuggetizer (``nuggetizer.core.metrics``: calculate_nugget_scores,
calculate_global_metrics) on generated records; ppi --nuggets equals
ppi_py on the nugget-score vectors; agree --nuggets equals scikit-learn's
kappa and krippendorff's alpha on the label pairs matched by brute force;
sigtest/bootstrap/leaderboard --nuggets equal the same commands on the
``nuggets -q`` output read as --scores.  Bad inputs: one line, FILE:LINE,
exit 3.
"""

from __future__ import annotations

import csv
import io
import json
import random

import numpy as np
import pytest

from tests.conftest import TESTDATA, invoke

metrics = pytest.importorskip("nuggetizer.core.metrics")

IMPORTANCE = ["vital", "okay", "failed"]
ASSIGNMENT = ["support", "partial_support", "not_support", "failed"]
NAMES = {"nugget_vital_strict": "strict_vital_score", "nugget_all_strict": "strict_all_score",
         "nugget_vital": "vital_score", "nugget_all": "all_score"}


def _case(rng: random.Random, runs: int, topics: int):
    """Records of ``runs`` x ``topics`` answers: some topics without vital
    nuggets, failed assignments and importances, partial support."""
    recs = []
    shapes = []
    for t in range(topics):
        k = rng.randint(1, 9)
        kind = rng.random()
        if kind < 0.2:
            imps = ["okay"] * k                      # no vital nugget
        elif kind < 0.3:
            imps = [rng.choice(["okay", "failed"]) for _ in range(k)]
        else:
            imps = [rng.choices(IMPORTANCE, weights=[5, 5, 1])[0] for _ in range(k)]
        shapes.append(imps)
    for r in range(runs):
        for t, imps in enumerate(shapes):
            nug = [{"text": f"fact {t}.{i}", "importance": imp,
                    "assignment": rng.choices(ASSIGNMENT, weights=[4, 3, 4, 1])[0]}
                   for i, imp in enumerate(imps)]
            recs.append({"qid": f"q{t:03d}", "run_id": f"run{r}", "nuggets": nug})
    rng.shuffle(recs)
    return recs


def _write_jsonl(path, recs):
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def _write_tsv(path, recs):
    lines = ["run\tqid\tnugget_id\timportance\tassignment"]
    for r in recs:
        for i, n in enumerate(r["nuggets"]):
            lines.append(f"{r['run_id']}\t{r['qid']}\tn{i}\t{n['importance']}\t"
                         f"{n['assignment']}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _ok(*args):
    code, out, err = invoke(list(args))
    assert code == 0, (code, out, err)
    return out, err


def _tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


@pytest.mark.parametrize("seed", range(10))
def test_every_score_equals_nuggetizer(tmp_path, seed):
    """10 seeds x 3 runs x 8..15 topics: > 200 answers, every per-topic value
    and every mean to 1e-12, through the reader and the measures."""
    from ipsoeval.analyses.nuggets import matrices
    from ipsoeval.reading.nuggets import read_nuggets
    rng = random.Random(seed)
    recs = _case(rng, 3, rng.randint(8, 15))
    j = read_nuggets([str(_write_jsonl(tmp_path / "a.jsonl", recs))])
    mats = matrices(j)
    assert list(mats) == list(NAMES)
    cases = 0
    for r, run in enumerate(j.runs):
        mine = [x for x in recs if x["run_id"] == run]
        for rec in mine:
            ref = metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"])
            t = j.topics.index(rec["qid"])
            for ours, theirs in NAMES.items():
                assert mats[ours][r, t] == pytest.approx(getattr(ref, theirs), abs=1e-12)
            cases += 1
        glob = metrics.calculate_global_metrics(mine)
        for ours, theirs in NAMES.items():
            assert float(np.mean(mats[ours][r])) == pytest.approx(glob[theirs], abs=1e-12)
    assert cases >= 24


def test_generated_cases_cover_the_rules():
    """The generator does produce the cases the rules are about."""
    rng = random.Random(0)
    recs = [r for s in range(10) for r in _case(random.Random(s), 3, rng.randint(8, 15))]
    assert len(recs) >= 200
    assert any(all(n["importance"] != "vital" for n in r["nuggets"]) for r in recs)
    assert any(n["assignment"] == "failed" for r in recs for n in r["nuggets"])
    assert any(n["importance"] == "failed" for r in recs for n in r["nuggets"])
    assert any(n["assignment"] == "partial_support" for r in recs for n in r["nuggets"])


@pytest.mark.parametrize("seed", range(3))
def test_command_output_equals_nuggetizer_in_jsonl_and_tsv(tmp_path, seed):
    recs = _case(random.Random(100 + seed), 2, 6)
    for path in (_write_jsonl(tmp_path / "a.jsonl", recs), _write_tsv(tmp_path / "a.tsv", recs)):
        out, _ = _ok("nuggets", "-q", path)
        rows = _tsv(out)
        assert list(rows[0]) == ["run", "qid", "measure", "value"]
        for row in rows:
            mine = [x for x in recs if x["run_id"] == row["run"]]
            if row["qid"] == "all":
                ref = metrics.calculate_global_metrics(mine)[NAMES[row["measure"]]]
            else:
                rec = next(x for x in mine if x["qid"] == row["qid"])
                ref = getattr(metrics.calculate_nugget_scores(rec["qid"], rec["nuggets"]),
                              NAMES[row["measure"]])
            assert float(row["value"]) == pytest.approx(ref, abs=1e-12)
        assert len(rows) == 2 * (6 + 1) * 4


def test_failed_rule_is_stated_on_stderr(tmp_path):
    recs = [{"qid": "1", "run_id": "a", "nuggets": [
        {"text": "x", "importance": "failed", "assignment": "failed"},
        {"text": "y", "importance": "vital", "assignment": "support"}]}]
    out, err = _ok("nuggets", _write_jsonl(tmp_path / "f.jsonl", recs))
    assert "1 nugget assignment(s) 'failed'" in err and "not_support" in err
    assert "importance 'failed' scored as okay" in err


def test_run_without_id_is_the_file_name(tmp_path):
    p = tmp_path / "mysystem.jsonl"
    p.write_text(json.dumps({"qid": "1", "nuggets": [
        {"text": "x", "importance": "vital", "assignment": "support"}]}) + "\n")
    out, _ = _ok("nuggets", "-m", "nugget_vital_strict", p)
    assert _tsv(out) == [{"run": "mysystem", "qid": "all", "measure": "nugget_vital_strict",
                          "value": "1.0"}]


def test_json_and_other_formats(tmp_path):
    auto = TESTDATA / "nuggets" / "auto.jsonl"
    out, _ = _ok("nuggets", "--format", "json", auto)
    doc = json.loads(out)
    assert doc["command"] == "nuggets" and doc["primary"] == "scores"
    assert {r["measure"] for r in doc["results"]} == set(NAMES)
    for fmt in ("table", "latex", "markdown"):
        out, _ = _ok("nuggets", "--format", fmt, auto)
        assert "nugget_vital_strict" in out.replace("\\_", "_")


def test_measures_lists_the_nugget_scores():
    out, _ = _ok("measures")
    rows = {r["measure"]: r for r in _tsv(out)}
    for name in NAMES:
        assert rows[name]["scale"] == "interval"          # on one topic, as R
        assert "2411.09607" in rows[name]["definition"]


# --- bad inputs: one line, FILE:LINE, exit 3 ---------------------------------------

GOOD = {"text": "x", "importance": "vital", "assignment": "support"}


@pytest.mark.parametrize("lines, where, what", [
    ([{"qid": "1", "run_id": "a", "nuggets": [dict(GOOD, importance="crucial")]}], 1,
     "unknown importance 'crucial'"),
    ([{"qid": "1", "run_id": "a", "nuggets": [dict(GOOD, assignment="yes")]}], 1,
     "unknown assignment 'yes'"),
    ([{"qid": "1", "run_id": "a", "nuggets": [GOOD]}, {"qid": "2", "run_id": "a",
                                                       "nuggets": []}], 2, "without nuggets"),
    ([{"qid": "1", "run_id": "a"}], 1, "without nuggets"),
    ([{"qid": "1", "run_id": "a", "nuggets": [GOOD]},
      {"qid": "1", "run_id": "a", "nuggets": [GOOD]}], 2, "given twice (first at"),
    ([{"qid": "1", "run_id": "a", "nuggets": [GOOD]}, {"qid": "1", "run_id": "b",
                                                       "nuggets": [GOOD]},
      {"qid": "2", "run_id": "b", "nuggets": [GOOD]}], 3,
     "topic '2' is answered by run 'b' but not by run 'a'"),
    ([{"qid": "1", "run_id": "a", "nuggets": [GOOD, GOOD]}], 1, "given twice in the answer"),
    ([{"run_id": "a", "nuggets": [GOOD]}], 1, "without a 'qid'"),
    ([{"qid": "1", "run_id": "a", "nuggets": [GOOD]}, '{"qid": "2", '], 2,
     "not a JSON record"),
])
def test_bad_jsonl_is_one_line_with_file_and_line(tmp_path, lines, where, what):
    p = tmp_path / "bad.jsonl"
    p.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    for cmd in (["nuggets", p], ["sigtest", "--nuggets", p]):
        code, out, err = invoke(cmd)
        assert code == 3, (code, out, err)
        assert out == ""
        assert err.count("\n") == 1 and err.startswith(f"ipsoeval: error: {p}:{where}: "), err
        assert what in err


@pytest.mark.parametrize("text, where, what", [
    ("a\t1\tn1\tvital\tsupport\na\t1\tn2\tessential\tsupport\n", 2, "unknown importance"),
    ("a\t1\tn1\tvital\tsupported\n", 1, "unknown assignment 'supported'"),
    ("a\t1\tn1\tvital\n", 1, "expected 5 fields"),
    ("a\t1\tn1\tvital\tsupport\nb\t1\tn1\tvital\tsupport\na\t1\tn2\tokay\tsupport\n", 3,
     "given twice (first at"),
    ("a\t1\tn1\tvital\tsupport\na\t1\tn1\tokay\tsupport\n", 2, "given twice in the answer"),
])
def test_bad_tsv_is_one_line_with_file_and_line(tmp_path, text, where, what):
    p = tmp_path / "bad.tsv"
    p.write_text(text)
    code, out, err = invoke(["nuggets", p])
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"ipsoeval: error: {p}:{where}: "), err
    assert what in err


def test_bad_output_file_is_not_written(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_text("a\t1\tn1\tvital\tmaybe\n")
    o = tmp_path / "out.tsv"
    code, _, _ = invoke(["nuggets", p, "-o", o])
    assert code == 3 and not o.exists()


def test_usage_errors_exit_2(tmp_path):
    auto = TESTDATA / "nuggets" / "auto.jsonl"
    for args in (["nuggets", "-m", "nDCG@10", auto],
                 ["sigtest", "--nuggets", "--scores", auto],
                 ["sigtest", "--nuggets-format", "tsv", "--scores", auto],
                 ["ppi", "--nuggets", "--human", auto, "--auto", auto, "run.txt"],
                 ["agree", "--nuggets", auto, auto, "extra"]):
        code, out, err = invoke(args)
        assert code == 2, (args, code, err)
        assert err.count("\n") == 1 and err.startswith("ipsoeval: error:"), err


# --- the statistics on nugget scores --------------------------------------------------

def _as_scores(tmp_path, path):
    out, _ = _ok("nuggets", "-q", path)
    p = tmp_path / "scores.tsv"
    p.write_text(out)
    return p


@pytest.mark.parametrize("cmd", [
    ["sigtest", "-m", "nugget_vital_strict", "-m", "nugget_all", "--all-pairs"],
    ["bootstrap", "-m", "nugget_all", "--samples", "200", "--seed", "3"],
    ["leaderboard", "-m", "nugget_vital", "--samples", "200", "--seed", "3"],
    ["power", "-m", "nugget_all"],
    ["meta", "-m", "nugget_all", "--samples", "200"],
    ["ipso", "-m", "nugget_all"],
])
def test_nuggets_stand_where_scores_stand(tmp_path, cmd):
    """--nuggets FILE equals --scores on the same nugget scores, per command."""
    auto = TESTDATA / "nuggets" / "auto.jsonl"
    a, _ = _ok(*cmd, "--nuggets", auto)
    # the topics have 4..6 nuggets (2..3 vital): ordinal, as recall with differing R
    b, _ = _ok(*cmd, "--scores", "--scores-scale", "ordinal", _as_scores(tmp_path, auto))
    assert a == b
    assert a.count("\n") > 1


def _labelled(human, auto, measure):
    from ipsoeval.analyses.nuggets import matrices
    from ipsoeval.reading.nuggets import read_nuggets
    h, a = read_nuggets([str(human)]), read_nuggets([str(auto)])
    H, A = matrices(h, [measure])[measure], matrices(a, [measure])[measure]
    lab = np.array([a.topics.index(t) for t in h.topics])
    unl = np.array([i for i in range(len(a.topics)) if i not in set(lab.tolist())])
    H = H[[h.runs.index(r) for r in a.runs]]
    return a.runs, H, A, lab, unl


def test_ppi_on_nugget_scores_equals_ppi_py():
    ppi_py = pytest.importorskip("ppi_py")
    human, auto = TESTDATA / "nuggets" / "human.tsv", TESTDATA / "nuggets" / "auto.jsonl"
    out, _ = _ok("ppi", "--nuggets", "--human", human, "--auto", auto, "--format", "json",
                 "--all-pairs")
    doc = json.loads(out)
    est = doc["tables"]["estimates"]["records"]
    diffs = doc["tables"]["differences"]["records"]
    for measure in NAMES:
        runs, H, A, lab, unl = _labelled(human, auto, measure)
        assert len(lab) == 8 and len(unl) == 12
        for r, run in enumerate(runs):
            g = next(x for x in est if x["run"] == run and x["measure"] == measure
                     and x["method"] == "ppi++")
            lo, hi = ppi_py.ppi_mean_ci(H[r], A[r, lab], A[r, unl], alpha=0.05)
            m = ppi_py.ppi_mean_pointestimate(H[r], A[r, lab], A[r, unl])
            assert g["mean"] == pytest.approx(float(np.squeeze(m)), rel=1e-12, abs=1e-14)
            assert g["ci_low"] == pytest.approx(float(np.squeeze(lo)), rel=1e-12, abs=1e-14)
            assert g["ci_high"] == pytest.approx(float(np.squeeze(hi)), rel=1e-12, abs=1e-14)
        for row in (x for x in diffs if x["measure"] == measure and x["method"] == "ppi++"):
            a, b = runs.index(row["run_a"]), runs.index(row["run_b"])
            d, dh = H[b] - H[a], A[b] - A[a]
            lo, hi = ppi_py.ppi_mean_ci(d, dh[lab], dh[unl], alpha=0.05)
            assert row["ci_low"] == pytest.approx(float(np.squeeze(lo)), rel=1e-12, abs=1e-14)
            assert row["ci_high"] == pytest.approx(float(np.squeeze(hi)), rel=1e-12, abs=1e-14)


def test_agree_on_support_labels_equals_references():
    sk = pytest.importorskip("sklearn.metrics")
    krippendorff = pytest.importorskip("krippendorff")
    human, auto = TESTDATA / "nuggets" / "human.tsv", TESTDATA / "nuggets" / "auto.jsonl"
    out, _ = _ok("agree", "--nuggets", human, auto, "--format", "json")
    doc = json.loads(out)
    got = {r["statistic"]: r["value"] for r in doc["tables"]["agreement"]["records"]}
    level = {"not_support": 0, "partial_support": 1, "support": 2}
    hl = {}
    for row in _tsv(human.read_text()):
        hl[(row["run"], row["qid"], row["nugget_id"])] = level[row["assignment"]]
    a, b = [], []
    for line in auto.read_text().splitlines():
        rec = json.loads(line)
        for n in rec["nuggets"]:
            key = (rec["run_id"], rec["qid"], n["nugget_id"])
            if key in hl:
                a.append(hl[key])
                b.append(level[n["assignment"]])
    assert len(a) == doc["tables"]["agreement"]["records"][0]["judgments"] == 152
    assert got["kappa"] == pytest.approx(sk.cohen_kappa_score(a, b), rel=1e-12)
    assert got["kappa_linear"] == pytest.approx(sk.cohen_kappa_score(a, b, weights="linear"),
                                                rel=1e-12)
    assert got["alpha_ordinal"] == pytest.approx(krippendorff.alpha(
        reliability_data=np.array([a, b], dtype=float), level_of_measurement="ordinal"),
        rel=1e-9)
    conf = doc["tables"]["confusion"]["records"]
    # the support labels by name, in their order (not the codes 0/1/2)
    assert [r["label_a"] for r in conf[::3]] == list(level)
    for rec in conf:
        assert rec["count"] == sum(1 for x, y in zip(a, b)
                                   if x == level[rec["label_a"]] and y == level[rec["label_b"]])
    rank = {r["measure"]: r for r in doc["tables"]["rankings"]["records"]}
    assert set(rank) == set(NAMES)
    assert all(r["topics"] == 8 and r["runs"] == 4 for r in rank.values())


def test_agree_rankings_tau_equals_scipy():
    from scipy.stats import kendalltau
    human, auto = TESTDATA / "nuggets" / "human.tsv", TESTDATA / "nuggets" / "auto.jsonl"
    out, _ = _ok("agree", "--nuggets", human, auto, "-m", "nugget_all", "--table", "rankings")
    row = _tsv(out)[0]
    runs, H, A, lab, unl = _labelled(human, auto, "nugget_all")
    tau = kendalltau(H.mean(axis=1), A[:, lab].mean(axis=1)).statistic
    assert float(row["kendall_tau"]) == pytest.approx(tau, rel=1e-12)


def test_scale_is_interval_only_with_equal_nugget_counts(tmp_path):
    """As recall (Ferrante et al. §3.4.2): equal counts on every topic give an
    interval scale (the t test permissible), differing counts an ordinal one."""
    def rec(q, run, imps):
        return {"qid": q, "run_id": run, "nuggets": [
            {"text": f"n{i}", "importance": imp, "assignment": "support" if i % 2 else
             "not_support"} for i, imp in enumerate(imps)]}
    same = [rec(q, r, ["vital", "okay", "vital"]) for q in "123" for r in "ab"]
    diff = same[:-2] + [rec("3", r, ["vital", "okay"]) for r in "ab"]
    for recs, scale in ((same, "interval"), (diff, "ordinal")):
        p = _write_jsonl(tmp_path / f"{scale}.jsonl", recs)
        out, err = _ok("sigtest", "--nuggets", p, "-m", "nugget_all", "--test", "t",
                       "--format", "json")
        doc = json.loads(out)
        assert doc["tables"]["tests"]["records"][0]["permissible"] is (scale == "interval")
        # the scale is a note of the output (json's notes), never a warning
        assert "ordinal across topics" not in err
        assert any("ordinal across topics" in n for n in doc["notes"]) is (scale == "ordinal")


# --- the API ---------------------------------------------------------------------------

def test_api_equals_the_command_line(tmp_path):
    import warnings

    import ipsoeval
    auto, human = TESTDATA / "nuggets" / "auto.jsonl", TESTDATA / "nuggets" / "human.tsv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = ipsoeval.nuggets(auto, per_query=True)
        ts = ipsoeval.read_nuggets(auto, measures=["nugget_all"])
        st = ipsoeval.sigtest(ts, tests=["t"], all_pairs=True)
        pp = ipsoeval.ppi(human, auto, nuggets=True, measures="nugget_vital_strict")
        ag = ipsoeval.agree(human, auto, nuggets=True, measures=["nugget_all"])
    out, _ = _ok("nuggets", "-q", "--format", "json", auto)
    assert rep.table("scores").records == json.loads(out)["results"]
    out, _ = _ok("sigtest", "--nuggets", "-m", "nugget_all", "--test", "t", "--all-pairs",
                 "--format", "json", auto)
    cli = json.loads(out)["tables"]["tests"]["records"]
    assert [r["p_value"] for r in st.table("tests").records] == [r["p_value"] for r in cli]
    out, _ = _ok("ppi", "--nuggets", "--human", human, "--auto", auto, "-m",
                 "nugget_vital_strict", "--format", "json")
    assert pp.table("estimates").records == json.loads(out)["tables"]["estimates"]["records"]
    out, _ = _ok("agree", "--nuggets", human, auto, "-m", "nugget_all", "--format", "json")
    assert ag.table("rankings").records == json.loads(out)["tables"]["rankings"]["records"]


def test_report_page_on_nugget_scores_equals_the_commands(tmp_path):
    """report --nuggets: the leaderboard tables equal leaderboard --nuggets, the
    pair's tests equal sigtest --nuggets' row for that pair, no breakdown."""
    import re
    auto = TESTDATA / "nuggets" / "auto.jsonl"
    page = tmp_path / "page.html"
    common = ["--samples", "300", "--seed", "5"]
    _ok("report", "--nuggets", auto, "-m", "nugget_vital_strict", *common, "-o", page)
    text = page.read_text()
    m = re.search(r'<script type="application/json" id="ipsoeval-data">(.*?)</script>', text,
                  re.S)
    doc = json.loads(m.group(1))["reports"]
    lb, _ = _ok("leaderboard", "--nuggets", auto, "-m", "nugget_vital_strict", *common,
                "--format", "json")
    lb = json.loads(lb)
    for tid in ("leaderboard", "pairs", "resolution"):
        assert doc["leaderboard"]["tables"][tid]["records"] == lb["tables"][tid]["records"]
    rows = doc["sigtest"]["tables"]["tests"]["records"]
    a, b = rows[0]["run_a"], rows[0]["run_b"]
    st, _ = _ok("sigtest", "--nuggets", auto, "-m", "nugget_vital_strict", "--baseline", a,
                *common, "--format", "json")
    ref = [r for r in json.loads(st)["tables"]["tests"]["records"] if r["run_b"] == b]
    assert [r["p_value"] for r in rows] == [r["p_value"] for r in ref]
    assert "breakdown" not in doc
    assert "no outcomes breakdown" in text


def test_ppi_inputs_that_do_not_match_are_one_line_errors(tmp_path):
    def rec(q, run):
        return {"qid": q, "run_id": run, "nuggets": [GOOD]}
    auto = _write_jsonl(tmp_path / "auto.jsonl", [rec(q, r) for q in "12" for r in "ab"])
    cases = [([rec("1", "a"), rec("1", "b"), rec("3", "a"), rec("3", "b")], 3,
              "topic '3' has human assignments but no automatic ones"),
             ([rec("1", "a"), rec("1", "c")], 2, "run 'c' has human assignments")]
    for recs, line, what in cases:
        human = _write_jsonl(tmp_path / "human.jsonl", recs)
        code, out, err = invoke(["ppi", "--nuggets", "--human", human, "--auto", auto])
        assert code == 3 and out == ""
        assert err.count("\n") == 1 and err.startswith(f"ipsoeval: error: {human}:{line}: ")
        assert what in err


def test_reading_is_linear_in_the_nuggets_of_an_answer(tmp_path):
    """One answer of 20,000 nuggets reads as fast, per nugget, as 10 answers of
    2,000 (the duplicate check was a list scan: quadratic, 3 s for one such
    record); the codes read are the file's."""
    import json
    import time

    from ipsoeval.model import IMPORTANCE_LEVELS, SUPPORT_LEVELS
    from ipsoeval.reading.nuggets import read_nuggets

    rng = random.Random(5)

    def write(path, per_answer, answers):
        recs = []
        with open(path, "w") as fh:
            for a in range(answers):
                nug = [{"nugget_id": f"n{i}", "text": f"fact {i}",
                        "importance": rng.choice(["vital", "okay", "failed"]),
                        "assignment": rng.choice(["support", "partial_support",
                                                  "not_support", "failed"])}
                       for i in range(per_answer)]
                recs.append(nug)
                fh.write(json.dumps({"qid": f"t{a}", "run_id": "r", "nuggets": nug}) + "\n")
        return recs

    def best_of(path, n=3):
        out = []
        for _ in range(n):
            t = time.perf_counter()
            j = read_nuggets([str(path)])
            out.append(time.perf_counter() - t)
        return min(out), j

    one = write(tmp_path / "one.jsonl", 20_000, 1)
    write(tmp_path / "ten.jsonl", 2_000, 10)
    t_one, j = best_of(tmp_path / "one.jsonl")
    t_ten, _ = best_of(tmp_path / "ten.jsonl")
    assert t_one < 3 * t_ten, (t_one, t_ten)
    imp = {"vital": IMPORTANCE_LEVELS.index("vital"), "okay": IMPORTANCE_LEVELS.index("okay"),
           "failed": IMPORTANCE_LEVELS.index("okay")}
    sup = {s: SUPPORT_LEVELS.index(s) for s in SUPPORT_LEVELS}
    sup["failed"] = SUPPORT_LEVELS.index("not_support")
    assert j.importance[0, 0].tolist() == [imp[n["importance"]] for n in one[0]]
    assert j.support[0, 0].tolist() == [sup[n["assignment"]] for n in one[0]]
    assert j.failed[0, 0].tolist() == [n["assignment"] == "failed" for n in one[0]]
    assert j.failed_importance[0, 0].tolist() == [n["importance"] == "failed" for n in one[0]]
    assert j.keys[0][0] == tuple(f"n{i}" for i in range(20_000))
