#!/usr/bin/env python3
"""Generate the synthetic MS MARCO-style test set in this directory.

One relevant document per query (MS MARCO document ranking style), a
baseline run and six challengers, each returning exactly 100 documents per
query.  Every challenger differs from the baseline in a designed way (see
README), so that ``ipsoeval breakdown`` shows each kind of outcome.

Deterministic: the same seed gives byte-identical files.  Run from anywhere:

    python3 testdata/msmarco/make_testdata.py [--seed 2021] [--queries 2000] [--out DIR]

Only numpy and scipy are needed.  Runs are written xz-compressed (SPEC §1:
readers detect xz by its magic bytes); the qrels are plain text.
"""

from __future__ import annotations

import argparse
import lzma
from pathlib import Path

import numpy as np
from scipy.stats import norm

DEPTH = 100                 # documents per query in every run
NUM_DOCS = 3_213_835        # size of the MS MARCO document corpus
MAX_QID = 1_102_432         # MS MARCO query ids are below this

# Each run: probability that the relevant document is in the top 100
# ("found"), and the Zipf exponent of its rank when found (higher = nearer
# the top).  "mix" is (weight, steep, flat): with that probability the rank is
# drawn from a much steeper Zipf, otherwise from a flatter one — a run that
# puts more answers at rank 1 but scatters the rest (better RR, worse ESL).
RUNS = [
    ("baseline",       dict(found=0.84,  alpha=1.45)),
    ("more-answers",   dict(found=0.89,  alpha=1.32)),
    ("better-ranking", dict(found=0.84,  alpha=1.58)),
    ("better-both",    dict(found=0.875, alpha=1.55)),
    ("same-team",      dict(found=0.843, alpha=1.46)),
    ("fewer-answers",  dict(found=0.80,  alpha=1.45)),
    ("top-heavy",      dict(found=0.84,  alpha=1.45, mix=(0.5, 3.0, 1.0))),
]

# Correlation of each run's latent variables with the query's difficulty
# (shared by all runs): real runs agree on which queries are hard.
RHO_FOUND = 0.55
RHO_RANK = 0.80


def zipf_quantile(u: np.ndarray, alpha: float) -> np.ndarray:
    """Inverse CDF of P(r) ∝ r^-alpha on 1..DEPTH, for uniforms u in [0, 1)."""
    r = np.arange(1, DEPTH + 1)
    p = r ** -alpha
    cdf = np.cumsum(p) / p.sum()
    return np.minimum(np.searchsorted(cdf, u, side="right") + 1, DEPTH)


def relevant_ranks(rng, z_found, z_rank, found, alpha, mix=None) -> np.ndarray:
    """Rank of the relevant document per query (0 = not in the top 100)."""
    n = z_found.size
    e = rng.standard_normal(n)
    is_found = norm.cdf(RHO_FOUND * z_found + np.sqrt(1 - RHO_FOUND ** 2) * e) < found
    e = rng.standard_normal(n)
    u = norm.cdf(RHO_RANK * z_rank + np.sqrt(1 - RHO_RANK ** 2) * e)
    if mix is None:
        rank = zipf_quantile(u, alpha)
    else:
        w, steep, flat = mix
        low = u < w
        rank = np.empty(n, dtype=np.int64)
        rank[low] = zipf_quantile(u[low] / w, steep)
        rank[~low] = zipf_quantile((u[~low] - w) / (1 - w), flat)
    return np.where(is_found, rank, 0)


def write_xz(path: Path, text: str) -> None:
    path.write_bytes(lzma.compress(text.encode("ascii"), preset=6))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2021)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.queries

    qids = np.sort(rng.choice(np.arange(1, MAX_QID), n, replace=False))
    docs = rng.choice(np.arange(1, NUM_DOCS), n + DEPTH, replace=False)
    relevant = [f"D{d}" for d in docs[:n]]
    # Non-relevant filler: the same 100 unjudged documents for every query
    # and run, in a fixed order (keeps the files small; only the position of
    # the relevant document matters to RR and ESL).
    filler = [f"D{d}" for d in docs[n:]]
    scores = [f"{25 - 0.2 * i:.3f}" for i in range(DEPTH)]

    z_found = rng.standard_normal(n)
    z_rank = rng.standard_normal(n)

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "qrels.txt").write_text(
        "".join(f"{q} 0 {d} 1\n" for q, d in zip(qids.tolist(), relevant)), encoding="ascii")
    for name, spec in RUNS:
        ranks = relevant_ranks(rng, z_found, z_rank, **spec)
        lines = []
        for q, rel, r in zip(qids.tolist(), relevant, ranks.tolist()):
            ranking = list(filler)
            if r:
                ranking.insert(r - 1, rel)
                ranking.pop()
            lines.extend(f"{q} Q0 {d} {i + 1} {scores[i]} {name}\n"
                         for i, d in enumerate(ranking))
        write_xz(args.out / f"{name}.run.xz", "".join(lines))


if __name__ == "__main__":
    main()
