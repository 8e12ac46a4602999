"""The quick path: ``ipsoeval eval`` served by the compiled core without
importing numpy or click.

Taken by the console script (:mod:`ipsoeval._quick`) before anything else
is imported.  The most common calls cost less than ``import numpy`` when
done in C (README "Speed"):

* ``eval [--format trec] QRELS RUN...`` (trec_eval's official measures):
  ``_core.eval_official`` reads, aligns and scores each run and prints
  trec_eval's lines -- a block of the file at a time, each topic scored once
  its last line is read, so memory follows the longest topic, not the run
  (a topic whose rows are not together: the whole file, merged as the full
  program merges it);
* with ``-m``/``--measure`` naming measures the compiled core serves (P, R,
  AP, nDCG, RR, Success, Judged, bpref, Rprec, ERR, the counts: the
  families it has a code for, :mod:`ipsoeval.reading.provider`; in
  trec_eval's spellings or the canonical ones, as
  :mod:`ipsoeval.reading.quick_measures` reads them), ``-q``, ``-M`` and
  ``--format tsv``: ``_core.eval_measures`` returns each topic's values and tie flags,
  and :func:`_layout` writes the full program's lines (formatters.trec,
  formatters.tsv) and aggregates as it does.

Anything else -- another option, measure or subcommand, compressed or
unusual input, a topic in one file and not the other (a warning), any error
-- returns False with nothing printed, and the full program runs (it prints
those warnings and every error).  The one warning printed here is the full
program's tie warning (a tie group holding two different labels: the tie
order moves a reported number), from the counts or flags the core returns
and the text of :mod:`ipsoeval.tiewarn_text`, on stderr before the scores as
the full program writes it: one line for all the runs (``tie_lines``, as
``IPSOEVAL_WARNINGS`` asks; under ``error`` a tie leaves the call to the full
program).  ``IPSOEVAL_CORE=python`` turns this off.

Imports nothing heavier than :mod:`ipsoeval.reading.core` (the extension
itself), :mod:`ipsoeval.reading.quick_measures` (the measure registry, data
that reads without numpy), :mod:`ipsoeval.parallel`
(four runs or more) and :mod:`ipsoeval.tiewarn_text`;
``tests/unit/reading/test_quick.py`` checks that neither numpy nor click is loaded.
"""

import os
import sys

# the options of eval's declaration this path serves (any other given: declined)
SERVES = frozenset({"fmt", "per_query", "measures", "depth"})


def _options(values):
    """(format, per_query, -m arguments, depth or None, paths) of eval's
    command line as :func:`ipsoeval.declare.parse` reads it with eval's
    declaration (:func:`ipsoeval.pipeline.evaluate.quick`), or None where the
    core does not take it: standard input, a depth past 64 bits."""
    paths = [values["qrels"], *values["runs"]]
    depth = values["depth"]
    if "-" in paths or (depth is not None and depth >= 2**63):
        return None
    return values["fmt"], values["per_query"], list(values["measures"]), depth, paths


def quick_eval(values) -> bool:
    """Print the scores and return True, or return False (nothing printed).
    ``values``: eval's options and arguments by name, as
    :func:`ipsoeval.declare.parse` reads them."""
    if os.environ.get("IPSOEVAL_CORE", "auto") == "python":
        return False
    opts = _options(values)
    if opts is None:
        return False
    fmt, per_query, measures, depth, rest = opts
    if fmt not in ("auto", "trec", "tsv") or len(rest) < 2 or (fmt == "tsv" and not measures):
        return False
    if per_query and len(rest) > 2 and fmt != "tsv":   # the full program's layout warning
        return False
    if fmt == "auto":
        try:
            if sys.stdout.isatty():          # auto on a terminal is the table layout
                return False
        except (ValueError, OSError):
            pass
    reqs = None
    if measures:
        from ipsoeval.reading.quick_measures import requested
        reqs = requested(measures)
        if not reqs:
            return False
    elif per_query:
        return False
    from ipsoeval.reading.core import CORE
    if CORE is None:                         # not built, or a stale build
        return False
    qrels, runs = os.fsencode(rest[0]), [os.fsencode(p) for p in rest[1:]]
    if reqs is None:
        got = _evaluate(CORE.eval_official, (qrels,), runs, _join_official, (depth or 0,))
        if got is None:
            return False
        out, info = got
        from ipsoeval.tiewarn_text import official_tie_note
        notes = [official_tie_note(name.decode(), n, mask) for name, n, mask in info]
    else:
        if getattr(CORE, "eval_measures", None) is None:
            return False
        specs, tcuts = _specs(reqs)
        if len(specs) > 64 or len(tcuts) > 64:   # the core's limit (G_MAX)
            return False
        if not specs:                  # runid alone: the core still reads and checks
            from ipsoeval.reading.provider import family_spec
            specs = [family_spec("NumQ")]       # (not printed)
        got = _evaluate(CORE.eval_measures, (qrels,), runs, _join_measures,
                        (specs, tcuts, depth or 0))
        if got is None:
            return False
        out, notes = _layout(reqs, specs, tcuts, got, per_query, fmt == "tsv")
    from ipsoeval.tiewarn_text import tie_lines, warnings_mode
    notes = tie_lines(notes, warnings_mode())
    if notes is None:                        # --warnings error (IPSOEVAL_WARNINGS) and a tie
        return False
    from ipsoeval.stdio import warn_lines, write_stdout
    warn_lines(notes)
    write_stdout(out)
    return True


def measure_requests(names):
    """The requests for the ``-m`` names that the compiled core serves (or
    None when it declines one): :func:`ipsoeval.reading.quick_measures.requested`,
    for callers above reading (sigtest's quick path)."""
    from ipsoeval.reading.quick_measures import requested
    return requested(names)


def core_spec(req) -> tuple:
    """The compiled core's (code, cutoff or 0, relevance level) of a request."""
    from ipsoeval.reading.provider import spec
    return spec(req)


def topic_scores(reqs, qrels: str, runs: list, extra: tuple = ()):
    """Per-topic scores of ``reqs`` (and the ``extra`` core specs) by the
    compiled core, read and aligned as eval's quick path does: ``(specs,
    topics, per_run)`` (per run: name, the scores as doubles topic-major in
    ``specs``' order, info), or None where the core or the input declines."""
    from ipsoeval.reading.core import CORE
    if CORE is None or getattr(CORE, "eval_measures", None) is None:
        return None
    specs, tcuts = _specs(reqs)
    specs += [s for s in extra if s not in specs]
    if len(specs) > 64 or len(tcuts) > 64:   # the core's limit (G_MAX)
        return None
    got = _evaluate(CORE.eval_measures, (os.fsencode(qrels),), [os.fsencode(p) for p in runs],
                    _join_measures, (specs, tcuts, 0))
    return None if got is None else (specs, got[0], got[1])


def _specs(reqs):
    """The core's measures ((code, cutoff or 0, rel level), each once) and the
    rank cutoffs whose straddling tie groups it flags (ties.tie_cells' rule)."""
    from ipsoeval.reading.provider import moved_by_ties, spec
    specs, tcuts = [], []
    for r in reqs:
        s = spec(r)
        if s is not None and s not in specs:
            specs.append(s)
        k = r.cutoff
        if moved_by_ties(r.family) and k is not None and k not in tcuts:
            tcuts.append(k)
    return specs, tcuts


def _layout(reqs, specs, tcuts, got, per_query, tsv=False):
    """trec_eval's layout of the requested measures (formatters.trec: per run,
    the per-topic lines of measures that have them, then the 'all' lines,
    aggregated as Measure.aggregate does) or the tsv table (formatters.tsv:
    the same records under the canonical names, without runid), and the tie
    warnings (ties.tie_notes' rule and text)."""
    from ipsoeval.reading.provider import kind as kind_of
    from ipsoeval.reading.provider import spec
    topics, per_run = got
    T, n = len(topics), len(specs)
    qids = [t.decode() for t in topics]
    cols = []                       # per req: (label, column, kind, per topic)
    for r in reqs:
        kind, s = kind_of(r.family), spec(r)
        if tsv and kind == "text":
            continue
        col = specs.index(s) if s is not None else -1
        cols.append((r.name if tsv else r.label, col, kind, kind not in ("count", "text")))
    text, notes = ["run\tqid\tmeasure\tvalue\n"] if tsv else [], []
    line = _tsv_line if tsv else _line
    for name, raw, flags in per_run:
        vals = memoryview(raw).cast("d")      # (array imports collections)
        run = name.decode()
        pre = run + "\t" if tsv else ""
        if per_query:
            for e, qid in enumerate(qids):
                row = vals[e * n:(e + 1) * n]
                for label, col, kind, pq in cols:
                    if pq:
                        text.append(pre + line(label, qid, row[col], kind))
        for label, col, kind, _ in cols:
            if kind == "text":
                v = run
            elif kind == "count":
                v = T
            else:
                v = _all_value(vals, n, col, T, kind, tsv)
            text.append(pre + line(label, "all", v, kind))
        note = _tie_note(reqs, tcuts, T, run, flags)
        if note is not None:
            notes.append(note)
    return "".join(text).encode(), notes


def _tie_note(reqs, tcuts, T, run, flags):
    """One run's tie warning from the core's flags (per topic, 1 + len(tcuts)
    of them: a tie group holding two different labels anywhere, then one
    straddling each cutoff), by ties.tie_notes' rule and text; None when
    no requested measure moves."""
    from ipsoeval.reading.provider import moved_by_ties
    from ipsoeval.tiewarn_text import tie_note
    F = 1 + len(tcuts)
    hit, names = [False] * T, []
    for r in reqs:
        k = r.cutoff
        if not moved_by_ties(r.family):
            continue
        j = 0 if k is None else 1 + tcuts.index(k)
        moved = False
        for e in range(T):
            if flags[e * F + j]:
                hit[e] = moved = True
        if moved:
            names.append(r.name)
    return (tie_note(run, sum(hit), names, order=[r.name for r in reqs])
            if any(hit) else None)


def tie_notes(reqs, topics, per_run) -> list:
    """The tie warnings of :func:`topic_scores`' runs (eval's, ties.tie_notes'
    rule and text), one per run whose tie order moves a requested measure."""
    _, tcuts = _specs(reqs)
    out = []
    for name, _, flags in per_run:
        note = _tie_note(reqs, tcuts, len(topics), name.decode("utf-8", "surrogateescape"),
                         flags)
        if note is not None:
            out.append(note)
    return out
def _all_value(vals, n, col, T, kind, tsv) -> float:
    """The 'all' line's value of column ``col`` of a run's per-topic values
    (``vals``: T topics x n columns, topic-major): the total over topics for
    summed counts (kind "int"); else the run's mean over topics -- in TSV the
    one mean of every command (:func:`ipsoeval.mean.mean`, correctly
    rounded), in the trec layout summed in sequence as trec_eval sums, so
    its printed digits stay trec_eval's."""
    if tsv and kind != "int":
        from ipsoeval.mean import mean
        return mean([vals[e * n + col] for e in range(T)]) if T else 0.0
    s = 0.0
    for e in range(T):
        s += vals[e * n + col]
    return s if kind == "int" else s / T


def _line(label, qid, v, kind) -> str:
    """formatters.trec.line of a value of this kind."""
    if kind == "text":
        text = v
    elif kind in ("int", "count"):
        text = str(int(v))
    else:
        text = f"{v:6.4f}"
    return f"{label:<22s}\t{qid}\t{text}\n"


def _tsv_line(name, qid, v, kind) -> str:
    """formatters.tsv's row (after the run): floats as repr, counts as integers."""
    text = str(int(v)) if kind in ("int", "count") else repr(v)
    return f"{qid}\t{name}\t{text}\n"


def _join_official(outs):
    # one name in two groups: the full program tells them apart
    names = [line.split(b"\t", 2)[2] for o, _ in outs for line in o.split(b"\n")
             if line.startswith(b"runid ")]
    if len(set(names)) != len(names):
        return None
    return b"".join(o for o, _ in outs), [x for _, info in outs for x in info]


def _join_measures(outs):
    per_run = [x for _, runs in outs for x in runs]
    if len({name for name, _, _ in per_run}) != len(per_run):
        return None
    return outs[0][0], per_run


PART_BYTES = 8 << 20     # as the core's QUICK_PART_BYTES and reading.compiled.PART_BYTES


def _parts(runs: list) -> int:
    """The parts the core may read a run file in, side by side, cut at topic
    boundaries: one per CPU the process may use (as the full program's reader
    cuts a large file) when a file has PART_BYTES or more, else 1."""
    try:
        if not any(os.stat(p).st_size >= PART_BYTES for p in runs):
            return 1
    except OSError:                    # the core declines, or the full program says why
        return 1
    from ipsoeval.parallel import in_worker, workers
    return 1 if in_worker() else workers()


def _evaluate(fn, head: tuple, runs: list, join, tail: tuple = ()):
    """fn(*head, runs, *tail) (the core's eval_official or eval_measures), or
    None: up to three runs in one call, each large file in parts read side by
    side (:func:`_parts`); more in contiguous groups, one thread each (the C
    pass releases the GIL), joined by ``join`` (None: declined)."""
    if len(runs) < 4:                  # (ipsoeval.parallel imports threading)
        return fn(*head, runs, *tail, _parts(runs))
    from ipsoeval.parallel import workers
    k = min(workers(), len(runs) // 2)
    if k <= 1:
        return fn(*head, runs, *tail)
    import threading
    cut = [len(runs) * i // k for i in range(k + 1)]
    outs = [None] * k

    def one(i):
        outs[i] = fn(*head, runs[cut[i]: cut[i + 1]], *tail)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(1, k)]
    for t in threads:
        t.start()
    one(0)
    for t in threads:
        t.join()
    if any(o is None for o in outs):
        return None
    return join(outs)
