"""ipsoeval.parallel: parallel_map on plain threads gives what the list
comprehension gives -- the results in input order, the first exception in
input order raised on the calling thread -- reads a generator at most
``max_in_flight`` items ahead of the results handed back, and runs nested
calls serially; every job handed out has finished when it returns."""

from __future__ import annotations

import threading
import time

import pytest

from ipsoeval import parallel
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
    real_result = parallel._Job.result

    def spy(self):
        seen.append(pulled[0])
        return real_result(self)
    monkeypatch.setattr(parallel._Job, "result", spy)
    assert parallel_map(lambda x: x + 1, gen(), max_in_flight=limit) == list(range(1, 31))
    for consumed, n_pulled in enumerate(seen):
        assert n_pulled - consumed <= limit


def test_one_thread_is_the_list_comprehension(monkeypatch):
    monkeypatch.setenv("IPSOEVAL_THREADS", "1")
    main = threading.get_ident()
    assert parallel_map(lambda x: threading.get_ident(), range(5)) == [main] * 5
