"""Generated qrels and runs for the ``ipsoeval report`` tests: ``random.Random``
with a seed (the same files on every Python), runs of graded quality so that
some pairs of runs differ significantly and others do not."""

from __future__ import annotations

import random
from pathlib import Path


def make_inputs(folder, *, runs: int = 5, topics: int = 30, depth: int = 20, seed: int = 1,
                ties: bool = True) -> tuple[str, list[str]]:
    """Write ``qrels.txt`` and ``run{i}.txt`` into ``folder``; return their paths.

    Topic t has 3..8 relevant documents (labels 1-2) among 40; run i puts a
    relevant document at each rank with a probability growing with i, and
    (``ties``) gives some documents equal scores."""
    rng = random.Random(seed)
    folder = Path(folder)
    qrels, rel = [], {}
    for t in range(topics):
        qid = f"{t + 1:03d}"
        docs = [f"d{t}-{j}" for j in range(40)]
        n_rel = rng.randint(3, 8)
        rel[qid] = set(rng.sample(docs, n_rel))
        for d in docs:
            label = (rng.randint(1, 2) if d in rel[qid] else 0)
            if label or rng.random() < 0.5:
                qrels.append(f"{qid} 0 {d} {label}")
    qpath = folder / "qrels.txt"
    qpath.write_text("\n".join(qrels) + "\n")
    paths = []
    for i in range(runs):
        quality = 0.1 + 0.6 * i / max(1, runs - 1)
        lines = []
        for t in range(topics):
            qid = f"{t + 1:03d}"
            good = sorted(rel[qid])
            bad = [f"d{t}-{j}" for j in range(40) if f"d{t}-{j}" not in rel[qid]]
            rng.shuffle(good)
            rng.shuffle(bad)
            ranking = []
            while len(ranking) < depth and (good or bad):
                pick = good if good and (rng.random() < quality or not bad) else bad
                ranking.append(pick.pop())
            for r, d in enumerate(ranking):
                score = depth - r if not (ties and r % 7 == 3) else depth - r + 1
                lines.append(f"{qid} Q0 {d} {r + 1} {score} sys{i}")
        p = folder / f"run{i}.txt"
        p.write_text("\n".join(lines) + "\n")
        paths.append(str(p))
    return str(qpath), paths


def one_relevant(qrels, folder) -> str:
    """The qrels with one relevant document per topic (its first; the others
    judged not relevant), so that the outcomes breakdown's assumption holds
    (Lin et al. 2021); written to ``folder``/qrels-one.txt."""
    seen, lines = set(), []
    for line in open(qrels):
        q, it, d, lab = line.split()
        if int(lab) > 0 and q in seen:
            lab = "0"
        elif int(lab) > 0:
            seen.add(q)
        lines.append(f"{q} {it} {d} {lab}")
    out = Path(folder) / "qrels-one.txt"
    out.write_text("\n".join(lines) + "\n")
    return str(out)
