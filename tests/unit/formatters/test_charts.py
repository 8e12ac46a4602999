"""The report's charts, drawn by ipsoeval itself (ipsoeval/formatters/charts.py):
escaping, determinism, tick choice, panel limits, undefined values and empty
tables, and -- golden-free -- that what is drawn maps back to the tables'
values: each chart's scale is read from its own tick labels (the value a
label says at the pixel it is drawn), and every CI whisker, mean, band and
segment must sit where that scale puts the table's value, within a pixel.
The page itself (four charts where the data permits) is written without
importing matplotlib."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from ipsoeval.formatters import charts
from ipsoeval.results import ResultSet
from tests.conftest import ROOT, TESTDATA
from tests.report_inputs import one_relevant

PIXEL = 1.0


# --- helpers ----------------------------------------------------------------------------

def parse(svg: str) -> ET.Element:
    assert svg.startswith("<svg ") and svg.endswith("</svg>")
    assert "http" not in svg and " id=" not in svg          # no namespace URL, no id
    root = ET.fromstring(svg)                                # well-formed XML
    assert root.get("role") == "img" and root.get("aria-label")
    assert root[0].tag == "title" and root[0].text == root.get("aria-label")
    return root


def shown_text(t: ET.Element) -> str:
    """A <text>'s visible text (a cut label has its full text as a <title> child)."""
    return (t.text or "") + "".join(c.tail or "" for c in t)


def panels(root):
    return root.findall(".//g[@class='panel']")


def fitted(panel, axis: str):
    """value -> pixel from the panel's tick labels (text value at x or y)."""
    ticks = [(float(t.text), float(t.get(axis))) for t in panel.iter("text")
             if t.get("class") == f"{axis}tick"]
    assert len(ticks) >= 2, ticks
    (v0, p0), (v1, p1) = ticks[0], ticks[-1]
    k = (p1 - p0) / (v1 - v0)
    # y tick labels sit 4 px below their gridline (the baseline offset)
    off = -4.0 if axis == "y" else 0.0
    for v, p in ticks:                                       # the ticks are one line
        assert abs(p0 + k * (v - v0) - p) < 0.02, ticks
    return lambda v: p0 + off + k * (v - v0)


def rows_of(panel):
    return panel.findall("g[@class='row']")


def board_table(measures=("AP",), runs=("r1", "r2", "r3"), seed=0, values=None):
    rng = np.random.default_rng(seed)
    recs = []
    for m in measures:
        means = sorted(rng.uniform(0.1, 0.6, len(runs)), reverse=True)
        for i, (run, mean) in enumerate(zip(runs, means)):
            mean = float(mean) if values is None else values[i]
            half = float(rng.uniform(0.01, 0.05))
            lo = None if mean is None else mean - half
            hi = None if mean is None else mean + half
            recs.append({"measure": m, "run": run, "mean": mean, "ci_low": lo, "ci_high": hi,
                         "letters": "ab"[: 1 + i % 2], "top_group": i == 0})
    return ResultSet("leaderboard", ["measure", "run", "mean", "ci_low", "ci_high", "letters",
                                     "top_group"], recs,
                     params={"ci_level": 0.95, "alpha": 0.05}, id="leaderboard")


def pair_table(pairs, measures, diffs):
    recs = []
    for a, b in pairs:
        for m in measures:
            d = diffs[(a, b, m)]
            f = d[np.isfinite(d)]
            mean = float(f.mean()) if len(f) else None
            half = 0.1 * (float(f.std()) if len(f) else 0.0)
            recs.append({"run_a": a, "run_b": b, "measure": m, "test": "t", "diff": mean,
                         "ci_low": None if mean is None else mean - half,
                         "ci_high": None if mean is None else mean + half,
                         "wins": int((f > 0).sum()), "ties": int((f == 0).sum()),
                         "losses": int((f < 0).sum())})
    return ResultSet("sigtest", list(recs[0]) if recs else ["run_a", "run_b", "measure"],
                     recs, params={"ci_level": 0.95}, id="tests")


# --- ticks ------------------------------------------------------------------------------

def brute_step(lo, hi, target):
    raw = (hi - lo) / (target - 1)
    return min(m * 10.0 ** e for e in range(-15, 16) for m in (1, 2, 2.5, 5)
               if m * 10.0 ** e >= raw * (1 - 1e-9))


@pytest.mark.parametrize("lo,hi,target", [
    (0.396, 0.537, 7), (-1.08, 1.08, 6), (0, 2000, 6), (0, 100, 7), (-0.04, 4.0, 7),
    (0.4201, 0.4209, 7), (-3.5, 3.8, 7), (1e-9, 3e-9, 7), (12345, 67890, 7), (-0.3, 0.1, 6),
])
def test_ticks_are_round_and_inside(lo, hi, target):
    ticks = charts.nice_ticks(lo, hi, target)
    step = charts.nice_step(lo, hi, target)
    assert math.isclose(step, brute_step(lo, hi, target), rel_tol=1e-12)
    assert 2 <= len(ticks) <= target + 1
    assert all(lo - 1e-9 * abs(step) <= t <= hi + 1e-9 * abs(step) for t in ticks)
    for t in ticks:                                    # each a multiple of the step
        assert abs(t / step - round(t / step)) < 1e-6
    assert np.allclose(np.diff(ticks), step)
    labels = [charts.tick_label(t, step) for t in ticks]
    assert len(set(labels)) == len(labels)             # distinct, and they say the value
    for t, s in zip(ticks, labels):
        assert math.isclose(float(s), t, rel_tol=1e-9, abs_tol=1e-12 * abs(step)), (t, s)
    assert not any(s.startswith("-") and float(s) == 0 for s in labels)


def test_tick_labels_have_the_steps_decimals():
    assert [charts.tick_label(t, 0.025) for t in charts.nice_ticks(0.396, 0.537)] == \
        ["0.400", "0.425", "0.450", "0.475", "0.500", "0.525"]
    assert charts.nice_ticks(0, 100) == [0, 20, 40, 60, 80, 100]
    assert [charts.tick_label(t, 0.5) for t in charts.nice_ticks(-1.08, 1.08, 6)] == \
        ["-1.0", "-0.5", "0.0", "0.5", "1.0"]
    assert charts.tick_label(-0.0, 0.5) == "0.0" and charts.tick_label(-1e-17, 0.1) == "0.0"


def test_scale_of_no_or_one_value_or_extremes():
    s = charts.Scale([], 0, 100)
    assert (s.lo, s.hi) == (-0.04, 1.04) and s.ticks[0] == 0 and s.ticks[-1] == 1
    s = charts.Scale([3.0, 3.0, None, float("nan"), float("inf")], 0, 100)
    assert s.lo < 3 < s.hi and 3.0 in s.ticks
    s = charts.Scale([1e308, -1e308], 0, 100)
    assert all(math.isfinite(t) for t in s.ticks) and len(s.ticks) >= 2
    assert math.isfinite(s(1e308))
    assert charts.nice_ticks(float("nan"), 1.0) == []


# --- escaping, ids that are not UTF-8, determinism ----------------------------------------

WEIRD = ['a<b&"c"', "t\udce9", "ctl\x01x", "é" * 3]


def test_every_text_is_escaped_and_non_utf8_ids_shown():
    board = board_table(runs=WEIRD)
    svg = charts.leaderboard(board)
    svg.encode("utf-8")                                   # no lone surrogate left
    root = parse(svg)
    labels = [shown_text(t) for t in root.iter("text") if t.get("text-anchor") == "end"
              and t.get("class") is None]
    assert labels == ['a<b&"c"', "t\\xe9", "ctl\\x01x", "ééé"]
    assert "&lt;b&amp;&quot;c&quot;" in svg
    # the pairs' titles and the breakdown's and forest's labels too
    diffs = {(WEIRD[0], WEIRD[1], "AP"): np.array([0.1, -0.2, 0.0])}
    root = parse(charts.differences(pair_table([(WEIRD[0], WEIRD[1])], ["AP"], diffs), diffs))
    assert panels(root)[0].get("data-title") == 'AP: t\\xe9 − a<b&"c"'
    summary = ResultSet("breakdown", ["run_a", "run_b", "k", "pct_neither", "pct_a_only",
                                      "pct_b_only", "pct_both"],
                        [{"run_a": WEIRD[2], "run_b": WEIRD[1], "k": 10, "pct_neither": 10.0,
                          "pct_a_only": 20.0, "pct_b_only": 30.0, "pct_both": 40.0}],
                        id="summary")
    root = parse(charts.breakdown(summary))
    assert "t\\xe9 vs ctl\\x01x" in [shown_text(t) for t in root.iter("text")]


def test_a_long_label_is_cut_with_its_full_text_as_tooltip():
    long = "run-" + "x" * 200
    root = parse(charts.leaderboard(board_table(runs=[long, "b", "c"])))
    label = next(t for t in root.iter("text") if shown_text(t).startswith("run-"))
    assert shown_text(label).endswith("…") and len(shown_text(label)) < 60
    assert label.find("title").text == long
    assert float(root.get("width")) <= charts.WIDTH


DRIVER = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from tests.unit.formatters.test_charts import board_table, pair_table, forest_tables, breakdown_table
from ipsoeval.formatters import charts
runs = ["r%d" % i for i in range(9)]
d = {("r0", "r%d" % i, m): np.linspace(-1, 1, 40) ** i
     for i in range(1, 4) for m in ("AP", "P@10")}
pairs = [("r0", "r%d" % i) for i in range(1, 4)]
out = [charts.leaderboard(board_table(("AP", "P@10", "nDCG"), runs, seed=3)),
       charts.differences(pair_table(pairs, ["AP", "P@10"], d), d),
       charts.forest(*forest_tables()), charts.breakdown(breakdown_table())]
sys.stdout.write(json.dumps(out))
"""


def test_same_bytes_in_fresh_interpreters():
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", DRIVER, str(ROOT)],
                           capture_output=True, text=True, env=env, timeout=120)
        assert p.returncode == 0, p.stderr[-2000:]
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    assert all(s.startswith("<svg ") for s in json.loads(outs[0]))


# --- leaderboard --------------------------------------------------------------------------

def test_leaderboard_whiskers_and_means_map_back_to_the_table():
    runs = [f"run{i:02d}" for i in range(12)]
    board = board_table(("nDCG@10", "AP"), runs, seed=5)
    root = parse(charts.leaderboard(board))
    ps = panels(root)
    assert len(ps) == 2
    for panel, m in zip(ps, ("nDCG@10", "AP")):
        assert panel.get("data-title").startswith(f"{m}: randomised Tukey HSD")
        x = fitted(panel, "x")
        recs = [r for r in board.records if r["measure"] == m]
        rows = rows_of(panel)
        assert len(rows) == len(recs) == len(panel.findall(".//circle[@class='mean']"))
        ys = []
        for g, r in zip(rows, recs):                          # the table's order, top down
            line, dot = g.find("line[@class='ci']"), g.find("circle[@class='mean']")
            assert abs(float(line.get("x1")) - x(r["ci_low"])) < PIXEL
            assert abs(float(line.get("x2")) - x(r["ci_high"])) < PIXEL
            assert abs(float(dot.get("cx")) - x(r["mean"])) < PIXEL
            assert dot.get("fill") == (charts.GREEN if r["top_group"] else charts.BLUE)
            assert shown_text(g.find("text")) == r["run"]
            assert g.find("text[@class='letters']").text == r["letters"]
            ys.append(float(dot.get("cy")))
        assert ys == sorted(ys)


def test_leaderboard_undefined_values_are_not_drawn():
    board = board_table(runs=["a", "b", "c", "d"],
                        values=[0.5, None, float("nan"), float("inf")])
    board.records[0]["ci_high"] = float("inf")                # a half-undefined CI
    root = parse(charts.leaderboard(board))
    assert len(rows_of(panels(root)[0])) == 4
    assert len(root.findall(".//circle[@class='mean']")) == 1
    assert root.findall(".//line[@class='ci']") == []
    for el in root.iter():
        for k, v in el.attrib.items():
            assert "nan" not in v.lower() and "inf" not in v.lower(), (k, v)


def test_leaderboard_panel_limit_and_empty_table():
    board = board_table([f"M{i}" for i in range(15)])
    assert len(panels(parse(charts.leaderboard(board)))) == charts.MAX_PANELS == 12
    assert len(panels(parse(charts.leaderboard(board, max_panels=3)))) == 3
    empty = ResultSet("leaderboard", board.columns, [], params={}, id="leaderboard")
    root = parse(charts.leaderboard(empty))
    assert panels(root) == [] and "no run to draw" in [t.text for t in root.iter("text")]


# --- differences --------------------------------------------------------------------------

def test_differences_band_mean_and_steps_map_back():
    rng = np.random.default_rng(2)
    d = {("base", "best", "AP"): np.round(rng.normal(0.05, 0.2, 300), 2),
         ("base", "best", "P@10"): np.round(rng.normal(-0.02, 0.1, 300), 1)}
    tests = pair_table([("base", "best")], ["AP", "P@10"], d)
    root = parse(charts.differences(tests, d))
    ps = panels(root)
    assert len(ps) == 2
    for panel, r in zip(ps, tests.records):
        y, x = fitted(panel, "y"), fitted(panel, "x")
        band = panel.find("rect[@class='ci']")
        top, height = float(band.get("y")), float(band.get("height"))
        assert abs(top - y(r["ci_high"])) < PIXEL and abs(top + height - y(r["ci_low"])) < PIXEL
        mean = panel.find("line[@class='mean']")
        assert abs(float(mean.get("y1")) - y(r["diff"])) < PIXEL
        vals = np.sort(d[(r["run_a"], r["run_b"], r["measure"])])
        for cls, extreme in (("wins", vals.max()), ("losses", vals.min())):
            path = panel.find(f"path[@class='{cls}']").get("d")
            vs = [float(v) for v in re.findall(r"V(-?[\d.]+)", path)]
            far = min(vs) if cls == "wins" else max(vs)
            assert abs(far - y(extreme)) < PIXEL
            hs = [float(h) for h in re.findall(r"H(-?[\d.]+)", path)]
            assert abs(hs[-1] - x(len(vals))) < PIXEL            # every topic drawn
            # one step per run of equal differences
            assert len(hs) == len(np.unique(vals))
        xlabel = next(t.text for t in panel.iter("text") if t.get("class") == "xlabel")
        assert f"({r['wins']} wins, {r['ties']} ties, {r['losses']} losses)" in xlabel


def test_differences_panel_limit_order_and_undefined_values():
    d = {(f"a{i}", f"b{i}", m): np.array([0.1, -0.1, np.nan, np.inf, 0.3])
         for i in range(5) for m in ("AP", "P@10", "RR")}
    tests = pair_table([(f"a{i}", f"b{i}") for i in range(5)], ["AP", "P@10", "RR"], d)
    root = parse(charts.differences(tests, d))
    ps = panels(root)
    assert len(ps) == 12
    assert [p.get("data-title") for p in ps[:4]] == ["AP: b0 − a0", "P@10: b0 − a0",
                                                    "RR: b0 − a0", "AP: b1 − a1"]
    assert len(panels(parse(charts.differences(tests, d, max_panels=2)))) == 2
    for el in root.iter():
        for v in el.attrib.values():
            assert "nan" not in v.lower() and "inf" not in v.lower()
    # only the finite differences are drawn: 3 distinct values, 3 steps
    hs = re.findall(r"H", ps[0].find("path[@class='wins']").get("d"))
    assert len(hs) == 3
    # no difference at all, and no pair at all
    d0 = {("a", "b", "AP"): np.array([np.nan, np.nan])}
    root = parse(charts.differences(pair_table([("a", "b")], ["AP"], d0), d0))
    assert "no finite value to draw" in [t.text for t in root.iter("text")]
    assert root.find(".//rect[@class='ci']") is None
    empty = ResultSet("sigtest", ["run_a", "run_b", "measure"], [], params={}, id="tests")
    assert "no pair to draw" in charts.differences(empty, {})


# --- forest and breakdown -----------------------------------------------------------------

def forest_tables(n_pooled=2):
    effects, pooled = [], []
    for k in range(n_pooled):
        run = f"sys{k}"
        for c, (est, half, w) in enumerate([(0.1, 0.05, 0.4), (-0.2, 0.1, 0.3),
                                            (0.5, 0.2, 0.0), (None, None, None)]):
            effects.append({"run": run, "measure": "nDCG@10", "collection": f"col{c}",
                            "n": 10 * (c + 1), "estimate": est,
                            "ci_low": None if est is None else est - half,
                            "ci_high": None if est is None else est + half,
                            "weight_random": w})
        pooled.append({"run": run, "baseline": "bm25", "measure": "nDCG@10", "effect": "md",
                       "estimate": 0.12, "ci_low": -0.05, "ci_high": 0.3,
                       "fe_estimate": 0.08, "fe_ci_low": 0.02, "fe_ci_high": 0.14,
                       "pi_low": -0.6, "pi_high": 0.8, "tau2": 0.0695, "i2": 0.9})
    return (ResultSet("across", list(effects[0]), effects, id="effects"),
            ResultSet("across", list(pooled[0]), pooled, id="pooled"))


def test_forest_intervals_map_back():
    effects, pooled = forest_tables()
    root = parse(charts.forest(effects, pooled))
    ps = panels(root)
    assert len(ps) == 2
    assert ps[0].get("data-title") == "sys0 − bm25, nDCG@10 (md): τ² 0.0695, I² 90%"
    p = pooled.records[0]
    x = fitted(ps[0], "x")
    rows = rows_of(ps[0])
    es = [e for e in effects.records if e["run"] == "sys0"]
    assert len(rows) == len(es)
    for g, e in zip(rows, es):
        assert shown_text(g.find("text")) == f"{e['collection']} (n={e['n']})"
        line, box = g.find("line[@class='ci']"), g.find("rect[@class='mean']")
        if e["estimate"] is None:
            assert line is None and box is None
            continue
        assert abs(float(line.get("x1")) - x(e["ci_low"])) < PIXEL
        assert abs(float(line.get("x2")) - x(e["ci_high"])) < PIXEL
        centre = float(box.get("x")) + float(box.get("width")) / 2
        assert abs(centre - x(e["estimate"])) < PIXEL
        assert box.get("fill") == (charts.BLUE if e["weight_random"] else "#bbbbbb")
    pooled_rows = ps[0].findall("g[@class='row pooled']")
    for g, pre in zip(pooled_rows, ("fe_", "")):
        pts = [tuple(map(float, s.split(","))) for s in
               g.find("polygon[@class='ci']").get("points").split()]
        xs = [q[0] for q in pts]
        assert abs(xs[0] - x(p[f"{pre}ci_low"])) < PIXEL
        assert abs(xs[1] - x(p[f"{pre}estimate"])) < PIXEL
        assert abs(xs[2] - x(p[f"{pre}ci_high"])) < PIXEL
    pi = pooled_rows[1].find("line[@class='pi']")
    assert abs(float(pi.get("x1")) - x(p["pi_low"])) < PIXEL
    assert abs(float(pi.get("x2")) - x(p["pi_high"])) < PIXEL
    assert len(panels(parse(charts.forest(*forest_tables(14))))) == 12
    assert len(panels(parse(charts.forest(*forest_tables(14), max_panels=5)))) == 5


def breakdown_table(n=2):
    recs = [{"run_a": "base", "run_b": f"sys{i}", "k": 100, "pct_neither": 4.0 + i,
             "pct_a_only": 8.3, "pct_b_only": 12.2 - i, "pct_both": 75.5} for i in range(n)]
    return ResultSet("breakdown", list(recs[0]), recs, id="summary")


def test_breakdown_segments_map_back():
    summary = breakdown_table()
    root = parse(charts.breakdown(summary))
    x = fitted(root, "x")
    rows = root.findall(".//g[@class='row']")
    assert len(rows) == len(summary.records)
    for g, r in zip(rows, summary.records):
        acc = 0.0
        segs = g.findall("rect[@class='segment']")
        assert [s.get("data-outcome") for s in segs] == [c for c, _, _ in charts.OUTCOMES]
        for s in segs:
            v = r[s.get("data-outcome")]
            assert abs(float(s.get("x")) - x(acc)) < PIXEL
            assert abs(float(s.get("x")) + float(s.get("width")) - x(acc + v)) < PIXEL
            acc += v
        shares = [t.text for t in g.iter("text") if t.text and t.text.endswith("%")]
        assert shares == [f"{r[c]:.1f}%" for c, _, _ in charts.OUTCOMES if r[c] >= 6]
    empty = ResultSet("breakdown", summary.columns, [], id="summary")
    assert "no pair to draw" in charts.breakdown(empty)


# --- the page -------------------------------------------------------------------------------

PAGE_DRIVER = """
import json, sys
from ipsoeval.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit as e:
    code = e.code
sys.stderr.write('\\n' + json.dumps([code, sorted(
    m for m in sys.modules if m.split('.')[0] == 'matplotlib' or m == 'scipy.sparse')])
    + '\\n')
"""


def _report_modules(args, tmp_path):
    """Run ``ipsoeval ARGS`` in a fresh interpreter: its exit status, standard
    error and the matplotlib and scipy.sparse modules it loaded."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PAGE_DRIVER, json.dumps(args)],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    code, mods = json.loads(p.stderr.strip().splitlines()[-1])
    assert code in (0, None), p.stderr[-2000:]
    return p.stderr, mods


def test_page_has_four_charts_and_imports_no_matplotlib(tmp_path):
    ad = TESTDATA / "adhoc"
    plain = tmp_path / "qrels.txt"                             # without its comment line
    plain.write_text("".join(x for x in open(ad / "qrels.txt") if not x.startswith("#")))
    qrels = one_relevant(str(plain), tmp_path)                # so that the breakdown runs
    out = tmp_path / "r.html"
    runs = [str(ad / "run-bm25.txt"), str(ad / "run-neural.txt")]
    err, mods = _report_modules(["report", qrels, *runs, "-m", "nDCG@10", "-m", "P@10",
                                 "--samples", "200", "--manifest",
                                 str(TESTDATA / "across" / "manifest.tsv"), "-o", str(out)],
                                tmp_path)
    assert not [m for m in mods if m.startswith("matplotlib")], mods
    assert "matplotlib" not in err and "no charts" not in err
    # without --manifest (whose meta-analysis uses scipy.optimize) not even
    # scipy.sparse: bootstrap's split-half alone needs it, and it loads
    # scipy's array-API layer, a quarter of a second
    _, mods = _report_modules(["report", qrels, *runs, "-m", "nDCG@10", "--samples", "200",
                               "-o", str(tmp_path / "r2.html")], tmp_path)
    assert mods == [], mods
    page = out.read_text(encoding="utf-8")
    found = re.findall(r'<div class="chart" id="chart-(\w+)"><svg class="chart-svg" '
                       r'data-chart="(\w+)"', page)
    assert sorted(found) == sorted((c, c) for c in ("leaderboard", "differences",
                                                    "forest", "breakdown"))
    for svg in re.findall(r'<svg class="chart-svg".*?</svg>', page, re.S):
        parse(svg)
    # the leaderboard chart: a row per run and measure of the page's table
    data = json.loads(re.search(r'id="ipsoeval-data">(.*?)</script>', page, re.S).group(1))
    recs = data["reports"]["leaderboard"]["tables"]["leaderboard"]["records"]
    svg = re.search(r'data-chart="leaderboard".*?</svg>', page, re.S).group(0)
    assert svg.count('<g class="row">') == len(recs) == 4
    # a panel per pair and measure: nDCG@10 (ordinal: the sign test's row) as
    # well as P@10 (the t test's row)
    svg = re.search(r'data-chart="differences".*?</svg>', page, re.S).group(0)
    assert re.findall(r'class="panel" data-title="([^"]*)"', svg) == [
        "nDCG@10: neural − bm25", "P@10: neural − bm25"]
    tests = data["reports"]["sigtest"]["tables"]["tests"]["records"]
    assert {(r["measure"], r["test"]) for r in tests} >= {("nDCG@10", "sign"), ("P@10", "t")}
    assert not any(r["measure"] == "nDCG@10" and r["test"] == "t" for r in tests)


def test_page_draws_ids_that_are_not_utf8_escaped(tmp_path):
    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_bytes(b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\n")
    a.write_bytes(b"caf\xe9 Q0 a 1 1 t\ncaf\xe8 Q0 a 1 1 t\ncaf\xe8 Q0 b 2 0.5 t\n")
    b.write_bytes(b"caf\xe9 Q0 a 1 1 t\xe9\ncaf\xe8 Q0 b 1 1 t\xe9\ncaf\xe8 Q0 a 2 0.5 t\xe9\n")
    from tests.conftest import invoke
    out = tmp_path / "r.html"
    code, _, err = invoke(["report", "-m", "P@1", "--samples", "99", str(q), str(a), str(b),
                           "-o", str(out)])
    assert code == 0, err
    page = out.read_bytes().decode("utf-8")                   # valid UTF-8
    for chart in ("leaderboard", "differences"):
        svg = re.search(rf'data-chart="{chart}".*?</svg>', page, re.S).group(0)
        assert "t\\xe9" in svg, chart


def test_difference_panels_one_per_pair_and_measure_with_differences():
    from types import SimpleNamespace

    from ipsoeval.formatters.charts import difference_panels
    recs = [{"run_a": "*", "run_b": "b", "measure": "m"},
            {"run_a": "a", "run_b": "b", "measure": "m", "i": 1},
            {"run_a": "a", "run_b": "b", "measure": "m", "i": 2},
            {"run_a": "a", "run_b": "c", "measure": "m"},
            {"run_a": "a", "run_b": "b", "measure": "n"}]
    diffs = {("a", "b", "m"): [0.1], ("a", "b", "n"): [0.2], ("*", "b", "m"): [0.0]}
    tests = SimpleNamespace(records=recs)
    assert difference_panels(tests, diffs, 12) == [recs[1], recs[4]]
    assert difference_panels(tests, diffs, 1) == [recs[1]]


def test_one_line_element_for_axes_and_rules():
    from ipsoeval.formatters import charts
    assert charts._line(1, 2, 3, 4, "#000") == \
        '<line x1="1.00" y1="2.00" x2="3.00" y2="4.00" stroke="#000"/>'
    assert charts._vline(1, 2, 3, "#000", 0.8, dash="2,2", cls="pi") == \
        '<line class="pi" x1="1.00" y1="2.00" x2="1.00" y2="3.00" stroke="#000" ' \
        'stroke-width="0.8" stroke-dasharray="2,2"/>'
    assert charts._hline(5, 1, 3, "#000") == charts._line(1, 5, 3, 5, "#000", 1.0)
