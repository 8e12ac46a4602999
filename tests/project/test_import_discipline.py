"""Import only what a command uses.

``ipsoeval --help`` and every ``ipsoeval CMD --help`` load neither numpy nor
scipy nor rich (the analysis packages declare their option constants without
their numerical modules); sigtest, ppi, power, leaderboard and meta never
load scipy.stats, which costs about a second to import.  Where a function of
scipy.stats was replaced by our own (ipsoeval.special.dist), the numbers are
checked here to agree with scipy.stats' to 1e-13 relative (1e-12 for the
quantiles, where scipy's own error reaches 1e-13).  Speed itself is measured by
``make bench`` (the ``small-study`` case), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from ipsoeval.cli import COMMANDS
from tests.conftest import ROOT, TESTDATA

HEAVY = ("numpy", "scipy", "rich", "pandas", "matplotlib")
QRELS = str(TESTDATA / "adhoc" / "qrels.txt")
QRELS_B = str(TESTDATA / "adhoc" / "qrels-b.txt")
BM25 = str(TESTDATA / "adhoc" / "run-bm25.txt")
NEURAL = str(TESTDATA / "adhoc" / "run-neural.txt")

# Runs each argument list in turn in one fresh interpreter; after each, the
# top-level packages loaded so far (a list per call, as JSON on stderr's last line).
DRIVER = """
import json, sys
from ipsoeval.cli import main
seen = []
for args in json.loads(sys.argv[1]):
    try:
        main(args)
    except SystemExit:
        pass
    seen.append(sorted(m for m in sys.modules if m.split('.')[0] in %r or m == 'scipy.stats'))
sys.stderr.write('\\n' + json.dumps(seen) + '\\n')
""" % (HEAVY,)


def _modules_after(calls: list[list[str]], tmp_path) -> list[list[str]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80")
    p = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(calls)], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stderr.strip().splitlines()[-1])


def test_help_loads_no_numerical_or_display_package(tmp_path):
    calls = [["--help"], *[[c, "--help"] for c in COMMANDS]]
    loaded = _modules_after(calls, tmp_path)
    for args, mods in zip(calls, loaded):
        assert not mods, f"ipsoeval {' '.join(args)} imported {mods[:5]}"


def test_commands_on_small_inputs_do_not_load_scipy_stats(tmp_path):
    calls = [
        ["sigtest", "-m", "nDCG@10", "-o", str(tmp_path / "s.tsv"), QRELS, BM25, NEURAL],
        ["ppi", "-m", "P@5", "--human", str(TESTDATA / "ppi" / "human.qrels"),
         "--auto", str(TESTDATA / "ppi" / "auto.qrels"), "-o", str(tmp_path / "p.tsv"),
         BM25, NEURAL],
        ["power", "-m", "AP", "-o", str(tmp_path / "w.tsv"), QRELS, BM25, NEURAL],
        ["leaderboard", "-m", "AP", "--samples", "200", "-o", str(tmp_path / "l.tsv"),
         QRELS, BM25, NEURAL],
        ["agree", "-o", str(tmp_path / "a.tsv"), QRELS, QRELS_B],
    ]
    loaded = _modules_after(calls, tmp_path)
    for args, mods in zip(calls, loaded):
        assert "scipy.stats" not in mods, f"ipsoeval {args[0]} imported scipy.stats"
    for name in ("s", "p", "w", "l", "a"):        # every call did its work
        assert (tmp_path / f"{name}.tsv").stat().st_size > 0


def test_power_and_leaderboard_load_no_scipy_at_all(tmp_path):
    """power (noncentral tails, Brent's inversions) and leaderboard
    (Tukey's studentized range) run on ipsoeval.stats' own distributions."""
    runs = []
    for i, src in enumerate((BM25, NEURAL, BM25)):   # three runs: Tukey HSD over them
        dst = tmp_path / f"run{i}.txt"
        dst.write_text(open(src).read().replace(" bm25", f" r{i}").replace(" neural", f" r{i}"))
        runs.append(str(dst))
    calls = [
        ["power", "-m", "AP", "-o", str(tmp_path / "w.tsv"), QRELS, BM25, NEURAL],
        ["power", "-m", "AP", "--format", "json", "-o", str(tmp_path / "w.json"), QRELS, *runs],
        ["leaderboard", "-m", "AP", "--samples", "200", "-o", str(tmp_path / "l.tsv"),
         QRELS, *runs],
    ]
    loaded = _modules_after(calls, tmp_path)
    for args, mods in zip(calls, loaded):
        assert not [m for m in mods if m.split(".")[0] == "scipy"], f"ipsoeval {args[0]}: {mods}"
    for name in ("w.tsv", "w.json", "l.tsv"):
        assert (tmp_path / name).stat().st_size > 0


def test_meta_does_not_load_scipy_stats(tmp_path):
    runs = []
    for i, src in enumerate((BM25, NEURAL, BM25)):   # three runs (meta's minimum)
        dst = tmp_path / f"run{i}.txt"
        dst.write_text(open(src).read().replace(" bm25", f" r{i}").replace(" neural", f" r{i}"))
        runs.append(str(dst))
    out = tmp_path / "m.json"
    loaded = _modules_after([["meta", "-m", "AP", "-m", "P@5", "--format", "json", "-o",
                              str(out), QRELS, *runs]], tmp_path)
    assert "scipy.stats" not in loaded[0]
    assert json.loads(out.read_text())


def test_sigtest_ppi_meta_load_no_scipy_at_all(tmp_path):
    """Their distribution functions are ipsoeval.special.dist's (import scipy.special
    alone costs 0.45 s of CPU).  (The leaderboard's Tukey HSD still reaches
    scipy.special through stats.ptukey.)"""
    runs = []
    for i, src in enumerate((BM25, NEURAL, BM25)):
        dst = tmp_path / f"run{i}.txt"
        dst.write_text(open(src).read().replace(" bm25", f" r{i}").replace(" neural", f" r{i}"))
        runs.append(str(dst))
    calls = [
        ["sigtest", "-m", "nDCG@10", "-o", str(tmp_path / "s.tsv"), QRELS, *runs],
        ["sigtest", "-m", "AP", "--test", "sign", "--test", "wilcoxon", "--test", "ranksum",
         "-o", str(tmp_path / "s2.tsv"), QRELS, BM25, NEURAL],
        ["ppi", "-m", "P@5", "--human", str(TESTDATA / "ppi" / "human.qrels"),
         "--auto", str(TESTDATA / "ppi" / "auto.qrels"), "-o", str(tmp_path / "p.tsv"),
         BM25, NEURAL],
        ["meta", "-m", "AP", "-m", "P@5", "-o", str(tmp_path / "m.tsv"), QRELS, *runs],
    ]
    loaded = _modules_after(calls, tmp_path)
    for args, mods in zip(calls, loaded):
        assert not [m for m in mods if m.split(".")[0] == "scipy"], \
            f"ipsoeval {args[0]} imported {[m for m in mods if m.startswith('scipy')][:5]}"
    for name in ("s", "s2", "p", "m"):
        assert (tmp_path / f"{name}.tsv").stat().st_size > 0


# --- the replaced scipy.stats calls give the same floats ---------------------------

def test_ppi_tails_are_scipy_stats_own():
    stats = pytest.importorskip("scipy.stats")
    from ipsoeval.stats import ppi
    rng = np.random.default_rng(7)
    for n in (2, 3, 10, 50):
        a, b = rng.normal(0.3, 0.2, (200, n)), rng.normal(0.35, 0.3, (200, n + 1))
        d, se, p = ppi.welch_t(a, b)
        va, vb = a.var(axis=-1, ddof=1) / n, b.var(axis=-1, ddof=1) / (n + 1)
        df = (va + vb) ** 2 / (va ** 2 / (n - 1) + vb ** 2 / n)
        np.testing.assert_allclose(p, 2.0 * stats.t.sf(np.abs(d) / se, df), rtol=1e-13, atol=0)
    for alpha in (0.5, 0.1, 0.05, 0.01, 1e-6):
        assert ppi._z(alpha) == pytest.approx(float(stats.norm.isf(alpha / 2.0)), rel=1e-15)
    y = rng.normal(0.0, 1.0, (300, 12))
    ci = ppi.classical_mean(y, alpha=0.05)
    np.testing.assert_allclose(ci.p_value, 2.0 * stats.norm.sf(np.abs(ci.estimate) / ci.se),
                               rtol=1e-13, atol=0)


def test_power_distributions_are_scipy_stats_own():
    stats = pytest.importorskip("scipy.stats")
    from ipsoeval.stats import power
    rng = np.random.default_rng(8)
    for _ in range(300):
        df, nc = float(rng.integers(1, 300)), float(rng.uniform(-8, 8))
        d1, d2, lam = float(rng.integers(1, 20)), float(rng.integers(2, 400)), \
            float(rng.uniform(0, 40))
        q, x = float(rng.uniform(0.5, 0.999)), float(rng.uniform(0, 6))
        assert power._t_ppf(q, df) == pytest.approx(stats.t.ppf(q, df), rel=1e-12)
        assert power._f_ppf(q, d1, d2) == pytest.approx(stats.f.ppf(q, d1, d2), rel=1e-12)
        # the noncentral tails are our own (tests/unit/special/test_noncentral.py, with
        # mpmath where Boost's lower tails of nct fail): Boost's to 1e-11 here
        ref = float(stats.nct.sf(x, df, nc))
        if nc >= 0 or ref > 1e-3:
            assert power._nct_sf(x, df, nc) == pytest.approx(ref, rel=1e-11)
        assert power._ncf_sf(x, d1, d2, lam) == pytest.approx(
            float(stats.ncf.sf(x, d1, d2, lam)), rel=1e-11)
    # the public functions, as they were written on scipy.stats
    assert power.t_power(50, 0.05, 0.01) == pytest.approx(float(
        stats.nct.sf(stats.t.ppf(0.975, 49.0), 49.0, np.sqrt(50) * 0.05 / np.sqrt(0.02))
        + stats.nct.sf(stats.t.ppf(0.975, 49.0), 49.0, -np.sqrt(50) * 0.05 / np.sqrt(0.02))),
        rel=1e-12)


def test_ptukey_bounds_are_scipy_chi2_quantiles():
    stats = pytest.importorskip("scipy.stats")
    from scipy import special
    for df in [1.0, 2.0, 3.5, 10.0, 49.0, 539.0, 999.0]:
        assert 2.0 * special.gammaincinv(df / 2.0, 1e-17) == stats.chi2.ppf(1e-17, df)
        assert special.chdtri(df, 1e-17) == stats.chi2.isf(1e-17, df)


def test_kendall_tau_b_unsnapped_is_scipy_kendalltau():
    stats = pytest.importorskip("scipy.stats")
    from ipsoeval.stats import rankcorr
    rng = np.random.default_rng(9)
    for i in range(2000):
        n = int(rng.integers(2, 30))
        if i % 2:
            x, y = rng.integers(0, 4, n).astype(float), rng.integers(0, 5, n).astype(float)
        else:
            x = rng.random(n)
            y = x + rng.normal(0, 0.3, n)
        ref = float(stats.kendalltau(x, y).statistic)
        got = rankcorr.kendall_tau_b(x, y, snap=False)
        assert got == ref or (np.isnan(got) and np.isnan(ref)), (x, y)


# --- modules the small study's statistics commands do without -----------

# loaded by nothing those paths need: socket (only --engine ray connects),
# ipsoeval.plots (only --plot), numpy.ma (np.unique imports it: ~10 ms),
# rich and the table formatter (the output is TSV), the codecs of compressed
# input (the inputs are plain text: ~4 ms).  concurrent.futures (and the
# logging it imports) is allowed: ipsoeval.parallel's pool, ~11 ms of import
# where a call runs on more than one thread
NOT_NEEDED = ("socket", "ipsoeval.plots", "numpy.ma", "rich", "ipsoeval.formatters.table",
              "gzip", "bz2", "lzma")
DRIVER_NAMED = """
import json, sys
from ipsoeval.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:
    pass
sys.stderr.write('\\n' + json.dumps(sorted(m for m in sys.modules
                                           if m in %r or m.startswith('rich.'))) + '\\n')
""" % (NOT_NEEDED,)


def _three_runs(tmp_path) -> list[str]:
    runs = []
    for i, src in enumerate((BM25, NEURAL, BM25)):
        dst = tmp_path / f"run{i}.txt"
        dst.write_text(open(src).read().replace(" bm25", f" r{i}").replace(" neural", f" r{i}"))
        runs.append(str(dst))
    return runs


@pytest.mark.parametrize("command", ["leaderboard", "meta", "ppi"])
def test_statistics_commands_leave_out_what_they_do_not_use(command, tmp_path):
    """To standard output (-o imports tempfile, whose shutil imports bz2 and lzma)."""
    runs = _three_runs(tmp_path)
    args = {
        "leaderboard": ["leaderboard", "-m", "AP", "--samples", "200", QRELS, *runs],
        "meta": ["meta", "-m", "AP", "-m", "P@5", QRELS, *runs],
        "ppi": ["ppi", "-m", "P@5", "--human", str(TESTDATA / "ppi" / "human.qrels"),
                "--auto", str(TESTDATA / "ppi" / "auto.qrels"), BM25, NEURAL],
    }[command]
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", IPSOEVAL_THREADS="2")
    p = subprocess.run([sys.executable, "-c", DRIVER_NAMED, json.dumps(args)],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stderr.strip().splitlines()[-1]) == [], f"ipsoeval {command}"
    if command == "leaderboard":    # one measure's scores (MeasureInput) without bootstrap's analysis
        p = subprocess.run([sys.executable, "-c", DRIVER_NAMED.replace(
            repr(NOT_NEEDED), repr(("ipsoeval.analyses.bootstrap.report",
                                    "ipsoeval.analyses.bootstrap.splithalf"))),
            json.dumps(args)], capture_output=True, text=True, env=env, cwd=tmp_path,
            timeout=300)
        assert json.loads(p.stderr.strip().splitlines()[-1]) == [], p.stderr[-2000:]
    assert p.stdout.count("\n") > 1


@pytest.mark.parametrize("width", [40, 80, 200])
def test_help_lists_every_command_with_its_summary(width):
    """``ipsoeval --help`` lists every command of the one table, each with
    the start of its declared help, through click as through the fast path."""
    from click.testing import CliRunner

    from ipsoeval.cli import cli
    from ipsoeval.declare import help_width, short_help
    from ipsoeval.pipeline import COMMANDS, HELP, group_help

    got = CliRunner().invoke(cli, ["--help"], env={"COLUMNS": str(width)}).output
    assert got == group_help(help_width(width))
    listed = got.split("Commands:\n", 1)[1]
    lines = {ln.split()[0]: ln for ln in listed.splitlines() if ln.startswith("  ")}
    limit = help_width(width) - 6 - max(map(len, COMMANDS))
    for name in COMMANDS:
        assert " ".join(lines[name].split()[1:]) == short_help(HELP[name], limit), name


def test_the_measure_registry_reads_without_numpy():
    """Every family's declaration (the registry the quick paths read, and the
    compiled core's provider) loads no numpy, nor the name parser's ``re``,
    nor ``dataclasses``; the first kernel that runs imports numpy."""
    code = ("import sys\n"
            "from ipsoeval.measures.registry import FAMILIES\n"
            "from ipsoeval.reading import provider\n"
            "assert len(FAMILIES) > 50 and FAMILIES['P'].core\n"
            "bad = [m for m in ('numpy', 're', 'dataclasses', 'typing', 'inspect')\n"
            "       if m in sys.modules]\n"
            "from ipsoeval.measures import parse_measure\n"
            "from ipsoeval.model import Aligned\n"
            "sys.stdout.write(repr((bad, 'numpy' in sys.modules)))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout == "([], True)"
