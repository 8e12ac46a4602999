"""The charts of ``ipsoeval report`` as SVG, written here (no plotting library).

Each function takes finished tables (and, for the differences, the per-topic
differences the tests used) and returns one ``<svg>`` element to inline in
HTML: text as ``<text>`` (no font embedded or linked), a ``<title>`` and an
``aria-label``, no namespace URL (HTML implies it), no id, and the same bytes
for the same input (coordinates to 2 decimals).  Values that are undefined
or not finite are not drawn and do not stretch an axis.  Ids that are not
UTF-8 are shown as ``\\xNN`` (:func:`ipsoeval.ids.shown`); every text is
XML-escaped.

The elements a test (or a script) can find by class: ``panel`` (one per
measure, pair or pooled row; ``data-title``), ``xtick``/``ytick`` (a tick
label: its text is the value at its ``x``/``y``), ``row`` (a run, a pair or
a collection), ``ci`` (an interval: a ``line`` from x1 to x2, or the
differences' band, a ``rect``), ``mean`` and ``segment`` (an outcome's share).

Charts: :func:`leaderboard` (each run's mean and CI, letters), :func:`differences`
(per pair and measure, the sorted per-topic differences B − A with the mean
and its CI), :func:`forest` (each collection's effect and the pooled ones)
and :func:`breakdown` (outcome shares per pair).
"""

from __future__ import annotations

import html
import math
import re

from ipsoeval.ids import shown

__all__ = ["leaderboard", "differences", "forest", "breakdown", "nice_ticks", "nice_step",
           "tick_label", "Scale", "MAX_PANELS", "WIDTH", "difference_panels",
           "distinct"]

MAX_PANELS = 12
WIDTH = 760                    # one-column charts; the page's column is about 1150 px
GREEN, RED, BLUE = "#2a7f3f", "#b8322a", "#3b6fb6"
GRID, AXIS, MUTED = "#e3e3e3", "#333333", "#777777"
FONT, SMALL, TITLE = 12, 11, 13
CHAR = 0.6                     # a character's width in ems, rounded up (sans-serif)
MAX_LABEL = 260                # px: longer labels are cut with an ellipsis (the full one
MAX_LETTERS = 120              # is their tooltip), and letter groups

LIMIT = 1e300                  # an axis spans at most -LIMIT..LIMIT (a finite width)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def esc(s) -> str:
    """Text for SVG: ids that are not UTF-8 as \\xNN, control characters
    (not allowed in XML) as \\xNN, then XML-escaped."""
    t = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", shown(str(s)))
    return html.escape(t, quote=True)


def _f(x: float) -> str:
    return f"{x:.2f}"


def _width(s: str, size: int = FONT) -> float:
    return len(shown(str(s))) * size * CHAR


def _finite(v) -> float | None:
    """``v`` as a float when it is a finite number, else None."""
    if v is None or isinstance(v, bool):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


# --- scales and ticks ---------------------------------------------------------------------

def nice_step(lo: float, hi: float, target: int = 7) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving at most
    about ``target`` ticks between ``lo`` and ``hi``."""
    raw = (hi - lo) / max(target - 1, 1)
    if not (math.isfinite(raw) and raw > 0):
        return 1.0
    mag = 10.0 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw * (1 - 1e-9))


def nice_ticks(lo: float, hi: float, target: int = 7) -> list[float]:
    """The multiples of :func:`nice_step` within [lo, hi] (ends included);
    none when an end is not finite."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    step = nice_step(lo, hi, target)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    if last - first > 10 * target:          # no finite span (lo or hi undefined)
        return []
    digits = _digits(step)
    return [round(k * step, digits + 2) for k in range(first, last + 1)]


def _digits(step: float) -> int:
    """Decimals that show every multiple of ``step`` exactly."""
    d = max(0, -math.floor(math.log10(step) + 1e-9))
    while d < 15 and abs(round(step, d) - step) > step * 1e-9:
        d += 1
    return d


def tick_label(v: float, step: float) -> str:
    """``v`` with the decimals of ``step`` (exponent form beyond 1e6 or below 1e-4)."""
    if abs(v) >= 1e6 or step < 1e-4:
        s = f"{v:.6g}"
        return "0" if float(s) == 0 else s
    s = f"{v:.{_digits(step)}f}"
    return s.lstrip("-") if float(s) == 0 else s


class Scale:
    """A linear map from values to pixels: the span of the finite ``values``
    (and ``include``), widened by ``pad`` of it on each side, runs from
    ``p0`` to ``p1``; ticks at round values inside it.  An empty or
    one-point span is widened (an empty one is 0..1)."""

    def __init__(self, values, p0: float, p1: float, *, include=(), target: int = 7,
                 pad: float = 0.04):
        vals = [min(max(x, -LIMIT), LIMIT) for x in (_finite(v) for v in [*values, *include])
                if x is not None]
        lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
        if hi - lo <= 1e-12 * max(abs(lo), abs(hi)):
            half = abs(lo) * 0.05 or 0.5
            lo, hi = lo - half, hi + half
        span = hi - lo
        self.lo, self.hi = lo - pad * span, hi + pad * span
        self.step = nice_step(self.lo, self.hi, target)
        self.ticks = nice_ticks(self.lo, self.hi, target)
        self.p0, self.p1 = p0, p1

    def __call__(self, v: float) -> float:
        return self.p0 + (v - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0)

    def label(self, v: float) -> str:
        return tick_label(v, self.step)


# --- drawing ------------------------------------------------------------------------------

def _svg(width: float, height: float, label: str, parts: list[str], kind: str) -> str:
    label = esc(label)
    return (f'<svg class="chart-svg" data-chart="{kind}" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
            f'aria-label="{label}" font-family="sans-serif" font-size="{FONT}">'
            f'<title>{label}</title><rect width="100%" height="100%" fill="#fff"/>'
            + "".join(parts) + "</svg>")


def _text(x, y, s, *, anchor="start", size=None, cls=None, extra="", limit=None) -> str:
    """A <text>; cut to ``limit`` px with an ellipsis (its full text the tooltip)."""
    full = shown(str(s))
    t = full
    tip = ""
    if limit is not None and _width(full, size or FONT) > limit:
        n = max(1, int(limit / ((size or FONT) * CHAR)) - 1)
        t = full[:n] + "…"
        tip = f"<title>{esc(full)}</title>"
    a = [f'x="{_f(x)}"', f'y="{_f(y)}"']
    if anchor != "start":
        a.append(f'text-anchor="{anchor}"')
    if size is not None:
        a.append(f'font-size="{size}"')
    if cls:
        a.append(f'class="{cls}"')
    if extra:
        a.append(extra)
    return f"<text {' '.join(a)}>{tip}{esc(t)}</text>"


def _frame(x0, y0, x1, y1) -> str:
    return (f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" '
            f'fill="none" stroke="{AXIS}" stroke-width="1"/>')


def _line(xa, ya, xb, yb, color, width=None, dash=None, cls=None) -> str:
    """An SVG line from (xa, ya) to (xb, yb); ``width`` None leaves the
    stroke width to the SVG default (the axes' gridlines and ticks)."""
    c = f' class="{cls}"' if cls else ""
    w = f' stroke-width="{width:g}"' if width is not None else ""
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line{c} x1="{_f(xa)}" y1="{_f(ya)}" x2="{_f(xb)}" y2="{_f(yb)}" '
            f'stroke="{color}"{w}{d}/>')


def _x_axis(sc: Scale, y0: float, y1: float, label: str | None) -> list[str]:
    """Vertical gridlines and tick labels under the plot area [y0, y1]; the
    axis label below them."""
    out = []
    for t in sc.ticks:
        x = sc(t)
        out.append(_line(x, y0, x, y1, GRID))
        out.append(_line(x, y1, x, y1 + 4, AXIS))
        out.append(_text(x, y1 + 16, sc.label(t), anchor="middle", size=SMALL, cls="xtick"))
    if label:
        out.append(_text((sc.p0 + sc.p1) / 2, y1 + 32, label, anchor="middle", size=SMALL,
                         cls="xlabel"))
    return out


def _y_axis(sc: Scale, x0: float, x1: float, label: str | None) -> list[str]:
    """Horizontal gridlines and tick labels left of the plot area [x0, x1]."""
    out = []
    for t in sc.ticks:
        y = sc(t)
        out.append(_line(x0, y, x1, y, GRID))
        out.append(_line(x0 - 4, y, x0, y, AXIS))
        out.append(_text(x0 - 6, y + 4, sc.label(t), anchor="end", size=SMALL, cls="ytick"))
    if label:
        width = max(_width(sc.label(t), SMALL) for t in sc.ticks)
        x, y = x0 - 14 - width, (sc.p0 + sc.p1) / 2
        out.append(f'<text transform="translate({_f(x)},{_f(y)}) rotate(-90)" '
                   f'text-anchor="middle" font-size="{SMALL}" class="ylabel">{esc(label)}</text>')
    return out


def _vline(x, y0, y1, color, width=1.0, dash=None, cls=None) -> str:
    return _line(x, y0, x, y1, color, width, dash, cls)


def _hline(y, x0, x1, color, width=1.0, dash=None, cls=None) -> str:
    return _line(x0, y, x1, y, color, width, dash, cls)


def _errorbar(y, lo, hi, sc: Scale, color, width=2.0) -> list[str]:
    """A horizontal CI from ``lo`` to ``hi`` with caps (nothing when either
    end is undefined)."""
    lo, hi = _finite(lo), _finite(hi)
    if lo is None or hi is None:
        return []
    x0, x1 = sc(lo), sc(hi)
    return [_hline(y, x0, x1, color, width, cls="ci"),
            f'<path d="M{_f(x0)},{_f(y - 4)}V{_f(y + 4)}M{_f(x1)},{_f(y - 4)}V{_f(y + 4)}" '
            f'stroke="{color}" stroke-width="1.2"/>']


def _nothing(x, y, what="no finite value to draw") -> str:
    return _text(x, y, what, anchor="middle", size=SMALL, extra=f'fill="{MUTED}"')


def _labels_width(labels, size=FONT) -> float:
    return min(MAX_LABEL, max([_width(x, size) for x in labels] + [20.0]))


def distinct(records, key):
    """The values of ``key`` in ``records``, each once, in the order met: the
    panels (or series) of a chart or figure, in the table's order."""
    return list(dict.fromkeys(r[key] for r in records))


def _end_panel(parts: list[str], x0, top, x1, bottom) -> float:
    """Frame a panel of a one-column chart and close its group; the y where
    the next panel starts."""
    parts.append(_frame(x0, top, x1, bottom))
    parts.append("</g>")
    return bottom + 44


def _column(parts: list[str], y: float, drawn: bool, nothing: str, label: str,
            kind: str) -> str:
    """A one-column chart of panels stacked down to ``y``; without a panel
    (``drawn`` false), a short page that says ``nothing``."""
    if not drawn:
        parts.append(_nothing(WIDTH / 2, 40, nothing))
        y = 70
    return _svg(WIDTH, y, label, parts, kind)


# --- leaderboard --------------------------------------------------------------------------

def leaderboard(board, *, max_panels: int = MAX_PANELS) -> str:
    """Per measure (at most ``max_panels``): each run's mean with its CI, best
    at the top (the table's order), its letters at the right (runs sharing a
    letter are not significantly different), green for the top group."""
    measures = distinct(board.records, "measure")[:max_panels]
    level = board.params.get("ci_level") or 0.95
    alpha = board.params.get("alpha")
    rows_of = {m: [r for r in board.records if r["measure"] == m] for m in measures}
    runs = [r["run"] for rows in rows_of.values() for r in rows]
    left = 12 + _labels_width(runs)
    letters = max([len(str(r.get("letters") or "")) for r in board.records] + [1])
    right = 14 + min(letters * SMALL * CHAR, MAX_LETTERS) + 8
    x0, x1 = left, WIDTH - right
    row_h = 18 if max([len(rows) for rows in rows_of.values()] + [0]) <= 30 else 14
    parts, y = [], 6
    for m in measures:
        rows = rows_of[m]
        title = f"{m}: randomised Tukey HSD letter groups (alpha {alpha})"
        parts.append(f'<g class="panel" data-title="{esc(title)}">')
        parts.append(_text(WIDTH / 2, y + 14, title, anchor="middle", size=TITLE, cls="title"))
        top = y + 24
        bottom = top + row_h * max(len(rows), 1) + 6
        sc = Scale([v for r in rows for v in (r.get("mean"), r.get("ci_low"), r.get("ci_high"))],
                   x0, x1)
        parts += _x_axis(sc, top, bottom,
                         f"mean {m} ({level:.0%} CI); green: not significantly different "
                         f"from the best")
        for i, r in enumerate(rows):
            yy = top + 3 + row_h * (i + 0.5)
            color = GREEN if r.get("top_group") else BLUE
            mean = _finite(r.get("mean"))
            tip = (f"{shown(r['run'])}: mean {_show(r.get('mean'))}, {level:.0%} CI "
                   f"[{_show(r.get('ci_low'))}, {_show(r.get('ci_high'))}], letters "
                   f"{r.get('letters') or '–'}")
            parts.append(f'<g class="row"><title>{esc(tip)}</title>')
            parts.append(_text(x0 - 8, yy + 4, r["run"], anchor="end", size=FONT if
                               row_h > 14 else SMALL, limit=MAX_LABEL))
            parts += _errorbar(yy, r.get("ci_low"), r.get("ci_high"), sc, color)
            if mean is not None:
                parts.append(f'<circle class="mean" cx="{_f(sc(mean))}" cy="{_f(yy)}" r="3.5" '
                             f'fill="{color}"/>')
            parts.append(_text(x1 + 8, yy + 4, r.get("letters") or "", size=SMALL,
                               extra='font-family="monospace"', cls="letters",
                               limit=MAX_LETTERS))
            parts.append("</g>")
        if not rows or all(_finite(r.get("mean")) is None for r in rows):
            parts.append(_nothing((x0 + x1) / 2, (top + bottom) / 2))
        y = _end_panel(parts, x0, top, x1, bottom)
    return _column(parts, y, bool(measures), "no run to draw",
                   "leaderboard: each run's mean with its confidence interval and "
                   "letter groups", "leaderboard")


def _show(v) -> str:
    x = _finite(v)
    return "undefined" if x is None else f"{x:.4f}"


# --- differences --------------------------------------------------------------------------

def difference_panels(tests, diffs: dict, max_panels: int) -> list[dict]:
    """The rows of the tests' table a differences figure draws, one panel
    each: the first row of every pair and measure that has per-topic
    differences (the pooled ``*`` rows have none), at most ``max_panels``.
    The SVG chart and the matplotlib figure draw the same panels."""
    rows, seen = [], set()
    for r in tests.records:
        key = (r["run_a"], r["run_b"], r["measure"])
        if r["run_a"] == "*" or key in seen or key not in diffs:
            continue
        seen.add(key)
        rows.append(r)
    return rows[:max_panels]


def differences(tests, diffs: dict, *, max_panels: int = MAX_PANELS) -> str:
    """Per pair and measure (the tests' rows' order, at most ``max_panels``):
    the per-topic differences B − A sorted, filled green above zero and red
    below, with the mean difference (``diff``) and its CI (``ci_low``,
    ``ci_high``) from the tests' table."""
    rows = difference_panels(tests, diffs, max_panels)
    level = tests.params.get("ci_level") or 0.95
    cols = 1 if len(rows) <= 1 else (2 if len(rows) <= 4 else 3)
    width = {1: WIDTH, 2: 1000, 3: 1120}[cols]
    pw, ph = width / cols, 270
    parts = []
    for n, r in enumerate(rows):
        ox, oy = pw * (n % cols), ph * (n // cols)
        parts += _difference_panel(r, diffs[(r["run_a"], r["run_b"], r["measure"])],
                                   ox, oy, pw, ph, level)
    height = ph * ((len(rows) + cols - 1) // cols) if rows else 60
    if not rows:
        parts.append(_nothing(width / 2, 34, "no pair to draw"))
    return _svg(width, height, "per-topic differences B − A of each pair, sorted, with the "
                               "mean difference and its confidence interval", parts,
                "differences")


def _difference_panel(r, values, ox, oy, pw, ph, level) -> list[str]:
    d = sorted(x for x in (_finite(v) for v in values) if x is not None)
    mean, lo, hi = _finite(r.get("diff")), _finite(r.get("ci_low")), _finite(r.get("ci_high"))
    x0, x1 = ox + 62, ox + pw - 14
    top, bottom = oy + 28, oy + ph - 50
    ys = Scale([*d, 0.0, mean, lo, hi], bottom, top, target=6)
    xs = Scale([0, max(len(d), 1)], x0, x1, pad=0.0, target=6)
    title = f"{r['measure']}: {r['run_b']} − {r['run_a']}"
    out = [f'<g class="panel" data-title="{esc(title)}">',
           _text(ox + pw / 2, oy + 16, title, anchor="middle", size=TITLE, cls="title",
                 limit=pw - 20)]
    out += _x_axis(xs, top, bottom, f"topics, sorted by difference ({r.get('wins')} wins, "
                                    f"{r.get('ties')} ties, {r.get('losses')} losses)")
    out += _y_axis(ys, x0, x1, "difference B − A")
    if d:
        # one step per run of equal differences: one path per sign
        steps, i = [], 0
        while i < len(d):
            j = i
            while j < len(d) and d[j] == d[i]:
                j += 1
            steps.append((i, j, d[i]))
            i = j
        for color, sign in ((GREEN, max), (RED, min)):
            y0 = ys(0.0)
            path = [f"M{_f(xs(0))},{_f(y0)}"]
            for a, b, v in steps:
                path.append(f"V{_f(ys(sign(v, 0.0)))}H{_f(xs(b))}")
            path.append(f"V{_f(y0)}Z")
            out.append(f'<path class="{"wins" if sign is max else "losses"}" '
                       f'd="{"".join(path)}" fill="{color}"/>')
    else:
        out.append(_nothing((x0 + x1) / 2, (top + bottom) / 2))
    legend = []
    if lo is not None and hi is not None:
        ya, yb = ys(hi), ys(lo)
        out.append(f'<rect class="ci" x="{_f(x0)}" y="{_f(ya)}" width="{_f(x1 - x0)}" '
                   f'height="{_f(yb - ya)}" fill="{BLUE}" fill-opacity="0.25"/>')
        legend.append((f'fill="{BLUE}" fill-opacity="0.25"',
                       f"{level:.0%} CI [{lo:+.3f}, {hi:+.3f}]"))
    out.append(_hline(ys(0.0), x0, x1, "#555555", 0.6))
    if mean is not None:
        out.append(_hline(ys(mean), x0, x1, "#000000", 1.2, cls="mean"))
        legend.insert(0, ('fill="#000000"', f"mean {mean:+.4f}"))
    if legend:
        lw = max(_width(t, SMALL) for _, t in legend) + 30
        out.append(f'<rect x="{_f(x0 + 6)}" y="{_f(top + 6)}" width="{_f(lw)}" '
                   f'height="{_f(8 + 15 * len(legend))}" fill="#fff" fill-opacity="0.85" '
                   f'stroke="#ccc"/>')
        for k, (fill, t) in enumerate(legend):
            yy = top + 18 + 15 * k
            out.append(f'<rect x="{_f(x0 + 12)}" y="{_f(yy - 5)}" width="12" height="'
                       f'{"3" if "mean" in t else "8"}" {fill}/>')
            out.append(_text(x0 + 30, yy + 3, t, size=SMALL))
    out.append(_frame(x0, top, x1, bottom))
    out.append("</g>")
    return out


# --- across: forest plot ------------------------------------------------------------------

def forest(effects, pooled, *, max_panels: int = MAX_PANELS) -> str:
    """A forest plot per pooled row (run and measure; at most ``max_panels``):
    each collection's effect against the baseline with its CI (marker area by
    random-effects weight; grey without one), the fixed- and random-effects
    estimates as diamonds spanning their CIs, and the prediction interval
    dotted."""
    rows = list(pooled.records)[:max_panels]
    per = [[e for e in effects.records if e["run"] == p["run"] and e["measure"] == p["measure"]]
           for p in rows]
    labels = [f"{e['collection']} (n={e['n']})" for es in per for e in es]
    left = 12 + _labels_width(labels + ["random effects"])
    x0, x1 = left, WIDTH - 20
    row_h = 24
    parts, y = [], 6
    for p, es in zip(rows, per):
        tau2, i2 = _finite(p.get("tau2")), _finite(p.get("i2"))
        title = (f"{p['run']} − {p['baseline']}, {p['measure']} ({p['effect']}): "
                 f"τ² {'undefined' if tau2 is None else f'{tau2:.3g}'}, "
                 f"I² {'undefined' if i2 is None else f'{i2:.0%}'}")
        parts.append(f'<g class="panel" data-title="{esc(title)}">')
        parts.append(_text(WIDTH / 2, y + 14, title, anchor="middle", size=TITLE, cls="title",
                           limit=WIDTH - 20))
        top = y + 24
        n_rows = len(es) + 2
        bottom = top + row_h * n_rows + 4
        sc = Scale([v for e in es for v in (e.get("estimate"), e.get("ci_low"), e.get("ci_high"))]
                   + [p.get(k) for k in ("estimate", "ci_low", "ci_high", "fe_estimate",
                                         "fe_ci_low", "fe_ci_high", "pi_low", "pi_high")],
                   x0, x1, include=[0.0])
        parts += _x_axis(sc, top, bottom, "effect; dotted: prediction interval")
        parts.append(_vline(sc(0.0), top, bottom, "#999999", 0.8))
        for i, e in enumerate(es):
            yy = top + 2 + row_h * (i + 0.5)
            label = f"{e['collection']} (n={e['n']})"
            est = _finite(e.get("estimate"))
            parts.append(f'<g class="row"><title>{esc(label)}: effect {_show(est)}, CI '
                         f'[{_show(e.get("ci_low"))}, {_show(e.get("ci_high"))}]</title>')
            parts.append(_text(x0 - 8, yy + 4, label, anchor="end", limit=MAX_LABEL))
            if est is not None:
                parts += _errorbar(yy, e.get("ci_low"), e.get("ci_high"), sc, "#555555", 1.0)
                w = _finite(e.get("weight_random")) or 0.0
                side = math.sqrt(12 + 120 * max(w, 0.0)) * 1.1
                parts.append(f'<rect class="mean" x="{_f(sc(est) - side / 2)}" '
                             f'y="{_f(yy - side / 2)}" width="{_f(side)}" height="{_f(side)}" '
                             f'fill="{BLUE if w else "#bbbbbb"}"/>')
            parts.append("</g>")
        for k, (pre, label, color) in enumerate((("fe_", "fixed effect", "#8a5a00"),
                                                 ("", "random effects", GREEN))):
            yy = top + 2 + row_h * (len(es) + k + 0.5)
            est, lo, hi = (_finite(p.get(f"{pre}{c}")) for c in ("estimate", "ci_low", "ci_high"))
            parts.append(f'<g class="row pooled"><title>{esc(label)}: {_show(est)}, CI '
                         f'[{_show(lo)}, {_show(hi)}]</title>')
            parts.append(_text(x0 - 8, yy + 4, label, anchor="end"))
            if not pre and _finite(p.get("pi_low")) is not None \
                    and _finite(p.get("pi_high")) is not None:
                parts.append(_hline(yy, sc(p["pi_low"]), sc(p["pi_high"]), color, 1.0,
                                    dash="2,2", cls="pi"))
            if est is not None:
                a, b = sc(lo if lo is not None else est), sc(hi if hi is not None else est)
                c = sc(est)
                parts.append(f'<polygon class="ci" points="{_f(a)},{_f(yy)} {_f(c)},{_f(yy - 7)} {_f(b)},{_f(yy)} '
                             f'{_f(c)},{_f(yy + 7)}" fill="{color}"/>')
            parts.append("</g>")
        y = _end_panel(parts, x0, top, x1, bottom)
    return _column(parts, y, bool(rows), "no pooled effect to draw",
                   "forest plot: each collection's effect against the baseline and the "
                   "pooled effects", "forest")


# --- breakdown ----------------------------------------------------------------------------

OUTCOMES = (("pct_neither", "neither answers", "#cccccc"),
            ("pct_a_only", "only A answers", RED),
            ("pct_b_only", "only B answers", GREEN),
            ("pct_both", "both answer", BLUE))


def breakdown(summary) -> str:
    """Outcome bars (Lin et al. 2021): per pair, the share of topics in each
    outcome, stacked to 100%, the share written on segments of 6% or more."""
    recs = [r for r in summary.records if "pct_both" in r]
    labels = [f"{r['run_b']} vs {r['run_a']}" for r in recs]
    left = 12 + _labels_width(labels)
    x0, x1 = left, WIDTH - 20
    bar = 30
    top = 30
    bottom = top + (bar + 10) * max(len(recs), 1) + 4
    sc = Scale([0.0, 100.0], x0, x1, pad=0.0)
    k = recs[0].get("k") if recs else None
    parts = [_text(WIDTH / 2, 20, "Outcomes per pair (A = baseline)", anchor="middle",
                   size=TITLE, cls="title")]
    parts += _x_axis(sc, top, bottom, f"% of topics (answered = a relevant document in the "
                                      f"top {k})")
    for i, (r, label) in enumerate(zip(recs, labels)):
        yy = top + 7 + (bar + 10) * i
        parts.append('<g class="row">')
        parts.append(_text(x0 - 8, yy + bar / 2 + 4, label, anchor="end", limit=MAX_LABEL))
        acc = 0.0
        for col, name, color in OUTCOMES:
            v = _finite(r.get(col)) or 0.0
            v = max(v, 0.0)
            a, b = sc(acc), sc(min(acc + v, 100.0))
            parts.append(f'<rect class="segment" data-outcome="{col}" x="{_f(a)}" '
                         f'y="{_f(yy)}" width="{_f(b - a)}" height="{bar}" fill="{color}">'
                         f'<title>{esc(name)}: {v:.1f}%</title></rect>')
            if v >= 6:
                parts.append(_text((a + b) / 2, yy + bar / 2 + 4, f"{v:.1f}%", anchor="middle",
                                   size=SMALL, extra='fill="#fff"' if color in (RED, GREEN, BLUE)
                                   else ""))
            acc += v
        parts.append("</g>")
    if not recs:
        parts.append(_nothing((x0 + x1) / 2, (top + bottom) / 2, "no pair to draw"))
    parts.append(_frame(x0, top, x1, bottom))
    # the legend, under the axis label
    ly, lx = bottom + 50, x0
    for _, name, color in OUTCOMES:
        parts.append(f'<rect x="{_f(lx)}" y="{_f(ly - 9)}" width="12" height="12" '
                     f'fill="{color}"/>')
        parts.append(_text(lx + 16, ly + 1, name, size=SMALL))
        lx += 16 + _width(name, SMALL) + 18
    return _svg(WIDTH, ly + 12, "outcomes per pair: the share of topics answered by neither, "
                                "only A, only B, both", parts, "breakdown")
