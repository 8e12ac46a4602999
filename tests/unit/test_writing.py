"""ipsoeval.writing: the temporary file beside an output (our own mkstemp,
checked against tempfile.mkstemp's contract), and -o FILE written whole with
its mode kept, never through a link planted at the temporary name."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from conftest import ROOT

from ipsoeval.writing import mkstemp, write_output


def test_mkstemp_makes_a_new_private_file(tmp_path):
    fd, path = mkstemp(".ipsoeval-", str(tmp_path))
    try:
        assert os.path.dirname(path) == str(tmp_path)
        assert os.path.basename(path).startswith(".ipsoeval-")
        assert len(os.path.basename(path)) == len(".ipsoeval-") + 12
        assert stat.S_IMODE(os.fstat(fd).st_mode) == 0o600
        os.write(fd, b"x")
    finally:
        os.close(fd)
    assert open(path, "rb").read() == b"x"
    names = {mkstemp("p", str(tmp_path))[1] for _ in range(50)}
    assert len(names) == 50                                   # a new name each time


def test_mkstemp_never_opens_an_existing_name_or_a_link(tmp_path, monkeypatch):
    target = tmp_path / "victim"
    target.write_text("keep")
    os.symlink(target, tmp_path / ("p" + "00" * 6))
    (tmp_path / ("p" + "11" * 6)).write_text("taken")
    draws = iter([b"\0" * 6, b"\x11" * 6, b"\x22" * 6])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    fd, path = mkstemp("p", str(tmp_path))
    os.close(fd)
    assert path == str(tmp_path / ("p" + "22" * 6))
    assert target.read_text() == "keep"


def test_mkstemp_puts_the_suffix_after_the_random_part(tmp_path):
    fd, path = mkstemp(".write-", str(tmp_path), ".npz")
    os.close(fd)
    name = os.path.basename(path)
    assert name.startswith(".write-") and name.endswith(".npz")
    assert len(name) == len(".write-") + 12 + len(".npz")


def test_one_way_to_make_a_temporary_file():
    """Only writing.mkstemp makes temporary files in the package: no other
    module imports tempfile (the ray backend's spool, a TemporaryFile, aside)."""
    import ast
    pkg = ROOT / "ipsoeval"
    users = set()
    for p in pkg.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) else []
            if "tempfile" in names:
                users.add(str(p.relative_to(pkg)))
    assert users == {"distributed/ray_backend.py"}


def test_the_interval_map_cache_writes_through_writing_mkstemp(tmp_path, monkeypatch):
    pytest.importorskip("numpy")
    from ipsoeval import writing
    from ipsoeval.analyses.interval_map import cache
    made = []
    real = writing.mkstemp

    def spy(prefix, dir, suffix=""):
        made.append((prefix, suffix))
        return real(prefix, dir, suffix)
    monkeypatch.setattr(cache, "mkstemp", spy)
    monkeypatch.setenv("IPSOEVAL_CACHE_DIR", str(tmp_path))
    c = cache.RankMemo("AP|N=3")
    warnings = []
    c._save(warnings)
    assert warnings == [] and made == [(".write-", ".npz")]
    assert [p.name for p in cache.cache_path(c.key).parent.iterdir()] == \
        [cache.cache_path(c.key).name]           # no temporary file left


def test_write_output_replaces_whole_and_keeps_the_mode(tmp_path):
    out = tmp_path / "o.tsv"
    out.write_text("old")
    os.chmod(out, 0o640)
    write_output(str(out), "new\n")
    assert out.read_text() == "new\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.tsv"]   # no temporary left


def test_writing_a_file_does_not_import_tempfile(tmp_path):
    code = ("import sys; from ipsoeval.writing import write_output; "
            f"write_output({str(tmp_path / 'a.txt')!r}, 'x'); "
            "print('tempfile' in sys.modules, 'shutil' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=60)
    assert p.stdout.split() == ["False", "False"], p.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_directory_is_an_input_error(tmp_path):
    from ipsoeval.errors import InputError
    d = tmp_path / "ro"
    d.mkdir()
    os.chmod(d, 0o500)
    try:
        with pytest.raises(InputError, match="cannot write to"):
            write_output(str(d / "o.tsv"), "x")
    finally:
        os.chmod(d, 0o700)
