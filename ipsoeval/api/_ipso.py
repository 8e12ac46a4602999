"""``ipsoeval.ipso``: the command ``ipsoeval ipso`` (Moffat & Mackenzie 2024)."""

from __future__ import annotations

from ipsoeval.api._common import (
    _baseline,
    _common,
    _names,
    _report,
    _requested,
    _score_set,
)
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def ipso(res, *, k: int | None = None, depths=None, measures=None, tests=None,
         correct: str = "none", alpha: float = 0.05, alternative: str = "two-sided",
         samples: int = 100_000, seed: int = 42, graded: str | None = None,
         baseline: str | None = None, all_pairs: bool = False,
         per_query: bool = False) -> Report:
    """``ipsoeval ipso``: IPSO relations between rankings and the sign test of
    non-superior against non-inferior topics (Moffat & Mackenzie 2024).  On
    per-topic scores from :func:`read_scores`, the sign test over topics on
    each measure (what applies without the rankings)."""
    from ipsoeval.analyses import ipso as ip

    ts = _score_set(res)
    if ts is not None:
        from ipsoeval.analyses.scores import ipso_scores
        rep, _ = ipso_scores(ts, alpha=alpha, measures=_names(measures),
                             all_pairs=all_pairs, correct=correct, baseline=baseline)
        return _report(rep, warnings=list(ts.warnings), params=dict(ts.params))
    if len(res.runs) < 2:
        raise UsageError(f"ipso needs at least two runs (got {len(res.runs)})")
    cutoff = k if k is not None else 10
    depth_list = None
    if depths is not None:
        depth_list = ip.parse_depths(depths if isinstance(depths, str)
                                     else ",".join(map(str, depths)), cutoff)
        if k is None:
            cutoff = max(depth_list)
    names: list[str] = []
    if measures:
        for r in _requested(res, measures):
            if r.measure.name not in names:
                names.append(r.measure.name)
    from ipsoeval.stats import registry
    test_list = registry.parse(tests, allowed=ip.TESTS, command="ipso")
    if test_list and not names:
        raise UsageError("tests apply to a measure: give measures too")
    options = ip.Options(k=cutoff, depths=depth_list, graded=graded or "prefix",
                         measures=names, tests=test_list, alpha=alpha,
                         alternative=alternative, correct=correct, baseline=baseline,
                         all_pairs=all_pairs,
                         per_query=per_query, samples=samples, seed=seed)
    options.check()
    options.baseline = _baseline(res, baseline)
    aligned, notes = _common(res, "ipso")
    report = ip.run(aligned, options, gains_given=res.params.get("gains") is not None,
                    rel_level_given=res.params.get("rel_level", 1) != 1,
                    graded_given=graded is not None)
    return _report(report, warnings=notes, params=dict(res.params))
