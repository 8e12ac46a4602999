"""``ipsoeval compare``'s analysis on generated scores whose answer is known:
its marks are sigtest's decisions (same test, same correction, the family the
pairs of one measure), its groups leaderboard's letters."""

from __future__ import annotations

import numpy as np
import pytest

from ipsoeval.analyses import compare as cmp
from ipsoeval.analyses import leaderboard as lb
from ipsoeval.analyses import sigtest as st
from ipsoeval.analyses.bootstrap.resample import MeasureInput
from ipsoeval.errors import UsageError

RUNS = ["base", "same", "better", "much_better", "worse"]
EFFECTS = [0.0, 0.0, 0.03, 0.15, -0.08]     # mean difference with the baseline


def scores(seed=1, topics=50, effects=EFFECTS, spread=0.1):
    """runs × topics: a topic difficulty shared by every run, the run's effect
    and noise -- which pairs differ is known by construction."""
    rng = np.random.default_rng(seed)
    topic = rng.uniform(0.2, 0.7, topics)
    X = np.array([np.clip(topic + e + rng.normal(0, spread, topics), 0, 1) for e in effects])
    return X


def compare(matrices, scales=None, higher=None, **kw):
    opts = cmp.Options(**kw)
    opts.check()
    scales = scales or {m: "interval" for m in matrices}
    higher = higher or {m: True for m in matrices}
    n = next(iter(matrices.values())).shape[1]
    return cmp.run(list(RUNS), n, matrices, scales, higher, opts)


def sigtest_records(M, name, scale, *, test, correct, all_pairs, baseline=None, seed=42,
                    samples=100_000, higher=True):
    opts = st.make_options([test] if test else [], None, all_pairs=all_pairs,
                           baseline=baseline, correct=correct, seed=seed, samples=samples)
    rep = st.run(list(RUNS), {name: M}, {name: scale}, opts,
                 lower_better=set() if higher else {name})
    return rep.table("tests").records


def better_map(table, m):
    return {r["run"]: [x for x in r["better_than"].split(",") if x]
            for r in table.records if r["measure"] == m}


CASES = [  # (test, correct, marks, scale, samples)
    ("t", "none", "pairs", "interval", None),
    ("t", "holm", "pairs", "interval", None),
    ("t", "bonferroni", "baseline", "interval", None),
    ("randomization", "holm", "pairs", "interval", 2000),
    ("randomization", "none", "baseline", "interval", 2000),
    ("wilcoxon", "bh", "pairs", "interval", None),
    (None, "holm", "pairs", "ordinal", None),          # default by scale: sign
    (None, "none", "baseline", "interval", None),      # default by scale: t
]


@pytest.mark.parametrize("test,correct,marks,scale,samples", CASES)
def test_marks_are_sigtest_decisions(test, correct, marks, scale, samples):
    M = scores(seed=3)
    rep = compare({"X": M}, scales={"X": scale}, test=test, correct=correct, marks=marks,
                  samples=samples, seed=7)
    ref = sigtest_records(M, "X", scale, test=test, correct=correct,
                          all_pairs=marks == "pairs", baseline="base" if marks == "baseline"
                          else None, seed=7, samples=samples or 100_000)
    got = better_map(rep.table("comparison"), "X")
    want = {r: [] for r in RUNS}
    for rec in ref:
        assert rec["test"] == (test or ("sign" if scale == "ordinal" else "t"))
        if rec["significant"]:
            w, loser = ((rec["run_b"], rec["run_a"]) if rec["diff"] > 0
                        else (rec["run_a"], rec["run_b"]))
            want[w].append(loser)
    order = {r: i for i, r in enumerate(RUNS)}
    assert got == {r: sorted(v, key=order.get) for r, v in want.items()}
    # the p-values deciding them are sigtest's corrected ones, pair by pair
    tests = {(r["run_a"], r["run_b"]): r for r in rep.table("tests").records}
    assert len(tests) == len(ref)
    for rec in ref:
        t = tests[(rec["run_a"], rec["run_b"])]
        assert (t["p_value"], t["p_adjusted"], t["significant"]) == \
            (rec["p_value"], rec["p_adjusted"], rec["significant"])
    # the known answer: the much better run beats the baseline, nothing beats it
    if marks == "pairs" or marks == "baseline":
        assert "base" in got["much_better"]
        assert all("much_better" not in v for v in got.values())


def test_the_correction_family_is_one_measure():
    """Two measures, Holm: each measure's p-values are corrected over its own
    pairs (sigtest on that measure alone), not over both measures' (sigtest
    on both at once corrects over every p-value of the invocation)."""
    A, B = scores(seed=4), scores(seed=5)
    rep = compare({"A": A, "B": B}, test="t", correct="holm", marks="pairs")
    got = {(r["run_a"], r["run_b"], r["measure"]): r["p_adjusted"]
           for r in rep.table("tests").records}
    for name, M in (("A", A), ("B", B)):
        for rec in sigtest_records(M, name, "interval", test="t", correct="holm",
                                   all_pairs=True):
            assert got[(rec["run_a"], rec["run_b"], name)] == rec["p_adjusted"]
    both = st.run(list(RUNS), {"A": A, "B": B}, {"A": "interval", "B": "interval"},
                  st.make_options(["t"], None, all_pairs=True, correct="holm"))
    joint = {(r["run_a"], r["run_b"], r["measure"]): r["p_adjusted"]
             for r in both.table("tests").records}
    assert joint != got           # the invocation's family is larger: not what compare uses


def test_lower_is_better_marks_the_lower_mean():
    M = scores(seed=6)
    rep = compare({"L": M}, higher={"L": False}, test="t", marks="pairs")
    got = better_map(rep.table("comparison"), "L")
    assert "much_better" in got["base"] and "base" in got["worse"]
    assert got["much_better"] == []


def test_groups_are_leaderboards_letters():
    M = scores(seed=8)
    rep = compare({"X": M}, marks="groups", samples=3000, seed=11)
    board = lb.analyse(list(RUNS), M.shape[1], [MeasureInput("X", M, True, "interval")],
                       lb.Options(samples=3000, seed=11, alpha=0.05, ci=0.95))
    want = {r["run"]: r["letters"] for r in board.table("leaderboard").records}
    got = {r["run"]: r["group"] for r in rep.table("comparison").records}
    assert got == want
    assert len(set(want.values())) > 1          # the generated runs do separate
    # leaderboard's default samples when --samples is not given
    assert compare({"X": M}, marks="groups").table("comparison").params["samples"] == \
        lb.Options().samples


def test_means_and_ci():
    from scipy import stats as ss
    M = scores(seed=9)
    M[2, 5] = np.nan                    # undefined for one run: its mean over 49 topics
    rep = compare({"X": M}, ci=True, marks="none")
    for i, r in enumerate(rep.table("comparison").records):
        x = M[i][~np.isnan(M[i])]
        assert r["mean"] == pytest.approx(x.mean(), rel=1e-14)
        ci = ss.ttest_1samp(x, 0).confidence_interval(0.95)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), rel=1e-10)


def test_default_marks_and_checks():
    M = scores()
    assert compare({"X": M}).table("comparison").params["marks"] == "pairs"
    assert compare({"X": M}, baseline="same").table("comparison").params["marks"] == "baseline"
    with pytest.raises(UsageError, match="--test does not apply to --marks groups"):
        compare({"X": M}, marks="groups", test="t")
    with pytest.raises(UsageError, match="--correct does not apply"):
        compare({"X": M}, marks="groups", correct="holm")
    with pytest.raises(UsageError, match="conflicts with --marks pairs"):
        compare({"X": M}, marks="pairs", baseline="same")
    with pytest.raises(UsageError, match="one test"):
        compare({"X": M}, test="t,sign")
    with pytest.raises(UsageError, match="unknown test"):
        compare({"X": M}, test="nope")


def test_impermissible_marks_are_told_apart():
    M = scores(seed=2)
    rep = compare({"X": M}, scales={"X": "ordinal"}, test="t", marks="pairs")
    t = rep.table("comparison")
    assert t.params["permissible"] == {"X": False}
    assert any("not permissible for X" in f for f in t.params["footnotes"])
    from ipsoeval.formatters import comparison
    text = comparison.render(rep, "markdown")
    assert "†</sup>" in text and "not permissible" in text
    ok = compare({"X": M}, scales={"X": "interval"}, test="t", marks="pairs")
    assert "†" not in comparison.render(ok, "markdown")


def test_footnotes_explain_only_marks_shown():
    """† explains marks; a measure whose cells carry none needs no footnote."""
    flat = np.tile(np.linspace(0.2, 0.8, 50), (len(RUNS), 1))     # every run the same
    rep = compare({"X": flat}, scales={"X": "ordinal"}, test="t", marks="pairs")
    assert rep.table("comparison").params["footnotes"] == []
    rep = compare({"X": scores(seed=2)}, scales={"X": None}, marks="pairs")
    assert any(f.startswith("? scale unknown for X") for f in
               rep.table("comparison").params["footnotes"])
