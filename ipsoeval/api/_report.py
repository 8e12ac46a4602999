"""``ipsoeval.report``: the command ``ipsoeval report`` (one HTML page)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ipsoeval.api._common import (
    _baseline,
    _common,
    _requested,
    _warn,
)
from ipsoeval.api._evaluate import _need_aligned


@dataclass
class Page:
    """What :func:`report` returns: the page (``html``), the finished Reports
    it shows (by command: leaderboard, sigtest, breakdown when it ran,
    scales), its charts as SVG strings, and its warnings and notes."""

    html: str
    reports: dict
    figures: dict
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def save(self, path) -> None:
        """Write the page to ``path`` (replaced only once it is written)."""
        from ipsoeval.writing import write_output
        write_output(os.fspath(path), self.html)


def report(res, *, measures=None, baseline: str | None = None, pairs=None, tests=None,
           samples: int = 10_000, seed: int = 42, alpha: float = 0.05, ci: float = 0.95,
           correct: str = "none", k: int = 100, title: str = "ipsoeval report",
           charts: bool = True, progress=None) -> Page:
    """``ipsoeval report``: one self-contained HTML page (leaderboard with CIs
    and letters, significance heat map, per-topic differences of ``pairs``
    -- [(A, B), ...] or ["A:B", ...]; default the baseline and the best other
    run -- with sigtest's ``tests``, the outcomes breakdown of the best run
    against the baseline at cutoff ``k``, and the scale notes).  ``charts``:
    draw the charts (SVG drawn by ipsoeval itself; False: the page has the
    tables and the heat maps only)."""
    from ipsoeval import engine
    from ipsoeval.analyses import report as rp
    from ipsoeval.formatters import html

    _need_aligned(res, "report")
    parsed = [rp.parse_pair(p) if isinstance(p, str) else (str(p[0]), str(p[1]))
              for p in (pairs or [])]
    options = rp.Options(samples=samples, seed=seed, alpha=alpha, ci=ci, correct=correct,
                         pairs=parsed, tests=[tests] if isinstance(tests, str) else tests,
                         k=k, title=title)
    options.check()
    if options.tests:
        from ipsoeval.stats import registry
        options.tests = registry.parse(options.tests, allowed=registry.TWO_SAMPLE,
                                       command="report")
    requested = _requested(res, measures)
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res)
    options.check(list(aligned.runs))
    comp = rp.compose(aligned, engine.evaluate(aligned, requested), options, progress=progress)
    for rep in comp.reports.values():
        for t in rep.tables:
            t.params.update({k_: v for k_, v in res.params.items() if k_ not in t.params})
    figures = rp.figures(comp) if charts else {}
    warnings = list(notes) + [w for w in comp.warnings if w not in notes]
    _warn(warnings)
    page = html.render(comp.reports, figures, title=title, meta=comp.meta(),
                       notes=comp.notes, warnings=warnings)
    return Page(html=page, reports=comp.reports, figures=figures, warnings=warnings,
                notes=list(comp.notes))
