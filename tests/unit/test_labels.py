"""--labels gain|probability (ipsoeval/labels.py, ipsoeval/measures/expected.py).

Every expected measure is checked against brute force: all 2^n labelings
of a topic's n judged documents, each one an integer qrels topic scored by
the integer-label path (trec_eval's numbers, checked elsewhere against
trec_eval), weighted by its probability."""

import itertools
import warnings

import numpy as np
import pytest

import ipsoeval.api as api
from ipsoeval.errors import InputError, UsageError
from tests.conftest import invoke as _invoke


class _Res:
    def __init__(self, got):
        self.exit_code, self.stdout, self.stderr = got


def invoke(args):
    return _Res(_invoke(args))

EXACT = ["P@1", "P@3", "P@10", "R@1", "R@5", "R", "RR@1", "RR@4", "RR", "AP", "AP@3", "AP@8",
         "map", "gm_map", "map_cut.5", "nDCG@1", "nDCG@3", "nDCG@10", "nDCG", "ndcg",
         "ndcg_cut.5", "DCG@4", "DCG", "Success@1", "Success@5", "RBP", "RBP(p=0.5)@5",
         "recip_rank", "recall.5", "P.3", "NumRelRet", "NumRel", "NumRet",
         "num_nonrel_judged_ret", "SetP", "Judged@5", "RBPresid@5", "R(judged_only=True)@3",
         "AP(judged_only=True)", "P(judged_only=True)@2"]
MONTE_CARLO = ["bpref", "infAP", "ERR@5", "Rprec", "iprec_at_recall.0.5", "SetF", "ndcg_rel",
               "nDCG(dcg='exp-log2')@5", "yaap", "RelP@3", "Rprec(judged_only=True)"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _topic(rng, n, pool=24):
    """n judged documents (probabilities with 0, 1 and 1/2 likely) and a ranking
    with unjudged documents, some judged ones left out, or empty."""
    docs = [f"d{i:02d}" for i in range(pool)]
    judged = rng.choice(pool, n, replace=False)
    choices = [0.0, 1.0, 0.5, None, None, None]
    probs = {}
    for j in judged:
        c = choices[int(rng.integers(len(choices)))]
        probs[docs[j]] = float(rng.random()) if c is None else c
    depth = int(rng.integers(0, pool + 1))
    ranked = rng.choice(pool, depth, replace=False)
    return probs, {docs[j]: float(depth - i) for i, j in enumerate(ranked)}


def _brute(probs: dict, ranking: dict, measures) -> dict:
    """Expected value of each measure over every labeling: one integer qrels
    topic per labeling, all scored by one call of the integer path."""
    docs = list(probs)
    qrels, run, weights = {}, {}, []
    for b, bits in enumerate(itertools.product([0, 1], repeat=len(docs))):
        w = 1.0
        for d, bit in zip(docs, bits):
            w *= probs[d] if bit else 1.0 - probs[d]
        if w == 0:
            continue
        qrels[f"q{b}"] = dict(zip(docs, bits))
        if ranking:
            run[f"q{b}"] = dict(ranking)
        weights.append((f"q{b}", w))
    if not run:          # an empty ranking everywhere: a dummy topic outside the qrels
        run = {"zz": {"x": 1.0}}
    res = api.evaluate(qrels, run, measures, queries="qrels")
    col = {t: i for i, t in enumerate(res.topics)}
    w = np.array([x for _, x in weights])
    idx = [col[t] for t, _ in weights]
    return {m: float(np.dot(res.matrix(m)[0, idx], w)) for m in res.measures}, res.measures


def _expected(probs, ranking, measures, **kw):
    run = {"t": dict(ranking)} if ranking else {"zz": {"x": 1.0}}
    return api.evaluate({"t": probs}, run, measures, labels="probability", queries="qrels",
                        **kw)


@pytest.mark.parametrize("seed", range(40))
def test_exact_expectations_equal_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = 14 if seed < 3 else int(rng.integers(1, 11))
    probs, ranking = _topic(rng, n)
    want, names = _brute(probs, ranking, EXACT)
    got = _expected(probs, ranking, EXACT)
    for m in names:
        g = float(got.matrix(m)[0, got.topics.index("t")])
        assert g == pytest.approx(want[m], abs=1e-12), (m, probs, ranking)


@pytest.mark.parametrize("seed", range(5))
def test_monte_carlo_within_five_standard_errors(seed):
    rng = np.random.default_rng(100 + seed)
    probs, ranking = _topic(rng, int(rng.integers(1, 8)), pool=12)
    want, names = _brute(probs, ranking, MONTE_CARLO)
    al = api.load_inputs({"t": probs}, {"t": ranking} if ranking else {"zz": {"x": 1.0}},
                         labels="probability", samples=1500, seed=seed)
    from ipsoeval import engine
    sc = engine.evaluate(al, MONTE_CARLO)
    t = al.topics.index("t")
    for m in sc.values:
        v, se = sc.values[m][0, t], sc.stderr[m][0, t]
        if np.isnan(want[m]):
            continue
        assert abs(v - want[m]) <= 5 * se + 1e-12, (m, v, want[m], se)


def test_monte_carlo_is_deterministic_for_a_seed():
    probs = {"a": 0.3, "b": 0.6, "c": 0.9}
    ranking = {"a": 3.0, "x": 2.0, "c": 1.0}
    one = _expected(probs, ranking, ["bpref"], samples=200, seed=7).matrix("bpref")
    two = _expected(probs, ranking, ["bpref"], samples=200, seed=7).matrix("bpref")
    three = _expected(probs, ranking, ["bpref"], samples=200, seed=8).matrix("bpref")
    assert np.array_equal(one, two) and not np.array_equal(one, three)


def test_integer_valued_gain_labels_equal_the_integer_path_with_identity_gains():
    rng = np.random.default_rng(5)
    ms = ["all_trec", "nDCG@5", "DCG", "RBP", "ERR@10", "P(rel=2)@5", "AP(rel=2)", "R@3",
          "nDCG(dcg='exp-log2')@5", "ndcg_rel", "Rndcg", "G", "ideal_dcg"]
    levels = [0, 2, 3]          # a gap: the gain codes (0, 1, 2) are not the labels
    for _ in range(10):
        qrels = {f"q{t}": {f"d{i}": levels[int(rng.integers(0, 3))]
                           for i in rng.choice(30, 12, False)} for t in range(3)}
        run = {q: {f"d{i}": float(rng.random()) for i in rng.choice(30, 20, False)}
               for q in qrels}
        for level in (1, 2):
            ref = api.evaluate(qrels, run, ms, rel_level=level, gains={2: 2, 3: 3})
            got = api.evaluate({q: {d: float(v) for d, v in j.items()} for q, j in qrels.items()},
                               run, ms, rel_level=level, labels="gain")
            assert got.measures == ref.measures
            for m in ref.measures:
                np.testing.assert_array_equal(got.matrix(m), ref.matrix(m), err_msg=m)
    with pytest.raises(UsageError, match="LEVEL=GAIN"):
        api.evaluate({"q": {"a": 1.5}}, {"q": {"a": 1.0}}, ["ndcg.1=2"], labels="gain")


def test_relstring_under_gain_labels_prints_the_integer_part(tmp_path):
    q, r = _files(tmp_path, "q 0 a 2.5\nq 0 b 0\nq 0 c 12\n",
                  "q 0 a 1 4 r\nq 0 x 2 3 r\nq 0 b 3 2 r\nq 0 c 4 1 r\n")
    res = invoke(["eval", "-q", "--labels", "gain", "-m", "relstring", "--format", "tsv", q, r])
    assert res.exit_code == 0, res.stderr
    assert "\t2-0>" in res.stdout


def test_fractional_gains_threshold_at_the_relevance_level():
    qrels = {"q": {"a": 0.5, "b": 2.5, "c": 1.0, "d": 0.0}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    r = api.evaluate(qrels, run, ["P@4", "NumRel", "DCG@4", "P(rel=2)@4"], labels="gain")
    assert r.matrix("P@4")[0, 0] == 0.5                 # b (2.5) and c (1.0) are >= 1
    assert r.matrix("NumRel")[0, 0] == 2
    assert r.matrix("P(rel=2)@4")[0, 0] == 0.25
    want = 0.5 / np.log2(2) + 2.5 / np.log2(3) + 1.0 / np.log2(4)
    assert r.matrix("DCG@4")[0, 0] == pytest.approx(want, abs=1e-15)
    r2 = api.evaluate(qrels, run, ["P@4"], labels="gain", rel_level=3)
    assert r2.matrix("P@4")[0, 0] == 0.0


def _files(tmp_path, qrels_text, run_text="q 0 a 1 2.0 r\nq 0 b 2 1.0 r\n"):
    q = tmp_path / "qrels"
    q.write_text(qrels_text)
    r = tmp_path / "run"
    r.write_text(run_text)
    return str(q), str(r)


@pytest.mark.parametrize("mode,text,msg,bad", [
    ("probability", "q 0 a 0.5\nq 0 b 1.5\n", "probability outside [0, 1]", 2),
    ("probability", "q 0 a -0.1\n", "probability outside [0, 1]", 1),
    ("probability", "q 0 a 1\nq 0 b 1e400\n", "label is not a finite number", 2),
    ("gain", "q 0 a 2.5\nq 0 b -1\n", "negative gain", 2),
    ("gain", "q 0 a nan\n", "label is not a finite number", 1),
    ("integer", "q 0 a 0.5\n", "label is not an integer", 1),
])
def test_bad_labels_are_one_line_with_file_and_line(tmp_path, mode, text, msg, bad):
    q, r = _files(tmp_path, text)
    res = invoke(["eval", "--labels", mode, q, r])
    assert res.exit_code == 3
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and msg in lines[0]
    assert f"{q}:{bad}:" in lines[0]


def test_api_bad_labels():
    with pytest.raises(InputError, match="probability outside"):
        api.evaluate({"q": {"a": 2.0}}, {"q": {"a": 1.0}}, ["P@1"], labels="probability")
    with pytest.raises(InputError, match="negative gain"):
        api.evaluate({"q": {"a": -2.0}}, {"q": {"a": 1.0}}, ["P@1"], labels="gain")
    with pytest.raises(UsageError, match="--labels"):
        api.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P@1"], labels="fuzzy")


def test_probability_usage_errors(tmp_path):
    q, r = _files(tmp_path, "q 0 a 0.5\nq 0 b 0.25\n")
    for args, msg in [(["-l", "2"], "does not apply"), (["--gains", "1:2"], "--gains"),
                      (["-m", "P(rel=2)@5"], "rel= does not apply"),
                      (["-m", "relstring"], "not defined"),
                      (["-m", "ESL@5"], "has no expectation")]:
        res = invoke(["eval", "--labels", "probability", *args, q, r])
        assert res.exit_code == 2, (args, res.stderr)
        assert msg in res.stderr


def test_eval_cli_probability_prints_expectations_and_monte_carlo_error(tmp_path):
    q, r = _files(tmp_path, "q 0 a 0.5\nq 0 b 0.25\nq 0 c 1\n")
    res = invoke(["eval", "--labels", "probability", "-m", "P@2", "-m", "AP", "-m", "bpref",
                  "--samples", "500", "--seed", "3", "--format", "tsv", q, r])
    assert res.exit_code == 0, res.stderr
    rows = {ln.split("\t")[2]: float(ln.split("\t")[3])
            for ln in res.stdout.splitlines()[1:] if ln.split("\t")[1] == "all"}
    assert rows["P@2"] == pytest.approx(0.375, abs=1e-15)
    # AP = E[(1[a] + 1[b](1[a]+1)/2) / R], R = 1 + 1[a] + 1[b]: enumerated by hand
    ap = 0
    for a, b in itertools.product([0, 1], repeat=2):
        w = (0.5 if a else 0.5) * (0.25 if b else 0.75)
        ap += w * (a + b * (a + 1) / 2) / (1 + a + b)
    assert rows["AP"] == pytest.approx(ap, abs=1e-15)
    assert "Monte Carlo" in res.stderr and "bpref" in res.stderr and "standard error" in \
        res.stderr


def test_expected_counts_print_as_reals_and_api_standard_errors(tmp_path):
    q, r = _files(tmp_path, "q 0 a 0.5\nq 0 b 0.25\nq 0 c 1\n")
    res = invoke(["eval", "--labels", "probability", "-m", "num_rel", "-m", "num_rel_ret",
                  "-m", "num_ret", "--format", "trec", q, r])
    assert res.exit_code == 0, res.stderr
    got = {ln.split()[0]: ln.split()[2] for ln in res.stdout.splitlines()}
    assert got == {"num_rel": "1.7500", "num_rel_ret": "0.7500", "num_ret": "2"}
    res = api.evaluate(q, r, ["AP", "bpref"], labels="probability", samples=100)
    assert res.standard_error("AP") is None
    se = res.standard_error("bpref")
    assert se.shape == (1, 1) and se[0, 0] > 0
    assert any("bpref is a Monte Carlo estimate" in w for w in res.warnings)


def test_measures_lists_the_probability_status():
    res = invoke(["measures", "--format", "tsv"])
    head = res.stdout.splitlines()[0].split("\t")
    assert "probability" in head
    col = head.index("probability")
    rows = {ln.split("\t")[0]: ln.split("\t")[col] for ln in res.stdout.splitlines()[1:]}
    assert rows["AP"] == "exact" and rows["RR"] == "exact" and rows["P"] == "exact"
    assert rows["nDCG"].startswith("exact")
    assert rows["bpref"] == "Monte Carlo"
    assert rows["relstring"] == "not defined" and rows["ESL"] == "not defined"


@pytest.mark.parametrize("cmd", [["ipso", "-m", "AP"], ["interval-map", "-m", "AP"],
                                 ["breakdown"]])
def test_analyses_that_need_integer_labels_refuse(tmp_path, cmd):
    q, r = _files(tmp_path, "q 0 a 0.5\nq 0 b 0.25\n")
    res = invoke([*cmd, "--labels", "probability", q, r, r])
    assert res.exit_code == 2 and "--labels" in res.stderr


def test_api_analyses_and_labels():
    res = api.evaluate({"q": {"a": 0.5, "b": 0.2}, "r": {"a": 0.9}},
                       {"A": {"q": {"a": 2.0, "b": 1.0}, "r": {"a": 1.0}},
                        "B": {"q": {"b": 2.0, "a": 1.0}, "r": {"x": 1.0}}},
                       ["AP", "P@1"], labels="probability")
    api.sigtest(res, measures=["AP"])
    api.bootstrap(res, measures=["AP"], samples=50)
    for f in (api.breakdown, api.ipso, api.interval_map):
        with pytest.raises(UsageError, match="integer labels"):
            f(res)


def test_sigtest_and_bootstrap_take_expected_scores(tmp_path):
    q, r = _files(tmp_path, "q 0 a 0.5\nq 0 b 0.25\nq2 0 a 0.3\n",
                  "q 0 a 1 2.0 r\nq 0 b 2 1.0 r\nq2 0 a 1 1 r\n")
    r2 = tmp_path / "run2"
    r2.write_text("q 0 b 1 2.0 s\nq 0 a 2 1.0 s\nq2 0 x 1 1 s\n")
    for cmd in (["sigtest", "-m", "AP"], ["bootstrap", "-m", "RR", "--samples", "200"]):
        res = invoke([*cmd, "--labels", "probability", q, r, str(r2)])
        assert res.exit_code == 0, res.stderr
    res = invoke(["bootstrap", "-m", "bpref", "--samples", "50", "--labels", "probability",
                  q, r, str(r2)])
    assert res.exit_code == 0 and "bpref is a Monte Carlo estimate (1000 labelings" \
        in res.stderr.replace("under --labels probability ", "")
    res = invoke(["sigtest", "-m", "AP", "--scale", "interval", "--labels", "probability",
                  q, r, str(r2)])
    assert res.exit_code == 2 and "--labels integer" in res.stderr


# --- adversarial: hypothesis picks the probabilities and the ranking ----------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PROB = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 1e-12, 1 - 1e-12, 1e-300]),
                  st.floats(0, 1, allow_nan=False))


@st.composite
def _topics(draw):
    n = draw(st.integers(1, 9))
    probs = {f"d{i}": draw(_PROB) for i in range(n)}
    pool = list(probs) + [f"u{i}" for i in range(draw(st.integers(0, 4)))]
    ranked = draw(st.permutations(pool))
    ranked = ranked[:draw(st.integers(0, len(ranked)))]
    return probs, {d: float(len(ranked) - i) for i, d in enumerate(ranked)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_topics())
def test_exact_expectations_adversarial(topic):
    probs, ranking = topic
    ms = ["P@2", "R@3", "R", "RR@3", "RR", "AP", "AP@2", "nDCG@2", "nDCG", "DCG@3",
          "Success@2", "RBP", "NumRelRet", "NumRel", "SetP"]
    want, names = _brute(probs, ranking, ms)
    got = _expected(probs, ranking, ms)
    for m in names:
        g = float(got.matrix(m)[0, got.topics.index("t")])
        assert g == pytest.approx(want[m], abs=1e-12), (m, probs, ranking)


# --- larger topics: the quadrature and the leave-one-out law against plain DPs ------

def _pb(ps):
    """Poisson-binomial law by direct convolution."""
    d = np.array([1.0])
    for p in ps:
        d = np.convolve(d, [1.0 - p, p])
    return d


@pytest.mark.parametrize("seed", range(3))
def test_large_topics_against_direct_dynamic_programmes(seed):
    rng = np.random.default_rng(200 + seed)
    n = 60
    ps = np.where(rng.random(n) < 0.2, rng.choice([0.0, 1.0], n), rng.random(n))
    probs = {f"d{i}": float(ps[i]) for i in range(n)}
    order = rng.permutation(n)[:45]                  # 15 judged documents unretrieved
    ranked = []
    for j in order:
        ranked.append(f"d{j}")
        if rng.random() < 0.3:
            ranked.append(f"u{j}")
    ranking = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
    got = _expected(probs, ranking, ["AP", "R@20", "nDCG@10", "nDCG"])
    p_rank = [(i + 1, probs[d]) for i, d in enumerate(ranked) if d in probs]
    # AP: sum_i p_i / i * E[(1 + A_i) / (1 + A_i + B_i)], A_i above, B_i the others
    ap = 0.0
    for k, (rank, p) in enumerate(p_rank):
        above = [q for _, q in p_rank[:k]]
        others = [q for _, q in p_rank[k + 1:]] + [probs[f"d{j}"] for j in range(n)
                                                   if f"d{j}" not in ranking]
        A, B = _pb(above), _pb(others)
        a = np.arange(len(A))[:, None]
        b = np.arange(len(B))[None, :]
        ap += p / rank * float((A[:, None] * B[None, :] * (1 + a) / (1 + a + b)).sum())
    assert got.matrix("AP")[0, 0] == pytest.approx(ap, abs=1e-12)
    # R@20: E[X / (X + Y)]
    top = [q for r, q in p_rank if r <= 20]
    rest = [probs[d] for d in probs if d not in ranked[:20]]
    X, Y = _pb(top), _pb(rest)
    x = np.arange(len(X))[:, None]
    y = np.arange(len(Y))[None, :]
    with np.errstate(invalid="ignore"):
        ratio = np.where(x + y > 0, x / np.maximum(x + y, 1), 0.0)
    assert got.matrix("R@20")[0, 0] == pytest.approx(float((X[:, None] * Y * ratio).sum()),
                                                     abs=1e-12)
    # nDCG@k: sum_i p_i / log2(i + 1) * E[1 / IDCG_k(1 + R_-i)]
    for k, name in ((10, "nDCG@10"), (None, "nDCG")):
        want = 0.0
        for rank, p in p_rank:
            if k is not None and rank > k:
                continue
            d = ranked[rank - 1]
            law = _pb([probs[e] for e in probs if e != d])
            idcg = np.cumsum(1 / np.log2(np.arange(2, n + 2)))
            r = np.arange(len(law)) + 1
            want += p / np.log2(rank + 1) * float((law / idcg[np.minimum(r, k or n) - 1]).sum())
        assert got.matrix(name)[0, 0] == pytest.approx(want, abs=1e-12), name


def test_files_and_dicts_agree(tmp_path):
    """The file readers (compiled run pass, real qrels labels) give the dicts' numbers."""
    rng = np.random.default_rng(11)
    qrels, runs = {}, {}
    for t in range(6):
        probs, ranking = _topic(rng, int(rng.integers(1, 10)))
        qrels[f"q{t}"], runs[f"q{t}"] = probs, ranking or {"zz": 1.0}
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text("".join(f"{t} 0 {d} {p!r}\n" for t, j in qrels.items() for d, p in j.items()))
    r.write_text("".join(f"{t} Q0 {d} {i + 1} {s!r} x\n" for t, rk in runs.items()
                         for i, (d, s) in enumerate(sorted(rk.items(), key=lambda x: -x[1]))))
    ms = ["AP", "nDCG@5", "RR", "R@3", "P@2"]
    a = api.evaluate(str(q), str(r), ms, labels="probability")
    b = api.evaluate(qrels, runs, ms, labels="probability")
    assert a.topics == b.topics
    for m in ms:
        np.testing.assert_allclose(a.matrix(m), b.matrix(m), rtol=0, atol=1e-15, err_msg=m)
