import itertools
import os
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

# A slower CI machine must not turn data generation time into failures; on CI
# the examples are derandomized so a run can be repeated exactly.
settings.register_profile(
    "ipsoeval", deadline=None, derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("ipsoeval")

ROOT = Path(__file__).resolve().parent.parent

# ppi-python (a test dependency) installs a top-level package named `tests`
# into site-packages; a regular package there wins over this folder (a
# namespace package), so `from tests.conftest import ...` would find it.  Bind
# the name to this folder before any test module is imported.
if str(ROOT / "tests") not in list(getattr(sys.modules.get("tests"), "__path__", [])):
    sys.modules["tests"] = types.ModuleType("tests")
    sys.modules["tests"].__path__ = [str(ROOT / "tests")]
TE = ROOT / "tests" / "data" / "trec_eval"
TESTDATA = ROOT / "testdata"


@pytest.fixture
def te():
    return TE


@pytest.fixture
def runner():
    return CliRunner()


def environment(*, isatty=False, stderr_isatty=False, width=80, color=False, **kw):
    """The Environment a test runs the CLI in: by default neither stream is a
    terminal, tables are 80 columns wide and plain (no colour)."""
    from ipsoeval.cli.environment import Environment

    return Environment(stdout_isatty=isatty, stderr_isatty=stderr_isatty, width=width,
                       color=color, **kw)


def invoke(args, *, isatty=False, input=None, env=None, **env_kw):
    """Run the CLI in-process in ``env`` (default: :func:`environment` with
    ``isatty`` and ``env_kw``); returns (exit_code, stdout, stderr)."""
    from ipsoeval.cli import cli

    env = env if env is not None else environment(isatty=isatty, **env_kw)
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input,
                           obj={"env": env}, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def invoke_bytes(args, *, isatty=False, input=None, env=None, **env_kw):
    """:func:`invoke` with standard output as bytes (ids that are not UTF-8
    are written as their bytes); returns (exit_code, stdout bytes, stderr)."""
    from ipsoeval.cli import cli

    env = env if env is not None else environment(isatty=isatty, **env_kw)
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input,
                           obj={"env": env}, catch_exceptions=False)
    return r.exit_code, r.stdout_bytes, r.stderr


@pytest.fixture
def plain_env(monkeypatch):
    """The quick paths as a user without IPSOEVAL_WARNINGS or IPSOEVAL_CORE
    set meets them (either changes which path serves, or what it prints)."""
    monkeypatch.delenv("IPSOEVAL_WARNINGS", raising=False)
    monkeypatch.delenv("IPSOEVAL_CORE", raising=False)


def _quick_call(fn, args, tty=False):
    """fn(args) of a quick path in-process, its output captured: (served,
    exit status, stdout, stderr); a SystemExit is served with its status."""
    import io
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdout, sys.stderr
    wout = sys.stdout = io.TextIOWrapper(out, encoding="utf-8")
    wout.isatty = lambda: tty
    werr = sys.stderr = io.TextIOWrapper(err, encoding="utf-8")
    code = 0
    try:
        try:
            served = fn([str(a) for a in args])
        except SystemExit as exc:
            served, code = True, exc.code
        wout.flush()
        werr.flush()
    finally:
        sys.stdout, sys.stderr = saved
        wout.detach()
        werr.detach()
    return served, code, out.getvalue().decode(), err.getvalue().decode()


def run_quick(args):
    """eval's quick path on ``args`` in-process: (served, stdout, stderr)."""
    from ipsoeval.pipeline.evaluate import quick
    served, _, out, err = _quick_call(quick, args)
    return served, out, err


def run_quick_sigtest(args, tty=False):
    """quick_sigtest(args) in-process: (served, exit status, stdout, stderr)."""
    from ipsoeval.pipeline.sigtest import quick
    return _quick_call(quick, args, tty)


@pytest.fixture
def cli_invoke():
    return invoke


_CACHE_DIRS = itertools.count()


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path_factory, monkeypatch):
    # a cache folder of its own for each test, made only by a test that writes
    # to it (a tmp_path for every test cost 1.6 ms CPU each, 9 s a suite)
    monkeypatch.setenv("IPSOEVAL_CACHE_DIR", str(
        tmp_path_factory.getbasetemp() / "cache" / str(next(_CACHE_DIRS))))
    monkeypatch.delenv("IPSOEVAL_DEBUG", raising=False)
    yield


# The reader, alignment, golden and CLI tests run against both implementations
# of the reading core: the compiled pass (ipsoeval/_core.c) and the pure-Python
# reader/alignment it falls back to (IPSOEVAL_CORE=python).  A test module asks
# for that by setting CORE_PATHS = ("c", "python"); the alignment tests add
# "c-two-step", the compiled core's two-step path (parse, then align_run) with
# one-pass reading and alignment (stream_run) turned off ("c" streams every
# plain file grouped by topic).  The declaration travels with the module, so
# moving or renaming a test file keeps its paths.


def pytest_generate_tests(metafunc):
    modes = getattr(metafunc.module, "CORE_PATHS", None)
    if modes:
        metafunc.parametrize("core_path", list(modes), indirect=True)


@pytest.fixture(autouse=True)
def core_path(request, monkeypatch):
    mode = getattr(request, "param", None)
    if mode is None:
        return os.environ.get("IPSOEVAL_CORE", "auto")
    if mode in ("c", "c-two-step"):
        from ipsoeval.reading import compiled as _fast
        if _fast._core is None:
            pytest.skip("compiled core not built")
        if mode == "c-two-step":
            monkeypatch.setattr(_fast, "stream_run", lambda *a, **k: None)
    monkeypatch.setenv("IPSOEVAL_CORE", "c" if mode == "c-two-step" else mode)
    return mode


# --- slow tests: CI only ------------------------------------------------------------------
# The slowest tests (exhaustive enumeration at N = 16, the compiled-vs-Python
# reader comparisons on random bytes) carry @pytest.mark.slow: CI (CI=true)
# runs them, as does `pytest --run-slow`; a developer's `pytest` leaves them
# out and says so.

def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: slow test, run in CI (CI=true) or with --run-slow")
    config.addinivalue_line("markers", "browser: runs headless Chromium (make browser-deps); "
                                       "skipped when /usr/bin/chromium is missing")
    config.addinivalue_line("markers", "latex: runs pdflatex and pdftoppm (make latex-deps); "
                                       "skipped when either is missing")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow") or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="slow: runs in CI (CI=true) or with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
