"""Seeded, deterministic benchmark data generators.

Every data set is a directory of TREC files (runs ``qid Q0 docno rank score
tag``, qrels ``qid iter docno label``, single spaces) under a cache directory
(default ``bench/data/``).  A data set is generated only when its directory
lacks the ``.complete`` stamp that is written last, so an interrupted run is
regenerated, and a finished one is reused.  The same seed gives byte-identical
files.

Data sets (full size / ``--quick`` size):

``msmarco``   MS MARCO passage dev: 6,980 queries x 1,000 docs (one run), qrels
              with one relevant passage per query; ~65% of the queries retrieve
              it, at ranks giving MRR@10 ~0.27.
``msmarco13`` 13 runs (run00 baseline + 12 challengers perturbed from it) over
              5,793 queries x 100 docs, same qrels style; some challengers
              differ significantly from the baseline, some do not.
``adhoc``     A TREC ad hoc track: 129 runs x 50 topics (401-450) x 1,000 docs,
              graded qrels (0/1/2), 100-400 judged and 20-100 relevant per topic,
              docnos such as ``FBIS3-12345``.
``ipso``      110 runs x 249 topics (Robust04's 301-450, 601-700 without 672)
              x 100 docs, one shared qrels file.
``sweep``     1,000 runs x 7,000 topics x 10 docs (50 distinct files, the
              others symbolic links to them).  Opt-in.
``small``     a small study, as in shell one-liners and CI checks: 12 runs x 50
              topics x 100 docs (5,000 lines each) with graded qrels; ``human.txt``
              (the qrels of 15 of the topics) and ``auto.txt`` (machine labels
              of all 50: the qrels with ~20% of the labels changed) for ppi and
              agree; ``big/`` one 100,000-line run (50 topics x 2,000 docs)
              with its qrels.
``qpp``       one run's per-topic AP on 7,000 topics (eval -q's long TSV) and
              five query performance predictors of it (``qid value``).
``repro``     a reproducibility study: original baseline and advanced runs and
              their reproductions (neighbours swapped, a tenth of the
              documents replaced), 7,000 topics x 1,000 docs each (28M lines,
              ~1.2 GB; 300 x 200 quick), graded qrels of 60 documents a topic.
``msmarco70`` ten times ``msmarco``: 69,800 queries x 1,000 docs (~70M lines,
              3.2 GB), same distributions.  Opt-in: generated only when named.

Usage: ``python bench/gen.py [--data DIR] [--seed N] [--quick] [NAME ...]``
(no NAME: all data sets but the opt-in ``msmarco70``).  From Python: ``gen.ensure(name, data_dir, seed,
quick)`` returns the data set's directory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATA = BENCH_DIR / "data"
DEFAULT_SEED = 42
STAMP = ".complete"

MSMARCO_NUM_PASSAGES = 8_841_823
MSMARCO_MAX_QID = 1_102_432


# ---------------------------------------------------------------- helpers


def distinct_ints(rng: np.random.Generator, rows: int, k: int, high: int) -> np.ndarray:
    """A (rows, k) int64 array; each row holds k distinct values in [0, high),
    in random order."""
    if k > high:
        raise ValueError("k > high")
    a = np.sort(rng.integers(0, high, size=(rows, k)), axis=1)
    while True:
        dup = np.zeros(a.shape, dtype=bool)
        dup[:, 1:] = a[:, 1:] == a[:, :-1]
        n = int(dup.sum())
        if n == 0:
            break
        a[dup] = rng.integers(0, high, size=n)
        a.sort(axis=1)
    return rng.permuted(a, axis=1)


def descending_scores(rng: np.random.Generator, rows: int, depth: int,
                      tie_rate: float = 0.02) -> np.ndarray:
    """(rows, depth) non-increasing scores in micro-units (integers), so that
    printing them with 6 decimals is exact.  About ``tie_rate`` of adjacent
    pairs are exact ties."""
    top = rng.integers(15_000_000, 45_000_000, size=(rows, 1))
    gaps = rng.geometric(1.0 / 12_000, size=(rows, depth - 1))
    gaps[rng.random(size=gaps.shape) < tie_rate] = 0
    return np.concatenate([top, top - np.cumsum(gaps, axis=1)], axis=1)


def format_scores(micro: np.ndarray) -> list[str]:
    """Micro-unit integers -> strings with exactly 6 decimals (no float
    rounding involved)."""
    flat = micro.ravel()
    neg = flat < 0
    mag = np.abs(flat)
    ints = (mag // 1_000_000).astype(str)
    fracs = (mag % 1_000_000 + 1_000_000).astype(str)  # '1dddddd'
    out = [f"{i}.{f[1:]}" for i, f in zip(ints.tolist(), fracs.tolist())]
    if neg.any():
        for j in np.flatnonzero(neg).tolist():
            out[j] = "-" + out[j]
    return out


def write_run(path: Path, qids: list[str], docnos: list[str], rows: np.ndarray,
              scores: np.ndarray, tag: str) -> None:
    """Write a TREC run.  ``rows`` is a (topics, depth) array of indices into
    ``docnos`` (-1 = no document: the ranking ends there), ``scores`` the
    matching (topics, depth) micro-unit scores, non-increasing per row."""
    _write_lines(path, run_lines(qids, docnos, rows, scores, tag))


def run_lines(qids: list[str], docnos: list[str], rows: np.ndarray,
              scores: np.ndarray, tag: str) -> list[str]:
    """The lines of :func:`write_run`."""
    depth = rows.shape[1]
    rank_str = [str(r) for r in range(1, depth + 1)]
    score_str = format_scores(scores)
    doc_arr = np.asarray(docnos, dtype=object)
    lines: list[str] = []
    for t, qid in enumerate(qids):
        row = rows[t]
        n = int((row >= 0).sum())
        head = f"{qid} Q0 "
        tail = f" {tag}"
        base = t * depth
        lines.extend(
            f"{head}{d} {r} {s}{tail}"
            for d, r, s in zip(doc_arr[row[:n]].tolist(), rank_str[:n],
                               score_str[base:base + n])
        )
    return lines


def write_qrels(path: Path, triples: list[tuple[str, str, int]]) -> None:
    _write_lines(path, [f"{q} 0 {d} {lab}" for q, d, lab in triples])


def _write_lines(path: Path, lines: list[str]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="ascii", newline="\n") as f:
        f.write("\n".join(lines))
        f.write("\n")
    os.replace(tmp, path)


def rank_of_relevant(rng: np.random.Generator, n: int, found_rate: float,
                     depth: int, alpha: float = 1.35) -> np.ndarray:
    """1-based rank of the single relevant document for n queries: with
    probability ``found_rate`` a Zipf-like rank (P(r) ~ r**-alpha, r <= 1000),
    otherwise 0 (not retrieved).  Ranks beyond ``depth`` are also 0."""
    return quantile_rank(rng.random(n), found_rate, depth, alpha)


def quantile_rank(u: np.ndarray, found_rate: float, depth: int,
                  alpha: float = 1.35, max_rank: int = 1000) -> np.ndarray:
    """Map uniforms u in [0, 1) to ranks by the inverse CDF of
    ``rank_of_relevant``'s distribution (small u = good rank), so that
    correlated uniforms give correlated rankings."""
    r = np.arange(1, max_rank + 1)
    p = r ** -alpha
    cdf = np.cumsum(p) / p.sum() * found_rate
    ranks = np.searchsorted(cdf, u, side="right") + 1  # max_rank+1 = not found
    ranks[ranks > min(depth, max_rank)] = 0
    return ranks


# ---------------------------------------------------------------- data sets


@dataclass(frozen=True)
class Sizes:
    msmarco_queries: int = 6_980
    msmarco_depth: int = 1_000
    m13_queries: int = 5_793
    m13_depth: int = 100
    m13_runs: int = 13
    adhoc_runs: int = 129
    adhoc_topics: int = 50
    adhoc_depth: int = 1_000
    ipso_runs: int = 110
    ipso_topics: int = 249
    ipso_depth: int = 100
    sweep_runs: int = 1_000
    sweep_distinct: int = 50
    sweep_topics: int = 7_000
    sweep_depth: int = 10
    small_runs: int = 12
    small_topics: int = 50
    small_depth: int = 100
    small_big_depth: int = 2_000


FULL = Sizes()
QUICK = Sizes(msmarco_queries=500, msmarco_depth=100, m13_queries=300,
              m13_depth=20, adhoc_runs=6, adhoc_topics=10, adhoc_depth=200,
              ipso_runs=8, ipso_topics=20, ipso_depth=20,
              sweep_runs=80, sweep_distinct=8, sweep_topics=300, sweep_depth=10,
              small_runs=4, small_topics=20, small_depth=50, small_big_depth=200)


def msmarco_qids(rng: np.random.Generator, n: int) -> list[str]:
    return [str(q) for q in np.sort(distinct_ints(rng, 1, n, MSMARCO_MAX_QID)[0])]


def _msmarco_batch(rng: np.random.Generator, n: int, depth: int):
    """n MS MARCO-like rankings: the passage pool (column 0 = the relevant
    passage, columns 1.. = retrieved non-relevant ones) and each rank's index
    into the flattened pool (the relevant one where it was found)."""
    pool = distinct_ints(rng, n, depth + 1, MSMARCO_NUM_PASSAGES)
    rows = np.arange(1, depth + 1)[None, :].repeat(n, axis=0)
    rel_rank = rank_of_relevant(rng, n, found_rate=0.65, depth=depth)
    hit = np.flatnonzero(rel_rank)
    rows[hit, rel_rank[hit] - 1] = 0
    return pool, rows + (np.arange(n) * (depth + 1))[:, None]


def gen_msmarco(out: Path, seed: int, sz: Sizes) -> None:
    """One MS MARCO-like run (rank distribution gives MRR@10 ~0.27, ~65% of
    queries retrieve their relevant passage) and its qrels."""
    rng = np.random.default_rng([seed, 1])
    n, depth = sz.msmarco_queries, sz.msmarco_depth
    qids = msmarco_qids(rng, n)
    pool, flat = _msmarco_batch(rng, n, depth)
    docnos = pool.ravel().astype(str).tolist()
    write_run(out / "run.txt", qids, docnos, flat,
              descending_scores(rng, n, depth), "bench_msmarco")
    write_qrels(out / "qrels.txt",
                [(q, str(d), 1) for q, d in zip(qids, pool[:, 0].tolist())])


MSMARCO70_BATCHES = 10


def gen_msmarco70(out: Path, seed: int, sz: Sizes) -> None:
    """Ten times ``msmarco`` (69,800 queries x 1,000 docs, ~70M lines, 3.2 GB):
    the same distributions, written in ten batches of 6,980 queries so that
    the generator's memory stays that of the 7M-line set."""
    rng = np.random.default_rng([seed, 5])
    batch, depth = sz.msmarco_queries, sz.msmarco_depth
    qids = msmarco_qids(rng, batch * MSMARCO70_BATCHES)
    tmp = out / "run.txt.tmp"
    qrels: list[tuple[str, str, int]] = []
    with open(tmp, "w", encoding="ascii", newline="\n") as f:
        for b in range(MSMARCO70_BATCHES):
            brng = np.random.default_rng([seed, 5, b])
            bq = qids[b * batch:(b + 1) * batch]
            pool, flat = _msmarco_batch(brng, batch, depth)
            lines = run_lines(bq, pool.ravel().astype(str).tolist(), flat,
                              descending_scores(brng, batch, depth), "bench_msmarco70")
            f.write("\n".join(lines))
            f.write("\n")
            del lines
            qrels.extend((q, str(d), 1) for q, d in zip(bq, pool[:, 0].tolist()))
    os.replace(tmp, out / "run.txt")
    write_qrels(out / "qrels.txt", qrels)


def gen_msmarco13(out: Path, seed: int, sz: Sizes) -> None:
    """Baseline run00 and challengers run01..run12 over shared one-relevant
    qrels.  A challenger keeps the baseline's per-query difficulty (a shared
    uniform u, mapped to the rank of the relevant passage), shifted by its own
    effect and noise, and a locally shuffled copy of the baseline's other
    documents with a few swapped in from outside."""
    rng = np.random.default_rng([seed, 2])
    n, depth = sz.m13_queries, sz.m13_depth
    extra = depth  # unused pool documents challengers may swap in
    qids = msmarco_qids(rng, n)
    pool = distinct_ints(rng, n, 1 + depth + extra, MSMARCO_NUM_PASSAGES)
    docnos = pool.ravel().astype(str).tolist()
    offset = (np.arange(n) * pool.shape[1])[:, None]
    write_qrels(out / "qrels.txt",
                [(q, str(d), 1) for q, d in zip(qids, pool[:, 0].tolist())])

    u0 = rng.random(n)
    base_rows = np.arange(1, depth + 1)[None, :].repeat(n, axis=0)
    # Effects: mostly small, a few clearly better or worse than the baseline.
    shifts = np.array([0.0, -0.06, -0.02, -0.01, -0.005, 0.0, 0.0,
                       0.005, 0.01, 0.02, 0.04, 0.08, 0.12])
    for j in range(sz.m13_runs):
        if j == 0:
            u, rows = u0, base_rows.copy()
        else:
            u = np.clip(u0 - shifts[j % len(shifts)] + rng.normal(0, 0.12, n),
                        0, 1 - 1e-12)
            key = np.arange(depth)[None, :] + rng.normal(0, depth / 20, (n, depth))
            rows = np.take_along_axis(base_rows, np.argsort(key, axis=1), axis=1)
            m = max(1, depth // 10)  # replace m documents per query
            pos = rng.permuted(np.arange(depth)[None, :].repeat(n, 0), axis=1)[:, :m]
            new = rng.permuted(np.arange(1 + depth, 1 + depth + extra)[None, :]
                               .repeat(n, 0), axis=1)[:, :m]
            np.put_along_axis(rows, pos, new, axis=1)
        rel_rank = quantile_rank(u, found_rate=0.65, depth=depth)
        hit = np.flatnonzero(rel_rank)
        rows[hit, rel_rank[hit] - 1] = 0
        write_run(out / f"run{j:02d}.txt", qids, docnos, rows + offset,
                  descending_scores(rng, n, depth), f"run{j:02d}")


ADHOC_PREFIXES = ("FBIS3-", "FBIS4-", "FT921-", "LA010189-")
ADHOC_COLLECTION = 528_155


def adhoc_docno(i: int) -> str:
    return f"{ADHOC_PREFIXES[i % 4]}{i // 4 + 1}"


def gen_track(out: Path, rng: np.random.Generator, topics: list[str],
              n_runs: int, depth: int) -> None:
    """A TREC-style track: graded qrels and n_runs runs of the given depth.
    Per topic a pool of candidate documents: the first J are judged, of
    which the first R are relevant (label 2 for about a third of them).  Each
    run ranks the pool by noise minus its own skill times the gain, so runs
    range from near-random to strong; about one run in ten returns fewer than
    ``depth`` documents on some topics."""
    n = len(topics)
    pool_size = max(3 * depth, 800)
    pool = distinct_ints(rng, n, pool_size, ADHOC_COLLECTION)
    judged = rng.integers(100, 401, size=n)
    nrel = np.minimum(rng.integers(20, 101, size=n), judged)
    col = np.arange(pool_size)[None, :]
    label = np.where(col < judged[:, None], 0, -1)  # -1 = unjudged
    label[col < nrel[:, None]] = 1
    label[(col < nrel[:, None]) & (rng.random((n, pool_size)) < 0.33)] = 2
    triples = [(topics[t], adhoc_docno(int(pool[t, c])), int(label[t, c]))
               for t in range(n) for c in range(int(judged[t]))]
    triples.sort(key=lambda x: (x[0], x[1]))
    write_qrels(out / "qrels.txt", triples)

    # Index of every pool entry into one docno table.
    uniq, inv = np.unique(pool, return_inverse=True)
    docnos = [adhoc_docno(i) for i in uniq.tolist()]
    inv = inv.reshape(pool.shape)
    gain = np.maximum(label, 0).astype(float)
    pooled = (label >= 0).astype(float)  # judged docs were retrieved by someone
    skill = rng.beta(2, 3, size=n_runs) * 1.8
    for j in range(n_runs):
        key = (rng.normal(0, 1, (n, pool_size)) - skill[j] * gain
               - 0.3 * skill[j] * pooled)
        order = np.argsort(key, axis=1, kind="stable")[:, :depth]
        rows = np.take_along_axis(inv, order, axis=1)
        if rng.random() < 0.1:  # some topics come back short
            short = rng.random(n) < 0.2
            cut = rng.integers(depth // 10, depth, size=n)
            rows[short[:, None] & (np.arange(depth)[None, :] >= cut[:, None])] = -1
        write_run(out / f"run{j + 1:03d}.txt", topics, docnos, rows,
                  descending_scores(rng, n, depth, tie_rate=0.05),
                  f"run{j + 1:03d}")


def gen_adhoc(out: Path, seed: int, sz: Sizes) -> None:
    topics = [str(t) for t in range(401, 401 + sz.adhoc_topics)]
    gen_track(out, np.random.default_rng([seed, 3]), topics, sz.adhoc_runs,
              sz.adhoc_depth)


def gen_ipso(out: Path, seed: int, sz: Sizes) -> None:
    robust = [t for t in list(range(301, 451)) + list(range(601, 701)) if t != 672]
    topics = [str(t) for t in robust[:sz.ipso_topics]]
    gen_track(out, np.random.default_rng([seed, 4]), topics, sz.ipso_runs,
              sz.ipso_depth)


def gen_sweep(out: Path, seed: int, sz: Sizes) -> None:
    """A sweep: 1,000 runs x 7,000 topics x 10 docs (70k lines,
    ~2 MB each) in ``runs/``, one graded qrels (3 judged per topic).  Only
    ``sweep_distinct`` (50) run files are written; the others are symbolic
    links to them under their own names (``runs/run0000``...), so the data
    takes ~100 MB instead of 2 GB -- the reading of a linked file is real,
    though its pages are then in the cache."""
    rng = np.random.default_rng([seed, 6])
    T, depth = sz.sweep_topics, sz.sweep_depth
    qids = [str(q) for q in range(1, T + 1)]
    pool = 100
    docnos = [f"D{q}_{d}" for q in qids for d in range(pool)]
    judged = distinct_ints(rng, T, 3, pool)
    write_qrels(out / "qrels.txt", [(q, docnos[t * pool + int(d)], int(rng.integers(0, 3)))
                                    for t, q in enumerate(qids) for d in judged[t]])
    runs = out / "runs"
    runs.mkdir(exist_ok=True)
    for r in range(sz.sweep_distinct):
        rows = distinct_ints(rng, T, depth, pool) + (np.arange(T) * pool)[:, None]
        write_run(out / f"distinct{r:03d}.txt", qids, docnos, rows,
                  descending_scores(rng, T, depth), f"sweep{r:03d}")
    for i in range(sz.sweep_runs):
        os.symlink(f"../distinct{i % sz.sweep_distinct:03d}.txt", runs / f"run{i:04d}")


def gen_small(out: Path, seed: int, sz: Sizes) -> None:
    """A small study: 12 runs of 5,000 lines, the human and the
    machine qrels of ppi and agree, and one 100,000-line run in ``big/``."""
    rng = np.random.default_rng([seed, 7])
    topics = [str(t) for t in range(401, 401 + sz.small_topics)]
    gen_track(out, rng, topics, sz.small_runs, sz.small_depth)
    lines = (out / "qrels.txt").read_text().splitlines()
    human = set(rng.choice(topics, size=min(15, len(topics)), replace=False).tolist())
    _write_lines(out / "human.txt", [x for x in lines if x.split()[0] in human])
    auto = []
    for x in lines:
        q, it, d, label = x.split()
        if rng.random() < 0.2:
            label = str(int(rng.integers(0, 3)))
        auto.append(f"{q} {it} {d} {label}")
    _write_lines(out / "auto.txt", auto)
    (out / "big").mkdir(exist_ok=True)
    gen_track(out / "big", rng, topics, 1, sz.small_big_depth)


QPP_PREDICTORS = 5


def gen_qpp(out: Path, seed: int, sz: Sizes) -> None:
    """Query performance prediction: one run's AP on 7,000 topics (500
    quick) as eval -q's long TSV, and five predictors (``qid value``) of
    decreasing quality, one of them with ties (rounded)."""
    rng = np.random.default_rng([seed, 36])
    n = 500 if sz == QUICK else 7_000
    qids = [str(q) for q in range(100_000, 100_000 + n)]
    ap = rng.beta(0.8, 2.0, n)
    _write_lines(out / "scores.tsv", ["run\tqid\tmeasure\tvalue"]
                 + [f"bm25\t{q}\tAP\t{v:.6f}" for q, v in zip(qids, ap)])
    for k in range(QPP_PREDICTORS):
        v = ap + rng.normal(0, 0.1 * (k + 1), n)
        if k == QPP_PREDICTORS - 1:
            v = np.round(v, 1)
        _write_lines(out / f"pred{k}.txt", [f"{q}\t{x:.6f}" for q, x in zip(qids, v)])


def gen_repro(out: Path, seed: int, sz: Sizes) -> None:
    """Four runs of a reproducibility study (``orig-base``, ``orig-adv``,
    ``rep-base``, ``rep-adv``) and their qrels."""
    rng = np.random.default_rng([seed, 35])
    topics, depth = (300, 200) if sz == QUICK else (7_000, 1_000)
    pool = 3 * depth
    qids = [str(q) for q in range(200_000, 200_000 + topics)]
    docnos = [f"doc-{i:08d}" for i in range(2 * pool)]
    judged = distinct_ints(rng, topics, 60, pool)
    labels = rng.choice([0, 0, 1, 1, 2], size=judged.shape)
    write_qrels(out / "qrels.txt", [(qids[t], docnos[d], int(lab))
                                    for t in range(topics)
                                    for d, lab in zip(judged[t], labels[t])])

    def reproduce(rows):
        out_ = rows.copy()
        half = depth // 2                                  # neighbours swapped
        swap = rng.random((topics, half)) < 0.3
        a, b = out_[:, 0:2 * half:2], out_[:, 1:2 * half:2]
        a[swap], b[swap] = b[swap].copy(), a[swap].copy()
        new = rng.random(out_.shape) < 0.1                 # documents replaced
        out_[new] = (pool + np.arange(depth))[None, :].repeat(topics, 0)[new]  # distinct
        return out_

    for name in ("base", "adv"):
        orig = distinct_ints(rng, topics, depth, pool)
        rep = reproduce(orig)
        for tag, rows in ((f"orig-{name}", orig), (f"rep-{name}", rep)):
            write_run(out / f"{tag}.txt", qids, docnos, rows,
                      descending_scores(rng, topics, depth), tag)


GENERATORS = {
    "msmarco": gen_msmarco,
    "msmarco13": gen_msmarco13,
    "adhoc": gen_adhoc,
    "ipso": gen_ipso,
    "msmarco70": gen_msmarco70,
    "sweep": gen_sweep,
    "small": gen_small,
    "qpp": gen_qpp,
    "repro": gen_repro,
}
# written only when named (3.2 GB of disk): not part of "all data sets"
OPT_IN = {"msmarco70", "sweep"}


def dataset_dir(name: str, data_dir: Path = DEFAULT_DATA, seed: int = DEFAULT_SEED,
                quick: bool = False) -> Path:
    return Path(data_dir) / f"{'quick' if quick else 'full'}-s{seed}" / name


def ensure(name: str, data_dir: Path = DEFAULT_DATA, seed: int = DEFAULT_SEED,
           quick: bool = False, log=sys.stderr) -> Path:
    """Return the directory of data set ``name``, generating it if needed."""
    out = dataset_dir(name, data_dir, seed, quick)
    stamp = out / STAMP
    if stamp.exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():  # leftovers of an interrupted generation
        if old.is_dir() and not old.is_symlink():
            import shutil
            shutil.rmtree(old)
        else:
            old.unlink()
    t0 = time.perf_counter()
    if log:
        print(f"gen: generating {name} ({'quick' if quick else 'full'}, "
              f"seed {seed}) in {out} ...", file=log, flush=True)
    sizes = QUICK if quick else FULL
    GENERATORS[name](out, seed, sizes)
    secs = time.perf_counter() - t0
    stamp.write_text(json.dumps({"name": name, "seed": seed, "quick": quick,
                                 "seconds": round(secs, 2)}) + "\n")
    if log:
        print(f"gen: {name} done in {secs:.1f} s", file=log, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"data sets ({', '.join(GENERATORS)}); "
                    f"default all but {', '.join(sorted(OPT_IN))} (opt-in: 3.2 GB)")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA,
                    help="cache directory (default bench/data)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--quick", action="store_true", help="small sizes")
    ap.add_argument("--force", action="store_true",
                    help="regenerate even if present")
    args = ap.parse_args(argv)
    names = args.names or [x for x in GENERATORS if x not in OPT_IN]
    bad = [x for x in names if x not in GENERATORS]
    if bad:
        ap.error(f"unknown data set(s): {', '.join(bad)}")
    for name in names:
        if args.force:
            stamp = dataset_dir(name, args.data, args.seed, args.quick) / STAMP
            stamp.unlink(missing_ok=True)
        print(ensure(name, args.data, args.seed, args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
