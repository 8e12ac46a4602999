"""`ipsoeval ppi` end to end (click's CliRunner) on small generated qrels and
runs: the numbers equal ppi_py's on the per-topic vectors, exact output of a
tiny case, the API, errors, the selection warning and the plot."""

from __future__ import annotations

import csv
import io
import json
import random

import numpy as np
import pytest

from tests.conftest import invoke

ppi_py = pytest.importorskip("ppi_py")


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def make_collection(d, *, T=60, n=20, runs=3, seed=1, docs=25, human=None):
    """True labels per topic; the auto qrels flip 20% of them and call 15% of
    the rest relevant (noisy and lenient); the human qrels are the true labels
    on ``n`` random topics (or the topics ``human`` names); runs rank
    relevant documents higher the better they are."""
    r = random.Random(seed)
    truth = {f"q{t:03d}": {f"d{t}_{j}": int(r.random() < 0.25) for j in range(docs)}
             for t in range(T)}
    topics = sorted(truth)
    sampled = r.sample(topics, n)            # drawn either way: the same auto labels
    htopics = sorted(human if human is not None else sampled)
    with open(d / "human.qrels", "w") as f:
        for q in htopics:
            for doc, lab in truth[q].items():
                f.write(f"{q} 0 {doc} {lab}\n")
    with open(d / "auto.qrels", "w") as f:
        for q in topics:
            for doc, lab in truth[q].items():
                a = 1 - lab if r.random() < 0.2 else lab
                if a == 0 and r.random() < 0.15:
                    a = 1
                f.write(f"{q} 0 {doc} {a}\n")
    paths = []
    for k in range(runs):
        p = d / f"run{k}.txt"
        with open(p, "w") as f:
            for q in topics:
                sc = {doc: lab * (0.4 + 0.3 * k) + r.random() for doc, lab in truth[q].items()}
                ranked = sorted(sc.items(), key=lambda x: -x[1])[:15]
                for i, (doc, s) in enumerate(ranked):
                    f.write(f"{q} Q0 {doc} {i + 1} {s:.4f} sys{k}\n")
        paths.append(str(p))
    return str(d / "human.qrels"), str(d / "auto.qrels"), paths


@pytest.fixture
def coll(tmp_path):
    return make_collection(tmp_path)


def ppi_ok(*args):
    code, out, err = invoke(["ppi", *args])
    assert code == 0, (code, out, err)
    return out, err


def _vectors(human, auto, runs, measure):
    import ipsoeval
    with _nowarn():
        h = ipsoeval.evaluate(human, runs, [measure])
        a = ipsoeval.evaluate(auto, runs, [measure])
    H, A = h.matrix(measure), a.matrix(measure)
    where = {t: i for i, t in enumerate(a.topics)}
    lab = np.array([where[t] for t in h.topics])
    unl = np.array([i for i in range(len(a.topics)) if i not in set(lab.tolist())])
    return h.runs, H, A, lab, unl


@pytest.mark.parametrize("method", ["ppi++", "ppi"])
def test_estimates_equal_ppi_py_on_the_per_topic_vectors(coll, method):
    human, auto, runs = coll
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "-m", "P@5",
                    "--method", method, "--alpha", "0.1", "--format", "json", *runs)
    doc = json.loads(out)
    recs = doc["tables"]["estimates"]["records"] if "tables" in doc else doc["estimates"]
    lam = None if method == "ppi++" else 1
    for measure in ("nDCG@10", "P@5"):
        names, H, A, lab, unl = _vectors(human, auto, runs, measure)
        assert len(lab) == 20 and len(unl) == 40
        for r, run in enumerate(names):
            got = {x["method"]: x for x in recs if x["run"] == run and x["measure"] == measure}
            y, yh, yu = H[r], A[r, lab], A[r, unl]
            lo, hi = ppi_py.ppi_mean_ci(y, yh, yu, alpha=0.1, lam=lam)
            est = ppi_py.ppi_mean_pointestimate(y, yh, yu, lam=lam)
            g = got[method]
            assert g["mean"] == pytest.approx(float(np.squeeze(est)), rel=1e-12, abs=1e-14)
            assert g["ci_low"] == pytest.approx(float(np.squeeze(lo)), rel=1e-12, abs=1e-14)
            assert g["ci_high"] == pytest.approx(float(np.squeeze(hi)), rel=1e-12, abs=1e-14)
            assert g["topics"] == 60
            lo, hi = ppi_py.classical_mean_ci(y, alpha=0.1)
            assert got["human"]["ci_low"] == pytest.approx(lo, rel=1e-12, abs=1e-14)
            assert got["human"]["ci_high"] == pytest.approx(hi, rel=1e-12, abs=1e-14)
            assert got["human"]["topics"] == 20
            lo, hi = ppi_py.classical_mean_ci(A[r], alpha=0.1)
            assert got["auto"]["mean"] == pytest.approx(A[r].mean(), rel=1e-12)
            assert got["auto"]["ci_low"] == pytest.approx(lo, rel=1e-12, abs=1e-14)
            assert got["auto"]["ci_high"] == pytest.approx(hi, rel=1e-12, abs=1e-14)


def test_differences_equal_ppi_py_on_difference_vectors(coll):
    human, auto, runs = coll
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "--all-pairs",
                    "--table", "differences", *runs)
    rows = tsv(out)
    assert list(rows[0]) == ["run_a", "run_b", "measure", "method", "topics", "diff", "se",
                             "ci_low", "ci_high", "width", "lambda", "p_value", "p_adjusted",
                             "significant"]
    names, H, A, lab, unl = _vectors(human, auto, runs, "nDCG@10")
    assert len(rows) == 3 * 3                     # 3 pairs x 3 methods
    for row in rows:
        a, b = names.index(row["run_a"]), names.index(row["run_b"])
        d, dh = H[b] - H[a], A[b] - A[a]
        if row["method"] == "ppi++":
            lo, hi = ppi_py.ppi_mean_ci(d, dh[lab], dh[unl], alpha=0.05)
            p = ppi_py.ppi_mean_pval(d, dh[lab], dh[unl], lam=float(row["lambda"]))
            assert float(row["p_value"]) == pytest.approx(float(np.squeeze(p)), rel=1e-9)
        elif row["method"] == "human":
            lo, hi = ppi_py.classical_mean_ci(d, alpha=0.05)
        else:
            lo, hi = ppi_py.classical_mean_ci(dh, alpha=0.05)
        assert float(row["ci_low"]) == pytest.approx(float(np.squeeze(lo)), rel=1e-12)
        assert float(row["ci_high"]) == pytest.approx(float(np.squeeze(hi)), rel=1e-12)
        # no correction: significant exactly when the interval leaves out 0
        assert row["p_adjusted"] == row["p_value"]
        excl = float(row["ci_low"]) > 0 or float(row["ci_high"]) < 0
        assert (row["significant"] == "true") == excl


def test_correction_is_per_method_over_pairs_and_measures(coll):
    from statsmodels.stats.multitest import multipletests
    human, auto, runs = coll
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "-m", "P@5",
                    "--correct", "holm", "--table", "differences", *runs)
    rows = tsv(out)
    for method in ("human", "auto", "ppi++"):
        mine = [r for r in rows if r["method"] == method]
        assert len(mine) == 4                    # 2 pairs x 2 measures
        p = [float(r["p_value"]) for r in mine]
        ref = multipletests(p, method="holm")[1]
        for r, q in zip(mine, ref):
            assert float(r["p_adjusted"]) == pytest.approx(q, rel=1e-12)
            assert (r["significant"] == "true") == (q < 0.05)


TINY_HUMAN = "t1 0 a 1\nt1 0 b 0\nt2 0 a 0\nt2 0 b 1\nt3 0 a 1\nt3 0 b 1\n"
TINY_AUTO = ("t1 0 a 1\nt1 0 b 1\nt2 0 a 0\nt2 0 b 1\nt3 0 a 1\nt3 0 b 0\n"
             "t4 0 a 1\nt4 0 b 0\nt5 0 a 0\nt5 0 b 0\nt6 0 a 1\nt6 0 b 1\n")
TINY_RUN_X = "".join(f"t{i} Q0 a 1 2 x\nt{i} Q0 b 2 1 x\n" for i in range(1, 7))
TINY_RUN_Y = "".join(f"t{i} Q0 b 1 2 y\nt{i} Q0 a 2 1 y\n" for i in range(1, 7))


@pytest.fixture
def tiny(tmp_path):
    for name, text in [("h", TINY_HUMAN), ("a", TINY_AUTO), ("x", TINY_RUN_X),
                       ("y", TINY_RUN_Y)]:
        (tmp_path / name).write_text(text)
    return tmp_path


def test_tiny_case_exact_output(tiny):
    """P@1 by hand.  Human topics t1-t3; x puts a first, y puts b first.
    x: human P@1 = (1, 0, 1), auto on t1..t6 = (1, 0, 1, 1, 0, 1).
    y: human P@1 = (0, 1, 1), auto = (1, 1, 0, 0, 0, 1)."""
    out, err = ppi_ok("--human", tiny / "h", "--auto", tiny / "a", "-m", "P@1",
                      "--method", "ppi", tiny / "x", tiny / "y")
    rows = tsv(out)
    assert [(r["run"], r["method"], r["topics"]) for r in rows] == [
        ("x", "human", "3"), ("x", "auto", "6"), ("x", "ppi", "6"),
        ("y", "human", "3"), ("y", "auto", "6"), ("y", "ppi", "6")]
    got = {(r["run"], r["method"]): float(r["mean"]) for r in rows}
    # ppi (lambda 1): mean(auto on t4..t6) + mean(human - auto on t1..t3)
    assert got[("x", "ppi")] == pytest.approx(2 / 3 + 0.0)
    assert got[("y", "ppi")] == pytest.approx(1 / 3 + (0 - 1 + 1 - 1 + 1 - 0) / 3)
    assert got[("x", "human")] == pytest.approx(2 / 3)
    assert got[("y", "auto")] == pytest.approx(3 / 6)
    # ppi_py's numbers; ours agree to the last bit or two (the normal quantile
    # is ours, ipsoeval.special.dist.ndtri, not scipy's)
    lines = out.splitlines()
    assert lines[0] == "run\tmeasure\tmethod\ttopics\tmean\tse\tci_low\tci_high\twidth\tlambda"
    assert len(lines) == len(TINY_EXPECTED) + 1
    for line, want in zip(lines[1:], TINY_EXPECTED):
        cells, wcells = line.split("\t"), want.split("\t")
        assert cells[:4] == wcells[:4] and len(cells) == len(wcells)
        for c, w in zip(cells[4:], wcells[4:]):
            assert c == w or float(c) == pytest.approx(float(w), rel=1e-14, abs=0), (line, want)


TINY_EXPECTED = [   # human: ppi_py.classical_mean_ci; ppi: ppi_py.ppi_mean_ci(lam=1)
    'x\tP@1\thuman\t3\t0.6666666666666666\t0.2721655269759087\t0.13323203596052102\t1.2001012973728122\t1.0668692614122912\t',
    'x\tP@1\tauto\t6\t0.6666666666666666\t0.19245008972987526\t0.2894714219746093\t1.043861911358724\t0.7543904893841147\t',
    'x\tP@1\tppi\t6\t0.6666666666666666\t0.2721655269759087\t0.13323203596052102\t1.2001012973728122\t1.0668692614122912\t1.0',
    'y\tP@1\thuman\t3\t0.6666666666666666\t0.2721655269759087\t0.13323203596052102\t1.2001012973728122\t1.0668692614122912\t',
    'y\tP@1\tauto\t6\t0.5\t0.20412414523193154\t0.09992402697039071\t0.9000759730296093\t0.8001519460592186\t',
    'y\tP@1\tppi\t6\t0.3333333333333333\t0.5443310539518174\t-0.733535928078958\t1.4002025947456245\t2.1337385228245824\t1.0',
]


def test_api_equals_cli(coll):
    import ipsoeval
    from ipsoeval.formatters import render
    human, auto, runs = coll
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", *runs)
    with _nowarn():
        h = ipsoeval.evaluate(human, runs, ["nDCG@10"])
        a = ipsoeval.evaluate(auto, runs, ["nDCG@10"])
        rep = ipsoeval.ppi(h, a)
    assert rep.ids == ["estimates", "differences", "selection"]
    assert render(rep, "tsv") == out


class _nowarn:
    def __enter__(self):
        import warnings
        self._c = warnings.catch_warnings()
        self._c.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self._c.__exit__(*exc)


def test_human_topics_chosen_by_their_scores_warn(tmp_path):
    # the human topics are the 20 where run0's auto-label P@5 is highest
    human, auto, runs = make_collection(tmp_path)
    import ipsoeval
    with _nowarn():
        a = ipsoeval.evaluate(auto, runs[:1], ["P@5"])
    order = np.argsort(-a.matrix("P@5")[0], kind="stable")[:20]
    picked = [a.topics[i] for i in order]
    human, auto, runs = make_collection(tmp_path, human=picked)
    out, err = ppi_ok("--human", human, "--auto", auto, "-m", "P@5", *runs)
    assert "do not look like a random subset" in err
    # and the other warning of 20 human topics: too few for a normal interval
    assert err.count("\n") == 2 and "only 20 human-judged topic(s)" in err
    sel = tsv(ppi_ok("--human", human, "--auto", auto, "-m", "P@5", "--table", "selection",
                     *runs)[0])
    assert any(r["selected"] == "true" for r in sel)
    # a random subset: no warning
    human, auto, runs = make_collection(tmp_path, n=30, seed=2)
    _, err = ppi_ok("--human", human, "--auto", auto, "-m", "P@5", *runs)
    assert err == ""


def test_no_topic_in_common_is_one_line_exit_3(tiny):
    (tiny / "other").write_text("z1 0 a 1\nz2 0 b 0\n")
    code, out, err = invoke(["ppi", "--human", tiny / "other", "--auto", tiny / "a", "-m",
                             "P@1", tiny / "x", tiny / "y"])
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith("ipsoeval: error: ")
    assert "no topic in common" in err


def test_human_topic_missing_from_auto_is_one_line_exit_3(tiny, tmp_path):
    (tiny / "h2").write_text(TINY_HUMAN + "t9 0 a 1\n")
    outfile = tmp_path / "out.tsv"
    code, out, err = invoke(["ppi", "--human", tiny / "h2", "--auto", tiny / "a", "-m", "P@1",
                             "-o", outfile, tiny / "x", tiny / "y"])
    assert code == 3 and out == ""
    assert err.count("\n") == 1
    assert "'t9'" in err and "not in the auto qrels" in err
    assert not outfile.exists()


@pytest.mark.parametrize("args, words", [
    (["-m", "ESL@10"], "aggregated as"),
    (["-m", "num_rel_ret"], "aggregated as"),
    (["-m", "P@1", "--method", "nope"], "--method"),
    (["-m", "P@1", "--baseline", "x", "--all-pairs"], "conflicts"),
    (["-m", "P@1", "--baseline", "zz"], "--baseline"),
])
def test_usage_errors(tiny, args, words):
    code, out, err = invoke(["ppi", "--human", tiny / "h", "--auto", tiny / "a", *args,
                             tiny / "x", tiny / "y"])
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_run_on_stdin_is_a_usage_error(tiny):
    code, out, err = invoke(["ppi", "--human", tiny / "h", "--auto", tiny / "a", "-m", "P@1",
                             "-"], input=TINY_RUN_X)
    assert code == 2 and "standard input" in err
    # a qrels on standard input is fine
    code, out, err = invoke(["ppi", "--human", "-", "--auto", tiny / "a", "-m", "P@1",
                             tiny / "x"], input=TINY_HUMAN)
    assert code == 0, err


def test_all_human_topics_warns_and_ppi_is_human(tiny):
    code, out, err = invoke(["ppi", "--human", tiny / "a", "--auto", tiny / "a", "-m", "P@1",
                             tiny / "x"])
    assert code == 0 and "human-judged" in err
    rows = tsv(out)
    assert rows[0]["mean"] == rows[2]["mean"] and rows[2]["lambda"] == "0.0"


def test_one_run_has_no_differences_table(tiny):
    code, out, err = invoke(["ppi", "--human", tiny / "h", "--auto", tiny / "a", "-m", "P@1",
                             "--table", "list", tiny / "x"])
    assert code == 0 and "differences" not in out and "estimates" in out


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "json", "jsonl"])
def test_formats(coll, fmt):
    human, auto, runs = coll
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "--format", fmt, *runs)
    assert "sys1" in out
    if fmt in ("table", "markdown", "latex"):
        assert "ppi++" in out and "[" in out        # mean [ci_low, ci_high] per method


def test_plot(coll, tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread
    human, auto, runs = coll
    path = tmp_path / "p.png"
    out, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "-m", "P@5",
                    "--plot", path, *runs)
    plain, _ = ppi_ok("--human", human, "--auto", auto, "-m", "nDCG@10", "-m", "P@5", *runs)
    assert out == plain
    img = imread(str(path))
    assert img.shape[0] > 200 and img.shape[1] > 400
    assert float(img[..., :3].std()) > 0.05


def test_api_errors(coll):
    import ipsoeval
    human, auto, runs = coll
    with _nowarn():
        h = ipsoeval.evaluate(human, runs[:2], ["P@5"])
        a = ipsoeval.evaluate(auto, runs, ["P@5"])
        with pytest.raises(ipsoeval.UsageError, match="same runs"):
            ipsoeval.ppi(h, a)
        a = ipsoeval.evaluate(auto, runs[:2], ["P@5"])
        with pytest.raises(ipsoeval.UsageError, match="--method"):
            ipsoeval.ppi(h, a, method="x")
        with pytest.raises(ipsoeval.UsageError, match="aggregated as"):
            ipsoeval.ppi(h, a, measures=["ESL@10"])
        # swapped: the auto qrels' topics are not all human topics
        with pytest.raises(ipsoeval.InputError, match="not in the auto qrels"):
            ipsoeval.ppi(a, h)
        rep = ipsoeval.ppi(h, a, measures=["P@5", "official"], baseline="sys1")
        assert rep.table("differences").records[0]["run_a"] == "sys1"
        assert "AP" in {r["measure"] for r in rep.table().records}
