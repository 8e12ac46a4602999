"""`ipsoeval agree`: agreement of two qrels, and of the run rankings they induce.

Outside references: scikit-learn's ``cohen_kappa_score`` (weighted κ), the
``krippendorff`` package (α), ``scipy.stats.kendalltau`` (τ_b), the ``rbo``
package's ``rbo_ext`` (RBO without ties), the R package ircor's documented
τ_AP examples (Urbano and Marrero's implementation; the no-tie value is
Yilmaz et al.'s τ_AP), ``scipy.stats.ttest_rel`` (the significance changes),
and brute-force enumeration of every tie ordering written here from the
papers' definitions.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import warnings

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import given, settings
from hypothesis import strategies as hs

from ipsoeval.stats import agreement as ag
from ipsoeval.stats import rankcorr as rc
from tests.conftest import invoke

krippendorff = pytest.importorskip("krippendorff")
sklearn_metrics = pytest.importorskip("sklearn.metrics")
try:        # the rbo package pins numpy < 2, so it is no test dependency: used when present
    import rbo as rbo_pkg
except ImportError:
    rbo_pkg = None


def _nan_eq(a, b, tol=1e-9):
    if a is None or b is None or a != a or b != b:
        return (a is None or a != a) and (b is None or b != b)
    return abs(a - b) <= tol * max(1.0, abs(b))


# ------------------------------------------------------------------ label agreement

labels = hs.lists(hs.tuples(hs.integers(0, 4), hs.integers(0, 4)), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(labels, hs.integers(-3, 3))
def test_kappa_matches_sklearn(pairs, shift):
    a = np.array([p[0] for p in pairs]) + shift
    b = np.array([p[1] for p in pairs])
    full = list(range(min(a.min(), b.min()), max(a.max(), b.max()) + 1))
    for w in (None, "linear", "quadratic"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = sklearn_metrics.cohen_kappa_score(a, b, weights=w, labels=full)
        assert _nan_eq(ag.cohen_kappa(a, b, w), float(ref)), (w, a, b)


@settings(max_examples=300, deadline=None)
@given(labels, hs.sampled_from([0, 1, 3]))
def test_alpha_matches_krippendorff(pairs, gap):
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    a = np.where(a > 1, a + gap, a)           # labels with holes: 0, 1, 2+gap, ...
    b = np.where(b > 1, b + gap, b)
    for level in ("interval", "ordinal"):
        mine = ag.krippendorff_alpha(a, b, level)
        if len(set(a.tolist()) | set(b.tolist())) == 1:
            assert mine != mine                # undefined: one value only
            continue
        ref = krippendorff.alpha(reliability_data=np.array([a, b], dtype=float),
                                 level_of_measurement=level)
        assert _nan_eq(mine, float(ref)), (level, a, b)


def test_confusion_counts():
    la, lb, c = ag.confusion([0, 1, 2, 2, 0], [0, 2, 2, 1, 3])
    assert la.tolist() == [0, 1, 2] and lb.tolist() == [0, 1, 2, 3]
    assert c.tolist() == [[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 1, 0]]


def test_kappa_hand_example():
    # Cohen (1960)-style 2x2: observed .7, chance .5 -> 0.4
    a = [1] * 35 + [1] * 15 + [0] * 15 + [0] * 35
    b = [1] * 35 + [0] * 15 + [1] * 15 + [0] * 35
    assert ag.cohen_kappa(a, b) == pytest.approx(0.4)


# ------------------------------------------------------------------ rank correlations

scores = hs.lists(hs.integers(0, 5), min_size=2, max_size=9)


@settings(max_examples=300, deadline=None)
@given(hs.data())
def test_kendall_tau_b_matches_scipy(data):
    x = data.draw(scores)
    y = data.draw(hs.lists(hs.integers(0, 5), min_size=len(x), max_size=len(x)))
    ref = ss.kendalltau(x, y).statistic
    assert _nan_eq(rc.kendall_tau_b(x, y), float(ref), 1e-12)


# ircor (R) documentation, ?tauAP: x are the true scores, y the estimated ones
IRCOR_X = [0.67, 0.45, 0.29, 0.12, 0.57, 0.24, 0.94, 0.75, 0.08, 0.54]
IRCOR_Y = [0.48, 0.68, 0.32, 0.09, 0.06, 0.61, 0.87, 0.22, 0.44, 0.84]


def test_tau_ap_ircor_examples():
    assert rc.tau_ap(IRCOR_X, IRCOR_Y) == pytest.approx(0.3928571, abs=5e-8)
    # ties in the estimated ranking only: Urbano and Marrero's tau_AP,a
    assert rc.tau_ap(IRCOR_X, np.round(IRCOR_Y, 1)) == pytest.approx(0.39903, abs=5e-6)


def test_tau_ap_paper_properties():
    # Yilmaz et al. 2008: 1 for the same ranking, -1 for the reversed one, and an
    # error at the top costs more than the same error at the bottom
    truth = [8, 7, 6, 5, 4, 3, 2, 1]
    assert rc.tau_ap(truth, truth) == pytest.approx(1.0)
    assert rc.tau_ap(truth, truth[::-1]) == pytest.approx(-1.0)
    top = [7, 8, 6, 5, 4, 3, 2, 1]
    bottom = [8, 7, 6, 5, 4, 3, 1, 2]
    assert rc.kendall_tau_b(truth, top) == pytest.approx(rc.kendall_tau_b(truth, bottom))
    assert rc.tau_ap(truth, top) < rc.tau_ap(truth, bottom)
    # by the definition: swapping the top two leaves C(2) = 0, every other C(i) = i - 1
    assert rc.tau_ap(truth, top) == pytest.approx(2 / 7 * 6 - 1)


def _tau_ap_plain(order_ref: list, order_other: list) -> float:
    """Yilmaz et al.'s definition on two orderings (lists of items, best first)."""
    n = len(order_other)
    pos_ref = {it: i for i, it in enumerate(order_ref)}
    total = 0.0
    for i in range(1, n):
        item = order_other[i]
        c = sum(1 for j in range(i) if pos_ref[order_other[j]] < pos_ref[item])
        total += c / i
    return 2.0 / (n - 1) * total - 1.0


def _orderings(values):
    """Every ordering of the items (best first) consistent with the values:
    each tie group in every order."""
    groups = {}
    for i, v in enumerate(values):
        groups.setdefault(v, []).append(i)
    keys = sorted(groups, reverse=True)
    for perms in itertools.product(*(itertools.permutations(groups[k]) for k in keys)):
        yield [i for p in perms for i in p]


def _rbo_plain(o1: list, o2: list, p: float) -> float:
    """Webber et al. Eq. 32 at k = N from the top-d sets."""
    n = len(o1)
    total = 0.0
    for d in range(1, n + 1):
        x = len(set(o1[:d]) & set(o2[:d]))
        total += x / d * p ** d
    return n / n * p ** n + (1 - p) / p * total


@settings(max_examples=150, deadline=None)
@given(hs.data())
def test_tau_ap_and_rbo_with_ties_are_the_mean_over_tie_orders(data):
    n = data.draw(hs.integers(2, 6))
    x = data.draw(hs.lists(hs.integers(0, 3), min_size=n, max_size=n))
    y = data.draw(hs.lists(hs.integers(0, 3), min_size=n, max_size=n))
    ox, oy = list(_orderings(x)), list(_orderings(y))
    ref_tau = np.mean([_tau_ap_plain(a, b) for a in ox for b in oy])
    ref_rbo = np.mean([_rbo_plain(a, b, 0.8) for a in ox for b in oy])
    assert rc.tau_ap(x, y) == pytest.approx(ref_tau, abs=1e-12)
    assert rc.rbo(x, y, 0.8) == pytest.approx(ref_rbo, abs=1e-12)
    assert rc.tau_ap_symmetric(x, y) == pytest.approx(
        0.5 * (rc.tau_ap(x, y) + rc.tau_ap(y, x)))


@settings(max_examples=150, deadline=None)
@given(hs.permutations(list(range(9))), hs.sampled_from([0.5, 0.8, 0.9, 0.98]))
def test_rbo_without_ties_matches_rbo_package(perm, p):
    x = np.arange(9, 0, -1, dtype=float)       # items 0..8, best first
    y = np.empty(9)
    y[np.array(perm)] = np.arange(9, 0, -1)    # perm is y's order, best first
    assert rc.rbo(x, y, p) == pytest.approx(_rbo_plain(list(range(9)), list(perm), p),
                                            abs=1e-12)      # Webber et al.'s Eq. 32
    if rbo_pkg is not None:
        ref = rbo_pkg.RankingSimilarity(list(range(9)), list(perm)).rbo_ext(p=p)
        assert rc.rbo(x, y, p) == pytest.approx(ref, abs=1e-12)
    assert rc.tau_ap(x, y) == pytest.approx(_tau_ap_plain(list(range(9)), list(perm)))


def test_rank_correlations_edge_cases():
    assert rc.rbo([1, 2, 3], [1, 2, 3], 0.9) == pytest.approx(1.0)
    assert rc.tau_ap([1.0], [1.0]) != rc.tau_ap([1.0], [1.0])      # NaN for one item
    assert rc.competition_ranks([0.5, 0.7, 0.5, 0.1]).tolist() == [2, 1, 2, 4]
    with pytest.raises(ValueError):
        rc.rbo([1, 2], [1, 2], 1.0)


# ------------------------------------------------------------------ the command

def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def _data(tmp_path, seed=7, topics=12, docs=15, runs=4):
    """Qrels A (graded), qrels B (A perturbed, one extra topic, one missing
    judgment, a negative label) and runs."""
    rng = np.random.default_rng(seed)
    qa, qb = [], []
    for t in range(topics):
        for d in range(docs):
            la = int(rng.integers(0, 3))
            qa.append(f"q{t} 0 d{d} {la}")
            if (t, d) == (0, 0):
                continue                       # judged in A only
            lb = la if rng.random() < 0.6 else int(rng.integers(0, 3))
            if (t, d) == (1, 1):
                lb = -1                        # pooled, not judged in B
            qb.append(f"q{t} 0 d{d} {lb}")
    qb.append("qextra 0 d0 1")                 # a topic only B has
    paths = {"a": _write(tmp_path / "qa.txt", qa), "b": _write(tmp_path / "qb.txt", qb)}
    run_paths = []
    for r in range(runs):
        lines = []
        for t in range(topics):
            sc = rng.random(docs) + 0.15 * r * (np.arange(docs) % 3 == 0)
            for d in np.argsort(-sc):
                lines.append(f"q{t} Q0 d{d} 0 {sc[d]:.6f} run{r}")
        run_paths.append(_write(tmp_path / f"run{r}.txt", lines))
    return paths, run_paths


def _tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def _labels_of(path):
    out = {}
    for line in open(path):
        q, _, d, lab = line.split()
        out[(q, d)] = int(lab)
    return out


def test_cli_label_statistics_match_references(tmp_path):
    paths, _ = _data(tmp_path)
    code, out, err = invoke(["agree", paths["a"], paths["b"]])
    assert code == 0, err
    A, B = _labels_of(paths["a"]), _labels_of(paths["b"])
    keys = [k for k in A if k in B and A[k] >= 0 and B[k] >= 0]
    a = np.array([A[k] for k in keys])
    b = np.array([B[k] for k in keys])
    rows = _tsv(out)
    assert list(rows[0]) == ["statistic", "value", "judgments"]
    assert [r["statistic"] for r in rows] == ["exact_agreement", "kappa", "kappa_linear",
                                              "kappa_quadratic", "alpha_interval",
                                              "alpha_ordinal"]
    assert {r["judgments"] for r in rows} == {str(len(keys))} == {"178"}
    v = {r["statistic"]: float(r["value"]) for r in rows}
    assert v["exact_agreement"] == pytest.approx(float(np.mean(a == b)))
    for w, name in ((None, "kappa"), ("linear", "kappa_linear"),
                    ("quadratic", "kappa_quadratic")):
        assert v[name] == pytest.approx(sklearn_metrics.cohen_kappa_score(a, b, weights=w))
    for level in ("interval", "ordinal"):
        assert v[f"alpha_{level}"] == pytest.approx(krippendorff.alpha(
            reliability_data=np.array([a, b], float), level_of_measurement=level))
    assert err == ("ipsoeval: warning: 1 judgment(s) both qrels share have a negative label "
                   "(pooled, not judged) in one of them: left out\n")


def test_cli_confusion_exact_output(tmp_path):
    qa = _write(tmp_path / "a", ["1 0 x 0", "1 0 y 1", "1 0 z 2", "2 0 x 2", "2 0 w 0"])
    qb = _write(tmp_path / "b", ["1 0 x 0", "1 0 y 2", "1 0 z 2", "2 0 x 1", "3 0 x 1"])
    code, out, err = invoke(["agree", qa, qb, "--table", "confusion"])
    assert (code, err) == (0, "")
    assert out == ("label_a\tlabel_b\tcount\n"
                   "0\t0\t1\n0\t1\t0\n0\t2\t0\n"
                   "1\t0\t0\n1\t1\t0\n1\t2\t1\n"
                   "2\t0\t0\n2\t1\t1\n2\t2\t1\n")
    code, out, _ = invoke(["agree", qa, qb, "--format", "markdown", "--table", "confusion"])
    assert code == 0 and "b=2" in out
    code, out, _ = invoke(["agree", qa, qb, "--format", "json"])
    doc = json.loads(out)
    assert code == 0 and doc["command"] == "agree"
    assert doc["params"]["judgments"] == {"judgments_a": 5, "judgments_b": 5, "shared": 4,
                                          "negative": 0, "only_a": 1, "only_b": 1}


def _means(qrels, runs, measure, topics):
    import ipsoeval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ipsoeval.evaluate(qrels, runs, [measure])
    m = res.matrix(res.measures[0])
    cols = [res.topics.index(t) for t in topics]
    return m[:, cols], res.runs


def test_cli_rankings_and_changes_match_references(tmp_path):
    paths, runs = _data(tmp_path, runs=5)
    code, out, err = invoke(["agree", paths["a"], paths["b"], *runs, "-m", "nDCG@10",
                             "-m", "P@5", "--table", "rankings", "--alpha", "0.2", "--test", "t"])
    assert code == 0, err
    assert "12 topic(s) both qrels have: 0 topic(s) only in" in err
    assert "1 only in" in err
    rank_rows = {r["measure"]: r for r in _tsv(out)}
    _, out_m, _ = invoke(["agree", paths["a"], paths["b"], *runs, "-m", "nDCG@10",
                          "-m", "P@5", "--table", "means", "--alpha", "0.2", "--test", "t"])
    _, out_c, _ = invoke(["agree", paths["a"], paths["b"], *runs, "-m", "nDCG@10",
                          "-m", "P@5", "--table", "changes", "--alpha", "0.2", "--test", "t"])
    means = _tsv(out_m)
    changes = _tsv(out_c)
    topics = [f"q{t}" for t in range(12)]
    # qrels B cut to the common topics, for the references
    qb_cut = tmp_path / "qb_cut.txt"
    qb_cut.write_text("".join(line for line in open(paths["b"]) if not line.startswith("qextra")))
    for measure in ("nDCG@10", "P@5"):
        Ma, names = _means(paths["a"], runs, measure, topics)
        Mb, _ = _means(str(qb_cut), runs, measure, topics)
        ma, mb = Ma.mean(axis=1), Mb.mean(axis=1)
        mine = {r["run"]: r for r in means if r["measure"] == measure}
        for i, n in enumerate(names):
            assert float(mine[n]["mean_under_a"]) == pytest.approx(ma[i], abs=1e-12)
            assert float(mine[n]["mean_under_b"]) == pytest.approx(mb[i], abs=1e-12)
        row = rank_rows[measure]
        # equal means reached along different float paths (P@5: 0.6999999999999998
        # and 0.7000000000000001) are ties: rounded for scipy
        ra, rb = np.round(ma, 12), np.round(mb, 12)
        assert float(row["kendall_tau"]) == pytest.approx(ss.kendalltau(ra, rb).statistic)
        assert float(row["tau_ap_ref_a"]) == pytest.approx(rc.tau_ap(ra, rb))
        assert float(row["tau_ap_ref_b"]) == pytest.approx(rc.tau_ap(rb, ra))
        assert float(row["rbo"]) == pytest.approx(rc.rbo(ra, rb, 0.9))
        # significance by scipy's paired t test, all pairs, no correction
        expect = {}
        sig_a = sig_b = 0
        for i, j in itertools.combinations(range(len(names)), 2):
            pa = ss.ttest_rel(Ma[j], Ma[i]).pvalue
            pb = ss.ttest_rel(Mb[j], Mb[i]).pvalue
            da, db = Ma[j].mean() - Ma[i].mean(), Mb[j].mean() - Mb[i].mean()
            sa, sb = pa < 0.2, pb < 0.2
            sig_a += sa
            sig_b += sb
            if sa and sb and da * db < 0:
                expect[(names[i], names[j])] = "flips"
            elif sa and not sb:
                expect[(names[i], names[j])] = "disappears"
            elif sb and not sa:
                expect[(names[i], names[j])] = "appears"
        got = {(r["run_a"], r["run_b"]): r["change"] for r in changes if r["measure"] == measure}
        assert got == expect
        assert (int(row["significant_under_a"]), int(row["significant_under_b"])) == \
            (sig_a, sig_b)
        assert int(row["pairs"]) == 10
    assert any(r["change"] for r in changes)   # the data do exercise the table


def test_api_matches_cli(tmp_path):
    import ipsoeval
    paths, runs = _data(tmp_path, runs=3)
    code, out, _ = invoke(["agree", paths["a"], paths["b"], *runs, "-m", "AP",
                           "--format", "json"])
    assert code == 0
    doc = json.loads(out)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        rep = ipsoeval.agree(paths["a"], paths["b"], runs, ["AP"])
    assert any("negative label" in str(x.message) for x in w)
    assert rep.ids == ["agreement", "confusion", "rankings", "means", "changes"]
    assert sorted(doc["tables"]) == sorted(rep.ids)
    for tid in rep.ids:
        got = doc["tables"][tid]
        records = got["records"] if isinstance(got, dict) else got
        assert records == json.loads(json.dumps(rep.table(tid).records)), tid
    # in-memory qrels: {qid: {docno: label}}
    rep = ipsoeval.agree({"q": {"a": 1, "b": 0, "c": 2}}, {"q": {"a": 1, "b": 1, "c": 2}})
    assert rep.table().records[0] == {"statistic": "exact_agreement", "value": 2 / 3,
                                      "judgments": 3}


@pytest.mark.parametrize("args,code,needle", [
    (["{a}", "{b}", "{r0}"], 2, "two or more runs"),
    (["{a}", "{b}", "{r0}", "{r1}"], 2, "needs at least one -m"),
    (["{a}", "{b}", "-m", "AP"], 2, "-m needs runs"),
    (["{a}", "{b}", "--plot", "x.png"], 2, "--plot draws"),
    (["{a}", "{b}", "--rbo-p", "1"], 2, "--rbo-p"),
    (["{a}", "{b}", "{r0}", "{r1}", "-m", "AP", "--test", "ranksum"], 2, "ranksum"),
    (["{a}", "{b}", "{r0}", "{r1}", "-m", "AP", "--test", "t,sign"], 2, "one --test"),
    (["{a}", "{bad}"], 3, ":2: "),
    (["{a}", "{other}"], 3, "share no judged (qid, docno) pair"),
    (["{a}", "{othertopic}", "{r0}", "{r1}", "-m", "AP"], 3, "no topic in common"),
    (["{a}", "{missing}"], 3, "missing"),
    (["{a}", "{dup}"], 3, "duplicate docno"),
])
def test_bad_input_is_one_line(tmp_path, args, code, needle):
    paths, runs = _data(tmp_path, topics=3, runs=2)
    files = {"a": paths["a"], "b": paths["b"], "r0": runs[0], "r1": runs[1],
             "bad": _write(tmp_path / "bad", ["q0 0 d0 1", "q0 0 d1 x"]),
             "other": _write(tmp_path / "other", ["q0 0 zz 1"]),
             "othertopic": _write(tmp_path / "ot", ["zz 0 d0 1"]),
             "missing": str(tmp_path / "missing"),
             "dup": _write(tmp_path / "dup", ["q0 0 d0 1", "q0 0 d0 0"])}
    argv = ["agree"] + [a.format(**files) for a in args]
    got, out, err = invoke(argv + ["-o", str(tmp_path / "out.tsv")])
    assert got == code, err
    assert err.count("\n") == 1 and err.startswith("ipsoeval: error: ") and needle in err, err
    assert not (tmp_path / "out.tsv").exists()


def test_no_shared_judgment_with_runs_is_a_warning(tmp_path):
    paths, runs = _data(tmp_path, topics=3, runs=2)
    other = _write(tmp_path / "other", [f"q{t} 0 zz 1" for t in range(3)])
    code, out, err = invoke(["agree", paths["a"], other, *runs, "-m", "P@5"])
    assert code == 0
    assert "share no judged (qid, docno) pair" in err
    assert {r["value"] for r in _tsv(out)} == {""}


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    paths, runs = _data(tmp_path, topics=4, runs=3)
    png = tmp_path / "agree.png"
    code, _, err = invoke(["agree", paths["a"], paths["b"], *runs, "-m", "AP", "-m", "P@5",
                           "--plot", str(png)])
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


ids = hs.text(alphabet="abcXYZ019-_.", min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(hs.dictionaries(hs.tuples(ids, ids), hs.integers(-1, 3), min_size=1, max_size=40),
       hs.dictionaries(hs.tuples(ids, ids), hs.integers(-1, 3), max_size=40),
       hs.lists(hs.integers(-1, 3), max_size=40), hs.randoms(use_true_random=False))
def test_shared_judgments_match_a_dict(a, extra_b, relabel, rnd):
    """The judgments both qrels share, found by the hashed index, equal those a
    plain dict finds (ids longer than one 8-byte word, shared prefixes)."""
    import tempfile
    from pathlib import Path
    keys = list(a)
    rnd.shuffle(keys)
    b = {k: (relabel[i] if i < len(relabel) else a[k]) for i, k in enumerate(keys[:30])}
    b.update({k: v for k, v in extra_b.items() if k not in b})
    with tempfile.TemporaryDirectory() as d:
        qa = _write(Path(d) / "a", [f"{q} 0 {doc} {lab}" for (q, doc), lab in a.items()])
        qb = _write(Path(d) / "b", [f"{q} 0 {doc} {lab}" for (q, doc), lab in b.items()])
        code, out, err = invoke(["agree", qa, qb, "--table", "confusion"])
    shared = [(a[k], b[k]) for k in a if k in b and a[k] >= 0 and b[k] >= 0]
    if not shared:
        assert code == 3 and "share no judged" in err
        return
    assert code == 0, err
    got = {(int(r["label_a"]), int(r["label_b"])): int(r["count"]) for r in _tsv(out)}
    want = {}
    for pair in shared:
        want[pair] = want.get(pair, 0) + 1
    assert {k: v for k, v in got.items() if v} == want
    assert sum(got.values()) == len(shared)


def test_undefined_mean_and_lower_is_better(tmp_path):
    """ESL@5 (lower is better) is undefined for a run that finds nothing: that
    run has no rank and is left out of the correlations, with a warning."""
    qa = _write(tmp_path / "a", ["1 0 r 1", "1 0 s 0", "2 0 r 1", "2 0 s 1"])
    qb = _write(tmp_path / "b", ["1 0 r 1", "1 0 s 1", "2 0 r 1", "2 0 s 0"])
    runs = []
    for name, docs in (("early", ["r", "s", "x"]), ("late", ["x", "y", "r", "s"]),
                       ("none", ["x", "y", "z"])):
        lines = [f"{q} Q0 {d} {i} {10 - i} {name}" for q in "12" for i, d in enumerate(docs)]
        runs.append(_write(tmp_path / name, lines))
    code, out, err = invoke(["agree", qa, qb, *runs, "-m", "ESL@5", "--table", "means"])
    assert code == 0, err
    assert "1 run(s) with an undefined mean" in err
    ranks = {r["run"]: (r["rank_under_a"], r["rank_under_b"]) for r in _tsv(out)}
    assert ranks == {"early": ("1", "1"), "late": ("2", "2"), "none": ("", "")}
    code, out, err = invoke(["agree", qa, qb, *runs, "-m", "ESL@5", "--table", "rankings"])
    row = _tsv(out)[0]
    assert row["runs"] == "2" and float(row["kendall_tau"]) == 1.0
    assert float(row["tau_ap_sym"]) == 1.0 and float(row["rbo"]) == pytest.approx(1.0)
