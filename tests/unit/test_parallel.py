"""ipsoeval.parallel: parallel_map on a thread pool gives what the list
comprehension gives -- the results in input order, the first exception in
input order raised on the calling thread, the items not yet started then
cancelled -- reads a generator at most ``max_in_flight`` items ahead of the
results handed back, and runs nested calls serially; every job started has
finished when it returns."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future

import pytest

from ipsoeval.parallel import in_worker, parallel_map


@pytest.fixture(autouse=True)
def _threads(monkeypatch):
    monkeypatch.setenv("IPSOEVAL_THREADS", "3")


@pytest.mark.parametrize("n", [0, 1, 2, 7, 100])
def test_results_in_input_order(n):
    def slow_square(x):
        time.sleep(0.001 * ((x * 7) % 3))       # finish out of order
        return x * x
    assert parallel_map(slow_square, range(n)) == [x * x for x in range(n)]
    assert parallel_map(slow_square, iter(range(n))) == [x * x for x in range(n)]


def test_runs_on_other_threads_and_nested_calls_run_serially():
    main = threading.get_ident()

    def outer(x):
        assert in_worker()
        inner = parallel_map(lambda y: (y, threading.get_ident()), range(4))
        assert {t for _, t in inner} == {threading.get_ident()}     # this worker only
        return threading.get_ident()
    idents = parallel_map(outer, range(12))
    assert main not in idents
    assert not in_worker()


def _new_threads(before: set) -> list:
    """Threads alive now that were not before the call (a thread another
    test file left in this process is not parallel_map's)."""
    return [t for t in threading.enumerate() if t not in before and t.is_alive()]


def test_the_first_error_in_input_order_is_raised_after_every_job_finished():
    finished = []
    threads = set(threading.enumerate())

    def f(x):
        if x in (3, 5):
            raise ValueError(f"bad {x}")
        time.sleep(0.002)
        finished.append(x)
        return x
    with pytest.raises(ValueError, match="bad 3"):
        parallel_map(f, range(10))
    before = len(finished)
    time.sleep(0.05)
    assert len(finished) == before                # nothing still running afterwards
    assert _new_threads(threads) == []


def test_an_error_of_the_generator_propagates():
    threads = set(threading.enumerate())

    def gen():
        yield 1
        yield 2
        raise KeyError("reading failed")
    with pytest.raises(KeyError, match="reading failed"):
        parallel_map(lambda x: x, gen())
    assert _new_threads(threads) == []


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_a_generator_is_read_at_most_max_in_flight_ahead(limit, monkeypatch):
    """When the calling thread takes a result back, fewer than ``limit`` items
    beyond it have been read from the generator."""
    pulled = [0]

    def gen():
        for i in range(30):
            pulled[0] += 1
            yield i
    seen = []
    real_result = Future.result

    def spy(self, timeout=None):
        seen.append(pulled[0])
        return real_result(self, timeout)
    monkeypatch.setattr(Future, "result", spy)
    assert parallel_map(lambda x: x + 1, gen(), max_in_flight=limit) == list(range(1, 31))
    assert len(seen) == 30                      # every result taken back through a Future
    for consumed, n_pulled in enumerate(seen):
        assert n_pulled - consumed <= limit


def test_one_thread_is_the_list_comprehension(monkeypatch):
    monkeypatch.setenv("IPSOEVAL_THREADS", "1")
    main = threading.get_ident()
    assert parallel_map(lambda x: threading.get_ident(), range(5)) == [main] * 5


def test_after_an_error_the_items_not_started_are_cancelled():
    """Three threads, six items in flight: item 0 fails while 1-3 are still
    running (slowly) and 4, 5 wait in the queue; 4 and 5 never start."""
    started = []

    def f(x):
        started.append(x)
        if x == 0:
            time.sleep(0.02)
            raise ValueError("bad 0")
        time.sleep(0.3)
        return x
    with pytest.raises(ValueError, match="bad 0"):
        parallel_map(f, range(6))
    assert sorted(started) == [0, 1, 2, 3]


def test_never_more_items_running_than_threads():
    lock = threading.Lock()
    running = [0]
    peak = [0]

    def f(x):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.005)
        with lock:
            running[0] -= 1
        return x
    assert parallel_map(f, range(30), max_in_flight=10) == list(range(30))
    assert 1 < peak[0] <= 3
