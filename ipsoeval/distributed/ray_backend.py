"""The Ray backend of a sweep (``--engine ray``, the optional extra
``ipsoeval[ray]``): the qrels put once in the object store, one task per
batch of runs (:func:`ipsoeval.distributed.worker.score_batch`, reading the runs where
the task runs), at most twice the cluster's CPUs in flight, results taken
in run order.

``--engine ray`` joins the cluster of ``RAY_ADDRESS`` when it is set, else
starts a local one (usage statistics off); ``ray://HOST:PORT`` joins that
cluster through Ray Client.  An address that does not answer within
:data:`CONNECT_TIMEOUT` seconds is an input error (exit 3), said in one
line.  A Ray session already open in the process (``ray.init`` by the
caller) is used as it is and left open.
"""

from __future__ import annotations

import os
from collections import deque

from ipsoeval.errors import InputError, UsageError

RAY_HINT = "--engine ray needs Ray: pip install 'ipsoeval[ray]'"
CONNECT_TIMEOUT = 5.0


class _quiet_stderr:
    """Ray's own notices (cluster start, token authentication, shutdown) go
    to file descriptor 2; ipsoeval's standard error holds only its own lines,
    so they are held back while Ray starts and stops (what failed is raised)."""

    def __enter__(self):
        import sys
        import tempfile
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.sink = tempfile.TemporaryFile()
        os.dup2(self.sink.fileno(), 2)
        return self

    def __exit__(self, *exc):
        import sys
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.sink.close()
        return False


def _import_ray():
    try:
        import ray
    except ImportError:
        raise UsageError(RAY_HINT) from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of ``ray://HOST:PORT`` or ``HOST:PORT``; None for ``auto``/``local``."""
    rest = address.split("://", 1)[1] if "://" in address else address
    if rest in ("auto", "local", ""):
        return None
    host, _, port = rest.rpartition(":")
    try:
        return host.strip("[]") or "127.0.0.1", int(port)
    except ValueError:
        raise UsageError(f"--engine: a Ray address is HOST:PORT (found {address!r})") from None


def _reachable(address: str) -> None:
    """Fail fast (exit 3) when nothing listens at ``address``."""
    hp = _host_port(address)
    if hp is None:
        return
    import socket  # here only: the local engine's commands never connect

    try:
        with socket.create_connection(hp, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise InputError(f"cannot reach the Ray cluster at {address} "
                         f"({exc.strerror or exc})") from None


class Backend:
    """A connection to a Ray cluster, for one sweep."""

    def __init__(self, ray, owned: bool):
        self.ray, self.owned = ray, owned

    def cpus(self) -> int:
        try:
            return max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        except Exception:   # a client that cannot say: one at a time per slot
            return 1

    def map(self, qrels, tasks: list, requested, align_opts: dict, text_ok: bool,
            progress=None) -> list:
        """Every task as a Ray task, results in task order."""
        ray = self.ray
        from ipsoeval.distributed.worker import RunScores

        remote = ray.remote(num_cpus=1, max_retries=0)(_score_remote)
        try:
            import uuid
            qrels_ref = ray.put((uuid.uuid4().hex, qrels))   # once: every task shares it
            from ipsoeval.distributed.worker import batches

            cpus = self.cpus()
            limit = 2 * cpus
            out: list = []
            pending: deque = deque()
            stop = False

            def take():
                got = ray.get(pending.popleft())
                out.extend(got)
                if progress is not None:
                    progress(len(out), len(tasks))
                return got

            for batch in batches(tasks, cpus):
                pending.append(remote.remote(qrels_ref, batch, requested, align_opts, text_ok))
                while len(pending) >= limit:
                    got = take()
                    if any(r.error is not None and r.error[0] == "read" for r in got):
                        stop = True            # no later run can raise before it
                        break
                if stop:
                    break
            while pending:
                take()
            return out if not stop else _fill(out, tasks, RunScores)
        finally:
            if self.owned:
                with _quiet_stderr():
                    ray.shutdown()


def _fill(out, tasks, RunScores):
    """After a reading error: the runs not scored, as placeholders (the
    driver raises the first reading error, which precedes them)."""
    return out + [RunScores(t.index, t.path) for t in tasks[len(out):]]


_QINDEX: dict = {}


def _score_remote(keyed_qrels, batch, requested, align_opts, text_ok):
    """The Ray task: the qrels and their QrelsIndex kept once per worker
    process and sweep (``keyed_qrels``: (sweep key, Qrels)), then
    :func:`ipsoeval.distributed.worker.score_batch`."""
    from ipsoeval.align import QrelsIndex
    from ipsoeval.distributed.worker import score_batch

    key, qrels = keyed_qrels
    got = _QINDEX.get(key)
    if got is None:
        _QINDEX.clear()
        got = _QINDEX[key] = (qrels, QrelsIndex(qrels))
    return score_batch(got[0], got[1], batch, requested, align_opts, text_ok)


def connect(address: str | None) -> Backend:
    """A Backend on the cluster of ``address`` (``ray://HOST:PORT``), of
    ``RAY_ADDRESS`` when None and set, else on a new local cluster."""
    ray = _import_ray()
    if ray.is_initialized():
        return Backend(ray, owned=False)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    target = address or os.environ.get("RAY_ADDRESS") or None
    if target:
        _reachable(target)
    kwargs = {"include_dashboard": False, "log_to_driver": False,
              "configure_logging": False}
    if target is None:
        from ipsoeval.parallel import workers
        kwargs["num_cpus"] = workers()
    try:
        with _quiet_stderr():
            ray.init(address=target, **kwargs)
    except ImportError as exc:        # ray:// needs Ray Client (grpcio)
        raise UsageError(f"--engine {target} needs Ray Client: pip install 'ray[client]' "
                         f"({exc})") from None
    except Exception as exc:          # whatever Ray raises when it cannot connect: one line
        if not isinstance(exc, (ConnectionError, TimeoutError, RuntimeError, ValueError,
                                OSError)) and type(exc).__module__.split(".")[0] != "ray":
            raise
        if "ray[client]" in str(exc):   # the minimal Ray, without Ray Client: like ImportError
            raise UsageError(f"--engine {target} needs Ray Client: pip install "
                             f"'ray[client]'") from None
        raise InputError(f"cannot connect to the Ray cluster at {target or 'a local cluster'}: "
                         f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") \
            from None
    return Backend(ray, owned=True)
