#!/usr/bin/env python3
"""Seeded generator of the differential cases against gdeval.pl (TREC Web
track, version 1.2a, the copy ir_measures ships; Debian's perl).

    python tests/differential/generate_gdeval.py            # inputs + cases.json
    python tests/differential/generate_gdeval.py --golden   # + cNNN.out (needs perl, ir_measures)

Writes tests/data/gdeval/iNNN.qrels, iNNN.run and cases.json (the cutoff of
each case: ``perl gdeval.pl iNNN.qrels iNNN.run K``); with --golden, gdeval's
standard output of every case in cNNN.out.  The same seed gives the same
bytes (stdlib ``random`` only).

What the inputs stress: equal scores (gdeval orders them by docno
descending, as trec_eval), grades -2..4 (gdeval's largest grade is 4;
negative and 0 grades gain nothing), unjudged documents, topics without a
relevant document (gdeval prints no line for them), qrels topics missing
from the run and run topics missing from the qrels, runs shorter and longer
than the cutoff, docnos with punctuation, UTF-8 and lengths around the
8-byte words, scores with exponents and signs.  Topic ids are numbers
(gdeval compares them as numbers) and column 2 of the qrels is 0 (gdeval
requires it).
"""

import argparse
import json
import random
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "data" / "gdeval"
SEED = 20261127
N_INPUTS = 70
CUTOFFS = (1, 2, 3, 5, 10, 20, 50)
CASES_PER_INPUT = 3
PUNCT = "-_.:/+=~!$%&*()[]{}<>,;'\"?@^|`\\"
UTF8 = ["é", "Å", "文档", "ß", "€", "Ω"]
LENGTHS = [1, 2, 7, 8, 9, 15, 16, 17]


def docno(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "".join(rng.choice(PUNCT + "ab") for _ in range(rng.randint(1, 6)))
    if kind < 0.25:
        return rng.choice(UTF8) + str(rng.randint(0, 99))
    return "".join(rng.choice("abcdXYZ0123456789") for _ in range(rng.choice(LENGTHS)))


def score(rng: random.Random, levels: int) -> str:
    v = rng.randint(0, levels)
    return rng.choice([f"{v}", f"{v}.0", f"{v / 10:.1f}e1", f"+{v}", f"{v - levels}"])


def make_input(rng: random.Random):
    qrels, run = [], []
    for n, t in enumerate(rng.sample(range(1, 400), rng.randint(1, 6))):
        pool = list(dict.fromkeys(docno(rng) for _ in range(rng.randint(1, 30))))
        no_rel = rng.random() < 0.15
        for d in pool:
            g = rng.choice([-2, -1, 0, 0, 0, 1, 1, 2, 3, 4])
            qrels.append((t, d, min(g, 0) if no_rel else g))
        if n and rng.random() < 0.1:     # a qrels topic missing from the run
            continue
        docs = list(dict.fromkeys(rng.sample(pool, rng.randint(0, len(pool)))
                                  + [docno(rng) for _ in range(rng.randint(0, 15))]))
        rng.shuffle(docs)
        docs = docs[:rng.randint(1, 60)] or [docno(rng)]
        levels = rng.randint(1, 8)
        run.extend((t, d, score(rng, levels)) for d in docs)
    if rng.random() < 0.2:
        run.append((999, "zz", "1"))
    rng.shuffle(qrels)
    return qrels, run


def generate(seed: int, out: Path) -> list[dict]:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(N_INPUTS):
        qrels, run = make_input(rng)
        (out / f"i{i:03d}.qrels").write_text(
            "".join(f"{t} 0 {d} {g}\n" for t, d, g in qrels), encoding="utf-8")
        (out / f"i{i:03d}.run").write_text(
            "".join(f"{t} Q0 {d} {r + 1} {s} run{i}\n" for r, (t, d, s) in enumerate(run)),
            encoding="utf-8")
        for k in rng.sample(CUTOFFS, CASES_PER_INPUT):
            cases.append({"input": f"i{i:03d}", "k": k})
    (out / "cases.json").write_text(json.dumps(cases, indent=0) + "\n")
    return cases


def gdeval_path() -> Path:
    import ir_measures
    return Path(ir_measures.__file__).parent / "bin" / "gdeval.pl"


def golden(out: Path, cases: list[dict]) -> None:
    for n, case in enumerate(cases):
        got = subprocess.run(["/usr/bin/perl", str(gdeval_path()), f"{case['input']}.qrels",
                              f"{case['input']}.run", str(case["k"])],
                             cwd=out, capture_output=True, check=True)
        (out / f"c{n:03d}.out").write_bytes(got.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--golden", action="store_true")
    a = ap.parse_args()
    cases = generate(a.seed, a.out)
    if a.golden:
        golden(a.out, cases)


if __name__ == "__main__":
    main()
