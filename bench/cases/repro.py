"""Cases for ``ipsoeval repro``: an experiment and its reproduction.

``repro-4x7000x1000``: four runs (original and reproduced baseline and
advanced) of 7,000 topics x 1,000 documents each, reproductions perturbed
from the originals (swapped neighbours, a tenth of the documents replaced):
KTU and RBO per topic for both pairs, then ER, Delta RI, RMSE, nRMSE, the t
tests and the bootstrap (10,000 samples) on five measures' per-topic
scores, every table rendered as TSV.  The rankings and the scores are made
here: reading 28 million run lines and scoring them is ``eval``'s work,
measured by the eval cases, not this one's.  The tool prints its seconds and
exits 1 over the limit.

``repro-cli-4x7000x1000``: the whole command on the ``repro`` data set's
files (28 million run lines): reading, aligning and scoring the four runs
(five measures), KTU and RBO of both pairs, the effects, the t tests and the
bootstrap, the primary table as TSV.

``repro-500-vs-repro_eval``: the same on 500 topics, beside repro_eval
0.5.0's ``document_order.KTU`` and ``RBO`` (per-topic Python loops; its KTU
looks each document up in a list, quadratic in the depth) on the same
rankings as nested dicts.

    python bench/cases/repro.py [--quick] [--topics N] [--peer]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from harness import Case, Context, Target, Tool, ipsoeval_cmd  # noqa: E402

TOPICS, DOCS, SAMPLES = 7_000, 1_000, 10_000
PEER_TOPICS = 500
QUICK = (300, 200, 1_000)
LIMIT = 30.0


def _this(*extra):
    def argv(ctx: Context) -> list[str]:
        return [ctx.python, str(Path(__file__).resolve()), *extra,
                *(["--quick"] if ctx.quick else [])]
    return argv


def _have_repro_eval() -> str | None:
    import importlib.util
    return None if importlib.util.find_spec("repro_eval") else "not installed (repro-eval)"


REPRO_7000 = Case(
    name="repro-4x7000x1000",
    description=(
        "In-process: KTU and RBO of 2 run pairs x 7,000 topics x 1,000 documents, then ER, "
        "Delta RI, RMSE, nRMSE, t tests and the BCa bootstrap (10,000 samples) of 5 "
        "measures, every table as TSV. Fails (exit 1) over 30 s of CPU."),
    data="msmarco13",          # not read: the rankings are made in-process
    tools={"ipsoeval": Tool(_this())},
    targets=[Target("analysis <= 30 s of CPU (exit 1 otherwise; see its output)"),
             Target("peak <= 2 GB", max_peak_mb=2048)],
)

REPRO_500 = Case(
    name="repro-500-vs-repro_eval",
    description=(
        "KTU and RBO of 2 run pairs x 500 topics x 1,000 documents: ipsoeval (with the "
        "whole analysis) beside repro_eval 0.5.0's document_order.KTU and RBO."),
    data="msmarco13",
    tools={"ipsoeval": Tool(_this("--topics", str(PEER_TOPICS))),
           "repro_eval": Tool(_this("--topics", str(PEER_TOPICS), "--peer"),
                              available=_have_repro_eval, max_repeat=1)},
    targets=[Target("faster than repro_eval", peer="repro_eval", max_ratio=1.0)],
)

def _cli(ctx: Context) -> list[str]:
    d = ctx.data
    return [*ipsoeval_cmd(), "repro", "--format", "tsv", str(d / "qrels.txt"),
            *(str(d / f) for f in ("orig-base.txt", "orig-adv.txt", "rep-base.txt",
                                   "rep-adv.txt"))]


REPRO_CLI = Case(
    name="repro-cli-4x7000x1000",
    description=(
        "The whole command: ipsoeval repro on 4 runs x 7,000 topics x 1,000 documents "
        "(28M lines): read, score 5 measures, KTU and RBO of both pairs, ER, Delta RI, "
        "RMSE, nRMSE, t tests and the bootstrap (10,000 samples)."),
    data="repro",
    tools={"ipsoeval": Tool(_cli)},
    targets=[Target("peak <= 3 GB", max_peak_mb=3072)],
)

CASES = [REPRO_7000, REPRO_CLI, REPRO_500]


def _docnos(ids):
    """Document ids as id words: 'doc-' and 12 digits (16 bytes, two words)."""
    import numpy as np
    n = len(ids)
    b = np.zeros((n, 16), dtype=np.uint8)
    b[:, :4] = np.frombuffer(b"doc-", dtype=np.uint8)
    v = ids.astype(np.int64)
    for k in range(11, -1, -1):
        b[:, 4 + k] = 48 + v % 10
        v //= 10
    return b.view("<u8").reshape(n, 2)


def experiment(rng, topics: int, docs: int):
    """Four Ranked runs: baseline, advanced and their reproductions."""
    import numpy as np

    from ipsoeval.analyses.repro.order import Ranked
    names = [f"q{t}" for t in range(topics)]
    start = np.arange(topics + 1, dtype=np.int64) * docs

    def original():
        # per topic, docs distinct ids out of 3 * docs: a random permutation's head
        base = np.argsort(rng.random((topics, 3 * docs)), axis=1)[:, :docs]
        return base + (np.arange(topics)[:, None] * 10 * docs)

    def reproduce(ids):
        out = ids.copy()
        half = docs // 2                                         # neighbours swapped:
        swap = rng.random((topics, half)) < 0.3                  # ranks 2k and 2k + 1
        a, b = out[:, 0:2 * half:2], out[:, 1:2 * half:2]
        a[swap], b[swap] = b[swap].copy(), a[swap].copy()
        new = rng.random(out.shape) < 0.1                        # documents replaced
        out[new] = (np.arange(topics)[:, None] * 10 * docs + 5 * docs
                    + np.arange(docs)[None, :])[new]
        return out

    ob, oa = original(), original()
    rb, ra = reproduce(ob), reproduce(oa)
    return [Ranked(r, names, start, _docnos(x.reshape(-1)))
            for r, x in zip(("ob", "oa", "rb", "ra"), (ob, oa, rb, ra))]


def scores(rng, topics: int, measures: int = 5):
    import numpy as np
    out = []
    for _ in range(measures):
        b = rng.beta(2, 3, topics)
        a = np.clip(b + rng.normal(0.05, 0.1, topics), 0, 1)
        out.append((b, a, np.clip(b + rng.normal(0, 0.05, topics), 0, 1),
                    np.clip(a + rng.normal(-0.01, 0.05, topics), 0, 1)))
    return out


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    sys.path.insert(0, str(BENCH.parent))
    import numpy as np
    topics, docs, samples = QUICK if quick else (TOPICS, DOCS, SAMPLES)
    if "--topics" in argv:
        topics = min(topics, int(argv[argv.index("--topics") + 1]))
    rng = np.random.default_rng(42)
    runs = experiment(rng, topics, docs)
    if "--peer" in argv:
        return peer(runs)
    from ipsoeval.analyses import repro
    from ipsoeval.analyses.repro.order import ktu_rbo
    from ipsoeval.analyses.repro.report import MeasureScores, OrderResult
    from ipsoeval.formatters import render
    t0, c0 = time.perf_counter(), time.process_time()
    order = []
    for role, (o, r) in (("baseline", (0, 2)), ("advanced", (1, 3))):
        k, b, u = ktu_rbo(runs[o], runs[r], runs[o].names)
        order.append(OrderResult(role, runs[o].names, k, b, u))
    t_order, c_order = time.perf_counter() - t0, time.process_time() - c0
    data = [MeasureScores(f"m{i}", runs[0].names, *s[:2], runs[0].names, *s[2:])
            for i, s in enumerate(scores(rng, topics))]
    rep = repro.run(data, repro.Options(samples=samples, seed=42), order=order)
    text = "".join(render(rep, "tsv", table=t.id) for t in rep.tables)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"topics\t{topics}\tdocuments\t{docs}\tsamples\t{samples}\toutput_bytes\t{len(text)}")
    print(f"seconds\t{secs:.3f}\tcpu_seconds\t{cpu:.3f}\tktu_rbo_seconds\t{t_order:.3f}\t"
          f"ktu_rbo_cpu_seconds\t{c_order:.3f}\tlimit_cpu\t{LIMIT:.0f}")
    for r in rep.table("order").records:
        print(f"{r['run']}\tmean_ktu\t{r['ktu']!r}\tmean_rbo\t{r['rbo']!r}")
    return 0 if quick or cpu <= LIMIT else 1


def peer(runs) -> int:
    """repro_eval's KTU and RBO of both pairs on the same rankings."""
    from collections import OrderedDict

    from repro_eval.measure import document_order

    from ipsoeval.reading.words import id_bytes

    def nested(r):
        out = {}
        for t, q in enumerate(r.names):
            rows = r.docno[r.start[t]:r.start[t + 1]]
            n = len(rows)
            out[q] = OrderedDict((id_bytes(w).decode(), float(n - i)) for i, w in enumerate(rows))
        return out

    dicts = [nested(r) for r in runs]
    t0, c0 = time.perf_counter(), time.process_time()
    got = []
    for role, (o, r) in (("baseline", (0, 2)), ("advanced", (1, 3))):
        k = document_order.KTU(dicts[o], dicts[r])
        b = document_order.RBO(dicts[o], dicts[r], p=0.95, depth=1000, pbar=False,
                               per_topic=False)
        got.append(f"{role}\tmean_ktu\t{k!r}\tmean_rbo\t{b!r}")
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"topics\t{len(runs[0].names)}\tseconds\t{secs:.3f}\tcpu_seconds\t{cpu:.3f}")
    print("\n".join(got))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
