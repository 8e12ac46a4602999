"""The bench cases run (``bench/run.py --smoke``): every case's own tools on
the quick data, once, without peers or targets.  A redesign once broke an
in-process bench case (it indexed a list the Report had replaced) and no
test noticed; speed itself is measured by ``make bench``, not here."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT

BENCH = ROOT / "bench"


@pytest.mark.slow
def test_every_bench_case_runs(tmp_path):
    r = subprocess.run([sys.executable, str(BENCH / "run.py"), "--smoke", "--data",
                        str(tmp_path / "data")], capture_output=True, text=True, cwd=ROOT,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "smoke: every tool ran" in r.stdout


FAKE = """
import sys
sys.path.insert(0, sys.argv[1])
import harness, run
ok = harness.Tool(lambda ctx: [sys.executable, "-c", "pass"])
bad = harness.Tool(lambda ctx: [sys.executable, "-c", "raise SystemExit(3)"])
peer = harness.Tool(lambda ctx: [sys.executable, "-c", "raise SystemExit(4)"])
case = harness.Case(name="fake", description="a tool that fails", data="adhoc",
                    tools={"ipsoeval": ok, "broken": bad, "trec_eval": peer})
run.load_cases = lambda: [case]
run._compile_bytecode = lambda: None
run.RESULTS = run.Path(sys.argv[2]) / "results.tsv"
sys.exit(run.main(["--smoke", "--data", sys.argv[2] + "/data"]))
"""


def test_smoke_fails_when_a_tool_fails(tmp_path):
    """A tool of ipsoeval's own that exits non-zero fails the smoke run (exit
    1, named); peers do not run; results.tsv is not written."""
    r = subprocess.run([sys.executable, "-c", FAKE, str(BENCH), str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "fake: broken: failed (exit 3)" in r.stdout
    rows = [ln.split()[:2] for ln in r.stdout.splitlines()]
    assert ["fake", "ipsoeval"] in rows and ["fake", "trec_eval"] not in rows
    assert not (tmp_path / "results.tsv").exists()
