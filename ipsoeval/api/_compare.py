"""``ipsoeval.compare``: the command ``ipsoeval compare`` -- the results table
of a paper -- and :class:`Comparison`, the result it returns."""

from __future__ import annotations

from ipsoeval.api._declared import declared
from ipsoeval.pipeline import compare as pipeline

__all__ = ["Comparison", "compare"]


class Comparison:
    """The table of :func:`compare`: runs (rows, in the order given) ×
    measures (columns), each cell the mean over topics with its marks.

    ``runs``, ``measures``; ``mean(run, measure)``; ``letters`` ({run: its
    letter, a, b, ... in row order}); ``better_than(run, measure)`` (the runs
    that cell is significantly better than; marks ``pairs`` and ``baseline``);
    ``p_value(run_a, run_b, measure)`` (the p-value deciding the mark, after
    the correction); ``group(run, measure)`` (marks ``groups``: the letters);
    ``report`` (the Report: tables ``comparison`` and ``tests``), and the
    renderings ``to_latex``, ``to_markdown``, ``to_html``, ``to_text``,
    ``to_frame``."""

    def __init__(self, report):
        self.report = report
        table = report.table("comparison")
        self._table = table
        self._cells = {(r["run"], r["measure"]): r for r in table.records}
        self.runs: list[str] = list(table.params["runs"])
        self.measures: list[str] = list(table.params["measures"])
        self.letters: dict[str, str] = dict(table.params["letters"])
        self.marks: str = table.params["marks"]
        self._p = {}
        for rec in report.table("tests").records:
            key = (rec["run_a"], rec["run_b"], rec["measure"])
            self._p[key] = self._p[(key[1], key[0], key[2])] = rec["p_adjusted"]

    # -- the numbers -----------------------------------------------------------
    def _run(self, run: str) -> str:
        if run not in self.letters:
            raise KeyError(f"no run {run!r} (runs: {', '.join(self.runs)})")
        return run

    def _cell(self, run: str, measure) -> dict:
        return self._cells[(self._run(run), self._measure(measure))]

    def _measure(self, measure) -> str:
        from ipsoeval.interop import measure_names
        name = measure if measure in self.measures else measure_names([measure])[0]
        if name not in self.measures:
            raise KeyError(f"no measure {measure!r} (measures: {', '.join(self.measures)})")
        return name

    def mean(self, run: str, measure) -> float:
        """The cell's mean over topics (NaN when undefined)."""
        v = self._cell(run, measure)["mean"]
        return float("nan") if v is None else float(v)

    def better_than(self, run: str, measure) -> list[str]:
        """The runs this cell is significantly better than (row order)."""
        if self.marks not in ("pairs", "baseline"):
            raise ValueError(f"better_than needs marks 'pairs' or 'baseline' (this table's "
                             f"marks: {self.marks!r})")
        text = self._cell(run, measure)["better_than"]
        return text.split(",") if text else []

    def group(self, run: str, measure) -> str:
        """marks='groups': the run's letter groups (leaderboard's letters)."""
        if self.marks != "groups":
            raise ValueError(f"group needs marks 'groups' (this table's marks: {self.marks!r})")
        return self._cell(run, measure)["group"]

    def p_value(self, run_a: str, run_b: str, measure) -> float:
        """The p-value deciding the pair's mark, after the correction (either
        order of the runs); KeyError for a pair not tested (marks baseline:
        two challengers)."""
        m = self._measure(measure)
        self._run(run_a), self._run(run_b)
        try:
            p = self._p[(run_a, run_b, m)]
        except KeyError:
            raise KeyError(f"the pair {run_a}, {run_b} is not tested on {m} (marks "
                           f"{self.marks!r})") from None
        return float("nan") if p is None else float(p)

    @property
    def warnings(self) -> list[str]:
        return self.report.warnings

    @property
    def notes(self) -> list[str]:
        return self.report.notes

    def table(self, id: str | None = None):
        return self.report.table(id)

    # -- renderings ------------------------------------------------------------
    def _render(self, fmt: str, digits: int | None, **kw) -> str:
        from ipsoeval.formatters import render
        return render(self.report, fmt, digits=digits, **kw)

    def to_latex(self, digits: int | None = None) -> str:
        """A booktabs table (caption and footnotes inside; needs only
        \\usepackage{booktabs})."""
        return self._render("latex", digits)

    def to_markdown(self, digits: int | None = None) -> str:
        return self._render("markdown", digits)

    def to_html(self, digits: int | None = None) -> str:
        """A self-contained HTML page holding the table."""
        return self._render("html", digits)

    def to_text(self, digits: int | None = None, width: int = 80) -> str:
        """The terminal table (no colour), split to fit ``width`` columns."""
        return self._render("table", digits, width=width)

    def to_frame(self, id: str | None = None):
        """The means as a pandas DataFrame: runs as the index (row order),
        measures as the columns; ``id`` ("comparison", "tests"): that table's
        records instead."""
        if id is not None:
            return self.report.to_frame(id)
        from ipsoeval.results import _frame
        rows = [{"run": r, **{m: self.mean(r, m) for m in self.measures}} for r in self.runs]
        return _frame(["run", *self.measures], rows).set_index("run")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return (f"<Comparison {len(self.runs)} runs x {len(self.measures)} measures, "
                f"marks {self.marks!r}>")


@declared(pipeline.COMMAND, first=("qrels", ("runs", None), ("measures", None)))
def compare(qrels, runs=None, measures=None, **kw) -> Comparison:
    """``ipsoeval compare``: the results table of a paper -- rows the runs, in
    the order given, columns the ``measures``, each cell the mean over topics
    with significance marks (``marks``: ``"baseline"``, ``"pairs"``,
    ``"groups"`` or ``"none"``; default baseline when ``baseline`` is given,
    else pairs).  ``qrels``, ``runs`` as :func:`evaluate` takes them (paths,
    ``{name: path}``, frames; the topic set of the comparisons: every qrels
    topic), or ``qrels`` an :class:`EvalResult` (or per-topic scores from
    :func:`read_scores`) and ``runs`` None.  Returns a :class:`Comparison`."""
    from ipsoeval.api._evaluate import EvalResult, evaluate
    from ipsoeval.reading.scores import TopicScores
    if isinstance(qrels, (EvalResult, TopicScores)):
        if runs is not None:
            from ipsoeval.errors import UsageError
            raise UsageError("compare: give qrels and runs, or an EvalResult (or per-topic "
                             "scores) alone")
        res = qrels
    else:
        if runs is None:
            from ipsoeval.errors import UsageError
            raise UsageError("compare needs runs (or an EvalResult of ipsoeval.evaluate)")
        if not measures:
            from ipsoeval.errors import UsageError
            raise UsageError("compare needs measures (e.g. measures=['AP', 'nDCG@10'])")
        res = evaluate(qrels, runs, measures)
    return Comparison(pipeline.from_result(res, measures=measures, **kw))
