"""`ipsoeval report`: the page's numbers are the commands' numbers, checked
against outside references (trec_eval's AP, scipy's tests, a brute-force
randomised Tukey HSD and outcome counts), the page is self-contained and
small, and bad input writes nothing."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

from tests.conftest import ROOT, invoke
from tests.report_inputs import make_inputs, one_relevant

REF = ROOT / "tests" / "data" / "report" / "trec_eval_map.tsv"
SAMPLES = "4000"


# --- helpers ----------------------------------------------------------------------------

class Tables(HTMLParser):
    """Each <table id=...> of a page: its data-column names and the data-value of its cells."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, dict] = {}
        self.ids: list[str] = []
        self._t = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "table":
            self._t = {"columns": [], "rows": []}
            self.tables[a["id"]] = self._t
        elif tag == "th" and self._t is not None:
            self._t["columns"].append(a["data-column"])
        elif tag == "tr" and self._t is not None:
            self._t["rows"].append([])
        elif tag == "td" and self._t is not None:
            self._t["rows"][-1].append(a["data-value"])

    def handle_endtag(self, tag):
        if tag == "table":
            self._t["rows"] = [r for r in self._t["rows"] if r]
            self._t = None


def parse(page: str) -> Tables:
    p = Tables()
    p.feed(page)
    return p


def data_block(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="ipsoeval-data">(.*?)</script>', page,
                  re.S)
    return json.loads(m.group(1))


def tsv_rows(text: str) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows[0], rows[1:]


def ok(*args, **kw):
    code, out, err = invoke(list(args), **kw)
    assert code == 0, (code, out, err)
    return out, err


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return make_inputs(tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="module")
def page(inputs, tmp_path_factory):
    qrels, runs = inputs
    out = tmp_path_factory.mktemp("out") / "report.html"
    ok("report", qrels, *runs, "-m", "AP", "-m", "P@10", "--samples", SAMPLES, "--seed", "7",
       "--pair", "sys3:sys4", "--pair", "sys0:sys4", "-o", out)
    return out.read_text()


@pytest.fixture(scope="module")
def one_rel(inputs, tmp_path_factory):
    """The same runs on qrels with one relevant document per topic: the page
    then has the outcomes breakdown (Lin et al. 2021 assume one)."""
    qrels, runs = inputs
    return one_relevant(qrels, tmp_path_factory.mktemp("one")), runs


@pytest.fixture(scope="module")
def bd_page(one_rel, tmp_path_factory):
    qrels, runs = one_rel
    out = tmp_path_factory.mktemp("out-one") / "report.html"
    ok("report", qrels, *runs, "-m", "AP", "-m", "P@10", "--samples", SAMPLES, "--seed", "7",
       "--pair", "sys3:sys4", "--pair", "sys0:sys4", "-o", out)
    return out.read_text()


def reference():
    te: dict[str, dict[str, float]] = {}
    with open(REF) as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            te.setdefault(r["run"], {})[r["qid"]] = float(r["map"])
    return te


def per_topic(te, run):
    return np.array([v for q, v in sorted(te[run].items()) if q != "all"])


# --- the numbers are the commands' numbers -----------------------------------------------

def test_tables_equal_the_commands_tsv_and_json(inputs, page):
    qrels, runs = inputs
    common = ["--samples", SAMPLES, "--seed", "7"]
    html_tables = parse(page).tables
    doc = data_block(page)["reports"]
    lb_json = json.loads(ok("leaderboard", qrels, *runs, "-m", "AP", "-m", "P@10", *common,
                            "--format", "json")[0])
    for tid in ("leaderboard", "pairs", "resolution"):
        assert doc["leaderboard"]["tables"][tid]["records"] == lb_json["tables"][tid]["records"]
        cols, rows = tsv_rows(ok("leaderboard", qrels, *runs, "-m", "AP", "-m", "P@10", *common,
                                 "--format", "tsv", "--table", tid)[0])
        t = html_tables[f"t-leaderboard-{tid}"]
        assert t["columns"] == cols and t["rows"] == rows, tid
    # each pair: sigtest on the two runs with A as the baseline
    sig_rows = []
    for a, b in (("sys3", "sys4"), ("sys0", "sys4")):
        out = ok("sigtest", qrels, runs[int(a[-1])], runs[int(b[-1])], "-m", "AP", "-m", "P@10",
                 "--baseline", a, *common, "--format", "json")[0]
        sig_rows += json.loads(out)["tables"]["tests"]["records"]
        cols, rows = tsv_rows(ok("sigtest", qrels, runs[int(a[-1])], runs[int(b[-1])], "-m",
                                 "AP", "-m", "P@10", "--baseline", a, *common,
                                 "--format", "tsv")[0])
        t = html_tables["t-sigtest-tests"]
        assert t["columns"] == cols
        assert all(r in t["rows"] for r in rows)
    assert doc["sigtest"]["tables"]["tests"]["records"] == sig_rows
    # several relevant documents per topic: no breakdown, one line says why
    assert "breakdown" not in doc and "t-breakdown-summary" not in html_tables
    assert re.search(r'<section id="breakdown">.*?no outcomes breakdown: 30 of 30 topics have '
                     r'more than one relevant document', page, re.S)
    meta = data_block(page)["report"]
    assert (meta["best"], meta["baseline"], meta["measure"]) == ("sys4", "sys0", "AP")


def test_breakdown_table_equals_the_commands(one_rel, bd_page):
    # the baseline (the first run) against the best run, the row shown as a column
    qrels, runs = one_rel
    doc = data_block(bd_page)["reports"]
    best = data_block(bd_page)["report"]["best"]
    out = ok("breakdown", qrels, *runs, "--format", "json")[0]
    want = [r for r in json.loads(out)["tables"]["summary"]["records"] if r["run_b"] == best]
    assert doc["breakdown"]["tables"]["summary"]["records"] == want
    cols, rows = tsv_rows(ok("breakdown", qrels, *runs, "--format", "tsv")[0])
    t = parse(bd_page).tables["t-breakdown-summary"]
    row = next(r for r in rows if r[1] == best)
    assert t["columns"] == ["column", "value"] and t["rows"] == [list(x) for x in zip(cols, row)]


def test_numbers_against_outside_references(inputs, page):
    """Means against trec_eval's AP; the pairs' t and sign tests against scipy
    on trec_eval's per-topic AP; the randomised Tukey HSD and randomization
    p-values against brute-force resampling written here."""
    from scipy import stats as ss
    te = reference()
    doc = data_block(page)["reports"]
    board = [r for r in doc["leaderboard"]["tables"]["leaderboard"]["records"]
             if r["measure"] == "AP"]
    for r in board:
        assert f"{r['mean']:.4f}" == f"{te[r['run']]['all']:.4f}"
        x = per_topic(te, r["run"])
        ci = ss.ttest_1samp(x, 0).confidence_interval(0.95)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), abs=2e-4)
    tests = doc["sigtest"]["tables"]["tests"]["records"]
    for r in tests:
        if r["measure"] != "AP":
            continue
        a, b = per_topic(te, r["run_a"]), per_topic(te, r["run_b"])
        if r["test"] == "t":
            p = ss.ttest_rel(b, a).pvalue
            assert r["p_value"] == pytest.approx(p, rel=0.05, abs=1e-6)
        if r["test"] == "sign":
            d = b - a       # trec_eval's 4 decimals may hide a tiny difference
            assert int((d > 1e-4).sum()) <= r["wins"] <= int((d > -1e-4).sum())
            assert int((d < -1e-4).sum()) <= r["losses"] <= int((d < 1e-4).sum())
            p = ss.binomtest(r["wins"], r["wins"] + r["losses"]).pvalue
            assert r["p_value"] == pytest.approx(p, rel=1e-9)
        if r["test"] == "randomization":
            rng = np.random.default_rng(3)
            d = b - a
            flips = rng.choice([-1.0, 1.0], size=(20000, d.size))
            ref = ((np.abs((flips * d).mean(axis=1)) >= abs(d.mean()) - 1e-9).sum() + 1) / 20001
            assert r["p_value"] == pytest.approx(ref, abs=0.03)
    # randomised Tukey HSD: permute each topic's scores across the runs
    runs = sorted(te)
    X = np.array([per_topic(te, r) for r in runs])
    rng = np.random.default_rng(11)
    S = 4000
    keys = rng.random((S, X.shape[0], X.shape[1])).argsort(axis=1)
    perm = np.take_along_axis(np.broadcast_to(X, keys.shape), keys, axis=1).mean(axis=2)
    ranges = perm.max(axis=1) - perm.min(axis=1)
    means = X.mean(axis=1)
    for r in doc["leaderboard"]["tables"]["pairs"]["records"]:
        if r["measure"] != "AP":
            continue
        diff = abs(means[runs.index(r["run_a"])] - means[runs.index(r["run_b"])])
        ref = ((ranges >= diff - 1e-9).sum() + 1) / (S + 1)
        assert r["p_value"] == pytest.approx(ref, abs=0.04), r


def test_breakdown_counts_by_hand(one_rel, bd_page):
    """Outcome counts of the best run against the baseline from the files:
    the first relevant document in the top 100, ranked as trec_eval ranks
    (score descending, then document id descending)."""
    from scipy import stats as ss
    qrels, runs = one_rel
    rel = {}
    for line in open(qrels):
        q, _, d, lab = line.split()
        if int(lab) >= 1:
            rel.setdefault(q, set()).add(d)

    def first(path):
        by = {}
        for line in open(path):
            q, _, d, _, s, _ = line.split()
            by.setdefault(q, []).append((float(s), d))
        out = {}
        for q in rel:
            ranked = sorted(by.get(q, []), key=lambda x: (x[0], x[1]), reverse=True)[:100]
            out[q] = next((i + 1 for i, (_, d) in enumerate(ranked) if d in rel[q]), None)
        return out

    best = data_block(bd_page)["report"]["best"]
    a, b = first(runs[0]), first(runs[int(best[3:])])
    n = {"neither": 0, "a_only": 0, "b_only": 0, "both": 0}
    for q in rel:
        key = ("both" if a[q] and b[q] else "a_only" if a[q] else "b_only" if b[q]
               else "neither")
        n[key] += 1
    row = data_block(bd_page)["reports"]["breakdown"]["tables"]["summary"]["records"][0]
    assert (row["run_a"], row["run_b"]) == ("sys0", best)
    assert [row[f"n_{k}"] for k in n] == list(n.values())
    m = n["a_only"] + n["b_only"]
    if m:
        assert row["answered_sign_p_value"] == pytest.approx(
            ss.binomtest(n["b_only"], m).pvalue, rel=1e-9)


# --- the page ---------------------------------------------------------------------------

def test_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?://", page, re.I)
    assert not re.search(r"<(script|img|iframe|embed|object|audio|video|source)\b[^>]*\bsrc=",
                         page, re.I)
    assert not re.search(r"<link\b", page, re.I)
    assert "@import" not in page and "@font-face" not in page
    assert not re.search(r"url\((?!#)", page)
    hrefs = re.findall(r'href="([^"]*)"', page)
    assert hrefs and all(h.startswith("#") for h in hrefs)
    p = parse(page)
    for s in ("summary", "leaderboard", "significance", "differences", "breakdown", "scales",
              "about"):
        assert s in p.ids
    assert len(p.ids) == len(set(p.ids)), "duplicate element ids"
    # every url(#x) / href="#x" points at an element of the page
    for ref in re.findall(r"url\(#([^)]+)\)", page) + [h[1:] for h in hrefs]:
        assert ref in p.ids, ref
    assert page.count('<svg class="heatmap"') == 2            # one per measure
    for chart in ("leaderboard", "differences"):
        assert f'id="chart-{chart}"' in page
    assert 'id="chart-breakdown"' not in page          # several relevant documents a topic
    assert "data-sort-script" in page


def test_scale_notes(page):
    doc = data_block(page)["reports"]["scales"]["tables"]["scales"]["records"]
    got = {(r["measure"], r["test"]): (r["scale"], r["permissible"]) for r in doc}
    from ipsoeval.stats import registry
    for (m, t), (scale, perm) in got.items():
        assert perm == registry.permissible(scale, t)
    # Ferrante et al. 2021: AP is ordinal (means and their tests are not
    # permissible), P@10 interval; the sign test needs an ordinal scale only
    assert got[("AP", "randhsd")] == ("ordinal", False)
    assert got[("AP", "t")] == ("ordinal", False)
    assert got[("AP", "sign")] == ("ordinal", True)
    assert got[("P@10", "randhsd")] == ("interval", True)


def test_same_bytes_for_same_seed(inputs, tmp_path):
    qrels, runs = inputs
    outs = []
    for i in range(2):
        ok("report", qrels, *runs, "-m", "AP", "--samples", "300", "--seed", "3",
           "-o", tmp_path / f"r{i}.html")
        outs.append((tmp_path / f"r{i}.html").read_bytes())
    assert outs[0] == outs[1]
    stdout, _ = ok("report", qrels, *runs, "-m", "AP", "--samples", "300", "--seed", "3")
    assert stdout.encode() == outs[0]


def test_size_20_runs_500_topics(tmp_path):
    qrels, runs = make_inputs(tmp_path, runs=20, topics=500, depth=30, seed=4)
    out = tmp_path / "big.html"
    _, err = ok("report", qrels, *runs, "-m", "AP", "--samples", "100", "-o", out)
    size = out.stat().st_size
    assert size < 2_000_000, size
    page = out.read_text()
    assert page.count("<rect") >= 20 * 20


def test_without_matplotlib_the_page_has_its_charts(inputs, tmp_path, monkeypatch):
    """The charts are drawn by ipsoeval itself: with matplotlib unimportable
    the page has them all and no warning mentions the plot extra."""
    qrels, runs = inputs
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # import matplotlib fails
    out = tmp_path / "r.html"
    _, err = ok("report", qrels, *runs, "-m", "AP", "--samples", "200", "-o", out)
    assert "ipsoeval[plot]" not in err and "matplotlib" not in err and "no charts" not in err
    page = out.read_text()
    for chart in ("leaderboard", "differences"):
        assert f'id="chart-{chart}"' in page
    assert '<svg class="heatmap"' in page and "ipsoeval[plot]" not in page


def test_labels_other_than_integer_leave_out_the_breakdown(inputs, tmp_path):
    qrels, runs = inputs
    out = tmp_path / "r.html"
    ok("report", qrels, *runs, "-m", "AP", "--samples", "200", "--labels", "gain", "-o", out)
    doc = data_block(out.read_text())
    assert "breakdown" not in doc["reports"]
    assert "no outcomes breakdown" in out.read_text()


def test_estimate_first_for_long_work(inputs, tmp_path, monkeypatch):
    from ipsoeval.pipeline import report as pipeline
    monkeypatch.setattr(pipeline, "ANNOUNCE_SECONDS", 0.0)
    qrels, runs = inputs
    _, err = ok("report", qrels, *runs, "-m", "AP", "--samples", "200", "-o",
                tmp_path / "r.html")
    assert re.search(r"ipsoeval: note: report: 200 samples x 5 runs x 30 topics: about", err)


def test_baseline_best_swaps_to_the_best_other_run(inputs, tmp_path):
    qrels, runs = inputs
    out = tmp_path / "r.html"
    ok("report", qrels, *runs, "-m", "AP", "--samples", "200", "--baseline", "sys4", "-o", out)
    meta = data_block(out.read_text())["report"]
    assert (meta["baseline"], meta["best"], meta["pairs"]) == ("sys4", "sys3",
                                                                [["sys4", "sys3"]])
    # --baseline FILE names the run read from it
    ok("report", qrels, *runs, "-m", "AP", "--samples", "200", "--baseline", runs[2], "-o", out)
    assert data_block(out.read_text())["report"]["baseline"] == "sys2"


@pytest.mark.parametrize("args,code,what", [
    (["--pair", "sys0:nope"], 2, "no run named 'nope'"),
    (["--pair", "sys0"], 2, "--pair takes A:B"),
    (["--pair", "sys1:sys1"], 2, "compared with itself"),
    (["--test", "anova"], 2, "anova"),
    (["--title", " "], 2, "--title"),
    (["-m", "NoSuchMeasure"], 2, "NoSuchMeasure"),
    (["--baseline", "nope"], 2, "nope"),
])
def test_usage_errors_write_nothing(inputs, tmp_path, args, code, what):
    qrels, runs = inputs
    out = tmp_path / "r.html"
    got, stdout, err = invoke(["report", qrels, *runs, "-m", "AP", *args, "-o", out])
    assert got == code, err
    assert what in err and "Traceback" not in err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_input_errors(inputs, tmp_path):
    qrels, runs = inputs
    bad = tmp_path / "bad.run"
    bad.write_text("001 Q0 d1 1 notanumber sys9\n")
    out = tmp_path / "r.html"
    code, _, err = invoke(["report", qrels, runs[0], str(bad), "-m", "AP", "-o", out])
    assert code == 3 and err.startswith("ipsoeval: error: ") and not out.exists()
    code, _, err = invoke(["report", qrels, runs[0], "-m", "AP", "-o", out])
    assert code == 2 and "at least two runs" in err


def test_api_matches_the_cli(inputs, page):
    import ipsoeval
    qrels, runs = inputs
    res = ipsoeval.evaluate(qrels, runs, ["AP", "P@10"])
    p = ipsoeval.report(res, samples=int(SAMPLES), seed=7, pairs=["sys3:sys4", ("sys0", "sys4")])
    cli = data_block(page)["reports"]
    api = data_block(p.html)["reports"]
    assert set(cli) == set(api) == {"leaderboard", "sigtest", "scales", "compare"}
    for cmd in ("leaderboard", "sigtest", "scales", "compare"):
        for tid, t in cli[cmd]["tables"].items():
            assert api[cmd]["tables"][tid]["records"] == t["records"], (cmd, tid)
    assert set(p.figures) == {"leaderboard", "differences"}
    assert p.reports["leaderboard"].table("pairs").records
    with pytest.raises(ipsoeval.UsageError, match="no run named"):
        ipsoeval.report(res, pairs=["sys0:zz"], samples=10)


def test_progress_reaches_the_end(inputs):
    import ipsoeval
    qrels, runs = inputs
    res = ipsoeval.evaluate(qrels, runs, ["P@10"])
    seen = []
    p = ipsoeval.report(res, samples=300, charts=False, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (1000, 1000)
    assert all(0 <= d <= t for d, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert p.figures == {} and 'id="chart-' not in p.html     # charts=False: asked for none
    assert not any("chart" in w for w in p.warnings)


def test_ids_that_are_not_utf8_are_drawn_and_shown_escaped(tmp_path):
    """A run tag and topics that are not UTF-8 (ipsoeval.ids): the charts draw
    them as \\xNN (no font has a glyph for a lone surrogate) and the page is
    written, valid UTF-8."""
    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\n")
    a.write_bytes(b"caf\xe9 Q0 a 1 1 t\ncaf\xe8 Q0 a 1 1 t\ncaf\xe8 Q0 b 2 0.5 t\n")
    b.write_bytes(b"caf\xe9 Q0 a 1 1 t\xe9\ncaf\xe8 Q0 b 1 1 t\xe9\ncaf\xe8 Q0 a 2 0.5 t\xe9\n")
    out = tmp_path / "r.html"
    code, _, err = invoke(["report", "-m", "P@1", "--samples", "99", str(q), str(a), str(b),
                           "-o", str(out)])
    assert code == 0, err
    assert "internal error" not in err
    assert "t\\xe9" in out.read_text(encoding="utf-8")
