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
    """[fn(x) for x in items], in order, on a few threads; exceptions propagate.

    ``items`` is read on the calling thread, at most ``max_in_flight`` (default
    twice the threads) ahead of the results handed back, so a generator of
    large blocks streams in bounded memory.  The threads are plain
    :class:`threading.Thread` fed through a queue (concurrent.futures, with the
    logging it imports, costs ~10 ms of CPU to import)."""
    items = list(items) if not hasattr(items, "__next__") else items
    nw = workers()
    if nw <= 1 or in_worker():
        return [fn(x) for x in items]
    from collections import deque
    from queue import SimpleQueue

    jobs: SimpleQueue = SimpleQueue()

    def serve():
        _local.busy = True
        while True:
            job = jobs.get()
            if job is None:
                return
            job.run(fn)

    threads: list[threading.Thread] = []
    out = []
    limit = max_in_flight or 2 * nw
    pending: deque = deque()
    try:
        for x in items:
            job = _Job(x)
            pending.append(job)
            jobs.put(job)
            if len(threads) < nw:
                t = threading.Thread(target=serve, daemon=True)
                t.start()
                threads.append(t)
            while len(pending) >= limit:
                out.append(pending.popleft().result())
        while pending:
            out.append(pending.popleft().result())
    finally:            # as ThreadPoolExecutor's exit: the jobs handed out finish first
        for _ in threads:
            jobs.put(None)
        for t in threads:
            t.join()
    return out


class _Job:
    """One item of :func:`parallel_map`: its value or exception, once run."""

    __slots__ = ("item", "done", "value", "error")

    def __init__(self, item):
        self.item = item
        self.done = threading.Lock()
        self.done.acquire()
        self.value = self.error = None

    def run(self, fn) -> None:
        try:
            self.value = fn(self.item)
        except BaseException as exc:  # re-raised on the calling thread
            self.error = exc
        finally:
            self.item = None
            self.done.release()

    def result(self):
        self.done.acquire()
        self.done.release()
        if self.error is not None:
            err, self.error = self.error, None
            raise err
        return self.value


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
