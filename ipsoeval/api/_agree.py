"""``ipsoeval.agree``: the command ``ipsoeval agree``."""

from __future__ import annotations

import os

from ipsoeval.api._common import (
    _is_path,
    _names,
    _run_items,
    _warn,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def agree(qrels_a, qrels_b, runs=None, measures=None, *, test: str | None = None,
          correct: str = "none", alpha: float = 0.05, samples: int = 100_000, seed: int = 42,
          rbo_p: float = 0.9, queries: str = "qrels", rel_level: int = 1,
          judged_only: bool = False, gains=None, depth: int | None = None,
          tie_break: str = "trec", run_format: str = "auto", names=None,
          name_from_file: bool = False, nuggets: bool = False,
          nuggets_format: str = "auto") -> Report:
    """``ipsoeval agree``: how far apart two qrels are.  ``qrels_a``/``qrels_b``
    are paths or in-memory qrels (as :func:`evaluate` takes them); ``runs``
    (optional, two or more, as :func:`evaluate` takes them) with ``measures``
    add the rank correlations and the pairs whose significance changes.
    ``nuggets=True`` (``agree --nuggets``): ``qrels_a`` and ``qrels_b`` are
    the paths of two assigners' nugget assignments of the same answers."""
    from ipsoeval import engine, reading
    from ipsoeval.analyses import agree as ag

    options = ag.make_options(test, correct=correct, alpha=alpha, samples=samples, seed=seed,
                              rbo_p=rbo_p)
    if nuggets:             # agree --nuggets: two assigners' nugget assignments
        from ipsoeval.analyses import nuggets as ng
        from ipsoeval.reading.nuggets import read_nuggets as rd
        if runs is not None:
            raise UsageError("agree(nuggets=True): the answers are those of the assignment "
                             "files; give no runs")
        names_ = _names(measures)
        report = ng.agree_report(rd([os.fspath(qrels_a)], nuggets_format),
                                 rd([os.fspath(qrels_b)], nuggets_format),
                                 [m.name for m in ng.select(names_)], options)
        _warn(report.warnings)
        return report
    if measures is not None:
        measures = [measures] if isinstance(measures, str) else list(measures)
    items = []
    if runs is not None:
        for obj, nm in _run_items(runs):
            if _is_path(obj):
                items.extend((p, nm) for p in reading.expand_run_paths([os.fspath(obj)]))
            else:
                items.append((obj, nm))
    if names is not None:
        names = [str(n) for n in names]
        if len(names) != len(items):
            raise UsageError(f"names given for {len(names)} run(s), but there are {len(items)}")
        items = [(obj, n) for (obj, _), n in zip(items, names)]
    options.check([nm or "" for _, nm in items] if items else None)
    requested = engine.requested(measures) if items and measures else measures
    reading.check_stdin_once([os.fspath(x) for x in [qrels_a, qrels_b] + [o for o, _ in items]
                              if _is_path(x)])
    qs = [reading.read_qrels(os.fspath(q)) if _is_path(q) else reading.qrels_from(q)
          for q in (qrels_a, qrels_b)]
    models = []
    for i, (obj, nm) in enumerate(items):
        if _is_path(obj):
            p = os.fspath(obj)
            if nm is None and name_from_file:
                nm = reading.file_stem(p)
            models.append(reading.read_run(p, run_format=run_format, name=nm))
        else:
            models.append(reading.run_from(obj, nm if nm is not None else f"run{i + 1}"))
    if isinstance(gains, dict):
        gains = ",".join(f"{int(k)}:{float(v)!r}" for k, v in gains.items())
    align = {"queries": queries, "rel_level": rel_level, "judged_only": judged_only,
             "gains": gains, "depth": depth, "tie_break": tie_break}
    report = ag.run(qs[0], qs[1], models, requested, options, align=align)
    _warn(report.warnings)
    return report
