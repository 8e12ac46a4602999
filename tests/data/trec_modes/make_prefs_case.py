"""Write a random preference case: make_prefs_case.py SEED OUT -> OUT.prefs, OUT.run.

Judgment groups of 1-3 sub-groups; within a group the levels follow one
hidden order (so a group is consistent), level 0 = non-relevant; runs have
tied scores.  Used for the gen*.prefs cases of this directory.
"""
import random
import sys

seed = int(sys.argv[1])
out = sys.argv[2]
rnd = random.Random(seed)
docs = [f"D{i:03d}" for i in range(rnd.randint(4, 40))]
pl, rl = [], []
for t in range(rnd.randint(1, 5)):
    q = f"q{t}"
    for g in range(rnd.randint(1, 3)):
        nsub = rnd.choice([1, 1, 2, 3])
        hidden = {d: rnd.random() for d in docs}
        zero = {d: rnd.random() < 0.4 for d in docs}
        for s in range(nsub):
            sel = rnd.sample(docs, rnd.randint(2, min(len(docs), 12)))
            sel.sort(key=lambda d: (not zero[d], hidden[d]))
            lv = 0.0 if nsub > 1 else rnd.choice([0.0, 1.0])
            last = None
            for d in sel:
                if zero[d]:
                    pl.append(f"{q} jg{g} s{s} {d} 0")
                else:
                    if last is None or rnd.random() < 0.6:
                        lv += 1
                    last = d
                    pl.append(f"{q} jg{g} s{s} {d} {lv:g}")
    ranked = rnd.sample(docs + [f"X{i}" for i in range(5)], rnd.randint(0, len(docs)))
    for i, d in enumerate(ranked):
        sc = rnd.choice([1.0, 2.0, 3.0]) if rnd.random() < 0.3 else rnd.random()
        rl.append(f"{q} Q0 {d} {i + 1} {sc} R{seed}")
if not rl:
    rl.append(f"q0 Q0 D000 1 1.0 R{seed}")
rnd.shuffle(pl)
open(out + ".prefs", "w").write("\n".join(pl) + "\n")
open(out + ".run", "w").write("\n".join(rl) + "\n")
