"""``ipsoeval.across``: the command ``ipsoeval across`` (pooled effects across
test collections, mixed models)."""

from __future__ import annotations

import os

from ipsoeval.api._common import (
    _common,
    _is_path,
    _names,
    _report,
    _warn,
)
from ipsoeval.api._evaluate import EvalResult, evaluate
from ipsoeval.errors import UsageError
from ipsoeval.results import Report


def across(collections, measures=None, *, baseline: str | None = None, effect: str = "md",
           method: str = "reml", alpha: float = 0.05, samples: int = 1000, seed: int = 42,
           correct: str = "holm", queries: str = "qrels", engine: str = "local",
           progress=None) -> Report:
    """``ipsoeval across``: runs compared over several test collections.
    ``collections``: a manifest path (``collection qrels run`` lines), or a
    dict ``{name: (qrels, runs)}`` (anything :func:`evaluate` takes) or
    ``{name: EvalResult}``.  Tables ``pooled`` (primary), ``effects``,
    ``leaderboard``, ``notes``, ``collection_means``, ``mixed``,
    ``mixed_model`` and ``contrasts``."""
    from ipsoeval.analyses import across as ac
    from ipsoeval.analyses.across import inputs

    options = ac.Options(baseline=baseline, effect=effect, method=method, alpha=alpha,
                         samples=samples, seed=seed, correct=correct)
    options.check()
    names = _names(measures)
    if _is_path(collections):
        from ipsoeval.reading.manifest import read_manifest
        scored, names, notes = inputs.score(read_manifest(os.fspath(collections)), names,
                                            align=inputs.alignment(queries=queries),
                                            engine=engine)
    elif isinstance(collections, dict):
        scored, notes = [], []
        for cname, value in collections.items():
            res = value if isinstance(value, EvalResult) else \
                evaluate(value[0], value[1], names, queries=queries)
            if names is None:
                names = res.measures
            aligned, extra = _common(res)
            notes += [f"{cname}: {w}" for w in extra]
            sc = res.scores if aligned is res.aligned else None
            mats = {}
            for m in names:
                M = res.matrix(m)
                if sc is None:
                    pos = {t: i for i, t in enumerate(res.topics)}
                    M = M[:, [pos[t] for t in aligned.topics]]
                mats[res._measure(m).name] = M
            names = list(mats)
            hib = {m: bool(getattr(res._measure(m), "higher_is_better", True)) for m in mats}
            scored.append(ac.CollectionScores(str(cname), list(res.runs),
                                              list(aligned.topics), mats, hib))
    else:
        raise UsageError("across(collections=...): give a manifest path, {name: (qrels, "
                         "runs)} or {name: EvalResult}")
    _warn(notes)
    out = ac.analyse(scored, list(names or []), options, progress=progress)
    _warn(out.warnings)
    return _report(out, warnings=notes)
