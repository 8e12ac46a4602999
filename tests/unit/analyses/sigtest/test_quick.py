"""``ipsoeval sigtest`` served without numpy (ipsoeval/analyses/sigtest/quick.py):
byte for byte what the full program prints -- standard output, standard
error and exit status -- and the full program whenever anything else is asked
for; ipsoeval.stats.paired's reproduction of numpy's sums and of the tie rule."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ipsoeval.analyses.sigtest import quick as _quick
from ipsoeval.reading import compiled as _fast
from ipsoeval.stats import paired
from tests.conftest import invoke, run_quick_sigtest

pytestmark = pytest.mark.skipif(_fast._core is None, reason="compiled core not built")

ENTRY = ("import sys; from ipsoeval._quick import main; sys.argv[0] = 'ipsoeval'; "
         "sys.exit(main())")


@pytest.fixture(autouse=True)
def _plain_env(plain_env):
    """Neither $IPSOEVAL_WARNINGS nor $IPSOEVAL_CORE of the caller's shell."""


def run_quick(args, tty=False):
    """quick_sigtest(args) in-process: (served, exit status, stdout, stderr)."""
    return run_quick_sigtest(args, tty)


def same_as_full(args):
    """Run both paths; assert the same bytes and status; return whether the
    quick path served."""
    served, code, out, err = run_quick(args)
    fcode, fout, ferr = invoke(args)
    if served:
        assert (code, out, err) == (fcode, fout, ferr), args
    else:
        assert out == err == ""
    return served


def write_study(d: Path, topics: int, runs, *, qrels_topics=None, seed=0):
    """Graded qrels over ``topics`` topics and one file per run: ``runs`` is a
    list of (name, score levels, copy of run index or None); few score levels
    make ties."""
    rng = np.random.default_rng(seed)
    docs = 12
    # topic ids: q0, q1, ... or numbers in a shuffled order (the order of
    # the sums must be the full program's)
    ids = [f"q{t}" for t in range(1000)] if seed % 2 else \
        [str(x) for x in rng.permutation(1000) + 1]
    lines = []
    for t in range(qrels_topics if qrels_topics is not None else topics):
        for k in range(docs):
            lines.append(f"{ids[t]} 0 d{k} {int(rng.integers(0, 3))}\n")
    (d / "qrels").write_text("".join(lines))
    paths, bodies = [], []
    for name, levels, copy in runs:
        if copy is not None:
            body = bodies[copy].replace(f" {runs[copy][0]}\n", f" {name}\n")
        else:
            rows = []
            for t in range(topics):
                n = int(rng.integers(1, docs + 1))
                picked = rng.permutation(docs)[:n]
                for rank, k in enumerate(picked):
                    score = float(rng.integers(0, levels)) if levels else float(docs - rank)
                    rows.append(f"{ids[t]} Q0 d{k} {rank + 1} {score} {name}\n")
            if seed % 3 == 0:
                rng.shuffle(rows)
            body = "".join(rows)
        bodies.append(body)
        p = d / f"{name}.run"
        p.write_text(body)
        paths.append(str(p))
    return str(d / "qrels"), paths


MEASURES = ["nDCG@10", "P@10", "R@10", "recall.5", "R(rel=2)@20", "AP", "RR", "Success@5", "Judged@10", "bpref", "Rprec",
            "ERR@20", "P(rel=2)@5", "map", "P.5", "ndcg_cut_10"]


@settings(max_examples=80)
@given(topics=st.sampled_from([1, 2, 7, 8, 9, 127, 128, 129, 300]),
       nruns=st.integers(2, 4),
       levels=st.sampled_from([0, 2, 5]),
       copy=st.booleans(),
       measures=st.lists(st.sampled_from(MEASURES), min_size=1, max_size=3),
       extra=st.sampled_from([[], ["--all-pairs"], ["--fail-if", "worse"],
                              ["--fail-if=different", "--all-pairs"],
                              ["--alternative", "less", "--alpha", "0.2"],
                              ["--baseline", "r1", "--fail-if", "worse"],
                              ["--format", "tsv", "--correct", "none"],
                              ["--correct", "holm", "--fail-if", "worse"],
                              ["--correct=bh", "--all-pairs"], ["--correct", "bonferroni"],
                              ["--seed", "7", "--samples=1000", "--scale", "original"],
                              ["--format", "json"], ["--format=json", "--fail-if", "worse"]]),
       seed=st.integers(0, 2**16))
# the tie warning of several runs names its measures in the order asked on both paths
@example(topics=1, nruns=2, levels=2, copy=False, measures=["nDCG@10", "recall.5"], extra=[],
         seed=0)
def test_quick_is_the_full_program(topics, nruns, levels, copy, measures, extra, seed):
    runs = [(f"r{i}", levels, 0 if copy and i == nruns - 1 else None) for i in range(nruns)]
    with tempfile.TemporaryDirectory() as tmp:
        qrels, paths = write_study(Path(tmp), topics, runs, seed=seed)
        args = ["sigtest", *[x for m in measures for x in ("-m", m)], *extra, qrels, *paths]
        assert same_as_full(args)


@pytest.mark.parametrize("topics", [1, 2, 8, 128, 129])
def test_equal_runs_and_undefined_p_values(tmp_path, topics):
    """Zero differences everywhere: t's p-value undefined (the warning), sign's 1."""
    qrels, paths = write_study(tmp_path, topics, [("a", 3, None), ("b", 3, 0), ("c", 0, None)])
    for extra in ([], ["--fail-if", "different"], ["--format", "json"]):
        args = ["sigtest", "-m", "P@10", "-m", "nDCG@10", "-m", "R@5", *extra, qrels, *paths]
        assert same_as_full(args)
    served, code, out, err = run_quick(["sigtest", "-m", "P@10", qrels, *paths[:2]])
    assert served and "t: p-value undefined for 1 comparison(s)" in err


@pytest.mark.parametrize("fmt", ["auto", "tsv", "json"])
def test_output_file(tmp_path, fmt):
    """-o FILE: the file the full program writes (a new one, or one replaced
    whole), nothing on standard output, the same warnings and gate."""
    qrels, paths = ordered_study(tmp_path)
    quick, full = tmp_path / "quick.out", tmp_path / "full.out"
    full.write_text("old")
    for fail_if in ([], ["--fail-if", "worse"]):
        args = ["sigtest", "-m", "P@10", "-m", "AP", "--format", fmt, *fail_if, qrels, *paths]
        served, code, out, err = run_quick(args + ["-o", str(quick)])
        fcode, fout, ferr = invoke(args + ["--output", str(full)])
        assert served and (code, out, err) == (fcode, fout, ferr) and out == ""
        assert quick.read_bytes() == full.read_bytes() != b"old"
        assert run_quick(args + [f"--output={quick}"])[1:] == (code, out, err)


def test_warnings_modes(tmp_path, monkeypatch):
    qrels, paths = write_study(tmp_path, 5, [("a", 3, None), ("b", 3, 0)])
    args = ["sigtest", "-m", "P@10", "-m", "R@5", qrels, *paths]
    for mode in ("all", "ignore"):
        assert same_as_full(args + ["-W", mode])
        assert same_as_full(args + [f"--warnings={mode}"])
        monkeypatch.setenv("IPSOEVAL_WARNINGS", mode)
        assert same_as_full(args)
    assert same_as_full(args + ["-W", "default"])
    monkeypatch.setenv("IPSOEVAL_WARNINGS", "error")          # the full program refuses
    assert run_quick(args)[0] is False
    monkeypatch.setenv("IPSOEVAL_WARNINGS", "loud")           # a usage error
    assert run_quick(args)[0] is False


def test_junit(tmp_path):
    qrels, paths = ordered_study(tmp_path)
    for fail_if in ("worse", "different"):
        args = ["sigtest", "-m", "nDCG@10", "-m", "P@10", "--fail-if", fail_if, qrels, *paths]
        served, code, out, err = run_quick(args + ["--junit", str(tmp_path / "quick.xml")])
        assert served and (code, out, err) == invoke(args + ["--junit",
                                                            str(tmp_path / "full.xml")])
        assert (tmp_path / "quick.xml").read_text() == (tmp_path / "full.xml").read_text()
        assert "<failure" in (tmp_path / "full.xml").read_text()


def ordered_study(d: Path, topics: int = 30):
    """qrels and two runs: "base" ranks the relevant documents first, "worse" last."""
    q = "".join(f"q{t} 0 d{k} {int(k < 4)}\n" for t in range(topics) for k in range(12))
    (d / "qrels").write_text(q)
    paths = []
    for name, order in (("base", range(12)), ("worse", range(11, -1, -1))):
        p = d / name
        p.write_text("".join(f"q{t} Q0 d{k} {r + 1} {20 - r} {name}\n"
                             for t in range(topics) for r, k in enumerate(order)))
        paths.append(str(p))
    return str(d / "qrels"), paths


def test_the_gate(tmp_path):
    """A failed gate exits 1 after the table, as the full program does, through
    the console script's entry."""
    qrels, paths = ordered_study(tmp_path)
    for fail_if in ("worse", "different"):
        args = ["sigtest", "-m", "nDCG@10", "-m", "P@10", "--fail-if", fail_if, qrels, *paths]
        assert run_quick(args)[0]
        p = subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True)
        assert (p.returncode, p.stdout, p.stderr) == invoke(args)
        assert p.returncode == 1 and p.stderr.startswith("ipsoeval: gate failed: worse significantly")
    args = ["sigtest", "-m", "nDCG@10", "--fail-if", "worse", "--baseline", "worse", qrels, *paths]
    p = subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True)
    assert (p.returncode, p.stdout, p.stderr) == invoke(args)
    assert p.returncode == 0 and p.stderr.startswith("ipsoeval: gate passed: no challenger")


def test_gate_passes(tmp_path):
    qrels, paths = write_study(tmp_path, 60, [("base", 0, None), ("same", 0, 0)])
    args = ["sigtest", "-m", "nDCG@10", "--fail-if", "worse", qrels, *paths]
    p = subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True)
    assert (p.returncode, p.stdout, p.stderr) == invoke(args)
    assert p.returncode == 0 and p.stderr.startswith("ipsoeval: gate passed: no challenger")


def test_served_call_imports_neither_numpy_nor_click(tmp_path):
    qrels, paths = write_study(tmp_path, 20, [("a", 0, None), ("b", 3, None)])
    code = ("import sys; from ipsoeval._quick import main; "
            f"sys.argv = ['ipsoeval', 'sigtest', '-m', 'nDCG@10', '-m', 'P@10', {qrels!r}, "
            f"*{paths!r}]; main(); "
            "sys.stderr.write(repr([m in sys.modules for m in ('numpy', 'click', 'rich')]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code_, out, err = invoke(["sigtest", "-m", "nDCG@10", "-m", "P@10", qrels, *paths])
    assert p.stdout == out
    assert p.stderr == err + "[False, False, False]"


def test_a_closed_pipe_exits_0(tmp_path):
    """`ipsoeval sigtest ... | head -1`: quiet, exit 0 (and the gate still decides)."""
    runs = [(f"r{i:02d}", 0, None) for i in range(30)]     # no tied scores: no warning
    qrels, paths = write_study(tmp_path, 10, runs)
    for extra, status in (([], 0), (["--fail-if", "different"], None)):
        args = ["sigtest", "--all-pairs", "-m", "P@10", "-m", "AP", *extra, qrels, *paths]
        p = subprocess.Popen([sys.executable, "-c", ENTRY, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read().decode()
        rc = p.wait()
        p.stderr.close()
        if status == 0:
            assert (rc, err) == (0, "")
        else:
            assert rc == invoke(args)[0]
            assert "Traceback" not in err


def test_declines(tmp_path, monkeypatch):
    """Everything outside its reach goes to the full program, nothing printed."""
    monkeypatch.chdir(tmp_path)
    qrels, paths = write_study(tmp_path, 5, [("a", 3, None), ("b", 0, None)])
    missing = tmp_path / "missing.qrels"                              # a topic not in the runs
    missing.write_text(Path(qrels).read_text() + "q99 0 d1 1\n")
    dup = tmp_path / "dup.run"
    dup.write_text(Path(paths[0]).read_text())                        # run name "a" twice
    base = ["sigtest", "-m", "nDCG@10"]
    for args in (base + ["--format", "jsonl", qrels, *paths],
                 base + ["-o", str(tmp_path / "no" / "out.tsv"), qrels, *paths],
                 base + ["-o", str(tmp_path), qrels, *paths],
                 base + ["-o", "", qrels, *paths],
                 base + ["-o", "/dev/null", qrels, *paths],
                 base + ["--test", "t", qrels, *paths],
                 base + ["--correct", "Holm", qrels, *paths],
                 base + ["--plot", str(tmp_path / "x.svg"), qrels, *paths],
                 base + ["--junit", str(tmp_path / "j.xml"), qrels, *paths],
                 base + ["-W", "loud", qrels, *paths],
                 base + ["--table", "tests", qrels, *paths],
                 base + ["--samples", "0", qrels, *paths],
                 base + ["--seed", "x", qrels, *paths],
                 base + ["--scale", "interval", qrels, *paths],
                 base + ["--alpha", "2", qrels, *paths],
                 base + ["--alternative", "up", qrels, *paths],
                 base + ["--baseline", paths[1], qrels, *paths],
                 base + ["--baseline", "nope", qrels, *paths],
                 base + ["--fail-if", "worse", "--all-pairs", qrels, *paths],
                 base + [qrels, paths[0]],
                 base + ["-", *paths],
                 base + [missing, *paths],
                 base + [qrels, paths[0], str(dup)],
                 base + [qrels, paths[0], str(tmp_path / "absent")],
                 ["sigtest", "-m", "NumRet", qrels, *paths],
                 ["sigtest", "-m", "RBP", qrels, *paths],
                 ["sigtest", qrels, *paths],
                 ["eval", "-m", "AP", qrels, *paths]):
        assert not same_as_full(args), args
    # -oFILE, as click reads it: the declaration's parser reads it the same way
    assert same_as_full(base + [f"-o{tmp_path / 'x.tsv'}", qrels, *paths])
    assert same_as_full(base + ["-mAP", qrels, *paths])
    # -o - is standard output in both paths: served, the same bytes, no file "-"
    assert same_as_full(base + ["-o", "-", qrels, *paths])
    assert not (tmp_path / "-").exists()
    assert run_quick(base + [qrels, *paths], tty=True)[0] is False       # the table layout
    assert run_quick(base + ["--format", "tsv", qrels, *paths], tty=True)[0]
    monkeypatch.setenv("IPSOEVAL_CORE", "python")
    assert run_quick(base + [qrels, *paths])[0] is False


# ------------------------------------------------------------- stats.paired

@settings(max_examples=200)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=700))
def test_pairwise_sum_is_numpys(xs):
    for n in {len(xs), min(len(xs), 8), min(len(xs), 129)}:
        x = xs[:n]
        assert paired.pairwise_sum(x) == np.add.reduce(np.array(x, dtype=np.float64))
        assert paired.pairwise_sum(x) == np.array([x, x]).sum(axis=-1)[1]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 300,
                               1000, 1031])
def test_moments_are_paired_summarys(n):
    from ipsoeval.stats.descriptive import paired_summary
    rng = np.random.default_rng(n)
    a = rng.random(n).round(rng.integers(1, 4))
    b = rng.random(n).round(rng.integers(1, 4))
    s = paired_summary(a[None], b[None])
    got = paired.moments(a.tolist(), b.tolist())
    want = (s.n[0], s.mean_a[0], s.mean_b[0], s.diff[0], s.sd[0], s.wins[0], s.ties[0],
            s.losses[0])
    assert [repr(float(x)) for x in got] == [repr(float(x)) for x in want]
    if n >= 2:
        d = b - a
        assert got[3] == d.mean() and got[4] == d.std(ddof=1)


near = st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.1 + 0.2, 0.3 - 0.2, 1.0 / 3.0, 0.5, 1.0])


@settings(max_examples=300)
@given(st.lists(st.tuples(near, near), max_size=40))
def test_sign_counts_follow_the_tie_rule(pairs):
    from ipsoeval.stats._rank import snapped_difference
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    d = snapped_difference(np.array([a]), np.array([b]))[0]
    assert paired.sign_counts(a, b) == (int((d > 0).sum()), int((d != 0).sum()))


def test_constants_are_the_declarations():
    from ipsoeval.measures import parse_measure
    from ipsoeval.stats import _rank
    assert paired.TIE_ULPS == _rank.TIE_ULPS and paired.EPS == np.finfo(np.float64).eps
    from ipsoeval.measures.registry import FAMILIES
    from ipsoeval.reading.provider import supports
    served = []
    for fam in FAMILIES.values():          # the scale is the declaration's, read once
        m = parse_measure(fam.example_name())
        scale = _quick._scale(m.family)
        if scale is not None and supports(m) is None:
            assert m.scale == scale and m.higher_is_better
            served.append(m.family)
    assert {"P", "R", "AP", "nDCG", "RR", "Success", "Judged", "bpref", "Rprec",
            "ERR"} <= set(served)
    assert not {"NumRet", "NumRel", "NumRelRet", "NumQ", "runid"} & set(served)


def test_entry_keeps_other_commands_cheap():
    """The console script imports the sigtest quick path only for sigtest."""
    code = ("import sys; from ipsoeval import _quick; sys.argv = ['ipsoeval', '--version']\n"
            "try:\n    _quick.main()\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(repr('ipsoeval.analyses.sigtest.quick' in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "IPSOEVAL_CORE": "auto"})
    assert p.stderr.endswith("False")


@settings(max_examples=200)
@given(st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 1.0, float("nan")])),
                max_size=30),
       st.sampled_from(["bonferroni", "holm", "bh"]))
@example([1.17e-312, 0.3, 0.02], "bh")
@example([0.01, 0.01, 0.699685806725371, 0.14067978971908934, 8.1926316e-317, 0.01,
          3.3810696e-317], "bh")       # 2.86742104e-316 against statsmodels' 2.8674211e-316
def test_corrections_are_statsmodels(ps, method):
    """The pure-Python correction (one declaration for both paths) against
    statsmodels' multipletests on the finite p-values."""
    from statsmodels.stats.multitest import multipletests

    from ipsoeval.stats.corrections import adjust, adjust_list
    got = adjust_list(ps, method)
    assert [repr(x) for x in got] == [repr(x) for x in adjust(np.array(ps), method).tolist()]
    finite = [p for p in ps if p == p]
    if finite:
        sm = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}[method]
        want = multipletests(finite, method=sm)[1]
        # subnormal p-values (below 2.2e-308) are spaced 4.9e-324 apart: the
        # same product and quotient in another order may differ by a few
        # spacings, which is 1e-11 relative at 1e-312
        assert np.allclose([p for p in got if p == p], want, rtol=1e-12, atol=2e-322)
    assert [p != p for p in got] == [p != p for p in ps]


def test_many_runs_as_the_sweep_scores_them(tmp_path):
    """64 runs or more: the full program scores them in a sweep (same bytes)."""
    runs = [(f"r{i:02d}", (0, 2, 5)[i % 3], None) for i in range(66)]
    qrels, paths = write_study(tmp_path, 9, runs, seed=4)
    for extra in ([], ["--fail-if", "worse", "--correct", "holm"]):
        assert same_as_full(["sigtest", "-m", "P@10", "-m", "AP", *extra, qrels, *paths])
