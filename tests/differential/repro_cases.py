"""Generated experiments for ``ipsoeval repro``: qrels with graded labels and
four runs -- an original baseline and advanced run, and their reproductions,
perturbed from them (scores jittered, some documents swapped for others,
scores rounded so that ties are common).  Shared by the oracle comparison
with repro_eval and the fuzzer."""

from __future__ import annotations

import os
import random


def topics(rng: random.Random, n: int) -> list[str]:
    kinds = [lambda i: str(300 + i), lambda i: f"q{i}", lambda i: f"{i}-a"]
    k = rng.choice(kinds)
    return [k(i) for i in range(n)]


def case(rng: random.Random, *, n_topics: int | None = None, uneven: float = 0.1,
         replicated: bool = False) -> dict:
    """{'qrels': lines, 'rep_qrels': lines or None, 'runs': [four {qid: [(docno, score)]}]}
    with each run's rows in score order (ties in a random order)."""
    T = n_topics if n_topics is not None else rng.randint(10, 100)
    qs = topics(rng, T)
    rep_qs = topics(rng, rng.randint(10, 100)) if replicated else qs
    qrels, rep_qrels = [], []
    pools = {}
    label = {}
    for out, ts in ((qrels, qs), (rep_qrels, rep_qs)):
        for q in ts:
            pool = [f"d{rng.randint(0, 9999):04d}{rng.choice(['', 'x', 'yz'])}"
                    for _ in range(rng.randint(20, 80))]
            pool = list(dict.fromkeys(pool))
            pools.setdefault(id(out), {})[q] = pool
            for d in pool:
                if rng.random() < 0.6:
                    g = rng.choice([0, 0, 0, 1, 1, 2, 3])
                    label[(q, d)] = g
                    out.append(f"{q} 0 {d} {g}")
        if not replicated:
            break
    step = rng.choice([0.1, 0.05, 0.5])

    def run(ts, pool_of, base=None, shift=0.0):
        got = {}
        for q in ts:
            pool = pool_of[q]
            if base is None:
                n = rng.randint(2, min(60, len(pool)))
                docs = rng.sample(pool, n)
                # the advanced run (shift > 0) lifts the relevant documents
                sc = {d: round((rng.random() * 3 + shift * label.get((q, d), 0)) / step) * step
                      for d in docs}
            else:
                sc = {d: s + rng.gauss(0, 0.3) for d, s in base[q]}
                for d in list(sc):
                    if rng.random() < 0.1:
                        del sc[d]
                        other = rng.choice(pool)
                        if other not in sc:
                            sc[other] = rng.random() * 3
                if rng.random() >= uneven and len(sc) != len(base[q]):
                    # the usual reproduction: as many documents as the original
                    extra = [d for d in pool if d not in sc]
                    while len(sc) < len(base[q]) and extra:
                        sc[extra.pop()] = rng.random() * 3
                    while len(sc) > len(base[q]):
                        sc.pop(next(iter(sc)))
                sc = {d: round(s / step) * step for d, s in sc.items()}
            rows = list(sc.items())
            rng.shuffle(rows)
            rows.sort(key=lambda r: -r[1])          # ties in a random order
            got[q] = rows
        return got

    qpool = pools[id(qrels)]
    ob = run(qs, qpool)
    oa = run(qs, qpool, shift=0.8)
    if replicated:
        rpool = pools[id(rep_qrels)]
        rb = run(rep_qs, rpool)
        ra = run(rep_qs, rpool, shift=0.8)
    else:
        rb = run(qs, qpool, base=ob)
        ra = run(qs, qpool, base=oa)
    return {"qrels": qrels, "rep_qrels": rep_qrels if replicated else None,
            "runs": [ob, oa, rb, ra]}


def write(c: dict, where: str) -> dict:
    """The case's files under ``where``: {'qrels', 'rep_qrels', 'runs'} paths."""
    os.makedirs(where, exist_ok=True)
    paths = {"qrels": os.path.join(where, "qrels.txt"), "rep_qrels": None, "runs": []}
    with open(paths["qrels"], "w") as f:
        f.write("\n".join(c["qrels"]) + "\n")
    if c["rep_qrels"] is not None:
        paths["rep_qrels"] = os.path.join(where, "rep_qrels.txt")
        with open(paths["rep_qrels"], "w") as f:
            f.write("\n".join(c["rep_qrels"]) + "\n")
    for name, r in zip(("orig_base", "orig_adv", "rep_base", "rep_adv"), c["runs"]):
        p = os.path.join(where, f"{name}.run")
        with open(p, "w") as f:
            for q, rows in r.items():
                for i, (d, s) in enumerate(rows):
                    f.write(f"{q} Q0 {d} {i + 1} {s!r} {name}\n")
        paths["runs"].append(p)
    return paths
