"""A plain, per-query reference implementation of the measures (no numpy).

Written from the definitions (docs/conventions.md's Measures and trec_eval's documented semantics),
one topic at a time, to check the vectorised engine against.
"""

import math


def ranking(run_rows, qrels, topic, depth=None, judged_only=False):
    """Labels of the ranked docs of one topic: None = unjudged."""
    docs = [(s, d) for (t, d, s) in run_rows if t == topic]
    docs.sort(key=lambda x: (-x[0], [-c for c in x[1].encode()] + [1]))
    if depth is not None:
        docs = docs[:depth]           # trec_eval: cut at -M first, then -J
    labels = []
    for _, d in docs:
        lab = qrels.get((topic, d))
        if lab is not None and lab < 0:
            lab = None
        if judged_only and lab is None:
            continue
        labels.append(lab)
    return labels


def judged(qrels, topic):
    return [lab for (t, _), lab in qrels.items() if t == topic and lab >= 0]


def rel(lab, level):
    return lab is not None and lab >= level


def P(labels, k, level=1):
    return sum(rel(x, level) for x in labels[:k]) / k


def R_at(labels, R, k=None, level=1):
    return 0.0 if R == 0 else sum(rel(x, level) for x in labels[:k]) / R


def AP(labels, R, k=None, level=1):
    s, hits = 0.0, 0
    for i, x in enumerate(labels[:k]):
        if rel(x, level):
            hits += 1
            s += hits / (i + 1)
    return s / R if R else 0.0


def RR(labels, k=None, level=1):
    for i, x in enumerate(labels[:k]):
        if rel(x, level):
            return 1.0 / (i + 1)
    return 0.0


def ESL(labels, k=None, level=1):
    for i, x in enumerate(labels[:k]):
        if rel(x, level):
            return float(i + 1)
    return float("nan")


def success(labels, k, level=1):
    return float(any(rel(x, level) for x in labels[:k]))


def Rprec(labels, R, level=1):
    n = min(len(labels), R)
    return 0.0 if n == 0 else sum(rel(x, level) for x in labels[:n]) / R


def bpref(labels, R, N, level=1):
    s, nonrel = 0.0, 0
    for x in labels:
        if x is None:
            continue
        if x < level:
            nonrel += 1
        else:
            s += 1.0 if nonrel == 0 else 1.0 - min(nonrel, R) / min(N, R)
    return s / R if R else 0.0


def gain(x):
    return float(x) if x is not None and x > 0 else 0.0


def nDCG(labels, judged_labels, k=None):
    dcg = sum(gain(x) / math.log2(i + 2) for i, x in enumerate(labels[:k]))
    ideal = sorted((gain(x) for x in judged_labels), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:k]) if g > 0)
    return dcg / idcg if idcg > 0 else dcg


def RBP(labels, p, k=None, level=1):
    return (1 - p) * sum(p ** i for i, x in enumerate(labels[:k]) if rel(x, level))


def iprec(labels, R, x, level=1):
    rr = [rel(v, level) for v in labels]
    total = sum(rr)
    c = math.floor(x * R + 0.5)
    if c > total or total == 0:
        return 0.0
    prec, hits = [], 0
    for i, r in enumerate(rr):
        hits += r
        prec.append(hits / (i + 1))
    j = max(c, 1)
    hits = 0
    for i, r in enumerate(rr):
        hits += r
        if hits == j:
            return max(prec[i:])
    return 0.0


def holm(p):
    """Holm's step-down adjusted p-values, written out plainly."""
    p = list(p)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adj = [0.0] * m
    running = 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * p[i]))
        adj[i] = running
    return adj
