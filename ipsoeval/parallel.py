"""Threads for numpy work (numpy releases the GIL on large arrays), on
:class:`concurrent.futures.ThreadPoolExecutor`.

Results always come back in input order, so output never depends on the
number of threads.  Nested calls run serially in the calling thread.
concurrent.futures (with the logging it imports, ~11 ms) is imported only
when a call does run on more than one thread.
"""

from __future__ import annotations

import os
import threading

_local = threading.local()


def workers() -> int:
    """Threads to use: IPSOEVAL_THREADS, else the CPUs available (at most 4)."""
    env = os.environ.get("IPSOEVAL_THREADS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            pass
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 4))


def in_worker() -> bool:
    return getattr(_local, "busy", False)


def _enter_worker() -> None:
    _local.busy = True


def parallel_map(fn, items, *, max_in_flight: int | None = None):
    """[fn(x) for x in items], in order, on a few threads.

    ``items`` is read on the calling thread, at most ``max_in_flight`` (default
    twice the threads) ahead of the results handed back, so a generator of
    large blocks streams in bounded memory.  The first exception in input
    order (of ``fn`` or of the generator) is raised on the calling thread; the
    items not yet started are cancelled, and the ones running have finished
    when it is raised, as when the results are returned."""
    items = list(items) if not hasattr(items, "__next__") else items
    nw = workers()
    if nw <= 1 or in_worker():
        return [fn(x) for x in items]
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    limit = max(1, max_in_flight or 2 * nw)
    out: list = []
    pending: deque = deque()
    pool = ThreadPoolExecutor(nw, initializer=_enter_worker)
    try:
        for x in items:
            pending.append(pool.submit(fn, x))
            while len(pending) >= limit:
                out.append(pending.popleft().result())
        while pending:
            out.append(pending.popleft().result())
    finally:            # on an error: drop what has not started, wait for the rest
        pool.shutdown(wait=True, cancel_futures=True)
    return out


def background(fn, *args, **kwargs):
    """Start fn(*args) on another thread (serially inside a worker or with one
    thread); returns a function that waits and returns its result (or raises)."""
    if workers() <= 1 or in_worker():
        try:
            value = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised when the caller waits
            err = exc

            def fail():
                raise err
            return fail
        return lambda: value
    result: dict = {}

    def run():
        try:
            result["value"] = fn(*args, **kwargs)
        except BaseException as exc:
            result["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()

    def wait():
        t.join()
        if "error" in result:
            raise result["error"]
        return result.get("value")
    return wait
