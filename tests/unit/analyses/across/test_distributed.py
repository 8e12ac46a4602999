"""--engine: runs scored one by one -- in threads, or as
tasks on a real local Ray cluster the tests start (2 CPUs) -- give the same
bytes as the runs aligned and scored together (the local path), for eval
(trec layout, tsv, -q), sigtest, bootstrap and leaderboard, on the test data,
on random runs and on a directory of 50 runs; and the errors: Ray missing
(exit 2), an address that does not answer (exit 3, quickly)."""

from __future__ import annotations

import os
import sys
import time

import numpy as np
import pytest

from tests.conftest import TESTDATA, invoke

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

try:
    import ray
except ImportError:          # the extra ipsoeval[ray] (in the test extra) is not installed
    ray = None

needs_ray = pytest.mark.skipif(ray is None, reason="Ray is not installed (pip install "
                               "'ipsoeval[ray]'; the test extra has it)")

ADHOC = TESTDATA / "adhoc"
MS = TESTDATA / "msmarco"
MS_RUNS = sorted(str(p) for p in MS.glob("*.run.xz"))


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray cluster of 2 CPUs for this module (no dashboard, no usage
    statistics, loopback only); --engine ray uses it as it is.  Shut down when
    the module ends: its idle workers and daemons would otherwise take CPU for
    the rest of the session."""
    if ray is None:
        pytest.skip("Ray is not installed (pip install 'ipsoeval[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, _node_ip_address="127.0.0.1")
    yield ray
    ray.shutdown()


def write_random(d, seed: int, n_runs: int, n_topics: int = 30):
    """Qrels and runs with everything that moves the topic set and the warnings:
    runs missing qrels topics, topics outside the qrels, unjudged and negative
    labels, tied scores, different depths and names shared between runs."""
    rng = np.random.default_rng(seed)
    d.mkdir(parents=True, exist_ok=True)
    topics = [str(100 + i) for i in range(n_topics)]
    with open(d / "qrels", "w") as f:
        for t in topics:
            for j in rng.choice(200, size=int(rng.integers(1, 40)), replace=False):
                f.write(f"{t} 0 D{j} {int(rng.integers(-1, 4))}\n")
    paths = []
    for r in range(n_runs):
        depth = int(rng.integers(1, 60))
        p = d / f"run{r:03d}"
        with open(p, "w") as f:
            for t in topics + ["999", "5"]:
                if rng.random() < 0.15:
                    continue
                k = int(rng.integers(1, depth + 1))
                docs = rng.choice(300, size=k, replace=False)
                for i, (doc, s) in enumerate(zip(docs, np.round(rng.normal(size=k), 1))):
                    f.write(f"{t} Q0 D{doc} {i} {s} tag{r % 7}\n")
        paths.append(str(p))
    return d / "qrels", paths


def same(args, engine):
    """The command with and without ``--engine``: same exit status, stdout, stderr."""
    a = invoke(args)
    b = invoke([*args, "--engine", engine])
    assert a[0] == 0, a[2]
    assert b == a
    return a


def matrices_equal(a, b):
    assert a.aligned.topics == b.aligned.topics and list(a.runs) == list(b.runs)
    assert (a.mask() == b.mask()).all()
    assert a.values.keys() == b.values.keys()
    for k in a.values:
        x, y = a.values[k], b.values[k]
        assert x.shape == y.shape and x.dtype == y.dtype, k
        if x.dtype == object:
            assert (x == y).all(), k
        else:                                      # bit for bit, NaN included
            assert np.ascontiguousarray(x).tobytes() == np.ascontiguousarray(y).tobytes(), k


MEASURES = ["all_trec", "nDCG", "nDCG@10", "DCG", "ERR@20", "RBP(p=0.8)@10", "ESL@10",
            "Judged@10", "AP@10", "RR@10", "Success@10"]


@pytest.mark.parametrize("queries", ["intersection", "qrels"])
@pytest.mark.parametrize("extra", [{}, {"depth": 7}, {"judged_only": True}, {"rel_level": 2},
                                   {"gains": "0:0,1:1,2:3,3:7"}])
def test_sweep_matrices_equal_runs_aligned_together(tmp_path, queries, extra):
    """The per-run sweep (threads) against engine.load + engine.evaluate: every
    measure's matrix bit for bit, the topics, the mask and the warnings."""
    from ipsoeval import engine
    from ipsoeval.distributed import SweepOptions, score_runs

    qrels, runs = write_random(tmp_path, 11, 14)
    reqs = engine.requested(MEASURES)
    al = engine.load(str(qrels), runs, queries=queries, **extra)
    a = engine.evaluate(al, reqs, text_ok=True)
    b, warnings = score_runs(str(qrels), runs, reqs, options=SweepOptions(queries=queries,
                                                                          **extra),
                             text_ok=True)
    matrices_equal(a, b)
    assert warnings == al.warnings


def test_strict_and_no_common_topic_errors_as_local(tmp_path):
    qrels, runs = write_random(tmp_path, 5, 3)
    for args in (["eval", "--queries", "strict", qrels, *runs],
                 ["sigtest", "-m", "AP", "--queries", "strict", qrels, *runs]):
        a = invoke(args)
        b = invoke([*args, "--engine", "local"])
        assert a[0] == 3 and b == a
    other = tmp_path / "other.qrels"
    other.write_text("777 0 D1 1\n")
    a = invoke(["eval", other, *runs])
    assert a[0] == 3 and "no topic in common" in a[2]


@needs_ray
def test_eval_trec_tsv_perquery_same_bytes(ray_cluster):
    runs = [ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"]
    for extra in ([], ["--format", "tsv"], ["-q"], ["-q", "--format", "tsv", "-c"],
                  ["-m", "nDCG@10", "-m", "relstring", "-q", "--format", "json"]):
        same(["eval", *extra, ADHOC / "qrels.txt", *runs], "ray")
    same(["eval", "-q", "-m", "RR@10", "--format", "tsv", MS / "qrels.txt", *MS_RUNS], "ray")


@needs_ray
def test_sigtest_bootstrap_leaderboard_same_bytes(ray_cluster):
    q = MS / "qrels.txt"
    same(["sigtest", "-m", "RR@10", "-m", "AP", "--samples", "500", "--format", "json", q,
          *MS_RUNS], "ray")
    same(["bootstrap", "-m", "RR@10", "--seed", "7", "--samples", "200", "--format", "json",
          q, *MS_RUNS], "ray")
    same(["leaderboard", "-m", "RR@10", "--seed", "7", "--samples", "300", "--format", "json",
          q, *MS_RUNS], "ray")


@needs_ray
def test_random_runs_with_warnings_same_bytes(ray_cluster, tmp_path):
    qrels, runs = write_random(tmp_path, 3, 9)
    same(["eval", "-q", "--format", "tsv", qrels, *runs], "ray")
    same(["eval", "-c", qrels, *runs], "ray")
    same(["sigtest", "-m", "AP", "--queries", "intersection", "--samples", "200",
          "--format", "tsv", qrels, *runs], "ray")


@needs_ray
def test_directory_of_50_runs(ray_cluster, tmp_path):
    """A directory as RUN: 50 runs streamed through Ray, a few at a time."""
    qrels, _ = write_random(tmp_path / "d", 8, 50, n_topics=20)
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    for p in sorted((tmp_path / "d").glob("run*")):
        p.rename(runs_dir / p.name)
    code, out, err = same(["eval", "--format", "tsv", "-m", "AP", "-m", "nDCG@10", qrels,
                           runs_dir], "ray")
    assert out.count("\tall\tAP\t") == 50


@needs_ray
def test_api_engine_ray(ray_cluster):
    import ipsoeval

    runs = [str(ADHOC / "run-bm25.txt"), str(ADHOC / "run-neural.txt")]
    with pytest.warns(UserWarning) as wa:
        a = ipsoeval.evaluate(str(ADHOC / "qrels.txt"), runs, ["AP", "nDCG@10"])
    with pytest.warns(UserWarning) as wb:
        b = ipsoeval.evaluate(str(ADHOC / "qrels.txt"), runs, ["AP", "nDCG@10"], engine="ray")
    matrices_equal(a.scores, b.scores)
    assert a.mean() == b.mean() and a.per_query() == b.per_query()
    assert [str(w.message) for w in wa] == [str(w.message) for w in wb]
    assert a.to_table().records == b.to_table().records


def test_without_ray_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)      # import ray fails
    for cmd in (["eval"], ["sigtest", "-m", "AP"], ["bootstrap", "-m", "AP"],
                ["leaderboard", "-m", "AP"]):
        code, out, err = invoke([*cmd, "--engine", "ray", ADHOC / "qrels.txt",
                                 ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"])
        assert code == 2 and out == ""
        assert err == "ipsoeval: error: --engine ray needs Ray: pip install 'ipsoeval[ray]'\n"


def test_bad_engine_value():
    code, _, err = invoke(["eval", "--engine", "spark", ADHOC / "qrels.txt",
                           ADHOC / "run-bm25.txt"])
    assert code == 2 and "--engine must be local, ray or ray://HOST:PORT" in err


@needs_ray
def test_unreachable_address_fails_fast():
    """In a fresh process (no Ray session open): one line, exit 3, in seconds."""
    import subprocess

    from tests.conftest import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT), RAY_ADDRESS="127.0.0.1:9")
    for args in (["eval", "--engine", "ray://127.0.0.1:9"],
                 ["sigtest", "-m", "AP", "--engine", "ray"]):
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, "-m", "ipsoeval", *args, str(ADHOC / "qrels.txt"),
                            str(ADHOC / "run-bm25.txt"), str(ADHOC / "run-neural.txt")],
                           capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 3 and p.stdout == ""
        assert p.stderr.startswith("ipsoeval: error: cannot reach the Ray cluster at ")
        assert "127.0.0.1:9" in p.stderr and p.stderr.count("\n") == 1
        assert time.monotonic() - t0 < 30


def test_options_needing_rankings_refused():
    code, _, err = invoke(["eval", "--bounds", "--engine", "ray", ADHOC / "qrels.txt",
                           ADHOC / "run-bm25.txt"])
    assert code == 2 and "--engine ray does not combine with --bounds" in err


def test_batched_sweep_equal_with_repeated_paths_and_first_error(tmp_path):
    """40 runs (batches of several runs), a file given twice: the same
    matrices and warnings; a bad line in a late run and a duplicate docno in
    an earlier one: the error the runs read together give."""
    from ipsoeval import engine
    from ipsoeval.distributed import SweepOptions, score_runs

    qrels, runs = write_random(tmp_path, 21, 40, n_topics=12)
    runs = runs + [runs[3], runs[0]]
    reqs = engine.requested(["AP", "nDCG@10", "P@5", "relstring"])
    for queries in ("intersection", "qrels"):
        al = engine.load(str(qrels), runs, queries=queries)
        a = engine.evaluate(al, reqs, text_ok=True)
        b, warnings = score_runs(str(qrels), runs, reqs, options=SweepOptions(queries=queries),
                                 text_ok=True)
        matrices_equal(a, b)
        assert warnings == al.warnings
    with open(runs[30], "a") as f:
        f.write("101 Q0 broken\n")
    first = open(runs[5]).readline()
    with open(runs[5], "a") as f:
        f.write(first)                              # a duplicate docno
    a = invoke(["eval", qrels, *runs])
    b = invoke(["eval", "--engine", "local", qrels, *runs])
    from ipsoeval.distributed import score_runs as sweep
    with pytest.raises(Exception) as exc:
        sweep(str(qrels), runs, reqs)
    assert a[0] == 3 and a[2] == f"ipsoeval: error: {exc.value}\n"
    assert b == a


def test_local_engine_sweeps_many_runs_same_bytes(tmp_path, monkeypatch):
    """--engine local scores SWEEP_RUNS runs or more a batch at a time: the
    same bytes as aligning them all at once (the path below the threshold)."""
    import ipsoeval.distributed as dist

    qrels, runs = write_random(tmp_path, 4, 70, n_topics=10)
    assert len(runs) >= dist.SWEEP_RUNS
    cases = (["eval", "-q", "--format", "tsv", "-m", "AP", "-m", "nDCG@10", "-m", "relstring",
              qrels, *runs],
             ["eval", qrels, *runs],
             ["leaderboard", "-m", "AP", "--samples", "100", "--format", "json", qrels, *runs])
    calls = []
    real = dist.score_runs
    monkeypatch.setattr(dist, "score_runs", lambda *a, **k: calls.append(1) or real(*a, **k))
    swept = [invoke(args) for args in cases]
    assert len(calls) == len(cases)
    monkeypatch.setattr(dist, "SWEEP_RUNS", 10 ** 9)
    for args, got in zip(cases, swept):
        assert got[0] == 0 and invoke(args) == got


@needs_ray
def test_ray_client_address_without_ray_client_is_a_usage_error():
    """ray://HOST:PORT needs Ray Client (ray[client]); where it is missing the
    command says so (exit 2) instead of a traceback."""
    import socket
    import subprocess

    from tests.conftest import ROOT

    try:
        import grpc  # noqa: F401
        pytest.skip("Ray Client is installed here")
    except ImportError:
        pass
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "ipsoeval", "eval", "--engine",
                            f"ray://127.0.0.1:{port}", str(ADHOC / "qrels.txt"),
                            str(ADHOC / "run-bm25.txt")], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"ipsoeval: error: --engine ray://127.0.0.1:{port} needs Ray Client: "
                        f"pip install 'ray[client]'\n")


def test_reader_notes_on_ids_not_utf8_as_local(tmp_path):
    """The readers' notes (an id that is not UTF-8), of the qrels and of runs
    in several batches, come first and once each, as from the local path."""
    from ipsoeval import engine
    from ipsoeval.distributed import SweepOptions, score_runs

    qrels, runs = write_random(tmp_path, 9, 24, n_topics=8)
    with open(qrels, "ab") as f:
        f.write(b"100 0 D\xff1 1\n")
    for i in (2, 17, 18):
        with open(runs[i], "ab") as f:
            f.write(b"101 Q0 X\xfe9 99 -5.0 tagx\n")
    runs.append(runs[17])
    reqs = engine.requested(["AP", "P@5"])
    for queries in ("intersection", "qrels"):
        al = engine.load(str(qrels), runs, queries=queries)
        a = engine.evaluate(al, reqs)
        b, warnings = score_runs(str(qrels), runs, reqs, options=SweepOptions(queries=queries))
        assert any("UTF-8" in w for w in al.warnings), al.warnings
        assert warnings == al.warnings
        matrices_equal(a, b)


def test_tie_break_expected_not_swept(tmp_path):
    qrels, runs = write_random(tmp_path, 2, 3)
    code, _, err = invoke(["eval", "--tie-break", "expected", "--engine", "ray", qrels, *runs])
    assert code == 2 and "--engine ray does not combine with --tie-break expected" in err


@needs_ray
def test_across_same_bytes_on_ray(ray_cluster, tmp_path):
    """ipsoeval across: each collection's runs scored by a sweep on Ray and
    each collection's bootstrap resamples drawn in a Ray task: the same bytes."""
    from tests.conftest import ROOT
    manifest = str(ROOT / "testdata" / "across" / "manifest.tsv")
    for fmt in ("tsv", "json"):
        same(["across", manifest, "-m", "nDCG@10", "-m", "AP", "--samples", "300",
              "--format", fmt], "ray")
    same(["across", manifest, "-m", "nDCG@10", "--samples", "300", "--table", "leaderboard"],
         "ray")
