"""``ipsoeval.interval_map``: the command ``ipsoeval interval-map``
(Ferrante, Ferro & Fuhr 2021)."""

from __future__ import annotations

from ipsoeval.api._common import (
    _common,
    _names,
    _report,
    _score_set,
    _warn,
)
from ipsoeval.results import Report


def interval_map(res, measures=None, *, N: int | None = None, ties: str = "unq",
                 normalise: bool = False, universe: str = "all", per_query: bool = False,
                 values: bool = False, analyze: bool = False, tests=None, alpha: float = 0.05,
                 max_memory: str | int = "2G", use_cache: bool = True) -> Report:
    """``ipsoeval interval-map``: the measures' scores mapped to an interval scale
    (Ferrante, Ferro & Fuhr 2021); means before and after, ``analyze`` for the
    paper's comparisons.  On per-topic scores (:func:`read_scores`): P@k, RR@k
    and Success@k, whose map is a function of the value alone."""
    from ipsoeval.analyses import interval_map as im

    mem = im.iv.parse_size(max_memory) if isinstance(max_memory, str) else int(max_memory)
    from ipsoeval.stats import registry
    options = im.Options(N=N, ties=ties, normalise=normalise, universe=universe,
                         per_query=per_query, values=values, analyze=analyze, alpha=alpha,
                         tests=tuple(registry.parse(tests, allowed=im.TESTS,
                                                    command="interval-map --analyze"))
                         or im.TESTS,
                         use_cache=use_cache, max_memory=mem)
    options.check()
    ts = _score_set(res)
    if ts is not None:          # P@k, RR@k, Success@k: the map is a function of the value
        from ipsoeval.analyses.scores import interval_map_scores
        report = interval_map_scores(ts, _names(measures), options)
        _warn(report.warnings)
        return _report(report, warnings=list(ts.warnings), params=dict(ts.params))
    names = res.measures if measures is None else _names(measures)
    plain = [im.at_cutoff(m, N, default_N=30) for m in names]
    aligned, notes = _common(res, "interval-map")
    report = im.run(aligned, plain, options)
    _warn(report.warnings)
    return _report(report, warnings=notes, params=dict(res.params))
