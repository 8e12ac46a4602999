"""KTU and RBO of ipsoeval.analyses.repro.order against direct, per-topic
implementations of their definitions (repro_eval 0.5.0's: the union's
alphabetical numbering and scipy's Kendall tau; Clarke et al.'s RBO loop)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats

from ipsoeval.analyses.repro.order import Ranked, ktu_rbo


def _words(ids):
    width = max(len(s) for s in ids) // 8 + 1
    out = np.zeros((len(ids), width), dtype=np.uint64)
    for i, s in enumerate(ids):
        out[i] = np.frombuffer(s.encode().ljust(width * 8, b"\0"), dtype="<u8")
    return out


def _ranked(run: dict) -> Ranked:
    names = list(run)
    docs = [d for q in names for d in run[q]]
    start = np.r_[0, np.cumsum([len(run[q]) for q in names])].astype(np.int64)
    return Ranked("r", names, start, _words(docs))


def ktu_direct(a, b, k):
    a, b = a[:k], b[:k]
    m = min(len(a), len(b))
    a, b = a[:m], b[:m]
    union = sorted(set(a) | set(b))
    x = [union.index(d) for d in a]
    y = [union.index(d) for d in b]
    if m < 2:
        return math.nan
    return round(float(stats.kendalltau(x, y).correlation), 14)


def rbo_direct(run, ideal, p, depth):
    rs, is_, score, norm, w = set(), set(), 0.0, 0.0, 1.0
    for i in range(depth):
        if i < len(run):
            rs.add(run[i])
        if i < len(ideal):
            is_.add(ideal[i])
        score += w * len(rs & is_) / (i + 1)
        norm += w
        w *= p
    return score / norm


def _case(rng):
    T = rng.randint(1, 30)
    orig, rep = {}, {}
    for t in range(T):
        pool = list(dict.fromkeys(f"d{rng.randint(0, 300)}{'z' * rng.randint(0, 10)}"
                                  for _ in range(rng.randint(1, 90))))
        o = rng.sample(pool, rng.randint(1, len(pool)))
        r = o[:]
        for i in range(len(r)):
            if rng.random() < 0.2:
                j = rng.randrange(len(r))
                r[i], r[j] = r[j], r[i]
        if rng.random() < 0.3:
            r = r[:rng.randint(1, len(r))] + [d for d in pool if d not in r][:rng.randint(0, 5)]
        orig[f"t{t}"], rep[f"t{t}"] = o, r
    return orig, rep


@pytest.mark.parametrize("seed", range(25))
def test_ktu_rbo_equal_their_definitions(seed):
    rng = random.Random(seed)
    orig, rep = _case(rng)
    k = rng.choice([1, 3, 10, 1000])
    d = rng.choice([1, 5, 50, 1000])
    p = rng.choice([0.5, 0.9, 0.95])
    topics = list(orig)
    ktu, rbo, uneven = ktu_rbo(_ranked(orig), _ranked(rep), topics, ktu_depth=k, rbo_p=p,
                               rbo_depth=d)
    for i, q in enumerate(topics):
        want = ktu_direct(orig[q], rep[q], k)
        assert (math.isnan(want) and math.isnan(ktu[i])) or abs(ktu[i] - want) < 1e-12
        assert abs(rbo[i] - rbo_direct(rep[q], orig[q], p, d)) < 1e-12
        assert uneven[i] == (min(len(orig[q]), k) != min(len(rep[q]), k))


def test_identical_and_reversed_rankings():
    docs = [f"d{i:03d}" for i in range(40)]
    shuffled = docs[:]
    random.Random(3).shuffle(shuffled)
    run = {"1": shuffled}
    ktu, rbo, _ = ktu_rbo(_ranked(run), _ranked(run), ["1"])
    assert ktu[0] == 1.0
    # identical lists of 40 at depth 1000: overlap d up to 40, then 40
    assert abs(rbo[0] - rbo_direct(shuffled, shuffled, 0.95, 1000)) < 1e-12
    ktu, _, _ = ktu_rbo(_ranked({"1": docs}), _ranked({"1": docs[::-1]}), ["1"])
    assert ktu[0] == -1.0


def test_topics_in_any_order_of_the_files():
    a = {"b": ["x", "y", "z"], "a": ["p", "q"]}
    r = {"a": ["q", "p"], "b": ["x", "z", "y"]}
    ktu, rbo, _ = ktu_rbo(_ranked(a), _ranked(r), ["a", "b"])
    assert ktu[0] == -1.0 and abs(ktu[1] - ktu_direct(a["b"], r["b"], 1000)) < 1e-12
