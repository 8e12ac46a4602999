"""The quick path: ``ipsoeval eval [--format trec] QRELS RUN...`` served by
the compiled core without importing numpy or click.

Taken by the console script (:mod:`ipsoeval._quick`) before anything else
is imported.  The most common call (runs, trec_eval's official measures,
trec layout) costs less than ``import numpy`` when done in C (README
"Speed"): ``_core.eval_official`` reads, aligns and scores each run and
prints trec_eval's lines.  Anything else -- another option or subcommand,
compressed or unusual input, a topic in one file and not the other (a
warning), any error -- returns False with nothing printed, and the full
program runs (it prints those warnings and every error).  The one warning
printed here is the full program's tie warning (a tie group holding two
different labels: the tie order moves a reported number), from the counts
the core returns and the text of :mod:`ipsoeval.tiewarn_text`, on stderr
before the scores as the full program writes it: one line for all the runs
(``tie_lines``, as ``IPSOEVAL_WARNINGS`` asks; under ``error`` a tie leaves
the call to the full program).  ``IPSOEVAL_CORE=python``
turns this off.

Imports nothing heavier than :mod:`ipsoeval.reading.core` (the extension
itself), :mod:`ipsoeval.parallel` and :mod:`ipsoeval.tiewarn_text`; ``tests/test_core_quick.py`` checks
that neither numpy nor click is loaded.
"""

import os
import sys


def quick_eval(args) -> bool:
    """Print the scores and return True, or return False (nothing printed)."""
    if os.environ.get("IPSOEVAL_CORE", "auto") == "python" or not args or args[0] != "eval":
        return False
    rest = list(args[1:])
    fmt = "auto"
    if len(rest) >= 2 and rest[0] == "--format":
        fmt, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--format="):
        fmt, rest = rest[0][len("--format="):], rest[1:]
    if fmt not in ("auto", "trec") or len(rest) < 2 or any(a.startswith("-") for a in rest):
        return False
    if fmt == "auto":
        try:
            if sys.stdout.isatty():          # auto on a terminal is the table layout
                return False
        except (ValueError, OSError):
            pass
    from ipsoeval.reading.core import CORE
    if CORE is None:                         # not built, or a stale build
        return False
    out = _evaluate(CORE, os.fsencode(rest[0]), [os.fsencode(p) for p in rest[1:]])
    if out is None:
        return False
    out, info = out
    from ipsoeval.tiewarn_text import official_tie_note, tie_lines, warnings_mode
    notes = tie_lines([official_tie_note(name.decode(), n, mask) for name, n, mask in info],
                      warnings_mode())
    if notes is None:                        # --warnings error (IPSOEVAL_WARNINGS) and a tie
        return False
    try:
        for note in notes:
            sys.stderr.write(f"ipsoeval: warning: {note}\n")
        sys.stderr.flush()
    except (BrokenPipeError, OSError):
        pass
    try:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return True


def _evaluate(core, qrels: bytes, runs: list):
    """(bytes, info) of ``_core.eval_official`` over the runs, or None: the runs
    in contiguous groups, one thread each (the C pass releases the GIL)."""
    from ipsoeval.parallel import workers
    k = min(workers(), len(runs) // 2) if len(runs) >= 4 else 1
    if k <= 1:
        return core.eval_official(qrels, runs)
    import threading
    cut = [len(runs) * i // k for i in range(k + 1)]
    outs = [None] * k

    def one(i):
        outs[i] = core.eval_official(qrels, runs[cut[i]: cut[i + 1]])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(1, k)]
    for t in threads:
        t.start()
    one(0)
    for t in threads:
        t.join()
    if any(o is None for o in outs):
        return None
    # one name in two groups: the full program tells them apart
    names = [line.split(b"\t", 2)[2] for o, _ in outs for line in o.split(b"\n")
             if line.startswith(b"runid ")]
    if len(set(names)) != len(names):
        return None
    return b"".join(o for o, _ in outs), [x for _, info in outs for x in info]
