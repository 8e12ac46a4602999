"""ipsoeval installs like a library.

`python -m build` gives an sdist and a wheel with the compiled core; the sdist
built on a machine without a C compiler (the compiler hidden with CC) gives a
wheel without it, says so in one line, and that install reads with the
pure-Python path and prints the same numbers.  Slow (two isolated builds that
fetch setuptools from the package index): CI runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import ROOT, TESTDATA

pytestmark = pytest.mark.slow

QRELS = str(TESTDATA / "adhoc" / "qrels.txt")
RUN = str(TESTDATA / "adhoc" / "run-bm25.txt")


def _run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    r = _run([sys.executable, "-m", "build", "-o", str(out), str(ROOT)])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    sdist = next(out.glob("ipsoeval-*.tar.gz"))
    wheel = next(out.glob("ipsoeval-*.whl"))
    return sdist, wheel


def test_build_gives_sdist_and_wheel_with_the_core(dists):
    import tarfile
    sdist, wheel = dists
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("ipsoeval/_core") and n.endswith((".so", ".pyd")) for n in names)
    assert "ipsoeval/cli/__init__.py" in names
    with tarfile.open(sdist) as tf:
        members = [m.split("/", 1)[1] for m in tf.getnames() if "/" in m]
    for needed in ("ipsoeval/_core.c", "setup.py", "pyproject.toml", "man/ipsoeval.1",
                   "CHANGELOG.md", "README.md"):
        assert needed in members, needed
    assert not any(m.startswith(("tests/", "testdata/", "bench/")) for m in members)


def test_sdist_without_a_compiler_falls_back_to_python(dists, tmp_path):
    sdist, _ = dists
    env = dict(os.environ, CC="/nonexistent/cc", LDSHARED="/nonexistent/cc -shared")
    r = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path),
              str(sdist)], env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    notes = [ln for ln in (r.stdout + r.stderr).splitlines()
             if "ipsoeval: note: compiled core not built" in ln]
    assert notes and all(ln.strip().endswith("the pure-Python reader serves (slower)")
                         for ln in notes)
    wheel = next(tmp_path.glob("ipsoeval-*.whl"))
    assert not any("_core" in n and n.endswith((".so", ".pyd"))
                   for n in zipfile.ZipFile(wheel).namelist())
    target = tmp_path / "site"
    r = _run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target),
              str(wheel)])
    assert r.returncode == 0, r.stderr[-3000:]
    # -S: no .pth files, so this checkout's editable install cannot lend its core;
    # the dependencies come from this interpreter's site-packages, named explicitly
    import numpy
    deps = os.path.dirname(os.path.dirname(numpy.__file__))
    pure = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), deps]))
    py = [sys.executable, "-S"]
    v = _run([*py, "-m", "ipsoeval", "--version"], env=pure, cwd=tmp_path)
    where = _run([*py, "-c", "import ipsoeval, importlib.util as u; "
                  "print(ipsoeval.__file__, u.find_spec('ipsoeval._core'))"], env=pure,
                 cwd=tmp_path)
    assert where.stdout.startswith(str(target)) and where.stdout.split()[-1] == "None", \
        where.stdout + where.stderr
    assert "pure-Python core" in v.stdout
    got = _run([*py, "-m", "ipsoeval", "eval", "--format", "trec", QRELS, RUN], env=pure,
               cwd=tmp_path)
    want = _run([sys.executable, "-m", "ipsoeval", "eval", "--format", "trec", QRELS, RUN],
                cwd=ROOT)
    assert got.returncode == want.returncode == 0, got.stderr
    assert got.stdout == want.stdout and got.stdout.count("\n") > 20


def test_wheel_installs_with_every_extra(dists):
    """`pip install 'ipsoeval[plot,pandas,arrow,irds,ray]'` from the wheel: pip
    resolves every extra's requirements (a dry run against the package index)."""
    _, wheel = dists
    r = _run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
              "--quiet", "--report", "-", f"ipsoeval[plot,pandas,arrow,irds,ray] @ {wheel.as_uri()}"])
    assert r.returncode == 0, r.stderr[-3000:]
    import json
    names = {i["metadata"]["name"].lower().replace("_", "-")
             for i in json.loads(r.stdout)["install"]}
    for need in ("ipsoeval", "matplotlib", "pandas", "pyarrow", "ir-datasets", "ray", "numpy"):
        assert need in names, (need, sorted(names))
