"""``--plot FILE.{svg,png,pdf}``: figures of finished results (the ``plot`` extra).

Each function draws from result tables (and, for sigtest, the per-topic
differences the tests used) and writes one file; the format is the file's
extension.  matplotlib is imported here only, through its object-oriented
interface (no pyplot, no global backend): nothing else changes when a plot
is drawn from a notebook.
"""

from __future__ import annotations

import os

import numpy as np

from ipsoeval.errors import UsageError
from ipsoeval.formatters.charts import difference_panels, distinct

EXTENSIONS = (".svg", ".png", ".pdf")
MAX_PANELS = 12


def check(path: str | None) -> None:
    """Usage errors before any input is read: extension and matplotlib."""
    if path is None:
        return
    ext = os.path.splitext(path)[1].lower()
    if ext not in EXTENSIONS:
        raise UsageError(f"--plot: the file name must end in .svg, .png or .pdf (found {path!r})")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'ipsoeval[plot]'") from None


def _figure(w: float, h: float):
    from matplotlib.figure import Figure
    return Figure(figsize=(w, h), dpi=100, layout="constrained")


def _shown_ids(fig) -> None:
    """Ids that are not UTF-8 (ipsoeval.ids) drawn as \\xNN, as in tables: no font
    has a glyph for a lone surrogate, and matplotlib refuses the text."""
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter, FuncFormatter

    from ipsoeval.ids import shown
    for t in fig.findobj(Text):
        t.set_text(shown(t.get_text()))
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            f = axis.get_major_formatter()
            if isinstance(f, FixedFormatter):
                f.seq = [shown(str(x)) for x in f.seq]
            elif isinstance(f, FuncFormatter):         # set_ticks(..., labels)
                f.func = lambda x, pos=None, g=f.func: shown(str(g(x, pos)))


def _save(fig, path: str) -> None:
    from ipsoeval.errors import InputError
    _shown_ids(fig)
    try:
        fig.savefig(path, metadata={"Software": "ipsoeval"} if path.endswith(".png") else None)
    except OSError as exc:
        raise InputError(f"cannot write to {path}: {exc.strerror or exc}") from None


def _grid(fig, n: int):
    cols = 1 if n == 1 else (2 if n <= 4 else 3)
    rows = (n + cols - 1) // cols
    return [fig.add_subplot(rows, cols, i + 1) for i in range(n)]


# --- sigtest ------------------------------------------------------------------------------

def sigtest(path: str, table, diffs: dict) -> None:
    """Per pair and measure: the per-topic differences B − A sorted, with the
    mean difference and its confidence interval (from the tests' table)."""
    _save(sigtest_figure(table, diffs), path)


def sigtest_figure(table, diffs: dict, *, max_panels: int = MAX_PANELS):
    """The figure of :func:`sigtest` (``ipsoeval report`` inlines it as SVG)."""
    rows = difference_panels(table, diffs, max_panels)
    if not rows:
        raise UsageError("--plot: no pair to draw")
    cols = 1 if len(rows) == 1 else (2 if len(rows) <= 4 else 3)
    nrow = (len(rows) + cols - 1) // cols
    fig = _figure(5.0 * cols, 3.2 * nrow)
    level = table.params.get("ci_level", 0.95)
    for ax, r in zip(_grid(fig, len(rows)), rows):
        d = np.sort(diffs[(r["run_a"], r["run_b"], r["measure"])])
        d = d[~np.isnan(d)]
        # one filled step path per sign, not a bar per topic (thousands of
        # topics would be thousands of patches: 10 s to render 4 panels)
        # and one step per run of equal differences (ties are common: 0)
        start = np.flatnonzero(np.r_[True, d[1:] != d[:-1]]) if len(d) else np.arange(0)
        edges = np.r_[start, len(d)] - 0.5
        ax.stairs(np.maximum(d[start], 0.0), edges, fill=True, color="#2a7f3f", linewidth=0)
        ax.stairs(np.minimum(d[start], 0.0), edges, fill=True, color="#b8322a", linewidth=0)
        mean = r.get("diff")
        if mean is not None:
            ax.axhline(mean, color="black", linewidth=1.2, label=f"mean {mean:+.4f}")
        if r.get("ci_low") is not None:
            ax.axhspan(r["ci_low"], r["ci_high"], color="#3b6fb6", alpha=0.25,
                       label=f"{level:.0%} CI [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]")
        ax.axhline(0, color="#555555", linewidth=0.6)
        ax.set_title(f"{r['measure']}: {r['run_b']} − {r['run_a']}", fontsize=10)
        ax.set_xlabel(f"topics, sorted by difference ({r.get('wins')} wins, "
                      f"{r.get('ties')} ties, {r.get('losses')} losses)", fontsize=8)
        ax.set_ylabel("difference B − A", fontsize=8)
        ax.set_xlim(-0.5, max(len(d), 1) - 0.5)
        ax.legend(fontsize=7, loc="upper left")
    return fig


# --- bootstrap -----------------------------------------------------------------------------

def bootstrap(path: str, leaderboard, ranks) -> None:
    """Rank-probability heatmap (runs × ranks) and each run's rank interval, per measure."""
    measures = distinct(leaderboard.records, "measure")[:4]
    fig = _figure(11.0, 0.5 + 0.45 * max(3, len({r["run"] for r in leaderboard.records}))
                  * len(measures) + 0.8)
    axes = fig.subplots(len(measures), 2, squeeze=False)
    trials = leaderboard.params.get("trials")
    for (ax_h, ax_i), m in zip(axes, measures):
        board = [r for r in leaderboard.records if r["measure"] == m]
        runs = [r["run"] for r in board]
        R = len(runs)
        shown = max([r["rank"] for r in ranks.records if r["measure"] == m] + [1])
        P = np.zeros((R, min(shown, R)))
        for r in ranks.records:
            if r["measure"] == m and r["run"] in runs and 1 <= r["rank"] <= P.shape[1]:
                P[runs.index(r["run"]), r["rank"] - 1] = r["probability"]
        im = ax_h.imshow(P, cmap="Blues", vmin=0, vmax=1, aspect="auto")
        for i in range(R):
            for j in range(P.shape[1]):
                if P[i, j] >= 0.005:
                    ax_h.text(j, i, f"{P[i, j]:.2f}", ha="center", va="center", fontsize=7,
                              color="white" if P[i, j] > 0.6 else "black")
        ax_h.set_yticks(range(R), runs, fontsize=8)
        ax_h.set_xticks(range(P.shape[1]), [str(k) for k in range(1, P.shape[1] + 1)],
                        fontsize=8)
        ax_h.set_xlabel("rank" + (f" (the top {P.shape[1]}, as --top shows)"
                                  if P.shape[1] < R else ""), fontsize=8)
        ax_h.set_title(f"{m}: probability of each rank"
                       + (f" ({trials} trials)" if trials else ""), fontsize=10)
        fig.colorbar(im, ax=ax_h, shrink=0.8)
        y = np.arange(R)
        exp = np.array([r["expected_rank"] for r in board], dtype=float)
        lo = np.array([r["rank_ci_low"] for r in board], dtype=float)
        hi = np.array([r["rank_ci_high"] for r in board], dtype=float)
        ax_i.hlines(y, lo, hi, color="#3b6fb6", linewidth=4, alpha=0.5, label="bootstrap rank interval (percentile)")
        ax_i.plot(np.concatenate([lo, hi]), np.concatenate([y, y]), "|", color="#3b6fb6",
                  markersize=12)
        ax_i.plot(exp, y, "o", color="black", markersize=5, label="expected rank")
        ax_i.set_yticks(y, runs, fontsize=8)
        ax_i.set_ylim(R - 0.5, -0.5)
        ax_i.set_xlim(0.5, R + 0.5)
        ax_i.set_xticks(range(1, R + 1))
        ax_i.set_xlabel("rank", fontsize=8)
        ax_i.set_title(f"{m}: rank intervals", fontsize=10)
        ax_i.legend(fontsize=7, loc="upper right")
    _save(fig, path)


# --- ipso ----------------------------------------------------------------------------------

_REL_COLORS = {"ni": "#2a7f3f", "ns": "#b8322a", "==": "#999999", "**": "#d9a400"}


def ipso(path: str, topics) -> None:
    """Figure 5's per-topic view: each topic's two rankings (filled = relevant), its
    IPSO relation, and the metric differences B − A (the table's _diff columns),
    topics grouped as the table."""
    recs = topics.records
    if not recs:
        raise UsageError("--plot: no topic to draw")
    pair = (recs[0]["run_a"], recs[0]["run_b"])
    recs = [r for r in recs if (r["run_a"], r["run_b"]) == pair][:60]
    diff_cols = [c for c in topics.columns if c.endswith("_diff")]
    n = len(recs)
    fig = _figure(11.0, 1.2 + 0.22 * n)
    ax, ax_d = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    k = max(len(str(r["serp_a"])) for r in recs)
    top = max([int(ch) for r in recs for ch in str(r["serp_a"]) + str(r["serp_b"])
               if ch.isdigit()] + [1])
    for i, r in enumerate(recs):
        for serp, x0 in ((str(r["serp_a"]), 0), (str(r["serp_b"]), k + 1)):
            for j, ch in enumerate(serp):
                g = int(ch) / top if ch.isdigit() else 0.0
                ax.add_patch(_rect(x0 + j, i, g))
        rel = str(r.get("relation"))
        ax.text(2 * k + 1.6, i, rel, va="center", fontsize=7,
                color=_REL_COLORS.get(rel, "black"), fontweight="bold")
    ax.set_xlim(-0.2, 2 * k + 3)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_yticks(range(n), [str(r["qid"]) for r in recs], fontsize=7)
    ax.set_xticks([k / 2 - 0.5, k + 1 + k / 2 - 0.5, 2 * k + 2],
                  [f"{pair[0]} (A)", f"{pair[1]} (B)", "relation"], fontsize=8)
    ax.set_title(f"IPSO per topic: rankings to depth {k} (darker = higher gain)", fontsize=10)
    ax.tick_params(length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    h = 0.8 / max(len(diff_cols), 1)
    y = np.arange(n)
    names = topics.params.get("diff_measures") or []
    labels = names if len(names) == len(diff_cols) else [c[:-len("_diff")] for c in diff_cols]
    for c_i, (c, label) in enumerate(zip(diff_cols, labels)):
        v = np.array([np.nan if r.get(c) is None else r[c] for r in recs], dtype=float)
        ax_d.barh(y - 0.4 + h * (c_i + 0.5), v, height=h, label=label)
    ax_d.axvline(0, color="#555555", linewidth=0.6)
    ax_d.set_ylim(n - 0.5, -0.5)
    ax_d.set_yticks([])
    ax_d.set_xlabel("metric difference B − A", fontsize=8)
    ax_d.set_title("metric differences", fontsize=10)
    if diff_cols:
        ax_d.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    _save(fig, path)


def _rect(x, y, g):
    from matplotlib.patches import Rectangle
    shade = 1.0 - 0.85 * g
    return Rectangle((x, y - 0.4), 0.9, 0.8, facecolor=(shade, shade, shade),
                     edgecolor="#777777", linewidth=0.3)


# --- interval-map --------------------------------------------------------------------------

def interval_map(path: str, per_topic, means) -> None:
    """Per measure: φ (the interval value) against the raw value per topic, and
    the runs' means before and after the map."""
    measures = distinct(means.records, "measure")[:4]
    fig = _figure(10.0, 3.4 * len(measures))
    axes = fig.subplots(len(measures), 2, squeeze=False)
    for (ax_s, ax_m), m in zip(axes, measures):
        pts = [(r["value"], r["interval_value"]) for r in per_topic.records
               if r["measure"] == m and r.get("qid") != "all"
               and r["value"] is not None and r["interval_value"] is not None]
        if pts:
            x, y = np.array(pts, dtype=float).T
            ax_s.scatter(x, y, s=14, alpha=0.6, color="#3b6fb6")   # the map may differ by topic
        ax_s.set_xlabel(f"{m} (original)", fontsize=8)
        ax_s.set_ylabel("φ (interval value)", fontsize=8)
        ax_s.set_title(f"{m}: interval map per topic", fontsize=10)
        rows = [r for r in means.records if r["measure"] == m and r.get("qid", "all") == "all"]
        runs = [r["run"] for r in rows]
        xs = np.arange(len(runs))
        raw = np.array([np.nan if r["value"] is None else r["value"] for r in rows], float)
        mapped = np.array([np.nan if r["interval_value"] is None else r["interval_value"]
                           for r in rows], float)
        nv = max([r.get("n_values") or 1 for r in rows] + [1])
        rescale = nv > 1 and np.nanmax(np.append(mapped, 0)) > 1     # φ in 1..n_values
        shown = (mapped - 1) / (nv - 1) if rescale else mapped
        label = f"interval mean, (φ − 1)/{nv - 1}" if rescale else "interval mean"
        # a measure whose values exceed 1 (DCG, ESL) is not on the mapped
        # mean's 0..1 axis: the interval mean gets its own axis on the right
        ax_i = ax_m.twinx() if np.nanmax(np.append(raw, 0)) > 1 else ax_m
        h_raw = ax_m.bar(xs - 0.2, raw, width=0.4, label="original mean", color="#999999")
        h_int = ax_i.bar(xs + 0.2, shown, width=0.4, color="#3b6fb6", label=label)
        for ax, vals in {ax_m: [raw], ax_i: [shown]}.items() if ax_i is not ax_m else \
                {ax_m: [raw, shown]}.items():
            ax.set_ylim(0, np.nanmax(np.concatenate([*vals, [0.01]])) * 1.35)
        if ax_i is not ax_m:
            ax_m.set_ylabel(f"original mean ({m})", fontsize=8)
            ax_i.set_ylabel("interval mean", fontsize=8, color="#3b6fb6")
        ax_m.set_xticks(xs, runs, fontsize=8, rotation=20 if len(runs) > 4 else 0)
        ax_m.set_title(f"{m}: means before and after the map", fontsize=10)
        ax_m.legend([h_raw, h_int], ["original mean", label], fontsize=7, loc="upper center",
                    ncols=2)
    _save(fig, path)


# --- breakdown -----------------------------------------------------------------------------

_OUTCOMES = (("pct_neither", "neither answers", "#cccccc"),
             ("pct_a_only", "only A answers", "#b8322a"),
             ("pct_b_only", "only B answers", "#2a7f3f"),
             ("pct_both", "both answer", "#3b6fb6"))


def breakdown(path: str, summary) -> None:
    """Outcome bars: per pair, the share of topics in each outcome (Lin et al. 2021)."""
    _save(breakdown_figure(summary), path)


def breakdown_figure(summary):
    """The figure of :func:`breakdown`."""
    recs = [r for r in summary.records if "pct_both" in r]
    if not recs:
        raise UsageError("--plot: breakdown draws the summary table (not -q)")
    fig = _figure(9.0, 1.2 + 0.5 * len(recs))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(recs))
    left = np.zeros(len(recs))
    for col, label, color in _OUTCOMES:
        v = np.array([r.get(col) or 0.0 for r in recs], dtype=float)
        ax.barh(y, v, left=left, color=color, label=label)
        for yi, (l0, vi) in enumerate(zip(left, v)):
            if vi >= 6:
                ax.text(l0 + vi / 2, yi, f"{vi:.1f}%", ha="center", va="center", fontsize=7)
        left += v
    ax.set_yticks(y, [f"{r['run_b']} vs {r['run_a']}" for r in recs], fontsize=8)
    ax.set_ylim(len(recs) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    k = recs[0].get("k")
    ax.set_xlabel(f"% of topics (answered = a relevant document in the top {k})", fontsize=8)
    ax.set_title("Outcomes per pair (A = baseline)", fontsize=10)
    ax.legend(fontsize=7, ncols=4, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    return fig


# --- ppi -----------------------------------------------------------------------------------

_PPI_COLORS = {"human": "#3b6fb6", "auto": "#b8322a"}


def ppi(path: str, estimates) -> None:
    """Per measure, each run's three intervals: human topics alone, machine
    labels alone and the prediction-powered one (the estimates table)."""
    measures = distinct(estimates.records, "measure")[:MAX_PANELS]
    if not measures:
        raise UsageError("--plot: no estimate to draw")
    methods = distinct(estimates.records, "method")
    runs = distinct(estimates.records, "run")
    cols = 1 if len(measures) == 1 else 2
    nrow = (len(measures) + cols - 1) // cols
    fig = _figure(6.0 * cols, (0.8 + 0.55 * len(runs)) * nrow + 0.6)
    level = estimates.params.get("ci_level", 0.95)
    offsets = {m: (k - (len(methods) - 1) / 2) * 0.22 for k, m in enumerate(methods)}
    for ax, m in zip(_grid(fig, len(measures)), measures):
        for meth in methods:
            rows = {r["run"]: r for r in estimates.records
                    if r["measure"] == m and r["method"] == meth}
            y, lo, hi, mid = [], [], [], []
            for i, run in enumerate(runs):
                r = rows.get(run)
                if r is None or r["mean"] is None:
                    continue
                y.append(i + offsets[meth])
                mid.append(r["mean"])
                lo.append(r["ci_low"] if r["ci_low"] is not None else r["mean"])
                hi.append(r["ci_high"] if r["ci_high"] is not None else r["mean"])
            color = _PPI_COLORS.get(meth, "#222222")
            ax.hlines(y, lo, hi, color=color, linewidth=2.5, label=meth)
            ax.plot(mid, y, "o", color=color, markersize=4)
        ax.set_yticks(range(len(runs)), runs, fontsize=8)
        ax.set_ylim(len(runs) - 0.5, -0.5)
        ax.set_xlabel(f"mean {m} ({level:.0%} intervals)", fontsize=8)
        ax.set_title(f"{m}: human topics, machine labels, both", fontsize=10)
        ax.legend(fontsize=7, loc="best")
    _save(fig, path)


# --- agree ---------------------------------------------------------------------------------

def agree(path: str, means, rankings) -> None:
    """Per measure: each run's mean under QRELS_A (x) against its mean under
    QRELS_B (y), with the diagonal y = x and the rank correlations in the title."""
    measures = distinct(means.records, "measure")[:MAX_PANELS]
    if not measures:
        raise UsageError("--plot: no run means to draw")
    corr = {r["measure"]: r for r in rankings.records}
    cols = 1 if len(measures) == 1 else (2 if len(measures) <= 4 else 3)
    nrow = (len(measures) + cols - 1) // cols
    fig = _figure(4.6 * cols, 4.2 * nrow)

    def fmt(v):
        return "–" if v is None else f"{v:.3f}"

    for ax, m in zip(_grid(fig, len(measures)), measures):
        rows = [r for r in means.records if r["measure"] == m
                and r["mean_under_a"] is not None and r["mean_under_b"] is not None]
        x = np.array([r["mean_under_a"] for r in rows], dtype=np.float64)
        y = np.array([r["mean_under_b"] for r in rows], dtype=np.float64)
        ax.scatter(x, y, s=22, color="#3b6fb6", zorder=3)
        if len(rows) <= 30:
            for r, xi, yi in zip(rows, x, y):
                ax.annotate(r["run"], (xi, yi), xytext=(3, 3), textcoords="offset points",
                            fontsize=7)
        if len(rows):
            lo = float(min(x.min(), y.min()))
            hi = float(max(x.max(), y.max()))
            pad = (hi - lo) * 0.05 or 0.01
            ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="#888888",
                    linewidth=0.8, linestyle="--", zorder=1)
        c = corr.get(m, {})
        ax.set_title(f"{m}: τ {fmt(c.get('kendall_tau'))}, τ_AP {fmt(c.get('tau_ap_sym'))}, "
                     f"RBO {fmt(c.get('rbo'))}", fontsize=9)
        ax.set_xlabel("mean under QRELS_A", fontsize=8)
        ax.set_ylabel("mean under QRELS_B", fontsize=8)
    _save(fig, path)


# --- leaderboard ---------------------------------------------------------------------------

def leaderboard(path: str, board) -> None:
    """Per measure: each run's mean with its CI, best at the top, the letters
    beside it (runs sharing a letter are not significantly different) and the
    top group highlighted."""
    _save(leaderboard_figure(board), path)


def leaderboard_figure(board):
    """The figure of :func:`leaderboard`."""
    measures = distinct(board.records, "measure")[:MAX_PANELS]
    R = max(1, max(sum(1 for r in board.records if r["measure"] == m) for m in measures))
    fig = _figure(7.5, 0.8 + 0.28 * max(4, R) * len(measures))
    axes = fig.subplots(len(measures), 1, squeeze=False)[:, 0]
    for ax, m in zip(axes, measures):
        rows = [r for r in board.records if r["measure"] == m]
        y = np.arange(len(rows))
        mean = np.array([np.nan if r["mean"] is None else r["mean"] for r in rows])
        lo = np.array([np.nan if r["ci_low"] is None else r["ci_low"] for r in rows])
        hi = np.array([np.nan if r["ci_high"] is None else r["ci_high"] for r in rows])
        top = np.array([bool(r["top_group"]) for r in rows])
        colors = np.where(top, "#2a7f3f", "#3b6fb6")
        ax.hlines(y, lo, hi, colors=colors, linewidth=2)
        ax.scatter(mean, y, c=colors, s=18, zorder=3)
        for yi, r in zip(y, rows):
            ax.annotate(r["letters"], (1.0, yi), xycoords=("axes fraction", "data"),
                        xytext=(4, 0), textcoords="offset points", va="center", fontsize=7,
                        family="monospace")
        ax.set_yticks(y, [r["run"] for r in rows], fontsize=7 if len(rows) > 30 else 8)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel(f"mean {m} ({(board.params.get('ci_level') or 0.95):.0%} CI); "
                      "green: not significantly different from the best", fontsize=8)
        ax.set_title(f"{m}: randomised Tukey HSD letter groups "
                     f"(alpha {board.params.get('alpha')})", fontsize=10)
    return fig


# --- power ---------------------------------------------------------------------------------

def power(path: str, table, curve) -> None:
    """Per measure: power against the number of topics (t and anova designs, one
    line per delta), the required power and the current number of topics."""
    measures = distinct(table.records, "measure")[:MAX_PANELS]
    lines: dict = {}
    for r in curve.records:
        if r["power"] is not None:
            lines.setdefault((r["measure"], r["design"], r["delta"]), []).append(
                (r["topics"], r["power"]))
    if not lines:
        raise UsageError("--plot: no power curve to draw (no design t or anova with a "
                         "variance estimate)")
    fig = _figure(5.5 * min(len(measures), 2), 3.6 * ((len(measures) + 1) // 2))
    target = table.params.get("power_target")
    for ax, m in zip(_grid(fig, len(measures)), measures):
        now = next((r["topics"] for r in table.records if r["measure"] == m), None)
        for (mm, design, delta), pts in lines.items():
            if mm != m:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, linewidth=1.4, linestyle="-" if design == "t" else "--",
                    label=f"{design}, δ = {delta:g}")
        if target is not None:
            ax.axhline(target, color="#555555", linewidth=0.8, linestyle=":",
                       label=f"power {target:g}")
        if now:
            ax.axvline(now, color="black", linewidth=0.8, label=f"{now} topics now")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_title(m, fontsize=10)
        ax.set_xlabel("topics", fontsize=8)
        ax.set_ylabel("power", fontsize=8)
        ax.legend(fontsize=7, loc="lower right")
    _save(fig, path)


# --- meta ----------------------------------------------------------------------------------

def meta(path: str, asl, summary) -> None:
    """ASL curves (Sakai 2006): per test, the sorted p-values of every run pair,
    one line per measure, with the significance level."""
    tests = []
    for r in summary.records:
        if r["test"] not in tests:
            tests.append(r["test"])
    tests = tests[:MAX_PANELS]
    if not tests:
        raise UsageError("--plot: no test to draw")
    fig = _figure(5.5 * min(len(tests), 2), 3.6 * ((len(tests) + 1) // 2))
    alpha = summary.params.get("alpha")
    for ax, t in zip(_grid(fig, len(tests)), tests):
        curves: dict = {}
        for r in asl.records:
            if r["test"] == t and r["p_value"] is not None:
                curves.setdefault(r["measure"], []).append((r["rank"], r["p_value"]))
        for m, pts in curves.items():
            xs, ys = zip(*pts)
            ax.plot(xs, ys, linewidth=1.3, marker="." if len(xs) <= 50 else None, label=m)
        if alpha is not None:
            ax.axhline(alpha, color="#555555", linewidth=0.8, linestyle=":",
                       label=f"α = {alpha:g}")
        ax.set_title(f"ASL curves, {t}", fontsize=10)
        ax.set_xlabel("run pairs, sorted by p-value", fontsize=8)
        ax.set_ylabel("achieved significance level", fontsize=8)
        ax.set_ylim(0, 1.0)
        ax.legend(fontsize=7, loc="upper left")
    _save(fig, path)


# --- across -------------------------------------------------------------------------------

def forest(path: str, effects, pooled) -> None:
    """A forest plot per run and measure: each collection's effect against the
    baseline with its CI (marker area by random-effects weight), the fixed-
    and random-effects estimates with their CIs and the prediction interval."""
    _save(forest_figure(effects, pooled), path)


def forest_figure(effects, pooled, *, max_panels: int = MAX_PANELS):
    """The figure of :func:`forest`."""
    rows = [p for p in pooled.records][:max_panels]
    n = max(1, len(rows))
    heights = [max(3, sum(1 for e in effects.records if e["run"] == p["run"]
                          and e["measure"] == p["measure"])) + 2 for p in rows] or [3]
    fig = _figure(7.5, 0.9 + 0.25 * sum(heights) + 0.5 * n)
    axes = fig.subplots(n, 1, squeeze=False, height_ratios=heights)[:, 0]
    for ax, p in zip(axes, rows):
        es = [e for e in effects.records if e["run"] == p["run"] and e["measure"] == p["measure"]]
        labels, y = [], 0
        for e in es:
            est = e["estimate"]
            if est is not None:
                if e["ci_low"] is not None:
                    ax.hlines(y, e["ci_low"], e["ci_high"], colors="#555555", linewidth=1)
                w = e["weight_random"]
                ax.scatter([est], [y], marker="s", s=12 + 120 * (w or 0.0),
                           c="#3b6fb6" if w else "#bbbbbb", zorder=3)
            labels.append(f"{e['collection']} (n={e['n']})")
            y += 1
        for key, label, color in (("fe", "fixed effect", "#8a5a00"),
                                  ("re", "random effects", "#2a7f3f")):
            pre = "fe_" if key == "fe" else ""
            est, lo, hi = p[f"{pre}estimate"], p[f"{pre}ci_low"], p[f"{pre}ci_high"]
            if est is not None:
                ax.fill([lo, est, hi, est], [y, y - 0.3, y, y + 0.3], color=color, zorder=3)
                if key == "re" and p["pi_low"] is not None:
                    ax.hlines(y, p["pi_low"], p["pi_high"], colors=color, linewidth=1,
                              linestyles="dotted")
            labels.append(label)
            y += 1
        ax.axvline(0.0, color="#999999", linewidth=0.8)
        ax.set_yticks(np.arange(len(labels)), labels, fontsize=8)
        ax.set_ylim(len(labels) - 0.5, -0.5)
        i2 = p["i2"]
        ax.set_title(f"{p['run']} - {p['baseline']}, {p['measure']} ({p['effect']}): "
                     f"tau^2 {p['tau2'] if p['tau2'] is not None else float('nan'):.3g}, "
                     f"I^2 {i2 if i2 is not None else float('nan'):.0%}", fontsize=9)
        ax.set_xlabel("effect; dotted: prediction interval", fontsize=8)
    return fig
