"""``make fuzz``: run the CLI fuzzer on many seeded inputs and print the counts.

    python tests/fuzz/run.py [-n 100000] [-j WORKERS] [--seed S] [--timeout 20]
                             [--time-limit SECONDS] [--save DIR] [--skip-known]

Every input is built from its seed (``--seed`` + i), so a failure is
reproduced by its seed alone; each failing input is also saved under
``--save`` (default fuzz-failures/) with its files, case.json and repro.sh.
Prints the counts per subcommand and per outcome; exits 1 when any input
crashed, hung, ran out of memory or left a file behind.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the repository before site-packages: ``tests`` is this project's test package
# (the generators of tests/differential), not another distribution's ``tests``
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import harness  # noqa: E402

_ARGS = None


def _warm():
    harness.warm()


def _init(args):
    global _ARGS
    _ARGS = args
    _warm()


def _one(seed):
    args = _ARGS
    case = harness.make_case(harness.RandomChooser(seed), suite=args.skip_known)
    work = os.path.join(args.tmp, f"w{os.getpid()}")
    r = harness.run_case(case, work, timeout=args.timeout, mem_bytes=args.mem << 20)
    outcome, reason = harness.classify(case, r)
    saved = None
    if outcome in harness.FAILURES:
        saved = harness.save_failure(case, r, outcome, f"seed {seed}: {reason}", args.save)
    shutil.rmtree(work, ignore_errors=True)
    return seed, case.command, outcome, reason, saved, r.seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100_000, help="inputs to run")
    ap.add_argument("-j", "--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per input")
    ap.add_argument("--mem", type=int, default=3072, help="address space per input, MB")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="stop starting new inputs after this many seconds")
    ap.add_argument("--save", default="fuzz-failures", help="directory for failing inputs")
    ap.add_argument("--skip-known", action="store_true",
                    help="leave out the harness's KNOWN_* inputs, as the test suite does")
    args = ap.parse_args(argv)
    os.makedirs(args.save, exist_ok=True)
    args.tmp = tempfile.mkdtemp(prefix="ipsoeval-fuzz-")
    counts = collections.defaultdict(collections.Counter)
    reasons = collections.Counter()
    t0 = time.monotonic()
    done = 0
    seeds = range(args.seed, args.seed + args.n)
    try:
        if args.workers <= 1:
            _init(args)
            results = map(_one, seeds)
            pool = None
        else:
            pool = mp.get_context("fork").Pool(args.workers, _init, (args,))
            results = pool.imap_unordered(_one, seeds, chunksize=4)
        for seed, cmd, outcome, reason, saved, secs in results:
            done += 1
            counts[cmd][outcome] += 1
            if saved:
                reasons[(outcome, cmd, reason[:160])] += 1
                print(f"{outcome:16s} {cmd:12s} seed {seed}: {reason[:160]}  -> {saved}",
                      flush=True)
            if done % 500 == 0:
                print(f"... {done} inputs, {time.monotonic() - t0:.0f} s", flush=True)
            if args.time_limit and time.monotonic() - t0 > args.time_limit:
                print(f"time limit reached after {done} inputs", flush=True)
                break
        if pool is not None:
            pool.terminate()
    finally:
        shutil.rmtree(args.tmp, ignore_errors=True)
    elapsed = time.monotonic() - t0
    cols = harness.OUTCOMES
    print(f"\n{done} inputs in {elapsed:.0f} s ({done / max(elapsed, 1e-9):.1f}/s, "
          f"{args.workers} worker(s)); failing inputs saved in {args.save}/")
    print("command       " + " ".join(f"{c:>8.8s}" for c in cols) + "   total")
    total = collections.Counter()
    for cmd in harness.SUBCOMMANDS:
        row = counts.get(cmd, collections.Counter())
        total.update(row)
        print(f"{cmd:13s} " + " ".join(f"{row[c]:8d}" for c in cols) + f" {sum(row.values()):7d}")
    print(f"{'all':13s} " + " ".join(f"{total[c]:8d}" for c in cols) + f" {sum(total.values()):7d}")
    if reasons:
        print("\ndistinct failures (count, outcome, command, reason):")
        for (o, c, why), k in reasons.most_common(60):
            print(f"{k:6d} {o:16s} {c:12s} {why}")
    return 1 if any(total[o] for o in harness.FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
