"""Writes the small manifest of testdata/across/ (deterministic; run from here).

Four collections of different sizes, three runs, graded qrels:

- news (50 topics) and web (40 topics): bm25 a little better than dense;
- legal (6 topics): dense far better (a small, easy-to-win collection);
- forum (3 topics): bm25 and dense only (hybrid was not run there).

The plain mean of the four means puts dense first (the 6-topic collection
weighs as much as the 50-topic one); pooling weighs by precision.
"""

import random

COLLECTIONS = [("news", 50), ("web", 40), ("legal", 6), ("forum", 3)]
# (run, collection) -> chance that a relevant document is pulled to the top
SKILL = {
    ("bm25", "news"): 0.55, ("dense", "news"): 0.48, ("hybrid", "news"): 0.58,
    ("bm25", "web"): 0.50, ("dense", "web"): 0.44, ("hybrid", "web"): 0.52,
    ("bm25", "legal"): 0.25, ("dense", "legal"): 0.85, ("hybrid", "legal"): 0.60,
    ("bm25", "forum"): 0.40, ("dense", "forum"): 0.45,
}
DOCS = 30


def main() -> None:
    rng = random.Random(29)
    manifest = ["collection\tqrels\trun"]
    for name, n in COLLECTIONS:
        qrels = []
        rel = {}
        for t in range(1, n + 1):
            qid = f"{name[0]}{t:03d}"
            docs = [f"{name}-{t}-{d:02d}" for d in range(DOCS)]
            labels = {d: (rng.choice([1, 1, 2]) if rng.random() < 0.2 else 0) for d in docs}
            if not any(labels.values()):
                labels[docs[0]] = 1
            rel[qid] = (docs, labels)
            qrels += [f"{qid} 0 {d} {lab}" for d, lab in labels.items()]
        with open(f"{name}.qrels", "w") as fh:
            fh.write("\n".join(qrels) + "\n")
        for run in ("bm25", "dense", "hybrid"):
            skill = SKILL.get((run, name))
            if skill is None:
                continue
            lines = []
            for qid, (docs, labels) in rel.items():
                key = {d: rng.random() + (1.0 if labels[d] and rng.random() < skill else 0.0)
                       for d in docs}
                ranked = sorted(docs, key=lambda d: -key[d])[:20]
                lines += [f"{qid} Q0 {d} {i + 1} {20 - i} {run}" for i, d in enumerate(ranked)]
            with open(f"{name}-{run}.run", "w") as fh:
                fh.write("\n".join(lines) + "\n")
            manifest.append(f"{name}\t{name}.qrels\t{name}-{run}.run")
    with open("manifest.tsv", "w") as fh:
        fh.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
