"""Write the qpp test data (deterministic): 20 topics, one BM25-like run of
20 documents per topic, graded qrels, and predictors of the run's AP of
decreasing quality.  Run from this directory: python make_qpp.py"""

import math
import random

rng = random.Random(2021)
TOPICS = [str(t) for t in range(301, 321)]
qrels, run = [], []
difficulty = {}
for t in TOPICS:
    d = rng.random()                      # 0 hard .. 1 easy
    difficulty[t] = d
    rels = []
    for k in range(30):
        rel = 2 if rng.random() < 0.1 else 1 if rng.random() < 0.2 else 0
        rels.append(rel)
        qrels.append(f"{t} 0 D{t}-{k:02d} {rel}")
    score = {k: 3 * d * (rels[k] > 0) + rng.gauss(0, 1) for k in range(30)}
    docs = sorted(range(30), key=lambda k: -score[k])
    for r, k in enumerate(docs[:20]):
        run.append(f"{t} Q0 D{t}-{k:02d} {r + 1} {round(score[k] + 10, 3)} bm25")
with open("qrels.txt", "w") as f:
    f.write("\n".join(qrels) + "\n")
with open("run.txt", "w") as f:
    f.write("\n".join(run) + "\n")


def noisy(sd):
    return {t: difficulty[t] + rng.gauss(0, sd) for t in TOPICS}


clarity, wig = noisy(0.15), noisy(0.4)
with open("clarity.txt", "w") as f:                  # qid value: named by the file
    f.writelines(f"{t}\t{clarity[t]:.4f}\n" for t in TOPICS)
with open("wig.txt", "w") as f:                      # one topic missing
    f.writelines(f"{t} {wig[t]:.4f}\n" for t in TOPICS if t != "320")
nqc, scq = noisy(0.8), {t: math.log(1 + rng.random()) for t in TOPICS}
with open("long.tsv", "w") as f:                     # predictor qid value
    f.write("predictor\tqid\tvalue\n")
    f.writelines(f"nqc\t{t}\t{nqc[t]:.4f}\n" for t in TOPICS)
    f.writelines(f"scq\t{t}\t{scq[t]:.4f}\n" for t in TOPICS)
