"""`ipsoeval report` in a real browser: headless Chromium opens the page,
logs nothing on its console (no script error, no resource it failed to
load), runs the sorting script, and its screenshot shows the charts and the
heat map.  Needs Debian's chromium (``make browser-deps``); skipped without it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import invoke
from tests.report_inputs import make_inputs, one_relevant

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "")
                 if p and os.access(p, os.X_OK)), None)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                                                "(/usr/bin/chromium): run `make browser-deps` "
                                                "(apt-get install chromium; needs root or sudo)"),
]

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]
WIDTH, HEIGHT = 1280, 4000


def chromium(tmp_path: Path, page: Path, *what: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *what,
                           page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)


def console(stderr: str) -> list[str]:
    """The page's console messages: Chromium logs each as an INFO:CONSOLE line."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def count_colors(path: Path, colors: dict[str, str], tol: int = 6) -> dict[str, int]:
    """Pixels of the screenshot within ``tol`` of each colour, and ``ink``: the
    pixels that are not white."""
    from matplotlib import image
    px = np.asarray(image.imread(str(path)))[:, :, :3]
    px = np.rint(px * 255).astype(np.int16) if px.dtype.kind == "f" else px.astype(np.int16)
    n = {"ink": int((px != 255).any(axis=2).sum()), "shape": px.shape[:2]}
    for k, v in colors.items():
        want = np.array([int(v[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
        n[k] = int((np.abs(px - want) <= tol).all(axis=2).sum())
    return n


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    pytest.importorskip("matplotlib", reason="the PNG reader of the screenshots needs the plot "
                                             "extra")
    d = tmp_path_factory.mktemp("browser")
    qrels, runs = make_inputs(d)
    out = d / "report.html"
    code, _, err = invoke(["report", qrels, *runs, "-m", "AP", "-m", "P@10", "--samples", "2000",
                           "--pair", "sys0:sys4", "--pair", "sys3:sys4", "-o", out])
    assert code == 0, err
    return out


def test_console_detection_works(tmp_path):
    """The check below is only as good as Chromium's console log: a page with
    an error must show up in it."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><p>x</p><script>nosuchfunction();</script>'
                   '<img src="missing.png"></body></html>')
    r = chromium(tmp_path, bad, "--dump-dom")
    assert any("nosuchfunction" in line for line in console(r.stderr)), r.stderr[-2000:]


def test_page_in_chromium(page, tmp_path):
    from ipsoeval.formatters.html import COLORS
    r = chromium(tmp_path, page, "--dump-dom")
    assert r.returncode == 0, r.stderr[-2000:]
    assert console(r.stderr) == [], console(r.stderr)
    dom = r.stdout
    assert 'data-sort-script="ready"' in dom                      # the script ran
    # several relevant documents per topic: no breakdown table (a note says why)
    assert dom.count('data-sortable="ready"') == dom.count('<table class="sortable"') >= 5
    for s in ("summary", "leaderboard", "significance", "differences", "breakdown", "scales"):
        assert f'<section id="{s}">' in dom

    shot = tmp_path / "out.png"
    r = chromium(tmp_path, page, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    assert console(r.stderr) == [], console(r.stderr)
    n = count_colors(shot, {"strong": COLORS[0], "not_significant": COLORS[-1],
                           "top_group": "#2a7f3f", "losses": "#b8322a"})
    assert n["shape"] == (HEIGHT, WIDTH)
    assert n["ink"] > 0.03 * WIDTH * HEIGHT, n                      # not a blank page
    assert n["strong"] > 400 and n["not_significant"] > 100, n      # the heat map's squares
    assert n["top_group"] > 500, n                                  # the charts' green
    assert n["losses"] > 500, n                                      # the differences chart


def test_sorting_script_in_chromium(tmp_path):
    """The page's own script sorts a column: numbers as numbers, empty cells
    last, a second click reverses."""
    from ipsoeval.formatters.html import SCRIPT
    page = tmp_path / "sort.html"
    cells = "".join(f'<tr><td data-value="{v}">{v}</td><td data-value="{s}">{s}</td></tr>'
                    for v, s in (("10", "b"), ("9", "a"), ("", "c"), ("100", "")))
    probe = ("var th = document.querySelectorAll('th'), out = [];"
             "function col(i) { return Array.prototype.map.call(document.querySelectorAll("
             "'tbody tr'), function (r) { return r.cells[i].getAttribute('data-value'); })"
             ".join(','); }"
             "th[0].click(); out.push(col(0)); th[0].click(); out.push(col(0));"
             "th[1].click(); out.push(col(1));"
             "document.body.setAttribute('data-result', out.join('|'));")
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
                    '<table class="sortable"><thead><tr><th>n</th><th>s</th></tr></thead>'
                    f"<tbody>{cells}</tbody></table><script>{SCRIPT}</script>"
                    f"<script>{probe}</script></body></html>")
    r = chromium(tmp_path, page, "--dump-dom")
    assert console(r.stderr) == [], console(r.stderr)
    assert 'data-result="9,10,100,|100,10,9,|a,b,c,"' in r.stdout, r.stdout[-800:]


WIDTH_PROBE = """<script>
document.querySelectorAll("details").forEach(function (x) { x.open = true; });
var d = document.documentElement, out = ["page " + d.scrollWidth + " " + window.innerWidth];
document.querySelectorAll("table").forEach(function (t) {
  var box = t.parentElement, r = t.getBoundingClientRect();
  out.push(t.id + " " + Math.ceil(r.right) + " " + box.scrollWidth + " " + box.clientWidth);
});
document.querySelectorAll("div.chart").forEach(function (c) {
  var r = c.firstElementChild.getBoundingClientRect();
  out.push((c.id || "chart") + " " + Math.ceil(r.right) + " " + c.scrollWidth + " " +
           c.clientWidth + " " + Math.round(r.width) + " " +
           c.firstElementChild.getAttribute("width"));
});
document.body.setAttribute("data-widths", out.join(";"));
</script>"""


@pytest.mark.parametrize("qrels_kind", ["graded", "one-relevant"])
def test_every_table_fits_a_1280_px_window(qrels_kind, tmp_path):
    """A 12-run report scrolls sideways nowhere at 1280 px -- neither
    the page nor any table's box nor any chart (sigtest's rows and the breakdown's were
    wider than the page).  With several relevant documents per topic the
    breakdown is left out, with one line saying why."""
    qrels, runs = make_inputs(tmp_path, runs=12, topics=50)
    if qrels_kind == "one-relevant":
        qrels = one_relevant(qrels, tmp_path)
    out = tmp_path / "report.html"
    code, _, err = invoke(["report", qrels, *runs, "-m", "AP", "-m", "P@10", "-m", "nDCG@10",
                           "--samples", "500", "--pair", "sys0:sys11", "--pair", "sys3:sys4",
                           "-o", out])
    assert code == 0, err
    html = out.read_text()
    assert html.count('class="warn"') <= 1                           # warnings: one box
    if qrels_kind == "graded":
        assert 'id="t-breakdown-summary"' not in html
        assert re.search(r'<section id="breakdown">.*?no outcomes breakdown: 50 of 50 topics '
                         r'have more than one relevant document', html, re.S)
    else:
        assert 'id="t-breakdown-summary"' in html
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", WIDTH_PROBE + "</body>"))
    r = chromium(tmp_path, probe, "--dump-dom", f"--window-size={WIDTH},{HEIGHT}")
    assert r.returncode == 0, r.stderr[-2000:]
    m = re.search(r'data-widths="([^"]*)"', r.stdout)
    assert m, r.stdout[-800:]
    rows = [x.split() for x in m.group(1).split(";")]
    page_width, inner = int(rows[0][1]), int(rows[0][2])
    assert inner == WIDTH and page_width <= WIDTH, rows[0]
    tables = [r for r in rows[1:] if not r[0].startswith("chart")]
    assert len(tables) >= 5
    figures = {r[0] for r in rows[1:] if r[0].startswith("chart-")}
    assert {"chart-leaderboard", "chart-differences"} <= figures, figures
    assert ("chart-breakdown" in figures) == (qrels_kind == "one-relevant")
    for tid, right, scroll, client, *drawn in rows[1:]:
        assert int(right) <= WIDTH, (tid, right)
        assert int(scroll) <= int(client), (tid, scroll, client)       # no inner scrolling
        if drawn:                        # a chart is drawn at its own size (not shrunk)
            assert abs(int(drawn[0]) - int(drawn[1])) <= 1, (tid, drawn)


def test_collections_section_in_chromium(tmp_path):
    """report --manifest: the collections section (forest plot, cross-collection
    leaderboard) renders without console messages and draws the forest plot."""
    pytest.importorskip("matplotlib", reason="the PNG reader of the screenshots needs the plot "
                                             "extra")
    from tests.conftest import ROOT
    ad = ROOT / "testdata" / "adhoc"
    out = tmp_path / "across.html"
    code, _, err = invoke(["report", ad / "qrels.txt", ad / "run-bm25.txt",
                           ad / "run-neural.txt", "-m", "nDCG@10", "--samples", "200",
                           "--manifest", ROOT / "testdata" / "across" / "manifest.tsv",
                           "-o", out])
    assert code == 0, err
    r = chromium(tmp_path, out, "--dump-dom")
    assert r.returncode == 0, r.stderr[-2000:]
    assert console(r.stderr) == [], console(r.stderr)
    dom = r.stdout
    assert '<section id="collections">' in dom and 'href="#collections"' in dom
    assert 'id="chart-forest"' in dom and 'data-table="leaderboard"' in dom
    assert 'id="t-across-leaderboard"' in dom and 'data-sortable="ready"' in dom
    shot = tmp_path / "across.png"
    r = chromium(tmp_path, out, f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT * 2}")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    n = count_colors(shot, {"forest_boxes": "#3b6fb6", "fixed": "#8a5a00"})
    assert n["forest_boxes"] > 100 and n["fixed"] > 30, n
