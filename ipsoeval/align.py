"""Alignment: runs × qrels → dense per-topic label matrices (docs/conventions.md,
"Ranking and topic sets").

This is the only place after the readers where doc ids exist.  Per run and
topic the documents are ordered by score descending, ties by docno
descending (byte-wise, trec_eval's rule) or by the chosen ``--tie-break``,
cut at ``--depth``, and replaced by their qrels labels.

Which path aligns a run (see the map in :mod:`ipsoeval.reading`): a run the
compiled core read and aligned in one pass arrives as a
``reading.compiled.Streamed`` and is only copied into the matrix; any other
Run is aligned whole by ``reading.compiled.align_run`` when the core is
enabled, and by the numpy code below when it declines (long ids, a duplicate
docno: the error is worded here) or under ``IPSOEVAL_CORE=python``.

Every tie break records the tie groups (``Aligned.tied``: which ranks
share the score of the rank above; eval's tie warning,
ipsoeval.measures.ties.tie_notes): the numpy code below from the scores in
rank order, the compiled core (``reading.compiled.stream_run``,
``reading.compiled.align_run``: C ``align_topic``) as one flag byte per
label.  ``--tie-break expected`` ranks as ``trec`` and the measures take
their expectation over the orders of the tied documents
(ipsoeval.measures.ties); ``expected`` is not one of the compiled tie
rules, so the one-pass reader declines it and align does not call
``align_run``: the run is read, then aligned here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ipsoeval.errors import InputError, UsageError
from ipsoeval.ids import decode_id, id_sort_key
from ipsoeval.model import PAD, POOLED, UNJUDGED, Aligned, Qrels, Run, judged
from ipsoeval.parallel import background, parallel_map
from ipsoeval.reading import compiled
from ipsoeval.reading.words import id_bytes, long_rows

QUERY_POLICIES = ("intersection", "qrels", "strict")
TIE_BREAKS = ("trec", "docno-asc", "input", "expected")

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _hash_rows(words: np.ndarray, topic: np.ndarray) -> np.ndarray:
    """A 64-bit multiplicative hash of (topic, docno words) per row.

    Only the high bits are well mixed; users take ``h >> shift`` for buckets.
    Equal hashes are always verified against the ids, so collisions cost time,
    never correctness.
    The hash does not depend on the matrix width: all-zero words (the padding
    after an id's last byte; ids hold no NUL bytes) leave it unchanged, so ids
    read into matrices of different widths (a run with a longer docno than
    any in the qrels) hash alike.
    """
    h = (topic.astype(np.uint64) + np.uint64(1)) * _M2
    for j in range(words.shape[1]):
        w = words[:, j]
        g = h ^ w
        g *= _M1
        g ^= g >> np.uint64(29)
        if j == 0:
            h = g
        else:
            h = np.where(w != 0, g, h)
    return h


def _pad_words(w: np.ndarray, width: int) -> np.ndarray:
    if w.shape[1] == width:
        return w
    return np.pad(w, ((0, 0), (0, width - w.shape[1])))


def _text(words_row: np.ndarray) -> str:
    return decode_id(id_bytes(words_row))


def group_ids(words: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Distinct ids (in first-appearance order) and a code per row."""
    n = len(words)
    if n == 0:
        return [], np.zeros(0, dtype=np.int32)
    change = np.ones(n, dtype=bool)
    # column by column: one byte per row of temporaries (an (n, W) comparison
    # and its reduction were three)
    np.not_equal(words[1:, 0], words[:-1, 0], out=change[1:])
    for j in range(1, words.shape[1]):
        change[1:] |= words[1:, j] != words[:-1, j]
    heads = np.flatnonzero(change)
    seen: dict[bytes, int] = {}
    head_codes = np.empty(len(heads), dtype=np.int64)
    raw = words[heads]
    for i in range(len(heads)):
        key = raw[i].tobytes()
        code = seen.get(key)
        if code is None:
            code = seen[key] = len(seen)
        head_codes[i] = code
    codes = np.repeat(head_codes.astype(np.int32), np.diff(np.append(heads, n)))
    names = [decode_id(id_bytes(np.frombuffer(k, dtype="<u8"))) for k in seen]
    return names, codes


def _duplicates(words: np.ndarray, topic: np.ndarray, lines: np.ndarray, path: str,
                names: list[str], hashes: np.ndarray | None = None) -> None:
    """Raise InputError if a docno occurs twice in one topic."""
    if len(words) < 2:
        return
    h = _hash_rows(words, topic) if hashes is None else hashes
    hs = np.sort(h)
    if not (hs[1:] == hs[:-1]).any():
        return
    # equal hashes side by side, each run of them in line order: a docno's second
    # line follows its first; the error names the earliest second line in the file
    order = np.lexsort((lines, h))
    hs = h[order]
    same = np.flatnonzero(hs[1:] == hs[:-1])
    i, j = order[same], order[same + 1]
    real = (topic[i] == topic[j]) & (words[i] == words[j]).all(axis=1)
    if not real.any():
        return
    i, j = i[real], j[real]
    k = int(np.argmin(np.maximum(lines[i], lines[j])))
    a, b = sorted((int(lines[i[k]]), int(lines[j[k]])))
    raise InputError(
        f"duplicate docno {_text(words[i[k]])!r} in topic {names[int(topic[i[k]])]!r} "
        f"(also at line {a})" + _diversity_hint(path, a, b), path=path, line=b)


def _diversity_hint(path: str, a: int, b: int) -> str:
    """Two qrels lines for one docno whose column 2 differs look like diversity
    qrels (qid subtopic docno judgment), which only a diversity measure reads."""
    try:
        from ipsoeval.reading.opening import iter_blocks
        want, got, n = {a, b}, {}, 0
        for block in iter_blocks(path):
            rows = bytes(block).split(b"\n")
            if rows and rows[-1] == b"":
                rows.pop()
            for line in rows:
                n += 1
                if n in want:
                    got[n] = line.split()
            if len(got) == 2 or n > b:
                break
    except Exception:        # stdin, a file gone: no hint, the error stands
        return ""
    cols = [got.get(x) for x in (a, b)]
    if any(c is None or len(c) < 4 for c in cols) or cols[0][1] == cols[1][1]:
        return ""
    return (f"; column 2 differs ({cols[0][1].decode(errors='replace')!r}, "
            f"{cols[1][1].decode(errors='replace')!r}): diversity qrels (qid subtopic docno "
            f"judgment)? They are read as such only when a diversity measure is asked for "
            f"(alpha_nDCG@k, ERR_IA@k, ...)")


def strcmp_key(words: np.ndarray) -> list[np.ndarray]:
    """Keys for np.lexsort giving byte-wise (strcmp) order, least significant first."""
    be = words.byteswap()  # big-endian numbers compare like the bytes
    return [be[:, j] for j in range(words.shape[1] - 1, -1, -1)]


class QrelsIndex:
    """Qrels grouped by topic, with a hash index for (topic, docno) lookup."""

    def __init__(self, qrels: Qrels):
        self.qrels = qrels
        names, codes = group_ids(qrels.qid)
        self.topic_names = names
        self.codes = codes
        _duplicates(qrels.docno, codes, qrels.line, qrels.path, names)
        self.hash = _hash_rows(qrels.docno, codes)
        self.order = np.argsort(self.hash, kind="stable")
        self.sorted_hash = self.hash[self.order]
        # a bitmap over the low hash bits rules most non-judged rows out cheaply
        self.bits = max(16, min(26, int(np.ceil(np.log2(max(len(codes), 1) * 64)))))
        self.bitmap = np.zeros(1 << self.bits, dtype=bool)
        self.shift = np.uint64(64 - self.bits)
        self.bitmap[(self.hash >> self.shift).astype(np.int64)] = True

    def hashes(self, words: np.ndarray, topic_codes: np.ndarray) -> np.ndarray:
        """Row hashes comparable with the qrels' (topic codes are qrels codes)."""
        return _hash_rows(words, topic_codes)

    def lookup(self, words: np.ndarray, topic_codes: np.ndarray,
               h: np.ndarray | None = None) -> np.ndarray:
        """Qrels row index of each (topic code, docno), −1 when not judged."""
        q = self.qrels
        width = max(words.shape[1], q.docno.shape[1])
        if h is None:
            h = self.hashes(words, topic_codes)
        result = np.full(len(h), -1, dtype=np.int64)
        maybe = np.flatnonzero(self.bitmap[(h >> self.shift).astype(np.int64)])
        if len(maybe) == 0 or len(self.sorted_hash) == 0:
            return result
        sub = self._lookup(_pad_words(words[maybe], width), topic_codes[maybe], h[maybe],
                           _pad_words(q.docno, width))
        result[maybe] = sub
        return result

    def _lookup(self, words, topic_codes, h, qwords) -> np.ndarray:
        pos = np.searchsorted(self.sorted_hash, h)
        pos = np.minimum(pos, len(self.sorted_hash) - 1)
        cand = self.order[pos]
        hit = (self.sorted_hash[pos] == h) & (self.codes[cand] == topic_codes)
        hit &= (qwords[cand] == words).all(axis=1)
        result = np.where(hit, cand, -1)
        # a hash shared by two qrels rows: resolve the few misses exactly
        if len(self.sorted_hash) > 1 and (self.sorted_hash[1:] == self.sorted_hash[:-1]).any():
            miss = np.flatnonzero(~hit & (self.sorted_hash[pos] == h))
            for i in miss:
                lo = np.searchsorted(self.sorted_hash, h[i], side="left")
                hi = np.searchsorted(self.sorted_hash, h[i], side="right")
                for c in self.order[lo:hi]:
                    if self.codes[c] == topic_codes[i] and np.array_equal(qwords[c], words[i]):
                        result[i] = c
        return result


# Gains are summed with discounts over thousands of ranks: bounded so that no
# sum overflows to infinity.
MAX_GAIN = 1e100


def parse_gains(text: str | None) -> dict[int, float] | None:
    """``--gains 0:0,1:1,2:3`` → {0: 0.0, 1: 1.0, 2: 3.0}."""
    if text is None:
        return None
    out: dict[int, float] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            k, v = part.split(":")
            level, gain = int(k), float(v)
        except ValueError:
            raise UsageError(f"--gains expects LABEL:GAIN pairs like 0:0,1:1,2:3 (found {part!r})")
        if not np.isfinite(gain) or gain < 0 or gain > MAX_GAIN:
            raise UsageError(f"--gains: gains must be numbers from 0 to {MAX_GAIN:g} "
                             f"(found {part!r})")
        if level in out:
            raise UsageError(f"--gains: label {level} is given twice (found {text!r})")
        out[level] = gain
    if not out:
        raise UsageError("--gains: no LABEL:GAIN pairs given")
    return out


def _pairs_in_order(docno: np.ndarray, i: np.ndarray, tie_break: str) -> bool:
    """Are rows (i, i+1) already in the tie-break's docno order (strcmp)?"""
    if len(i) == 0 or tie_break == "input":
        return True
    a = docno[i].byteswap()          # big-endian words compare like the bytes
    b = docno[i + 1].byteswap()
    first = np.argmax(a != b, axis=1)
    rows = np.arange(len(i))
    av, bv = a[rows, first], b[rows, first]
    return bool((av > bv).all() if tie_break == "trec" else (av < bv).all())


def _order_run(score: np.ndarray, docno: np.ndarray, topic: np.ndarray,
               tie_break: str) -> np.ndarray | None:
    """Row order: topics contiguous, score descending, then the tie-break
    (``expected`` orders as ``trec``; its groups are kept apart by align).

    None when the rows are already in that order (the usual run file, grouped
    by topic and written in rank order): no permutation is needed then.
    """
    n = len(topic)
    if n == 0:
        return None
    same = topic[1:] == topic[:-1]
    segments = n - int(np.count_nonzero(same))
    grouped = segments == int(np.count_nonzero(np.bincount(topic)))
    if grouped and not (same & (score[1:] > score[:-1])).any():
        order, s = None, score
    else:
        order = np.lexsort((-score, topic))
        t, s = topic[order], score[order]
        same = t[1:] == t[:-1]
    if tie_break == "input":
        return order
    if tie_break == "expected":
        tie_break = "trec"
    eq = same & (s[1:] == s[:-1])
    if not eq.any():
        return order
    exact = long_rows(docno).any()          # long ids: order ties by their bytes
    if order is None:
        if not exact and _pairs_in_order(docno, np.flatnonzero(eq), tie_break):
            return None
        order = np.arange(n)
    # blocks of equal scores: order each by docno (descending for trec)
    tied = np.zeros(n, dtype=bool)
    tied[1:] |= eq
    tied[:-1] |= eq
    idx = np.flatnonzero(tied)
    start = np.ones(len(idx), dtype=bool)
    start[1:] = ~((idx[1:] == idx[:-1] + 1) & eq[idx[:-1]])
    group = np.cumsum(start)
    rows = order[idx]
    keys = strcmp_key(docno[rows])
    if tie_break == "trec":
        keys = [~k for k in keys]          # docno descending
    sub = np.lexsort(keys + [group])
    order[idx] = rows[sub]
    if exact:
        _order_long_ties(order, idx, group[sub], docno, tie_break)
    return order


def _order_long_ties(order, idx, group, docno, tie_break) -> None:
    """Re-sort, by their bytes, tie blocks holding long ids (rare: only ids
    over words.LONG_ID bytes lose their strcmp order in the words)."""
    rows = order[idx]
    has_long = long_rows(docno[rows])
    for g in np.unique(group[has_long]):
        at = idx[group == g]
        block = sorted(order[at], key=lambda r: id_bytes(docno[r]),
                       reverse=tie_break == "trec")
        order[at] = block


def _ranks(t_sorted: np.ndarray) -> np.ndarray:
    """0-based position of each row within its topic (topics contiguous)."""
    m = len(t_sorted)
    head = np.ones(m, dtype=bool)
    head[1:] = t_sorted[1:] != t_sorted[:-1]
    starts = np.flatnonzero(head)
    return (np.arange(m, dtype=np.int64)
            - np.repeat(starts, np.diff(np.append(starts, m)))).astype(np.int32)


class _RunSlice:
    """Rows lo:hi of a run (views, no copies)."""

    def __init__(self, run: Run, lo: int, hi: int):
        self.path = run.path
        self.docno = run.docno[lo:hi]
        self.score = run.score[lo:hi]
        self.line = run.line[lo:hi]


PIECE_ROWS = 1 << 20


# release_inputs frees arrays of at least this size: glibc hands them back to
# the system at once, while freeing smaller ones early raises its mmap
# threshold, and 129 runs of 50k lines then peaked higher (424 -> ~500 MB)
RELEASE_BYTES = 32 << 20


def _released(run: Run, *fields: str) -> Run:
    """run without its large arrays ``fields`` (emptied: a[:0] would keep the memory)."""
    gone = {f: np.empty((0,) + a.shape[1:], a.dtype) for f in fields
            if (a := getattr(run, f)).nbytes >= RELEASE_BYTES}
    return replace(run, **gone) if gone else run


def _split_points(codes: np.ndarray) -> list[tuple[int, int]]:
    """Row ranges of a run that can be aligned independently: a large run
    whose topics each occupy one contiguous block is cut at topic
    boundaries into pieces of about PIECE_ROWS rows (for the thread pool)."""
    n = len(codes)
    if n <= PIECE_ROWS:
        return [(0, n)]
    head = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
    if len(head) != len(np.unique(codes[head])):   # a topic in several blocks
        return [(0, n)]
    cuts = [0]
    for target in range(PIECE_ROWS, n, PIECE_ROWS):
        c = int(head[min(np.searchsorted(head, target), len(head) - 1)])
        if c > cuts[-1]:
            cuts.append(c)
    cuts.append(n)
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


class RunTopics:
    """What the topic-set decision needs of one run: the qrels topics it has
    (``has``), and how many topics it has outside the qrels with the first of
    them in strcmp order (``n_extra``, ``first_extra``)."""

    __slots__ = ("has", "n_extra", "first_extra")

    def __init__(self, has: frozenset, n_extra: int, first_extra: str | None):
        self.has, self.n_extra, self.first_extra = has, n_extra, first_extra

    @classmethod
    def of(cls, tset: set, q_set: set) -> RunTopics:
        extra = tset - q_set
        return cls(frozenset(tset & q_set), len(extra),
                   min(extra, key=id_sort_key) if extra else None)


def reader_notes(qrels, runs) -> list[str]:
    """The readers' notes (an id that is not UTF-8) of the qrels and the runs,
    each once, in order: the first warnings of :func:`align`."""
    warnings: list[str] = list(getattr(qrels, "warnings", ()))
    for run in runs:
        warnings.extend(w for w in getattr(run, "warnings", ()) if w not in warnings)
    return warnings


def choose_topics(queries: str, q_topics, paths: list, runs: list) -> tuple[list[str], list[str]]:
    """``(topics, warnings)``: the evaluated topics under ``--queries`` of runs
    (:class:`RunTopics`, one per path) on qrels topics ``q_topics``, and the
    per-run notes on the topics left out or filled; ``--queries strict``
    raises when a run's topics differ from the qrels'.  The one decision
    :func:`align` and the per-run sweeps (:mod:`ipsoeval.distributed`) share."""
    q_set = set(q_topics)
    warnings: list[str] = []
    if queries == "strict":
        for path, rt in zip(paths, runs):
            if rt.n_extra or len(rt.has) != len(q_set):
                missing = sorted(q_set - rt.has, key=id_sort_key)
                what = []
                if missing:
                    what.append(f"{len(missing)} qrels topic(s) missing from the run, e.g. {missing[0]!r}")
                if rt.n_extra:
                    what.append(f"{rt.n_extra} run topic(s) not in the qrels, e.g. {rt.first_extra!r}")
                raise InputError("--queries strict: topics differ (" + "; ".join(what) + ")",
                                 path=path)
        topics = sorted(q_set, key=id_sort_key)
    elif queries == "qrels":
        topics = sorted(q_set, key=id_sort_key)
    else:
        union = set()
        for rt in runs:
            union |= rt.has
        topics = sorted(union, key=id_sort_key)

    for path, rt in zip(paths, runs):
        if rt.n_extra:
            warnings.append(f"{path}: {rt.n_extra} topic(s) not in the qrels ignored")
        missing = len(q_set) - len(rt.has)
        if missing and queries == "qrels":
            warnings.append(f"{path}: {missing} qrels topic(s) missing from the run "
                            f"evaluated as empty rankings")
        elif missing and queries == "intersection":
            warnings.append(f"{path}: {missing} qrels topic(s) missing from the run skipped")
    return topics, warnings


def align(qrels: Qrels, runs: list[Run], *, queries: str = "intersection", rel_level: int = 1,
          judged_only: bool = False, gains: dict[int, float] | None = None,
          depth: int | None = None, tie_break: str = "trec",
          qindex: QrelsIndex | None = None, release_inputs: bool = False) -> Aligned:
    """Align runs to qrels; see the module docstring.

    ``release_inputs``: the list ``runs`` is handed over (the caller keeps no
    other reference to its Run objects): each entry is replaced by a copy
    without the large arrays align no longer needs -- the topic ids once
    coded, the rest once the run is aligned -- so that they are freed early
    (on a 70M-line run the peak drops from 40 to ~33 bytes per line)."""
    if queries not in QUERY_POLICIES:
        raise UsageError(f"--queries must be one of {', '.join(QUERY_POLICIES)} (found {queries!r})")
    if tie_break not in TIE_BREAKS:
        raise UsageError(f"--tie-break must be one of {', '.join(TIE_BREAKS)} (found {tie_break!r})")
    if depth is not None and depth < 1:
        raise UsageError(f"--depth must be a positive integer (found {depth})")
    qi = qindex or QrelsIndex(qrels)
    # the readers' notes first (an id that is not UTF-8), once per file
    warnings: list[str] = reader_notes(qrels, runs)
    asked_level = rel_level
    mode, gains, rel_level = _label_mode(qrels, gains, rel_level)
    if tie_break == "expected" and mode == "probability":
        raise UsageError("--tie-break expected does not combine with --labels probability "
                         "(each is an expectation of its own; take one at a time)")
    q_topics = qi.topic_names
    q_pos = {t: i for i, t in enumerate(q_topics)}

    per_run = []
    run_topic_sets = []
    for r, run in enumerate(runs):
        if isinstance(run, compiled.Streamed):  # read and aligned in one pass: its topics
            names, codes = run.names, None
        else:
            names, codes = group_ids(run.qid)
            if release_inputs:
                runs[r] = _released(run, "qid")    # coded: the words go
        run_topic_sets.append(set(names))
        per_run.append((names, codes))
        del run

    # the loops below bind paths, not Run objects (whose arrays release_inputs frees)
    run_paths = [run.path for run in runs]
    q_set = set(q_topics)
    run_topics = [RunTopics.of(tset, q_set) for tset in run_topic_sets]
    topics, notes = choose_topics(queries, q_topics, run_paths, run_topics)
    warnings.extend(notes)
    T = len(topics)
    if T == 0:
        raise InputError("no topic in common between run(s) and qrels",
                         path=runs[0].path if runs else qrels.path)
    t_index = {t: i for i, t in enumerate(topics)}
    # qrels per evaluated topic
    q_map = np.full(len(q_topics), -1, dtype=np.int64)
    for t, i in t_index.items():
        q_map[q_pos[t]] = i
    qt = q_map[qi.codes]
    lab = qrels.label
    inq = qt >= 0
    num_rel = np.bincount(qt[inq & (lab >= rel_level)], minlength=T).astype(np.int64)
    num_nonrel = np.bincount(qt[inq & (lab >= 0) & (lab < rel_level)], minlength=T).astype(np.int64)
    judged_labels: list[np.ndarray] = [np.zeros(0, np.int64)] * T
    sel = np.flatnonzero(inq & (lab >= 0))
    if len(sel):
        o = sel[np.lexsort((-lab[sel], qt[sel]))]
        bounds = np.searchsorted(qt[o], np.arange(T + 1))
        judged_labels = [lab[o[bounds[i]:bounds[i + 1]]] for i in range(T)]

    fast = compiled.enabled()
    groups = tie_break == "expected"     # expected: the numpy path (module doc)

    def one(task):
        r, lo, hi = task
        run, (names, codes) = runs[r], per_run[r]
        if codes is None:                  # a Streamed run
            return run.aligned(t_index, T)
        if fast and not groups and lo == 0 and hi == len(codes):   # compiled core: the whole run at once
            got = compiled.align_run(qi, run, names, codes, t_index, q_pos, T, tie_break=tie_break,
                                  judged_only=judged_only, depth=depth)
            if got is not None:
                if release_inputs:    # aligned: only the name and path are used below
                    runs[r] = _released(run, "docno", "score", "line")
                return got                            # None: declined, the code below decides
        codes = codes[lo:hi]
        run = _RunSlice(run, lo, hi)
        local = np.array([t_index.get(nm, -1) for nm in names], dtype=np.int32)
        qcode_of_local = np.array([q_pos.get(nm, -1) for nm in names], dtype=np.int32)
        topic = local[codes] if len(codes) else codes
        qcode = qcode_of_local[codes] if len(codes) else codes
        keep = topic >= 0
        present = np.bincount(topic[keep], minlength=T)[:T] > 0
        idx = None if keep.all() else np.flatnonzero(keep)   # None: keep every row
        if idx is not None:
            # topics not evaluated are dropped, but their duplicates are still errors
            gone = np.flatnonzero(~keep)
            _duplicates(run.docno[gone], codes[gone], run.line[gone], run.path, names)
        del codes

        def sel(a):
            return a if idx is None else a[idx]
        del keep
        docno = sel(run.docno)
        topic = sel(topic)
        qcode = sel(qcode)
        score = sel(run.score)
        h = qi.hashes(docno, qcode)
        dup_check = background(_duplicates, docno, topic, sel(run.line), run.path, topics,
                               hashes=h)
        hit = qi.lookup(docno, qcode, h)
        del qcode
        lab_rows = np.where(hit >= 0, lab[np.maximum(hit, 0)], UNJUDGED).astype(np.int32)
        del hit
        lab_rows[(lab_rows < 0) & (lab_rows != UNJUDGED)] = POOLED   # negative qrels label
        o = _order_run(score, sel(run.docno), topic, tie_break)
        if o is None:                        # already grouped and ranked
            t_sorted, lab_sorted, s_sorted = topic, lab_rows, score
        else:
            t_sorted, lab_sorted, s_sorted = topic[o], lab_rows[o], score[o]
        del o, lab_rows, topic, score
        # rank within topic: rows of a topic are contiguous and in rank order.
        # trec_eval cuts at -M first, then (-J) drops unjudged documents.
        pos = _ranks(t_sorted)
        if depth is not None:
            c = pos < depth
            t_sorted, lab_sorted, pos, s_sorted = t_sorted[c], lab_sorted[c], pos[c], s_sorted[c]
        if judged_only:
            j = judged(lab_sorted)          # not UNJUDGED, not POOLED
            t_sorted, lab_sorted, s_sorted = t_sorted[j], lab_sorted[j], s_sorted[j]
            pos = _ranks(t_sorted)
        # same score as the document ranked above (every tie break: the tie warning)
        tie = np.zeros(len(t_sorted), dtype=bool)
        tie[1:] = (t_sorted[1:] == t_sorted[:-1]) & (s_sorted[1:] == s_sorted[:-1])
        del s_sorted
        overlap = (len(docno), int(np.count_nonzero(lab_sorted != UNJUDGED)))
        counts = np.bincount(t_sorted, minlength=T)[:T]
        dup_check()                          # raises the duplicate-docno error, if any
        return present, counts.astype(np.int64), (t_sorted, pos, lab_sorted, tie), overlap

    tasks = []
    for r in range(len(runs)):
        codes = per_run[r][1]
        cuts = [(0, 0)] if codes is None else (
            [(0, len(codes))] if fast else _split_points(codes))
        tasks.extend((r, lo, hi) for lo, hi in cuts)
    results = parallel_map(one, tasks)
    in_run = np.zeros((len(runs), T), dtype=bool)
    nret_list = [np.zeros(T, dtype=np.int64) for _ in runs]
    parts: list[list] = [[] for _ in runs]
    rows_judged = np.zeros((len(runs), 2), dtype=np.int64)   # rows, rows in the qrels
    for (r, _, _), (present, counts, triple, overlap) in zip(tasks, results):
        rows_judged[r] += overlap
        in_run[r] |= present
        nret_list[r] += counts              # pieces hold disjoint topics
        parts[r].append(triple)
    for r, run in enumerate(runs):
        # valid but suspicious: every score of such a run is 0
        if not run_topic_sets[r] & q_set:
            warnings.append(f"{run.path}: no topic in common with the qrels "
                            f"(every score is 0; are these the right qrels?)")
        elif rows_judged[r, 1] == 0 and rows_judged[r, 0] > 0:
            warnings.append(f"{run.path}: none of the retrieved documents is in the qrels "
                            f"(every score is 0; do the docnos have the same form?)")
    max_depth = max([1] + [int(c.max()) for c in nret_list if len(c)])
    R = len(runs)
    labels = np.full((R, T, max_depth), PAD, dtype=np.int32)
    tied = np.zeros((R, T, max_depth), dtype=bool)
    for r, ps in enumerate(parts):
        if ps and isinstance(ps[0], compiled.Piece):   # compiled core's result
            ps[0].fill(labels[r], tied[r])
            continue
        t_sorted, pos, lab_sorted = (np.concatenate([p[i] for p in ps]) for i in range(3))
        labels[r, t_sorted, pos] = lab_sorted
        tied[r, t_sorted, pos] = np.concatenate([p[3] for p in ps])
    present = in_run.copy()  # trec-modes hook: topics each run file has (--trec-eval-version)
    if queries != "intersection":
        in_run[:] = True
    return Aligned(
        runs=[run.name for run in runs], topics=topics, labels=labels,
        n_ret=np.stack(nret_list) if nret_list else np.zeros((0, T), np.int64),
        rel_level=rel_level, num_rel=num_rel, num_nonrel=num_nonrel,
        judged_labels=judged_labels, gain_map=gains, in_run=in_run,
        params={"queries": queries, "rel_level": asked_level, "judged_only": judged_only,
                "depth": depth, "tie_break": tie_break, "labels": mode,
                "present": present,  # trec-modes hook
                "run_topics": run_topics},  # the per-run sweeps' hook (ipsoeval.distributed)
        warnings=warnings, label_mode=mode, label_values=qrels.values, tied=tied,
    )


def _label_mode(qrels: Qrels, gains, rel_level):
    """(mode, gain map, level in codes) of ``--labels`` (ipsoeval.labels): under
    gain the codes' gains are the labels and -l becomes a code; under
    probability -l and --gains do not apply (a relevant document gains 1)."""
    mode = qrels.label_mode
    if mode == "integer":
        return mode, gains, rel_level
    if gains:
        raise UsageError(f"--gains maps integer labels; with --labels {mode} "
                         + ("the labels are the gains" if mode == "gain"
                            else "a relevant document gains 1"))
    if mode == "gain":
        from ipsoeval.labels import code_level
        return mode, dict(enumerate(qrels.values.tolist())), code_level(qrels.values, rel_level)
    if rel_level != 1:
        raise UsageError("-l/--rel-level does not apply to --labels probability (a label is "
                         "the probability that the document is relevant)")
    return mode, None, 0



# --- diversity qrels (qid subtopic docno judgment) ------------------------------------

class SubtopicTable:
    """Diversity qrels folded to one row per judged (topic, docno), rows by topic
    and then docno (strcmp): ``grades`` (rows, S) the judgment per subtopic of
    the row's topic, ``topic_rows`` topic id -> (first, end) rows."""

    def __init__(self, grades: np.ndarray, topic_rows: dict[str, tuple[int, int]]):
        self.grades, self.topic_rows = grades, topic_rows


def _same_rows(words: np.ndarray, order: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """bool (n-1,): row order[i+1] has the same code and words as row order[i]."""
    w, c = words[order], codes[order]
    same = c[1:] == c[:-1]
    for j in range(w.shape[1]):
        same &= w[1:, j] == w[:-1, j]
    return same


def subtopic_qrels(sq) -> tuple[Qrels, SubtopicTable]:
    """Diversity qrels -> (qrels of one row per judged document, labelled with
    its row of the table; the table).  A (topic, subtopic, docno) given twice
    is an input error (ndeval would count it twice)."""
    names, tcode = group_ids(sq.qid)
    n = len(tcode)
    order = np.lexsort(strcmp_key(sq.docno) + [tcode])
    if long_rows(sq.docno).any():        # long ids: their bytes decide
        order = np.array(sorted(range(n), key=lambda i: (int(tcode[i]), id_bytes(sq.docno[i]))),
                         dtype=np.int64)
    new_doc = np.ones(n, dtype=bool)
    new_doc[1:] = ~_same_rows(sq.docno, order, tcode)
    doc_of = np.empty(n, dtype=np.int64)
    doc_of[order] = np.cumsum(new_doc) - 1
    n_docs = int(new_doc.sum())
    # subtopics numbered per topic by first appearance
    s_words = sq.subtopic
    s_order = np.lexsort(strcmp_key(s_words) + [tcode])
    new_s = np.ones(n, dtype=bool)
    new_s[1:] = ~_same_rows(s_words, s_order, tcode)
    s_group = np.empty(n, dtype=np.int64)
    s_group[s_order] = np.cumsum(new_s) - 1
    first_at = np.full(int(new_s.sum()), n, dtype=np.int64)
    np.minimum.at(first_at, s_group, np.arange(n))
    g_order = np.lexsort((first_at, tcode[first_at]))
    g_topic = tcode[first_at][g_order]
    start = np.ones(len(g_order), dtype=bool)
    start[1:] = g_topic[1:] != g_topic[:-1]
    pos = np.arange(len(g_order)) - np.maximum.accumulate(np.where(start, np.arange(len(g_order)), 0))
    local = np.empty(len(g_order), dtype=np.int64)
    local[g_order] = pos
    sub = local[s_group]
    S = int(sub.max()) + 1 if n else 1
    # a (topic, subtopic, docno) twice
    key = doc_of * S + sub
    ks = np.argsort(key, kind="stable")
    dup = np.flatnonzero(key[ks][1:] == key[ks][:-1])
    if len(dup):
        i, j = sorted((int(ks[dup[0]]), int(ks[dup[0] + 1])))
        raise InputError(f"duplicate judgment of docno {_text(sq.docno[j])!r} for subtopic "
                         f"{_text(s_words[j])!r} of topic {names[int(tcode[j])]!r} "
                         f"(also at line {int(sq.line[i])})", path=sq.path, line=int(sq.line[j]))
    grades = np.zeros((n_docs, S), dtype=np.int64)
    grades[doc_of, sub] = sq.judgment
    head = order[new_doc]                 # one row of the file per document
    doc_topic = tcode[head]
    bounds = np.searchsorted(doc_topic, np.arange(len(names) + 1))
    rows = {names[t]: (int(bounds[t]), int(bounds[t + 1])) for t in range(len(names))}
    qrels = Qrels(path=sq.path, qid=sq.qid[head], docno=sq.docno[head],
                  label=np.arange(n_docs, dtype=np.int64), line=sq.line[head],
                  warnings=list(sq.warnings))
    return qrels, SubtopicTable(grades, rows)


def attach_subtopics(al: Aligned, table: SubtopicTable) -> Aligned:
    """Turn an Aligned whose labels are rows of ``table`` (aligned to
    :func:`subtopic_qrels`' qrels) into one whose labels are each document's
    largest judgment, with the subtopic judgments in ``al.subtopics``."""
    from ipsoeval.model import Subtopics
    spans = [table.topic_rows.get(t, (0, 0)) for t in al.topics]
    rows = np.concatenate([np.arange(a, b) for a, b in spans] + [np.zeros(0, np.int64)])
    first = np.zeros(len(spans) + 1, dtype=np.int64)
    first[1:] = np.cumsum([b - a for a, b in spans])
    remap = np.full(len(table.grades) + 1, -1, dtype=np.int32)   # the last: not judged
    remap[rows] = np.arange(len(rows), dtype=np.int32)
    grades = table.grades[rows]
    top = grades.max(axis=1) if grades.shape[1] else np.zeros(len(grades), np.int64)
    codes = al.labels
    docs = np.maximum(codes, -1)           # sentinels (< 0) -> -1: remap's last entry
    docs = remap[docs]                     # a topic not evaluated: -1 too
    top_ext = np.append(top, 0).astype(np.int32)
    labels = top_ext[docs]
    sentinel = docs < 0
    labels[sentinel] = codes[sentinel]
    labels[sentinel & (codes >= 0)] = UNJUDGED   # judged for a topic not evaluated
    level = al.rel_level
    T = len(al.topics)
    num_rel = np.array([int((top[first[t]:first[t + 1]] >= level).sum()) for t in range(T)],
                       dtype=np.int64)
    num_nonrel = np.array([int(first[t + 1] - first[t]) for t in range(T)], np.int64) - num_rel
    judged_labels = [np.sort(top[first[t]:first[t + 1]])[::-1].copy() for t in range(T)]
    return replace(al, labels=labels, num_rel=num_rel, num_nonrel=num_nonrel,
                   judged_labels=judged_labels,
                   subtopics=Subtopics(docs=docs, grades=grades, first=first))
