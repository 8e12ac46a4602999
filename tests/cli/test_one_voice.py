"""Commands speak with one voice: one test policy, one mean, two rank intervals.

- every command that tests or decides "differs" without --test uses the
  registry's default by scale (sign on ordinal nDCG@10, t on interval P@10):
  sigtest (both paths), agree, meta, bootstrap --split-half, report; each names
  its test in one sentence (``test_note``); leaderboard's test is fixed by its
  method and says so;
- a run's mean is ``math.fsum(values) / n`` in eval (tsv, json; quick and full
  path), sigtest (quick and full), leaderboard, report, bootstrap, agree, meta
  and the API, also on scores where a naive sum, numpy's pairwise sum and the
  correctly rounded sum all differ; ``--format trec`` keeps trec_eval's sum;
- bootstrap's percentile interval of the rank and leaderboard's ranks
  consistent with the HSD groups have different names and a sentence each.
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

import ipsoeval
from ipsoeval import mean as one_mean
from ipsoeval.stats import registry
from tests.conftest import TESTDATA, invoke, run_quick, run_quick_sigtest

WEB = TESTDATA / "across"
RUNS3 = [str(WEB / f"web-{r}.run") for r in ("bm25", "dense", "hybrid")]
QRELS = str(WEB / "web.qrels")
WANT = {"nDCG@10": "sign", "P@10": "t"}     # ordinal, interval


def _json(out: str) -> dict:
    return json.loads(out)


def _tsv(out: str) -> list[dict]:
    lines = out.strip().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"))) for line in lines[1:]]


# --------------------------------------------------------------- the policy

def test_registry_declares_the_policy_once():
    assert registry.default_for("ordinal") == "sign"
    assert registry.default_for("interval") == "t"
    assert registry.default_for("ratio") == "t"
    assert registry.default_for(None) == "sign"
    note = registry.describe_choice(("sign", "nDCG@10", "ordinal"))
    assert note == ("Test: sign test (nDCG@10 is ordinal); the default by scale "
                    "(Ferrante et al. 2021 §2.5).")
    assert registry.describe_choice(("t", "AP", "ordinal"), given=True) == \
        "Test: paired t test (named by --test)."
    assert "not the default by scale" in registry.describe_choice(
        ("randhsd", "AP", "ordinal"), fixed_by="leaderboard's method")
    # the vocabulary of --test: names, then aliases
    voc = registry.vocabulary(("t", "sign"))
    assert voc[:2] == ["t", "sign"] and "ttest" in voc and "binomial" in voc
    assert "wilcoxon" not in voc


def test_sigtest_full_and_quick_use_the_default_by_scale():
    args = ["sigtest", QRELS, *RUNS3[:2], "-m", "nDCG@10", "-m", "P@10", "--format", "json"]
    code, out, err = invoke(args)
    assert code == 0, err
    doc = _json(out)
    assert {r["measure"]: r["test"] for r in doc["results"]} == WANT
    assert doc["params"]["test_note"].startswith("Test: sign test (nDCG@10 is ordinal)")
    served, qcode, qout, _ = run_quick_sigtest(args)
    if served:
        assert qcode == 0 and _json(qout) == doc


def test_agree_decides_differs_with_the_default_by_scale():
    code, out, err = invoke(["agree", QRELS, QRELS, *RUNS3, "-m", "nDCG@10", "-m", "P@10",
                             "--table", "rankings", "--format", "json"])
    assert code == 0, err
    doc = _json(out)
    assert {r["measure"]: r["test"] for r in doc["results"]} == WANT
    assert doc["params"]["test_note"].startswith("Test: sign test (nDCG@10 is ordinal)")


def test_meta_uses_the_default_by_scale():
    code, out, err = invoke(["meta", QRELS, *RUNS3, "-m", "nDCG@10", "-m", "P@10",
                             "--splits", "5", "--format", "json"])
    assert code == 0, err
    doc = _json(out)
    assert {r["measure"]: r["test"] for r in doc["results"]} == WANT
    assert "nDCG@10 is ordinal" in doc["params"]["test_note"]


def test_bootstrap_split_half_uses_the_default_by_scale():
    code, out, err = invoke(["bootstrap", QRELS, *RUNS3, "-m", "nDCG@10", "-m", "P@10",
                             "--samples", "20", "--split-half", "4", "--format", "json"])
    assert code == 0, err
    doc = _json(out)
    assert {r["measure"]: r["test"] for r in doc["results"]} == WANT
    assert "P@10 is interval" in doc["params"]["test_note"]


def test_ipso_metric_tests_use_the_default_by_scale():
    code, out, err = invoke(["ipso", "-l", "1", QRELS, *RUNS3[:2], "-m", "nDCG@10", "-m",
                             "P@10", "--format", "json"])
    assert code == 0, err
    doc = _json(out)
    assert {r["measure"]: r["test"] for r in doc["results"]} == WANT
    assert "nDCG@10 is ordinal" in doc["params"]["test_note"]


def test_report_and_leaderboard_name_their_tests():
    res = ipsoeval.evaluate(QRELS, RUNS3, ["nDCG@10", "P@10"])
    page = ipsoeval.report(res, samples=200, charts=False)
    tests = page.reports["sigtest"].table("tests")
    assert {r["measure"]: r["test"] for r in tests.records} == WANT
    board = page.reports["leaderboard"].table("leaderboard")
    assert "randomised Tukey HSD" in board.params["test_note"]
    assert "not the default by scale" in board.params["test_note"]


def test_split_half_t_and_sign_are_the_registrys():
    from ipsoeval.analyses.bootstrap import splithalf as sh
    assert not hasattr(sh, "_p_t") and not hasattr(sh, "_p_sign")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, size=(3, 30)) / 4.0
    h = sh.split_matrix(rng, 30, 5)
    fast = sh.half_pvalues(x, h, ("t", "sign"))
    slow = sh.half_pvalues(x, h, ("t", "sign"), fast=False)
    for t in ("t", "sign"):
        np.testing.assert_allclose(fast[t], slow[t], rtol=1e-12, atol=0)


# ------------------------------------------------------------------ one mean

def _adversarial(tmp_path, n=40, seed=7):
    """Qrels and two runs whose RR@10 per topic of run ``a`` sums differently
    left to right, pairwise (numpy) and correctly rounded."""
    vals = [1.0 / r for r in range(1, 11)] + [0.0]
    rnd = random.Random(seed)
    xs = [rnd.choice(vals) for _ in range(n)]
    naive = 0.0
    for x in xs:
        naive += x
    naive /= n
    pairwise = float(np.add.reduce(np.array(xs))) / n
    exact = math.fsum(xs) / n
    assert len({naive, pairwise, exact}) == 3        # the case is adversarial
    q, ra, rb = [], [], []
    for t, x in enumerate(xs):
        rank = round(1.0 / x) if x else None
        rel = f"d{rank - 1}" if rank else "dx"
        q.append(f"q{t} 0 {rel} 1\n")
        for i in range(10):
            ra.append(f"q{t} Q0 d{i} {i + 1} {10 - i} a\n")
            rb.append(f"q{t} Q0 d{(i + 3) % 10} {i + 1} {10 - i} b\n")
    (tmp_path / "qrels").write_text("".join(q))
    (tmp_path / "a.run").write_text("".join(ra))
    (tmp_path / "b.run").write_text("".join(rb))
    return str(tmp_path / "qrels"), str(tmp_path / "a.run"), str(tmp_path / "b.run"), \
        xs, exact, naive


def _means_everywhere(qrels, a, b, measure):
    """The first run's mean of ``measure`` as every command and the API give it."""
    got = {}
    code, out, err = invoke(["eval", qrels, a, b, "-m", measure, "--format", "json"])
    name = _json(out)["results"][0]["run"]
    served, out, _ = run_quick(["eval", qrels, a, b, "-m", measure, "--format", "tsv"])
    if served:
        got["eval tsv (quick)"] = [float(r["value"]) for r in _tsv(out) if r["run"] == name][0]
    code, out, err = invoke(["eval", qrels, a, b, "-m", measure, "--format", "tsv"])
    got["eval tsv"] = [float(r["value"]) for r in _tsv(out) if r["run"] == name][0]
    code, out, err = invoke(["eval", qrels, a, b, "-m", measure, "--format", "json"])
    got["eval json"] = [r["value"] for r in _json(out)["results"] if r["run"] == name][0]
    args = ["sigtest", qrels, a, b, "-m", measure, "--format", "json"]
    code, out, err = invoke(args)
    got["sigtest"] = _json(out)["results"][0]["mean_a"]
    served, qcode, qout, _ = run_quick_sigtest(args)
    if served:
        got["sigtest (quick)"] = _json(qout)["results"][0]["mean_a"]
    code, out, err = invoke(["leaderboard", qrels, a, b, "-m", measure, "--samples", "50",
                             "--format", "json"])
    got["leaderboard"] = [r["mean"] for r in _json(out)["results"] if r["run"] == name][0]
    code, out, err = invoke(["bootstrap", qrels, a, b, "-m", measure, "--samples", "20",
                             "--format", "json"])
    got["bootstrap"] = [r["mean"] for r in _json(out)["results"] if r["run"] == name][0]
    res = ipsoeval.evaluate(qrels, [a, b], [measure])
    got["api evaluate"] = res.mean()[name][measure]
    got["api sigtest"] = ipsoeval.sigtest(res).table("tests").records[0]["mean_a"]
    page = ipsoeval.report(res, samples=50, charts=False)
    got["report"] = [r["mean"] for r in page.reports["leaderboard"].table("leaderboard").records
                     if r["run"] == name][0]
    code, out, err = invoke(["agree", qrels, qrels, a, b, "-m", measure, "--table", "means",
                             "--format", "json"])
    got["agree"] = [r["mean_under_a"] for r in _json(out)["results"] if r["run"] == name][0]
    return got


def test_one_mean_on_adversarial_scores(tmp_path):
    qrels, a, b, xs, exact, naive = _adversarial(tmp_path)
    got = _means_everywhere(qrels, a, b, "RR@10")
    assert "eval tsv (quick)" in got and "sigtest (quick)" in got     # both paths ran
    assert {k: repr(v) for k, v in got.items()} == {k: repr(exact) for k in got}
    assert one_mean.mean(xs) == exact
    # Experiment(): PyTerrier's shape, the same mean
    pd = pytest.importorskip("pandas")
    qdf = pd.read_csv(qrels, sep=" ", header=None, names=["qid", "it", "docno", "label"],
                      dtype={"qid": str, "docno": str})
    rdf = {n: pd.read_csv(p, sep=" ", header=None,
                          names=["qid", "Q0", "docno", "rank", "score", "tag"],
                          dtype={"qid": str, "docno": str})[["qid", "docno", "score"]]
           for n, p in (("a", a), ("b", b))}
    df = ipsoeval.Experiment(rdf, None, qdf[["qid", "docno", "label"]], ["RR@10"])
    assert repr(float(df.set_index("name").loc["a", "RR@10"])) == repr(exact)


def test_one_mean_on_testdata():
    """bm25's mean on the web collection: eval printed the left-to-right sum,
    sigtest numpy's pairwise sum (…587 vs …586)."""
    got = _means_everywhere(QRELS, RUNS3[0], RUNS3[1], "nDCG@10")
    vals = set(got.values())
    assert len(vals) == 1, got


def test_trec_format_keeps_trec_evals_sum(tmp_path):
    """--format trec prints %6.4f of trec_eval's own (left to right) mean."""
    qrels, a, b, xs, exact, naive = _adversarial(tmp_path)
    code, out, err = invoke(["eval", qrels, a, "-m", "recip_rank", "--format", "trec"])
    assert code == 0, err
    line = [x for x in out.splitlines() if x.startswith("recip_rank")][0]
    assert line.split("\t")[2] == f"{naive:6.4f}"


def test_mean_helpers():
    assert math.isnan(one_mean.mean([]))
    assert one_mean.means([[1.0, float("nan"), 2.0]], skip_nan=True) == [1.5]
    assert one_mean.means([[1.0, 5.0, 2.0]], [[1, 0, 1]]) == [1.5]
    xs = [0.1] * 10 + [1e16, 1.0, -1e16]
    assert one_mean.mean(xs) == math.fsum(xs) / len(xs)
    assert one_mean.trec_mean([0.1, 0.2, 0.3]) == (0.1 + 0.2 + 0.3) / 3
    # where math.fsum raises, IEEE's answers (and the exact one when it is finite)
    assert one_mean.mean([1e308, 1e308]) == math.inf
    assert one_mean.mean([1e308, 1e308, -1e308]) == 1e308 / 3
    assert math.isnan(one_mean.mean([math.inf, -math.inf]))
    assert math.isnan(one_mean.mean([math.nan, 1.0]))


# ------------------------------------------------------------ rank intervals

def test_two_rank_intervals_have_two_names():
    code, out, err = invoke(["leaderboard", QRELS, *RUNS3, "-m", "nDCG@10", "--samples", "100",
                             "--format", "json"])
    assert code == 0, err
    lb = _json(out)
    assert {"rank_best", "rank_worst"} <= set(lb["results"][0])
    assert "rank_low" not in lb["results"][0]
    assert "consistent with the randomised Tukey HSD groups" in lb["params"]["rank_note"]
    code, out, err = invoke(["bootstrap", QRELS, *RUNS3, "-m", "nDCG@10", "--samples", "50",
                             "--format", "json"])
    assert code == 0, err
    bs = _json(out)
    assert {"rank_ci_low", "rank_ci_high"} <= set(bs["results"][0])
    assert "rank_low" not in bs["results"][0]
    assert "95% percentile bootstrap interval of the rank" in bs["params"]["rank_note"]


def test_registry_vectorised_p_values_are_the_scalar_ones():
    """Split-half's vectorised p-values (the registry's from_sums) equal
    stats.paired's scalar t and sign tests, comparison by comparison."""
    from ipsoeval.stats import paired
    rng = np.random.default_rng(11)
    d = rng.integers(-4, 5, size=(200, 25)) / 4.0
    n = np.full(200, 25.0)
    p = registry.get("t").from_sums(n, d.sum(axis=1), (d * d).sum(axis=1))
    for row, got in zip(d, p):
        mean = math.fsum(row) / len(row)
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in row) / (len(row) - 1))
        want = paired.t_test(mean, sd, len(row))[1]
        assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want, rel=1e-9)
    k = rng.integers(0, 60, size=300)
    m = k + rng.integers(0, 60, size=300)
    ps = registry.get("sign").from_sums(k, m)
    for ki, mi, got in zip(k.tolist(), m.tolist(), ps.tolist()):
        assert got == pytest.approx(paired.sign_p(ki, mi), rel=1e-12)
