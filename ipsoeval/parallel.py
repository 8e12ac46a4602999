"""A small thread pool for numpy work (numpy releases the GIL on large arrays).

Results always come back in input order, so output never depends on the
number of threads.  Nested calls run serially in the calling thread.
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


def parallel_map(fn, items, *, max_in_flight: int | None = None):
    """[fn(x) for x in items], in order, on a few threads; exceptions propagate."""
    items = list(items) if not hasattr(items, "__next__") else items
    nw = workers()
    if nw <= 1 or in_worker():
        return [fn(x) for x in items]
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    def run(x):
        _local.busy = True
        try:
            return fn(x)
        finally:
            _local.busy = False

    out = []
    limit = max_in_flight or 2 * nw
    with ThreadPoolExecutor(max_workers=nw) as pool:
        pending = deque()
        for x in items:
            pending.append(pool.submit(run, x))
            while len(pending) >= limit:
                out.append(pending.popleft().result())
        while pending:
            out.append(pending.popleft().result())
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
