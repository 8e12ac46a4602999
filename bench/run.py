"""ipsoeval benchmark harness.

Runs every tool of every case (``bench/cases/*.py``; opt-in cases, whose
data is large, only when named by ``--only``) as a separate, cold
process, ``--repeat`` times (interleaved: tool A, tool B, ..., then again),
and reports the median wall time and the median peak memory of that child
(its own ``ru_maxrss`` from ``wait4``, with the range over the repetitions),
ipsoeval's time as a ratio of each peer's, and
whether ipsoeval meets the case's targets.  The table goes to standard output,
the rows also to ``bench/results.tsv`` (rows of the cases run replace earlier
rows of the same cases).  A tool that is not installed is skipped; a tool
that exits non-zero shows as "failed" with the end of its standard error.
The standard output of each tool's last repetition is kept in
``bench/data/out/CASE/TOOL.txt`` for comparing results.

Usage:
  python bench/run.py [--list] [--only CASE ...] [--quick] [--repeat N]
                      [--tools T,...] [--strict]
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import BENCH_DIR, Case, Context, Measurement, measure, measure_all  # noqa: E402

RESULTS = BENCH_DIR / "results.tsv"
DEFAULT_DATA = BENCH_DIR / "data"
DEFAULT_SEED = 42
SUBJECT = "ipsoeval"
PEERS = {"trec_eval", "te-rust", "pytrec_eval", "ranx"}   # other programs (not --smoke)
COLUMNS = ["case", "tool", "status", "repeats", "median_s", "min_s", "max_s",
           "cpu_s", "peak_mb", "ratio", "target", "verdict", "size", "seed", "when",
           "peak_min_mb", "peak_max_mb"]


@dataclass
class Row:
    case: str
    tool: str
    status: str  # "ok", "failed (exit N): ...", "not installed ..."
    walls: list[float]
    cpus: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)   # MB, one per repetition
    ratio: float | None = None  # ipsoeval median / this tool's median
    target: str = ""
    verdict: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.walls) if self.walls else None

    @property
    def cpu(self) -> float | None:
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def peak_mb(self) -> float | None:
        """The median peak resident memory over the repetitions (the whole
        process: a median, as the times are, so that one repetition disturbed
        by the machine does not decide)."""
        return statistics.median(self.peaks) if self.peaks else None


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted((BENCH_DIR / "cases").glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"bench_cases_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cases.extend(getattr(module, "CASES", []))
    return cases


def ensure_data(name: str, args: argparse.Namespace) -> Path:
    """Generate data set ``name`` if missing (in a separate process, so that
    this one stays small) and return its directory."""
    cmd = [sys.executable, str(BENCH_DIR / "gen.py"), "--data", str(args.data),
           "--seed", str(args.seed), *(["--quick"] if args.quick else []), name]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1])


def warm_cache(directory: Path) -> None:
    """Read the data once so no tool pays for the first disk read."""
    for p in sorted(directory.iterdir()):
        if p.is_file():
            with open(p, "rb") as f:
                while f.read(1 << 24):
                    pass


def run_case(case: Case, args: argparse.Namespace) -> list[Row]:
    data = ensure_data(case.data, args)
    ctx = Context(data=data, quick=args.quick)
    out_dir = args.data / "out" / case.name
    out_dir.mkdir(parents=True, exist_ok=True)
    warm_cache(data)

    rows: dict[str, Row] = {}
    commands = {}
    for name, tool in case.tools.items():
        if args.tools and name not in args.tools and name != SUBJECT:
            continue
        if args.smoke and (name in PEERS or not tool.smoke):
            continue
        why = tool.available()
        if why:
            rows[name] = Row(case.name, name, why, [])
            continue
        cmds = tool.argv(ctx)
        commands[name] = cmds
        rows[name] = Row(case.name, name, "ok", [])

    for rep in range(args.repeat):
        for name, cmds in commands.items():
            row = rows[name]
            if row.status != "ok":
                continue  # failed once: do not retry
            limit = case.tools[name].max_repeat
            if limit is not None and rep >= limit:
                continue
            print(f"  {case.name}: {name} [{rep + 1}/{args.repeat}] ...",
                  file=sys.stderr, end="", flush=True)
            out = out_dir / f"{name}.txt"
            if cmds and isinstance(cmds[0], list):
                m: Measurement = measure_all(cmds, out, args.timeout)
            else:
                m = measure(cmds, out, args.timeout)
            print(f" {m.wall:.2f} s (cpu {m.cpu:.2f} s), {m.peak_kib / 1024:.0f} MB"
                  + ("" if m.status == 0 else f", exit {m.status}"),
                  file=sys.stderr, flush=True)
            if m.status != 0:
                row.status = f"failed (exit {m.status}): {m.stderr_tail}"[:300]
                row.walls, row.cpus, row.peaks = [], [], []
                continue
            row.walls.append(m.wall)
            row.cpus.append(m.cpu)
            row.peaks.append(m.peak_kib / 1024)

    judge(case, rows)
    return list(rows.values())


def judge(case: Case, rows: dict[str, Row]) -> None:
    """Fill in ratios and target verdicts: PASS/FAIL, FAIL when ipsoeval
    itself failed, n/a when the peer could not be measured."""
    subject = rows.get(SUBJECT)
    s_time = subject.median if subject else None
    s_failed = subject is not None and subject.status.startswith("failed")
    for row in rows.values():
        if s_time is not None and row.median:
            row.ratio = s_time / row.median
    for t in case.targets:
        row = rows.get(t.tool) if t.tool else rows.get(t.peer) if t.peer else subject
        if row is None:
            continue
        if t.tool and row.status.startswith("failed"):
            verdict = "FAIL (failed)"
        elif t.tool and t.max_cpu_seconds is not None and row.cpu is not None:
            ok = row.cpu <= t.max_cpu_seconds
            verdict = f"{'PASS' if ok else 'FAIL'} ({row.cpu:.3f} s cpu)"
        elif s_failed:
            verdict = "FAIL (ipsoeval failed)"
        elif t.peer and t.cpu and subject.cpu and row.cpu:
            r = subject.cpu / row.cpu
            verdict = f"{'PASS' if r <= t.max_ratio else 'FAIL'} (cpu {r:.2f})"
        elif t.peer and row.ratio is not None:
            verdict = f"{'PASS' if row.ratio <= t.max_ratio else 'FAIL'} ({row.ratio:.2f})"
        elif t.max_peak_mb is not None and row.peak_mb is not None:
            ok = row.peak_mb <= t.max_peak_mb
            verdict = f"{'PASS' if ok else 'FAIL'} ({row.peak_mb:.0f} MB)"
        elif t.max_seconds is not None and row.median is not None:
            ok = row.median <= t.max_seconds
            verdict = f"{'PASS' if ok else 'FAIL'} ({row.median:.2f} s)"
        elif t.max_cpu_seconds is not None and row.cpu is not None:
            ok = row.cpu <= t.max_cpu_seconds
            verdict = f"{'PASS' if ok else 'FAIL'} ({row.cpu:.3f} s cpu)"
        elif (t.peer or t.max_peak_mb is not None or t.max_seconds is not None
              or t.max_cpu_seconds is not None):
            verdict = "n/a"
        else:
            verdict = ""  # a note, not judged
        row.target = "; ".join(x for x in (row.target, t.text) if x)
        row.verdict = "; ".join(x for x in (row.verdict, verdict) if x)
    if s_failed and not subject.verdict:
        subject.verdict = "FAIL"


def fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def print_table(rows: list[Row], descriptions: dict[str, str]) -> None:
    """Plain-text table; a tool that did not run gets its reason as a note."""
    head = ["case", "tool", "median s", "cpu s", "cpu range", "peak MB", "peak range",
            "ipso/tool", "target", "verdict", "note"]
    body = []
    for r in rows:
        spread = f"{min(r.cpus):.3f}-{max(r.cpus):.3f}" if r.cpus else "-"
        pspread = f"{min(r.peaks):.0f}-{max(r.peaks):.0f}" if r.peaks else "-"
        body.append([r.case, r.tool, fmt(r.median, ".2f"), fmt(r.cpu, ".3f"), spread,
                     fmt(r.peak_mb, ".0f"), pspread,
                     fmt(r.ratio, ".2f"), r.target, r.verdict,
                     "" if r.status == "ok" else r.status])
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    right = {2, 3, 4, 5, 6, 7}

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print()
    for name, desc in descriptions.items():
        print(f"{name}: {desc}")
    print()
    print(line(head))
    print(line(["-" * w for w in widths]))
    for cells in body:
        print(line(cells))


def write_results(rows: list[Row], args: argparse.Namespace) -> None:
    """Rewrite results.tsv: earlier rows of other cases stay, rows of the
    cases just run are replaced."""
    done = {r.case for r in rows}
    kept = []
    if RESULTS.exists():
        with open(RESULTS, newline="") as f:
            kept = [r for r in csv.DictReader(f, delimiter="\t")
                    if r.get("case") not in done]
    when = time.strftime("%Y-%m-%dT%H:%M:%S")
    new = [{
        "case": r.case, "tool": r.tool, "status": r.status,
        "repeats": len(r.walls), "median_s": fmt(r.median, ".4f"),
        "min_s": fmt(min(r.walls) if r.walls else None, ".4f"),
        "max_s": fmt(max(r.walls) if r.walls else None, ".4f"),
        "cpu_s": fmt(r.cpu, ".4f"), "peak_mb": fmt(r.peak_mb, ".1f"), "ratio": fmt(r.ratio, ".4f"),
        "peak_min_mb": fmt(min(r.peaks) if r.peaks else None, ".1f"),
        "peak_max_mb": fmt(max(r.peaks) if r.peaks else None, ".1f"),
        "target": r.target, "verdict": r.verdict,
        "size": "quick" if args.quick else "full", "seed": args.seed,
        "when": when,
    } for r in rows]
    with open(RESULTS, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, delimiter="\t", extrasaction="ignore",
                           lineterminator="\n")
        w.writeheader()
        w.writerows(kept + new)


def _compile_bytecode() -> None:
    """Byte-compile ipsoeval once before timing, as ``pip install`` does for an
    installed package: an editable install under PYTHONDONTWRITEBYTECODE=1
    (set on this project's machines) would otherwise recompile every module
    in every timed process (~0.06 s of CPU per process)."""
    import compileall
    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "ipsoeval"),
                           quiet=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Benchmark ipsoeval against its peers (cold processes).")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--only", action="append", default=[], metavar="CASE",
                    help="run only this case (repeatable, or comma-separated); "
                    "opt-in cases (large data) run only when named here")
    ap.add_argument("--tools", default="", metavar="T,...",
                    help="only these peers (ipsoeval always runs)")
    ap.add_argument("--quick", action="store_true",
                    help="small data and one repetition (smoke test)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="repetitions per tool (default 3; 1 with --quick)")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA,
                    help="data cache directory (default bench/data)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--timeout", type=float, default=1800,
                    help="seconds before one process is killed (default 1800)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if ipsoeval fails or misses a target")
    ap.add_argument("--smoke", action="store_true",
                    help="check that every case's own tools run (quick data, once, no "
                    "peers, no targets, results.tsv untouched): exit 1 if one fails")
    args = ap.parse_args(argv)
    args.quick = args.quick or args.smoke
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.tools = {t for t in args.tools.split(",") if t}

    cases = load_cases()
    if not args.list:
        _compile_bytecode()
    if args.list:
        for c in cases:
            opt = "  (opt-in: only with --only)" if c.opt_in else ""
            print(f"{c.name}\t[{c.data}] tools: {', '.join(c.tools)}{opt}")
            print(f"\t{c.description}")
            for t in c.targets:
                print(f"\ttarget: {t.text}")
        return 0
    only = {x for arg in args.only for x in arg.split(",") if x}
    unknown = only - {c.name for c in cases}
    if unknown:
        ap.error(f"unknown case(s): {', '.join(sorted(unknown))} "
                 f"(see --list)")
    selected = [c for c in cases if c.name in only or (not only and not c.opt_in)]

    rows: list[Row] = []
    for case in selected:
        print(f"case {case.name}", file=sys.stderr, flush=True)
        rows.extend(run_case(case, args))
    print_table(rows, {c.name: c.description for c in selected})
    if args.smoke:
        bad = [f"{r.case}: {r.tool}: {r.status}" for r in rows if r.status.startswith("failed")]
        print("\n".join(["", *bad]) if bad else "\nsmoke: every tool ran")
        return 1 if bad else 0
    write_results(rows, args)
    print(f"\nresults: {RESULTS}")

    if args.strict:
        bad = [r for r in rows if (r.tool == SUBJECT and r.status != "ok")
               or "FAIL" in r.verdict]
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
