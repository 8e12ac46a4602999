"""A self-contained HTML page from finished Reports and SVG strings
(``ipsoeval report``).

The page loads nothing: CSS, the charts (inline SVG; the significance
heat map is drawn here as SVG rectangles from the leaderboard's ``pairs``
table) and a small script that sorts table columns are all inline; it
names no URL.  Every table cell carries the TSV spelling of its value in
``data-value`` (what ``--format tsv`` prints, and what sorting compares);
the text shows it rounded.  A JSON block (``<script type="application/json"
id="ipsoeval-data">``) holds every report as ``--format json`` prints it,
and the page's ``warnings`` and ``notes`` (docs/conventions.md).

Sections (element ids): ``summary``, ``leaderboard``, ``significance``,
``differences``, ``breakdown``, ``scales``, ``table`` (the results table of
``ipsoeval compare``), ``about``; each table's id is
``t-COMMAND-TABLE`` (e.g. ``t-leaderboard-pairs``).
"""

from __future__ import annotations

import html
import json
import math

from ipsoeval.formatters.values import plain, rounded, scalar, spell
from ipsoeval.ids import shown
from ipsoeval.results import Report, ResultSet

__all__ = ["render", "heatmap", "BINS", "COLORS", "SECTIONS", "comparison_table",
           "comparison_page"]

SECTIONS = ("summary", "leaderboard", "significance", "differences", "breakdown", "scales",
            "table", "collections", "about")
# heat map colours, strongest evidence first: p < alpha/50, < alpha/5, < alpha, >= alpha
COLORS = ("#08306b", "#2171b5", "#6baed6", "#fdd49e")
BINS = (1 / 50, 1 / 5, 1.0)      # fractions of alpha
NO_VALUE = "#d9d9d9"
FOLD_ROWS = 60                   # longer tables start folded (<details>)
MAX_TIPS = 40                    # more runs: heat map squares without tooltips

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1b1b;
background:#fff}
main{max-width:1200px;margin:0 auto;padding:1em 1.5em 3em}
h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.25em;margin:1.6em 0 .4em;border-bottom:1px solid
#ccc;padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .3em}
nav a{margin-right:1em}
.facts{display:grid;grid-template-columns:max-content auto;gap:.15em 1em}
.facts dt{font-weight:600}.facts dd{margin:0}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:12px;margin:.4em 0 1em}
th,td{border:1px solid #d0d0d0;padding:.15em .3em;text-align:right;white-space:nowrap}
th{white-space:normal;vertical-align:bottom}
td.s,th.s{text-align:left}td.w{white-space:normal;min-width:12em}
th{background:#f0f0f0;cursor:pointer;user-select:none;position:sticky;top:0}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.yes{color:#1a6b30;font-weight:600}td.no-perm{color:#a3261f;font-weight:600}
summary{cursor:pointer;font-weight:600;margin:.4em 0}
caption{caption-side:top;text-align:left;font-weight:600;padding:.2em 0}
.chart svg{max-width:100%;height:auto}
.warn{background:#fff4e0;border-left:4px solid #e0a030;padding:.3em .8em;margin:.3em 0}
.warn ul{margin:.2em 0;padding-left:1.2em}
.note{color:#444}
.legend span{display:inline-block;width:1.1em;height:1.1em;vertical-align:middle;margin:0 .3em 0
1em;border:1px solid #999}
code{font-size:12.5px;background:#f4f4f4;padding:0 .2em}
pre{background:#f4f4f4;padding:.5em;overflow-x:auto;font-size:12.5px}
"""

# Sorting: click (or Enter on) a header; numbers compare as numbers, empty
# cells last.  On load it marks <html data-sort-script="ready"> and each
# sortable table data-sortable="ready" (the browser test looks for both).
SCRIPT = """
(function () {
  "use strict";
  function key(td) {
    var v = td.getAttribute("data-value");
    if (v === null) { v = td.textContent; }
    if (v === "") { return {e: true}; }
    var n = Number(v);
    return isNaN(n) ? {s: v} : {n: n};
  }
  function cmp(a, b) {
    if (a.e || b.e) { return (a.e ? 1 : 0) - (b.e ? 1 : 0); }
    if (a.n !== undefined && b.n !== undefined) { return a.n - b.n; }
    var x = a.n !== undefined ? String(a.n) : a.s, y = b.n !== undefined ? String(b.n) : b.s;
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  function sort(table, col, th) {
    var body = table.tBodies[0];
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    var rows = Array.prototype.slice.call(body.rows).map(function (r, i) {
      return {r: r, k: key(r.cells[col]), i: i};
    });
    rows.sort(function (p, q) {
      var c = cmp(p.k, q.k);
      if (p.k.e || q.k.e) { return c || p.i - q.i; }
      return dir * c || p.i - q.i;
    });
    rows.forEach(function (p) { body.appendChild(p.r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sort(table, col, th); });
      th.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter") { sort(table, col, th); }
      });
    });
    table.setAttribute("data-sortable", "ready");
  });
  document.documentElement.setAttribute("data-sort-script", "ready");
})();
"""

REFERENCES = (
    "B. Carterette. Multiple testing in statistical analysis of systems-based information "
    "retrieval experiments. ACM TOIS 30(1), 2012.",
    "T. Sakai. Laboratory Experiments in Information Retrieval. Springer, 2018.",
    "H.-P. Piepho. An algorithm for a letter-based representation of all-pairwise "
    "comparisons. J. Computational and Graphical Statistics 13(2), 2004.",
    "J. Lin, D. Campos, N. Craswell, B. Mitra, E. Yilmaz. Significant improvements over the "
    "state of the art? A case study of the MS MARCO document ranking leaderboard. SIGIR 2021.",
    "M. Ferrante, N. Ferro, N. Fuhr. Towards meaningful statements in IR evaluation: mapping "
    "evaluation measures to interval scales. IEEE Access 9, 2021.",
)


def _e(x) -> str:
    """Text for the page: ids that are not UTF-8 as \\xNN (ipsoeval.ids), as in
    the table formats, so the page stays valid UTF-8; then HTML-escaped."""
    return html.escape(shown(str(x)), quote=True)


WRAP_FROM = 24        # text cells longer than this wrap (every table fits 1280 px)


def _four(v: float) -> str:
    return f"{v:.4f}" if v == 0 or abs(v) >= 1e-3 else f"{v:.2e}"


def show(v, col: str = "", digits: int | None = None) -> str:
    """A value for people: floats to 4 decimals (small ones in exponent form);
    with ``digits`` (``report --digits``) the rounding of every format
    (:func:`ipsoeval.formatters.values.rounded`: p-values of column ``col``
    to N significant digits)."""
    if digits is None:
        return spell(v, _four, yes="yes", no="no")
    return spell(v, lambda x: rounded(x, col, digits), yes="yes", no="no")


def table(rs: ResultSet, command: str, *, columns: list[str] | None = None,
          caption: str | None = None, digits: int | None = None) -> str:
    cols = columns or list(rs.columns)
    out = [f'<div class="scroll"><table class="sortable" id="t-{_e(command)}-{_e(rs.id)}" '
           f'data-command="{_e(command)}" data-table="{_e(rs.id)}">']
    cap = caption if caption is not None else rs.title
    if cap:
        out.append(f"<caption>{_e(cap)}</caption>")
    out.append("<thead><tr>" + "".join(
        f'<th scope="col" data-column="{_e(c)}"{_text_class(rs, c)}>{_header(c)}</th>'
        for c in cols) + "</tr></thead><tbody>")
    for rec in rs.records:
        cells = []
        for c in cols:
            v = scalar(rec.get(c))
            cls = []
            if isinstance(v, str):
                cls.append("s")
                if len(v) > WRAP_FROM:
                    cls.append("w")         # long text wraps: the table fits the page
            if v is True and c in ("significant", "top_group", "tukey_significant"):
                cls.append("yes")
            if v is False and c == "permissible":
                cls.append("no-perm")
            klass = f' class="{" ".join(cls)}"' if cls else ""
            cells.append(f'<td data-value="{_e(plain(v))}"{klass}>{_e(show(v, c, digits))}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


_table = table          # (comparison_page's ``table`` is a table id)


def transposed(rs: ResultSet) -> ResultSet:
    """One row (the breakdown's best run against the baseline) as a column of
    ``column``/``value`` pairs: its 30 columns side by side would not fit the
    page.  The id stays; the records are in the page's data block as they are."""
    rows = [{"column": c, "value": rec.get(c)} for rec in rs.records for c in rs.columns]
    return ResultSet(rs.command, ["column", "value"], rows, params=rs.params, title=rs.title,
                     id=rs.id, description=rs.description)


def _header(c: str) -> str:
    """A column name that may break after its underscores (a narrow column
    keeps a long name), the name itself unchanged."""
    return "_<wbr>".join(_e(part) for part in c.split("_"))


def folded(rs: ResultSet, command: str, digits: int | None = None) -> str:
    """A long table (more than :data:`FOLD_ROWS` rows) inside a closed
    <details> whose summary is its caption; a short one as it is."""
    if len(rs.records) <= FOLD_ROWS:
        return table(rs, command, digits=digits)
    return (f"<details><summary>{_e(rs.title or rs.id)} ({len(rs.records):,} rows)</summary>"
            f"{table(rs, command, caption='', digits=digits)}</details>")


def _text_class(rs: ResultSet, c: str) -> str:
    for rec in rs.records:
        v = scalar(rec.get(c))
        if v is not None:
            return ' class="s"' if isinstance(v, str) else ""
    return ""


def _color(p, alpha: float) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return NO_VALUE
    for frac, color in zip(BINS, COLORS):
        if p < frac * alpha:
            return color
    return COLORS[-1]


def heatmap(pairs: ResultSet, board: ResultSet, measure: str, alpha: float,
            digits: int | None = None) -> str:
    """The significance matrix of ``measure`` as SVG: one square per ordered
    pair of runs (best first, as the leaderboard orders them), coloured by
    the randomised Tukey HSD p-value of the pair (``pairs.p_value``)."""
    runs = [r["run"] for r in board.records if r["measure"] == measure]
    k = len(runs)
    at = {r: i for i, r in enumerate(runs)}
    P: dict[tuple[int, int], float | None] = {}
    for r in pairs.records:
        if r["measure"] != measure or r["run_a"] not in at or r["run_b"] not in at:
            continue
        a, b = at[r["run_a"]], at[r["run_b"]]
        P[(a, b)] = P[(b, a)] = r["p_value"]
    cell = max(9, min(28, 560 // max(k, 1)))
    font = max(8, min(12, cell - 2))
    width = max(len(x) for x in runs) if runs else 1
    margin = min(220, 14 + int(font * 0.62 * width))
    size = margin + cell * k + 10
    out = [f'<svg class="heatmap" data-measure="{_e(measure)}" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" role="img" aria-label="significance matrix of '
           f'{_e(measure)}" font-family="sans-serif" font-size="{font}">']
    for i, name in enumerate(runs):
        y = margin + cell * i + cell / 2
        out.append(f'<text x="{margin - 4}" y="{y:.1f}" text-anchor="end" '
                   f'dominant-baseline="middle">{_e(name)}</text>')
        x = margin + cell * i + cell / 2
        out.append(f'<text transform="translate({x:.1f},{margin - 4}) rotate(-90)" '
                   f'dominant-baseline="middle">{_e(name)}</text>')
    for i in range(k):
        for j in range(k):
            x, y = margin + cell * j, margin + cell * i
            if i == j:
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#fff" '
                           f'stroke="#bbb"/>')
                continue
            p = P.get((i, j))
            rect = (f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                    f'fill="{_color(p, alpha)}" stroke="#fff" stroke-width="0.5"')
            if k > MAX_TIPS:          # the pairs table has every p-value; keep pages small
                out.append(rect + "/>")
                continue
            tip = f"{runs[i]} vs {runs[j]}: p = {show(p, 'p_value', digits) if p is not None else 'undefined'}"
            out.append(f"{rect}><title>{_e(tip)}</title></rect>")
    out.append("</svg>")
    return "".join(out)


def _legend(alpha: float) -> str:
    edges = [f * alpha for f in BINS]
    labels = [f"p &lt; {edges[0]:g}", f"p &lt; {edges[1]:g}", f"p &lt; {edges[2]:g}",
              f"p &ge; {alpha:g}"]
    return ('<p class="legend">' + "".join(
        f'<span style="background:{c}"></span>{lab}' for c, lab in zip(COLORS, labels))
        + f'<span style="background:{NO_VALUE}"></span>undefined</p>')


def _figure(figures: dict[str, str], name: str) -> str:
    svg = figures.get(name)
    if not svg:
        return ""
    return f'<div class="chart" id="chart-{_e(name)}">{svg}</div>'


def _data_block(reports: dict[str, Report], meta: dict, notes=(), warnings=()) -> str:
    from ipsoeval._version import __version__
    from ipsoeval.formatters import json_
    doc = {"ipsoeval": __version__, "report": meta,
           "reports": {c: json.loads(json_.render(r)) for c, r in reports.items()},
           "warnings": [str(w) for w in warnings], "notes": [str(n) for n in notes]}
    text = json.dumps(doc, allow_nan=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="ipsoeval-data">{text}</script>'


def render(reports: dict[str, Report], figures: dict[str, str], *, title: str,
           meta: dict, notes: list[str] = (), warnings: list[str] = (),
           digits: int | None = None) -> str:
    """The page.  ``reports``: leaderboard, sigtest, scales and, when it ran,
    breakdown; ``figures``: SVG strings by name (leaderboard, differences,
    breakdown, forest; any may be missing; :mod:`ipsoeval.formatters.charts`
    writes them, with no element id); ``meta``: best, baseline, measure,
    measures, pairs, runs, topics, alpha, and optionally ``commands`` (the
    command lines giving the same tables); ``digits``: ``report --digits``
    (None: 4 decimals); the data block keeps every number in full."""
    board = reports["leaderboard"]
    lb, prs, res = board.table("leaderboard"), board.table("pairs"), board.table("resolution")
    alpha = float(meta.get("alpha", prs.params.get("alpha", 0.05)))
    measures = list(meta.get("measures") or dict.fromkeys(r["measure"] for r in lb.records))
    h: list[str] = []
    a = h.append
    a("<!DOCTYPE html>")
    a('<html lang="en"><head><meta charset="utf-8">')
    a('<meta name="viewport" content="width=device-width, initial-scale=1">')
    a('<meta name="generator" content="ipsoeval">')
    a(f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>")
    a(f"<h1>{_e(title)}</h1>")
    shown = [s for s in SECTIONS if (s != "collections" or "across" in reports)
             and (s != "table" or "compare" in reports)]
    a("<nav>" + "".join(f'<a href="#{s}">{s}</a>' for s in shown) + "</nav>")

    # summary
    a('<section id="summary"><h2>Summary</h2><dl class="facts">')
    first = meta["measure"]
    top = [r for r in res.records if r["measure"] == first]
    facts = [("runs", meta.get("runs")), ("topics", meta.get("topics")),
             ("measures", ", ".join(measures)),
             ("best run", f"{meta['best']} (by mean {first})"),
             ("baseline", meta["baseline"])]
    if top:
        facts.append(("rank resolution", f"{top[0]['n_separated']} of {top[0]['n_pairs']} pairs "
                      f"separated at alpha {alpha:g} (randomised Tukey HSD, {first})"))
        facts.append(("top group", f"{top[0]['n_top_group']} run(s) not significantly "
                                   f"different from {top[0]['best']}"))
    for k_, v in facts:
        if v is not None:
            a(f"<dt>{_e(k_)}</dt><dd>{_e(v)}</dd>")
    a("</dl>")
    if warnings:        # one box, a line per warning
        a('<div class="warn" role="note"><strong>Warnings</strong><ul>'
          + "".join(f"<li>{_e(w)}</li>" for w in warnings) + "</ul></div>")
    for n in notes:
        a(f'<p class="note">note: {_e(n)}</p>')
    a("</section>")

    # leaderboard
    a('<section id="leaderboard"><h2>Leaderboard</h2>')
    a('<p class="note">Means with t confidence intervals; letters and the ranks consistent '
      'with the groups (rank_best..rank_worst, not a bootstrap interval) from the '
      'randomised Tukey HSD over all pairs (runs sharing a letter are not significantly '
      'different; Carterette 2012, Sakai 2018, Piepho 2004).</p>')
    a(_figure(figures, "leaderboard"))
    a(table(lb, "leaderboard", digits=digits))
    a(table(res, "leaderboard", digits=digits))
    a("</section>")

    # significance matrix
    a('<section id="significance"><h2>Significance matrix</h2>')
    a('<p class="note">Each square: the randomised Tukey HSD p-value of the two runs (row and '
      'column, best first); family-wise over all pairs of a measure.</p>')
    a(_legend(alpha))
    for m in measures:
        a(f'<h3>{_e(m)}</h3><div class="chart">{heatmap(prs, lb, m, alpha, digits)}</div>')
    a(folded(prs, "leaderboard", digits=digits))
    a("</section>")

    # per-topic differences
    sig = reports.get("sigtest")
    a('<section id="differences"><h2>Per-topic differences</h2>')
    pairs = ", ".join(f"{x} → {y}" for x, y in meta.get("pairs", []))
    a(f'<p class="note">Pairs A → B: {_e(pairs)}; each topic\'s B − A, sorted, with the mean '
      f'difference and its t interval.  Tests as ipsoeval sigtest runs them on the pair.</p>')
    a(_figure(figures, "differences"))
    if sig is not None:
        a(folded(sig.table("tests"), "sigtest", digits=digits))
    a("</section>")

    # breakdown
    a('<section id="breakdown"><h2>Outcomes breakdown</h2>')
    bd = reports.get("breakdown")
    if bd is not None:
        a(f'<p class="note">{_e(meta["best"])} (B) against {_e(meta["baseline"])} (A): '
          f'topics answered by neither, only A, only B, both (a relevant document in the top k), '
          f'after Lin et al. 2021.</p>')
        a(_figure(figures, "breakdown"))
        a(table(transposed(bd.table("summary")), "breakdown", digits=digits))
    else:
        why = [n for n in notes if n.startswith("no outcomes breakdown")]
        a(f'<p class="note">{_e(why[0]) if why else "Not available for these inputs."}</p>')
    a("</section>")

    # scales
    a('<section id="scales"><h2>Scales and permissible tests</h2>')
    a('<p class="note">A test comparing means needs an interval scale; the sign test an '
      'ordinal one (Ferrante, Ferro &amp; Fuhr 2021).  Results of a test that is not '
      'permissible for the measure are marked permissible = no; for an ordinal measure the '
      'note names the routes that are permissible: the interval-mapped measure (Ferrante et '
      'al. 2021) and a rank-based test, each as the command that runs it.</p>')
    a(table(reports["scales"].table("scales"), "scales", digits=digits))
    a("</section>")

    # the results table of a paper (ipsoeval compare)
    if "compare" in reports:
        a('<section id="table"><h2>Results table</h2>')
        a('<p class="note">Each run\'s mean (best in bold) with superscript letters naming the '
          'runs it is significantly better than, in its pair with the baseline, as ipsoeval '
          'compare prints it (its LaTeX and Markdown: --format latex, markdown).</p>')
        a(comparison_table(reports["compare"], digits=digits))
        a("</section>")

    # collections (report --manifest: ipsoeval across)
    ac = reports.get("across")
    if ac is not None:
        a('<section id="collections"><h2>Across collections</h2>')
        pooled = ac.table("pooled")
        a(f'<p class="note">Each run against {_e(pooled.params.get("baseline"))} on each '
          f'collection of the manifest ({_e(", ".join(pooled.params.get("collections", [])))}), '
          f'pooled by random-effects meta-analysis ({_e(pooled.params.get("method"))}); the '
          f'leaderboard ranks runs by their pooled means with bootstrap rank intervals '
          f'(topics resampled within each collection), beside the plain mean of means and '
          f'the mean rank.  The same tables as ipsoeval across.</p>')
        a(_figure(figures, "forest"))
        a(table(ac.table("leaderboard"), "across", digits=digits))
        a(table(ac.table("notes"), "across", digits=digits))
        a(folded(pooled, "across", digits=digits))
        a("</section>")

    # about
    a('<section id="about"><h2>About this page</h2>')
    params = {"samples": lb.params.get("samples"), "seed": lb.params.get("seed"),
              "alpha": alpha, "ci_level": lb.params.get("ci_level")}
    a('<dl class="facts">' + "".join(f"<dt>{_e(k_)}</dt><dd>{_e(v)}</dd>"
                                     for k_, v in params.items() if v is not None) + "</dl>")
    cmds = meta.get("commands") or []
    if cmds:
        a('<p class="note">The same tables from the commands:</p><pre>'
          + "\n".join(_e(c) for c in cmds) + "</pre>")
    a("<h3>References</h3><ul>" + "".join(f"<li>{_e(r)}</li>" for r in REFERENCES) + "</ul>")
    a("</section>")
    a(_data_block(reports, meta, notes, warnings))
    a(f"<script>{SCRIPT}</script>")
    a("</main></body></html>")
    return "\n".join(x for x in h if x) + "\n"


# -- the results table of ipsoeval compare ------------------------------------------------

def comparison_table(report: Report, *, digits: int | None = None) -> str:
    """``ipsoeval compare``'s results table as the page shows it (``<table>``
    with its caption, then its footnotes and notes), in the report page's
    styling: each cell's ``data-value`` is the mean as TSV spells it (what
    the page's sorting compares), the text the mean to ``digits``."""
    from ipsoeval.formatters.comparison import S_CLASS, Grid, notes_of
    g = Grid(report.table("comparison"), digits)
    rows, cols = g.row_keys(), g.col_keys()
    head = ["measure" if g.transpose else "run"] + \
        [g.run_label(c) if g.transpose else c for c in cols]
    out = ['<div class="scroll"><table class="sortable" id="t-compare-comparison" '
           'data-command="compare" data-table="comparison">',
           f"<caption>{_e(g.caption)}</caption>",
           "<thead><tr>" + "".join(
               f'<th scope="col" data-column="{_e(k)}"{S_CLASS if i == 0 else ""}>{_e(h)}</th>'
               for i, (k, h) in enumerate(zip([head[0], *cols], head)))
           + "</tr></thead><tbody>"]
    for r in rows:
        label = r if g.transpose else g.run_label(r)
        cells = [f'<td class="s" data-value="{_e(r)}">{_e(label)}</td>']
        for c in cols:
            cell = g.cell(r, c)
            v = _e(cell.text)
            if cell.bold:
                v = f"<strong>{v}</strong>"
            elif cell.second:
                v = f"<u>{v}</u>"
            if cell.ci is not None:
                v += f' <span class="ci">[{_e(cell.ci[0])}, {_e(cell.ci[1])}]</span>'
            if cell.marks:
                v += f"<sup>{_e(cell.marks + cell.flag)}</sup>"
            cells.append(f'<td data-value="{_e(plain(cell.value))}">{v}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    for f in g.legend() + notes_of(report):
        out.append(f'<p class="note">{_e(f)}</p>')
    return "\n".join(out)


def comparison_page(report: Report, *, digits: int | None = None,
                    table: str | None = None) -> str:
    """A self-contained page holding :func:`comparison_table` (no network, the
    report page's CSS and sorting script); ``table="tests"``: that table as
    the report page shows its tables."""
    body = (comparison_table(report, digits=digits) if table in (None, "comparison")
            else _table(report.table(table), "compare"))
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="generator" content="ipsoeval">\n'
            f"<title>ipsoeval compare</title><style>{CSS}\n"
            ".ci{color:#555}</style></head><body><main>\n"
            + body + f"\n<script>{SCRIPT}</script>\n</main></body></html>\n")
