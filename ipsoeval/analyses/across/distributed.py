"""The stratified bootstrap of ``ipsoeval across --engine ray``: one Ray task
per collection and measure, each drawing that collection's resamples with
the generator seeded by (seed, collection index) -- the draws of
:func:`ipsoeval.analyses.across.report.resample_collection` on this machine,
so the bytes are the same.  The per-topic matrices go to the object store
once; only the (samples, runs) means and variances come back.
"""

from __future__ import annotations

import contextlib

from ipsoeval.analyses.across.report import complete_scores, resample_collection


def _task(X, samples, seed, index):
    return resample_collection(X, samples, seed, index)


@contextlib.contextmanager
def session(engine: str):
    """One Ray session for a whole ``across --engine ray`` (every collection's
    sweep and the bootstrap join it instead of starting their own); closed on
    exit when it was opened here."""
    from ipsoeval.distributed import parse_engine
    from ipsoeval.distributed.ray_backend import _quiet_stderr, connect

    backend = connect(parse_engine(engine)[1])
    try:
        yield backend
    finally:
        if backend.owned:
            with _quiet_stderr():
                backend.ray.shutdown()


@contextlib.contextmanager
def resampler(collections, measures, options, engine: str):
    """A ``resample(measure, collection_index)`` for :func:`analyse`, every task
    submitted at once; the Ray session it opened closed on exit."""
    from ipsoeval.distributed import parse_engine
    from ipsoeval.distributed.ray_backend import _quiet_stderr, connect

    backend = connect(parse_engine(engine)[1])
    ray = backend.ray
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(_task)
        refs = {}
        for m in measures:
            for ci, c in enumerate(collections):
                X = ray.put(complete_scores(c, m, []))
                refs[(m, ci)] = remote.remote(X, options.samples, options.seed, ci)

        def resample(measure, ci):
            return ray.get(refs.pop((measure, ci)))
        yield resample
    finally:
        if backend.owned:
            with _quiet_stderr():
                ray.shutdown()
