"""The differential cases against trec_eval 10.0 (tests/differential/test_trec_eval.py)
once more with each run's lines grouped by topic, the order in which the
compiled core reads and aligns a run in one pass (``compiled.stream_run``): the
random runs there are shuffled, so their one-pass reading declines and the
two-step path serves.  trec_eval's output does not depend on the order of
the lines, so the same committed outputs are the reference."""

import pytest

from ipsoeval.reading import compiled as _fast
from tests.differential import test_trec_eval as td

pytestmark = pytest.mark.skipif(_fast._core is None, reason="compiled core not built")

CASES = [c for c in td.CASES if c["case"] not in td.INVALID_INPUTS
         and (td.GOLD[c["case"]]["exit"] == 0 or "skip_exit" in td.GOLD[c["case"]])]


def grouped(data: bytes) -> bytes:
    """The lines of a run grouped by topic: each topic's lines in their order,
    comment and blank lines first, and the topic of the last line last, so
    that the last line (whose tag names the run) stays last."""
    other, blocks, last = [], {}, None
    for ln in data.splitlines(keepends=True):
        f = ln.split()
        if not f or ln.startswith(b"#"):
            other.append(ln)
            continue
        blocks.setdefault(f[0], []).append(ln)
        last = f[0]
    order = [t for t in blocks if t != last] + ([last] if last is not None else [])
    return b"".join(other + [ln for t in order for ln in blocks[t]])


def test_grouping_keeps_every_line():
    run = (td.D / (CASES[0]["input"] + ".run")).read_bytes()
    assert sorted(grouped(run).splitlines()) == sorted(run.splitlines())


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["case"])
def test_case_grouped_by_topic(case, tmp_path, monkeypatch):
    monkeypatch.setenv("IPSOEVAL_CORE", "c")
    streamed = []
    real = _fast.stream_run
    monkeypatch.setattr(_fast, "stream_run",
                        lambda *a, **k: streamed.append(real(*a, **k)) or streamed[-1])
    name = case["input"] + ".run"
    (tmp_path / name).write_bytes(grouped((td.D / name).read_bytes()))
    args = [*case["args"], td.D / (case["input"] + ".qrels"), tmp_path / name]
    code, got, err = td.run_eval(args)
    gold = td.GOLD[case["case"]]
    suffix = ".out" if gold["exit"] == 0 else ".skip"
    assert code == 0 and "Traceback" not in err, err
    assert td.compare(case, got, td.read(td.D / (case["case"] + suffix))) == []
    long_ids = any(len(ln.split()[2]) > 248 for ln in (tmp_path / name).read_bytes()
                   .splitlines() if len(ln.split()) > 2 and not ln.startswith(b"#"))
    if not long_ids and "-" not in case["input"]:
        assert streamed and streamed[0] is not None     # read in one pass


def test_most_cases_are_streamed():
    """Most grouped cases take the one-pass path (long docnos decline)."""
    assert len(CASES) > 250
