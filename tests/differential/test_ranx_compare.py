"""``ipsoeval.compare(..., marks="pairs")`` against ranx 0.3.21's ``compare()``:
the superscript letters of the paper table.

The runs: 5 generated runs of 100 documents on 50 topics with graded qrels
(labels 0-3, every topic with a relevant document, no tied scores), of
qualities chosen so that some pairs differ clearly, some not at all and some
in between.  The measures, in ranx's and ipsoeval's names: map@100 = AP@100,
ndcg@10 = nDCG@10 (gain = label, discount log2(rank + 1)), precision@5 = P@5,
mrr = RR; per topic they agree to 1e-12, and so do the means.

ranx's rule, read from its source (meta/compare.py, statistical_tests/,
data_structures/report.py):

- Pairs: every ordered pair (control, treatment) of runs is tested on each
  metric and stored under the unordered pair, so the test of (later run,
  earlier run) replaces that of (earlier, later).  No correction for multiple
  comparisons: each pair is tested at ``max_p``.
- ``stat_test="student"``: ``scipy.stats.ttest_rel(control, treatment,
  alternative="two-sided")``; all-equal differences give p = NaN, never
  significant.
- ``stat_test="fisher"``: the paired randomization test.  Each of
  ``n_permutations`` (B) permutations swaps each topic's two scores with
  probability 1/2 (``np.random.permutation`` of the topic's row); p =
  #{permutations with |mean diff*| >= |mean diff|} / B: two-sided, no +1
  (the observed arrangement is not counted; p can be 0).  The comparison is
  of floats without a tolerance: on measures of few values (P@5, RR) many
  arrangements tie with the observed difference in exact arithmetic, and
  whether each counts depends on the rounding of the two column means (under
  the JIT nearly all count; with numpy's pairwise sums fewer: P@5 of dense
  vs lexical below, p 0.447 against 0.378, ties 8.5% of the arrangements).
- Significant: ``p <= max_p`` (ipsoeval: p < alpha; for Student's t the two
  part only when p == alpha, which the test checks does not happen; for
  ranx's p = count/B it can, and is then inside the band below).
- Superscripts: the cell (run, metric) gets the letter of each other run j
  whose pair is significant and whose mean is strictly lower, on the
  unrounded means (``np.mean`` of the per-query scores); letters are a, b, ...
  in the order the runs were given.  ``rounding_digits`` (3) applies to the
  printed numbers only.
- ranx's seed does not fix its randomization test.
  ``fisher_randomization_test`` is ``@njit(parallel=True)``: it calls
  ``np.random.seed(random_seed)`` on the calling thread, but the ``prange``
  loop over the permutations runs on numba's worker threads, whose
  generators (one per thread) the seed does not reach.  The same call with
  the same seed returns different p values (0.035, 0.027, 0.032 for one pair,
  also with NUMBA_NUM_THREADS=1).  Under NUMBA_DISABLE_JIT=1 the seed does
  fix it, and the p is exactly that of :func:`fisher_p` below (checked).

So for the randomization test the letters agree except where the pair's p is
within 3 Monte Carlo standard errors of alpha, se = sqrt(p(1 - p)/B), for
ranx's p or ipsoeval's: the two draw different permutations, ipsoeval's p is
(count + 1)/(B + 1) with its own generator, and ranx's is not reproducible;
or where alpha lies between the pair's p without and with its tied
arrangements (ipsoeval counts ties, within a relative tolerance; ranx as its
rounding falls).  No other disagreement is allowed.

Marked slow: ranx builds numba typed containers, compiled anew in each
process (about 25 s of CPU before the first comparison).

ranx's side is checked now (against scipy and the reimplementation), and so
is ``ipsoeval.sigtest --all-pairs --correct none`` (a significant pair marks
the run with the higher mean); the comparison with ``ipsoeval.compare`` is
skipped only while that function does not exist ("compare not built").
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import ipsoeval
from ipsoeval import api

pytestmark = pytest.mark.slow

RANX = {"map@100": "AP@100", "ndcg@10": "nDCG@10", "precision@5": "P@5", "mrr": "RR"}
MEASURES = list(RANX.values())
# row order (= letter order) differs from the alphabetical: a letter bound to
# a sorted name would show
QUALITY = {"rerank": 1.0, "bm25": 0.55, "dense": 0.6, "hybrid": 0.9, "lexical": 0.2}
TOPICS, DOCS, DEPTH = 50, 160, 100
SEED = 7


# --- generated inputs ------------------------------------------------------------------

@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """(qrels path, {run name: run path}) for 5 runs x 50 topics."""
    rng = np.random.default_rng(SEED)
    d = tmp_path_factory.mktemp("ranx")
    qrels, runs = [], {name: [] for name in QUALITY}
    for t in range(1, TOPICS + 1):
        topic = f"q{t:03d}"
        labels = rng.choice(4, size=DOCS, p=[0.8, 0.1, 0.06, 0.04])
        labels[rng.integers(DOCS)] = rng.integers(1, 4)      # a relevant document
        hard = rng.normal(0, 0.6)                             # a topic effect
        qrels += [f"{topic} 0 d{t}-{k} {labels[k]}" for k in range(DOCS)]
        for name, q in QUALITY.items():
            skill = q + hard + rng.normal(0, 0.5)
            scores = skill * labels + rng.normal(0, 1.5, size=DOCS)
            order = np.argsort(-scores, kind="stable")[:DEPTH]
            runs[name] += [f"{topic} Q0 d{t}-{k} {r + 1} {float(scores[k])!r} {name}"
                           for r, k in enumerate(order)]
    (d / "qrels").write_text("\n".join(qrels) + "\n")
    paths = {}
    for name, lines in runs.items():
        paths[name] = d / f"{name}.run"
        paths[name].write_text("\n".join(lines) + "\n")
    return d / "qrels", paths


# --- ranx's side -----------------------------------------------------------------------

SUPER = "ᵃᵇᶜᵈᵉ"                                # ranx's superscript a..e (report.super_chars)


_RANX: dict = {}


def ranx_compare(qrels_path, runs, stat_test, max_p, n_permutations=1000, seed=42):
    """:func:`ranx_once`, computed once per arguments in this process."""
    key = (str(qrels_path), tuple(runs.items()), stat_test, max_p, n_permutations, seed)
    if key not in _RANX:
        _RANX[key] = ranx_once(qrels_path, runs, stat_test, max_p, n_permutations, seed)
    return _RANX[key]


def ranx_once(qrels_path, runs, stat_test, max_p, n_permutations=1000, seed=42):
    """ranx.compare on the files: its report's superscripts as {run: {measure:
    set of runs this cell is better than}} (read from the printed table),
    p values {(a, b, measure): p}, means {(run, measure): mean} and per-topic
    scores {(run, measure): {topic: score}} (ipsoeval's measure names)."""
    from ranx import Qrels, Run, compare, evaluate

    qrels = Qrels.from_file(str(qrels_path), kind="trec")
    rs = [Run.from_file(str(p), kind="trec", name=n) for n, p in runs.items()]
    report = compare(qrels=qrels, runs=rs, metrics=list(RANX), stat_test=stat_test,
                     max_p=max_p, n_permutations=n_permutations, random_seed=seed)
    names = list(runs)
    lines = str(report).splitlines()
    assert lines[0].split()[:2] == ["#", "Model"]
    marks = {}
    for i, line in enumerate(lines[2:]):
        letter, name, *cells = line.split()
        assert letter == "abcde"[i] and name == names[i]
        marks[name] = {}
        for ranx_m, cell in zip(RANX, cells):
            sup = cell.lstrip("0123456789.")
            marks[name][RANX[ranx_m]] = {names[SUPER.index(ch)] for ch in sup}
    p = {}
    for a in names:
        for b in names:
            if a != b:
                for m in RANX:
                    p[a, b, RANX[m]] = float(report.comparisons[a, b][m]["p_value"])
    means = {(n, RANX[m]): report.results[n][m] for n in names for m in RANX}
    per_topic = {}
    for run in rs:
        scores = evaluate(qrels, run, list(RANX), return_mean=False)
        for m in RANX:
            per_topic[run.name, RANX[m]] = dict(zip(run.get_query_ids(), scores[m]))
    return marks, p, means, per_topic


def fisher_p(control, treatment, n_permutations, seed):
    """ranx's fisher_randomization_test as its source reads, in plain numpy
    (the global generator seeded once, one permutation of each topic's pair
    per topic and permutation)."""
    np.random.seed(seed)
    observed = abs(control.mean() - treatment.mean())
    stack = np.column_stack((control, treatment))
    count = 0
    for _ in range(n_permutations):
        permuted = np.empty_like(stack)
        for i in range(stack.shape[0]):
            permuted[i] = np.random.permutation(stack[i])
        if abs(permuted[:, 0].mean() - permuted[:, 1].mean()) >= observed:
            count += 1
    return count / n_permutations


def rule(means, p, names, significant):
    """{run: {measure: runs it is better than}}: significant(p) and a higher mean."""
    return {a: {m: {b for b in names if b != a and significant(p[a, b, m])
                    and means[a, m] > means[b, m]} for m in MEASURES} for a in names}


def test_ranx_measures_equal_ipsoeval_per_topic(collection):
    qrels, runs = collection
    _, _, means, per_topic = ranx_compare(qrels, runs, "student", 0.05)
    res = api.evaluate(str(qrels), [str(p) for p in runs.values()], MEASURES)
    assert list(res.runs) == list(runs)
    for i, name in enumerate(runs):
        for m in MEASURES:
            got = dict(zip(res.topics, res.matrix(m)[i]))
            want = per_topic[name, m]
            assert set(got) == set(want)
            for t in want:
                assert got[t] == pytest.approx(want[t], rel=1e-12, abs=1e-15), (name, m, t)
            assert float(np.mean(res.matrix(m)[i])) == pytest.approx(means[name, m],
                                                                     rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("max_p", [0.05, 0.01])
def test_ranx_student_rule(collection, max_p):
    """The letters of ranx's printed report follow the rule above, with
    scipy's ttest_rel on ranx's per-topic scores; the p values are scipy's."""
    from scipy.stats import ttest_rel

    qrels, runs = collection
    names = list(runs)
    marks, p, means, per_topic = ranx_compare(qrels, runs, "student", max_p)
    for a in names:
        for b in names:
            for m in MEASURES if a != b else ():
                topics = sorted(per_topic[a, m])
                x = np.array([per_topic[a, m][t] for t in topics])
                y = np.array([per_topic[b, m][t] for t in topics])
                assert p[a, b, m] == p[b, a, m]
                # ranx sums in its query order, here in sorted order
                assert p[a, b, m] == pytest.approx(ttest_rel(x, y).pvalue, rel=1e-12)
                assert means[a, m] == pytest.approx(np.mean(x), rel=1e-14)
    assert marks == rule(means, p, names, lambda v: v <= max_p)
    n_marks = sum(len(s) for row in marks.values() for s in row.values())
    assert 5 <= n_marks <= 35, n_marks      # some pairs separated, not all (of 40)


def tie_range(x, y, samples=20_000, seed=0):
    """(p with tied arrangements not counted, p with them counted) of the
    two-sided sign-flip test of y - x, from ``samples`` random arrangements;
    a tie is |mean diff*| within 1e-12 of |mean diff| (exact arithmetic would
    make it equal: the scores of P@5 or RR take few values)."""
    d = np.asarray(y, float) - np.asarray(x, float)
    signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(samples, d.size))
    T = np.abs(signs @ d) / d.size
    obs = abs(d.mean())
    return float(np.mean(T > obs + 1e-12)), float(np.mean(T >= obs - 1e-12))


def mc_se(p: float, B: int) -> float:
    return math.sqrt(max(p * (1 - p), 1 / B) / B)


def test_ranx_fisher_rule(collection):
    """ranx's randomization test (JIT, as users run it): the letters follow the
    rule above on its p values, and each p lies between the test's p without
    and with the tied arrangements, up to Monte Carlo error (how many ties
    ranx counts depends on the rounding of its means: about all of them under
    the JIT, fewer with numpy's pairwise sums; P@5 of dense vs lexical: 0.447
    under the JIT, 0.378 without, 0.364 and 0.449 without and with the ties)."""
    qrels, runs = collection
    names = list(runs)
    B = 2000
    marks, p, means, per_topic = ranx_compare(qrels, runs, "fisher", 0.05, B, seed=3)
    assert marks == rule(means, p, names, lambda v: v <= 0.05)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for m in MEASURES:
                topics = sorted(per_topic[a, m])
                x = np.array([per_topic[b, m][t] for t in topics])   # control: the later run
                y = np.array([per_topic[a, m][t] for t in topics])
                lo, hi = tie_range(x, y)
                got = p[a, b, m]
                assert lo - 5 * mc_se(lo, B) < got < hi + 5 * mc_se(hi, B), (a, b, m, lo, got, hi)


def test_ranx_fisher_is_fisher_p_without_jit():
    """With numba's JIT off, ranx's test is :func:`fisher_p` exactly: the
    reading of its p (count/B, |.| >=, no +1) and of its permutations is right."""
    rng = np.random.default_rng(11)
    x = rng.random(30)
    cases = [(x, x + rng.normal(0.05, 0.2, 30)), (x, x + rng.normal(0.0, 0.2, 30)),
             (x, x + 0.5)]
    code = ("import json, sys, numpy as np\n"
            "from ranx.statistical_tests import fisher_randomization_test as f\n"
            "cases = json.loads(sys.stdin.read())\n"
            "print(json.dumps([f(np.array(a), np.array(b), 300, 0.05, 5)[0]"
            " for a, b in cases]))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    r = subprocess.run([sys.executable, "-c", code], input=json.dumps(
        [[a.tolist(), b.tolist()] for a, b in cases]), capture_output=True, text=True,
        env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    assert got == [fisher_p(a, b, 300, 5) for a, b in cases]
    assert got[2] == 0.0                      # no +1: p can be 0


# --- against ipsoeval.sigtest (all pairs) ------------------------------------------------

def sigtest_marks(qrels_path, runs, test, alpha, samples=100_000, seed=42):
    """ranx's shape from ``ipsoeval.sigtest(all_pairs=True, correct="none")``:
    a significant pair marks the run with the higher mean; and the p values."""
    res = ipsoeval.evaluate(str(qrels_path), [str(p) for p in runs.values()], MEASURES)
    assert list(res.runs) == list(runs)
    rep = ipsoeval.sigtest(res, measures=MEASURES, tests=[test], all_pairs=True,
                           correct="none", alpha=alpha, samples=samples, seed=seed)
    marks = {a: {m: set() for m in MEASURES} for a in runs}
    p = {}
    for row in rep.to_frame().itertuples():
        assert row.test == test
        p[row.run_a, row.run_b, row.measure] = p[row.run_b, row.run_a, row.measure] = \
            float(row.p_value)
        assert bool(row.significant) == (row.p_value < alpha)
        if row.significant and row.mean_a != row.mean_b:
            hi, lo = ((row.run_a, row.run_b) if row.mean_a > row.mean_b
                      else (row.run_b, row.run_a))
            marks[hi][row.measure].add(lo)
    assert len(p) == len(runs) * (len(runs) - 1) * len(MEASURES)
    return marks, p


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_sigtest_t_agrees_with_ranx(collection, alpha):
    """ipsoeval's paired t over all pairs, uncorrected, marks what ranx marks."""
    qrels, runs = collection
    got, p = sigtest_marks(qrels, runs, "t", alpha)
    want, p_ranx, _, _ = ranx_compare(qrels, runs, "student", alpha)
    for key, v in p_ranx.items():
        assert p[key] == pytest.approx(v, rel=1e-9, abs=1e-15), key
        assert abs(v - alpha) > 1e-9, key     # <= and < part only at p == alpha
    assert got == want


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_sigtest_randomization_agrees_with_ranx(collection, alpha):
    """The same for the randomization test, up to the band near alpha."""
    qrels, runs = collection
    B = 5000
    got, p = sigtest_marks(qrels, runs, "randomization", alpha, samples=B, seed=42)
    want, p_ranx, _, per_topic = ranx_compare(qrels, runs, "fisher", alpha, B, seed=42)
    unexplained, explained = disagreements(want, got, p_ranx, p, alpha, B, per_topic)
    assert not unexplained, unexplained
    assert len(explained) <= 4, explained


def disagreements(want, got, p_ranx, p, alpha, B, per_topic):
    """(unexplained, explained): the marks one side has and the other not,
    explained when either p is within 3 Monte Carlo standard errors of alpha,
    or alpha lies between the pair's p without and with its tied arrangements
    (ranx counts ties as the rounding of its means falls; ipsoeval counts them)."""
    unexplained, explained = [], []
    for a in want:
        for m in MEASURES:
            for b in want[a][m] ^ got[a][m]:
                topics = sorted(per_topic[a, m])
                lo, hi = tie_range([per_topic[b, m][t] for t in topics],
                                   [per_topic[a, m][t] for t in topics])
                why = (near_alpha(p_ranx[a, b, m], alpha, B)
                       or near_alpha(p[a, b, m], alpha, B)
                       or lo - 3 * mc_se(lo, 20_000) <= alpha <= hi + 3 * mc_se(hi, 20_000))
                (explained if why else unexplained).append(
                    (a, b, m, p_ranx[a, b, m], p[a, b, m]))
    return unexplained, explained


# --- against ipsoeval.compare ------------------------------------------------------------

def ipsoeval_compare(qrels_path, runs, test, alpha, samples=None, seed=None):
    """ipsoeval.compare's marks in ranx's shape, its p values and means."""
    if not hasattr(ipsoeval, "compare"):
        pytest.skip("compare not built: ipsoeval.compare does not exist yet")
    kw = {} if test == "t" else {"samples": samples, "seed": seed}
    res = ipsoeval.compare(str(qrels_path), {n: str(p) for n, p in runs.items()},
                           measures=MEASURES, marks="pairs", test=test, correct="none",
                           alpha=alpha, **kw)
    names = list(runs)
    assert list(res.runs) == names and list(res.measures) == MEASURES
    assert dict(res.letters) == {n: "abcde"[i] for i, n in enumerate(names)}
    marks = {a: {m: set(res.better_than(a, m)) for m in MEASURES} for a in names}
    p = {(a, b, m): float(res.p_value(a, b, m))
         for a in names for b in names if a != b for m in MEASURES}
    means = {(a, m): float(res.mean(a, m)) for a in names for m in MEASURES}
    return marks, p, means


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_student_letters_agree_with_ranx(collection, alpha):
    qrels, runs = collection
    got, p, means = ipsoeval_compare(qrels, runs, "t", alpha)
    want, p_ranx, means_ranx, _ = ranx_compare(qrels, runs, "student", alpha)
    for key, v in means_ranx.items():
        assert means[key] == pytest.approx(v, rel=1e-12, abs=1e-15), key
    for key, v in p_ranx.items():
        assert p[key] == pytest.approx(v, rel=1e-9, abs=1e-15), key
        # ranx: p <= max_p, ipsoeval: p < alpha -- the same unless p == alpha
        assert abs(v - alpha) > 1e-9, key
    assert got == want
    assert got == sigtest_marks(qrels, runs, "t", alpha)[0]   # compare's cells = sigtest's


def near_alpha(p: float, alpha: float, B: int) -> bool:
    """|p - alpha| under 3 Monte Carlo standard errors of p."""
    return abs(p - alpha) < 3 * math.sqrt(p * (1 - p) / B)


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_randomization_letters_agree_with_ranx(collection, alpha):
    """Agreement except where ranx's or ipsoeval's p is within 3 Monte Carlo
    standard errors of alpha (see the module's docstring: ranx's seeded test
    is not reproducible, and the two draw different permutations)."""
    qrels, runs = collection
    B = 5000
    got, p, _ = ipsoeval_compare(qrels, runs, "randomization", alpha, samples=B, seed=42)
    want, p_ranx, _, per_topic = ranx_compare(qrels, runs, "fisher", alpha, B, seed=42)
    unexplained, explained = disagreements(want, got, p_ranx, p, alpha, B, per_topic)
    assert not unexplained, unexplained
    assert len(explained) <= 4, explained    # a few pairs at most sit on the threshold
