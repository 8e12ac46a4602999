#!/usr/bin/env python3
"""Seeded generator of the differential cases against trec_eval 10.0.

    python tests/differential/generate.py [--seed N] [--out DIR]
    TREC_EVAL=/path/to/trec_eval python tests/differential/generate.py --golden

Writes DIR/iNNN.qrels and DIR/iNNN.run (random inputs) and DIR/cases.json (the
command line of each case: `trec_eval ARGS iNNN.qrels iNNN.run`).  The same seed
gives the same bytes (stdlib `random` only, no set/dict iteration order).

With --golden, runs $TREC_EVAL on every case and writes its standard output to
DIR/cNNN.out and the exit statuses to DIR/golden.json (see golden()).  It never
builds trec_eval.

What the inputs stress (see tests/data/differential/README.md): equal scores
(trec_eval orders them by docno descending, strcmp), graded labels 0..4 and
negative labels, unjudged documents, docnos of lengths around the 8-byte word
boundaries (1, 7-9, 15-17, 63-65) and of 250-300 bytes, punctuation, UTF-8
(including bytes 0x85/0xA0 and U+2003, which are not C whitespace), digits only
and leading zeros, topics in the qrels missing from the run and vice versa,
topics without relevant documents, -c -l -J -M -n -N, every trec_eval measure and
its parameter forms, -q, CRLF line ends, tabs and runs of blanks, comment lines
('#' in column 0; in the qrels never two in a row, which trec_eval 10.0 misreads)
and blank lines in the run (trec_eval refuses them in the qrels), and scores written with
exponents, signs and leading/trailing dots.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "data" / "differential"
SEED = 20261122
N_INPUTS = 100
CASES_PER_INPUT = 3

PUNCT = "-_.:/+=~!$%&*()[]{}<>,;'\"?@^|`\\"
UTF8 = ["é", "Å", "à", "…", "文档", "\u2003", "ß", "ø", "€", "Ω"]
LENGTHS = [1, 7, 8, 9, 15, 16, 17, 63, 64, 65]

# -m forms (trec_eval's spellings); each case draws one group
MEASURE_GROUPS = [
    [],                                             # the official set
    ["-m", "all_trec"],
    ["-m", "all_trec", "-m", "relstring.20"],
    ["-m", "Rprec_mult.0.2,0.4", "-m", "utility.2,-1,0,0", "-m", "11pt_avg..25,.5",
     "-m", "relstring.20", "-m", "rbp.p=0.8", "-m", "ndcg.1=3,2=9"],
    ["-m", "set"],
    ["-m", "set_P", "-m", "set_relative_P", "-m", "set_recall", "-m", "set_map",
     "-m", "set_F.0.5", "-m", "utility"],
    ["-m", "infAP", "-m", "gm_map", "-m", "gm_bpref", "-m", "unj.3,7", "-m", "Rndcg",
     "-m", "ndcg_rel", "-m", "binG", "-m", "G"],
    ["-m", "P.5,7,3", "-m", "recall.20,2000", "-m", "iprec_at_recall..10,.20,.25,.75,.50",
     "-m", "ndcg_cut.10,20,23.4", "-m", "success.2,5,20", "-m", "map_cut.3,8"],
    ["-m", "relative_P.3,50", "-m", "yaap", "-m", "rbp_resid.p=0.5", "-m", "Rprec",
     "-m", "bpref", "-m", "recip_rank", "-m", "num_nonrel_judged_ret"],
    ["-m", "rbp"],
    ["-m", "rbp", "-m", "rbp_resid"],
    ["-m", "rbp.p=0.7,2=4", "-m", "rbp_resid.p=0.95"],
    ["-m", "ndcg.1=3,2=9,4=4.5", "-m", "G.0=0.5,2=3", "-m", "Rndcg.1=2,2=5",
     "-m", "ndcg_rel.0=-1,1=2"],
    ["-m", "dcg.2=5"],         # dcg and ideal_dcg with parameters: alone (trec_eval
    ["-m", "ideal_dcg.1=2"],   # 10.0 aborts with a double free next to another gain map)
    ["-m", "ndcg.1=1.5,2=1"],
    ["-m", "ndcg.0=1,1=1.5,2=1.25", "-m", "ndcg_cut.5"],
    ["-mP.1,2,3", "-mrecall.1,2,3", "-mndcg_cut.1,2,3", "-mmap_cut.1,2"],
    ["-m", "official", "-m", "ndcg", "-m", "ndcg_cut"],
    ["-m", "11pt_avg", "-m", "iprec_at_recall", "-m", "Rprec_mult", "-m", "relative_P",
     "-m", "success", "-m", "unj", "-m", "relstring"],
    ["-m", "utility.1,-1,0,0", "-m", "utility.0,0,-1,1", "-m", "set_F.0.25,2"],
    ["-m", "Rprec_mult.0.5,1.5,3", "-m", "11pt_avg.0.0,1.0", "-m", "relstring.3"],
    ["-mall_trec", "-mP.5,7", "-mrelstring.3", "-mndcg_cut.4"],
    ["-m", "set", "-m", "official", "-m", "utility.0,0,-1,1"],
]

FLAG_CHOICES = [["-c"], ["-l", "2"], ["-l2"], ["-J"], ["-M", "5"], ["-M5"], ["-n"],
                ["-N", "500"]]
RARE_FLAGS = [["-l", "0"], ["-l", "3"], ["-M", "1"], ["-M", "100"], ["-N", "0"]]


def tag(rnd):
    return rnd.choice(["run", "A", "bm25", "r-1.x", "Tag_with_\u00e9", "0",
                       "x" * rnd.randint(20, 40)])


def oddchars(rnd, n):
    alphabet = "abcXYZ0123456789" + PUNCT
    return "".join(rnd.choice(alphabet) for _ in range(n))


def docno(rnd, i, style):
    """A docno, unique by its index i (appended), of a style."""
    base = str(i)
    if style == "plain":
        return "d" + base
    if style == "digits":
        return rnd.choice(["", "0", "00"]) + base
    if style == "len":
        n = rnd.choice(LENGTHS)
        if n <= len(base) + 1:
            return base.rjust(n, "0")
        return oddchars(rnd, n - len(base) - 1) + "_" + base
    if style == "long":
        n = rnd.randint(250, 300)
        return oddchars(rnd, n - len(base) - 1) + "~" + base
    if style == "utf8":
        return rnd.choice(UTF8) + base + rnd.choice(UTF8)
    if style == "prefix":      # shared long prefixes: ties decided late in strcmp
        return "CLUEWEB09-en0000-00-" + base.zfill(5)
    return "D" + base


def topics(rnd):
    style = rnd.choice(["num", "q", "odd", "zero"])
    n = rnd.choice([1, 1, 2, 3, 3, 4, 5, 6, 8])
    if style == "num":
        ts = [str(rnd.randint(1, 999)) for _ in range(n)]
    elif style == "q":
        ts = ["q%d" % rnd.randint(1, 99) for _ in range(n)]
    elif style == "zero":
        ts = [rnd.choice(["0", "00", "007", "7", "70", "010"]) for _ in range(n)]
    else:
        ts = [rnd.choice(["T-3", "a.b", "x_1", "\u00e9t\u00e9", "Z", "10", "9", "1e3"])
              for _ in range(n)]
    out = []
    for t in ts:
        if t not in out:
            out.append(t)
    return out


def score(rnd, pool):
    if pool and rnd.random() < 0.35:
        return rnd.choice(pool)                       # a tie
    kind = rnd.randint(0, 9)
    if kind <= 3:
        s = str(rnd.randint(-50, 100))
    elif kind <= 5:
        s = "%.*f" % (rnd.randint(0, 6), rnd.uniform(-20, 40))
    elif kind == 6:
        s = "%.3e" % rnd.uniform(-1e3, 1e3)
        s = s.replace("e", rnd.choice(["e", "E"]))
    elif kind == 7:
        s = rnd.choice(["+3", ".5", "5.", "-0", "0.0", "-.25", "1e-3", "2.5E+2",
                        "-1E2", "00012", "0.1", "0.10000000000000001", "1e-320",
                        "-1e-320", "1E308", "-0.0", "123456789012345678901234567890"])
    else:
        s = repr(rnd.uniform(0, 1))                  # 17 significant digits
    pool.append(s)
    return s


def make_input(rnd, k):
    """qrels and run text for input k."""
    ts = topics(rnd)
    style = rnd.choice(["plain", "plain", "digits", "len", "len", "utf8", "prefix",
                        "mixed", "mixed", "long"])
    big = k % 25 == 24                       # a few larger inputs
    labels = rnd.choice([[0, 1], [0, 1, 2], [0, 1, 2, 3, 4], [-2, -1, 0, 1, 2, 3, 4],
                         [-1, 0, 1], [0, 0, 0, 1, 4]])
    qrows, rrows = [], []
    run_topics = list(ts)
    missing = rnd.random() < 0.3 and len(ts) > 1
    if missing:                              # a qrels topic the run lacks
        run_topics.remove(rnd.choice(ts[1:]))
    if rnd.random() < 0.4:                   # a run topic the qrels lack
        run_topics.append(rnd.choice(["999", "zz", "q0", "extra"]))
    qrels_topics = list(ts)
    for t in qrels_topics + [x for x in run_topics if x not in qrels_topics]:
        n = rnd.randint(1, 300 if big else 40)
        st = style
        docs = []
        for i in range(n + rnd.randint(0, 15)):
            if style == "mixed":
                st = rnd.choice(["plain", "digits", "len", "utf8", "long", "prefix"])
                if st == "long" and rnd.random() < 0.8:
                    st = "len"
            d = docno(rnd, i, st)
            if d not in docs:
                docs.append(d)
        empty_rel = rnd.random() < 0.12
        if t in qrels_topics:
            judged = [d for d in docs if rnd.random() < rnd.choice([0.2, 0.5, 0.8, 1.0])]
            if not judged:
                judged = [docs[0]]
            for d in judged:
                lab = rnd.choice(labels)
                if empty_rel and lab > 0:
                    lab = rnd.choice([0, -1]) if -1 in labels else 0
                qrows.append((t, d, lab))
        if t in run_topics:
            ranked = rnd.sample(docs, min(len(docs), n))
            pool = []
            for d in ranked:
                rrows.append((t, d, score(rnd, pool)))
    rnd.shuffle(qrows)
    rnd.shuffle(rrows)
    return qrows, rrows, missing


def render(rnd, qrows, rrows):
    eol = "\r\n" if rnd.random() < 0.2 else "\n"
    sep_style = rnd.choice(["space", "space", "tab", "mixed"])

    def sep():
        if sep_style == "space":
            return " "
        if sep_style == "tab":
            return "\t"
        return rnd.choice([" ", "\t", "  ", " \t "])

    q = []
    last_comment = True                      # never a comment first, never two in a row
    for t, d, lab in qrows:
        if not last_comment and rnd.random() < 0.05:
            q.append("# judged by assessor %d%s" % (rnd.randint(1, 9), eol))
        it = rnd.choice(["0", "Q0", "1"]) if sep_style != "space" else "0"
        q.append(f"{t}{sep()}{it}{sep()}{d}{sep()}{lab}{eol}")
        last_comment = False
    name = tag(rnd)
    mixed_tags = rnd.random() < 0.1          # the run's name is the last line's tag
    r = []
    rank = 0
    for t, d, s in rrows:
        x = rnd.random()
        if x < 0.03:
            r.append("# a comment line" + eol)
        elif x < 0.05:
            r.append("#" + eol)
        elif x < 0.06:
            r.append(rnd.choice(["", " ", "\t "]) + eol)   # blank lines
        rank += 1
        if mixed_tags:
            name = tag(rnd)
        r.append(f"{t}{sep()}Q0{sep()}{d}{sep()}{rank}{sep()}{s}{sep()}{name}{eol}")
    if r and rnd.random() < 0.1:
        r[-1] = r[-1].rstrip("\r\n")         # no final newline
    return "".join(q), "".join(r)


def case_args(rnd, group, n_topics):
    flags = []
    for f in FLAG_CHOICES:
        if rnd.random() < 0.25:
            flags += f
    if rnd.random() < 0.15:
        flags += rnd.choice(RARE_FLAGS)
    per_query = rnd.random() < 0.5
    if "all_trec" in group and n_topics > 3:
        per_query = rnd.random() < 0.15
    return (["-q"] if per_query else []) + flags + list(group)


# Inputs outside the input grammar (docs/conventions.md, Inputs) or refused by trec_eval, one defect each, on a small
# valid base (x-NAME; x-NAME-clean is the same input without the offending lines,
# for those ipsoeval reads and trec_eval refuses).  What ipsoeval must do with each
# is in tests/differential/test_trec_eval.py (INVALID_INPUTS).
_Q = "1 0 a 1\n1 0 b 0\n1 0 d 2\n2 0 c 2\n2 0 e 0\n"
_R = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 x 3 2 r\n2 Q0 c 1 1 r\n2 Q0 e 2 0.5 r\n"
INVALID = [
    ("dup-run", _Q, _R + "1 Q0 a 9 0 r\n"),
    ("dup-qrels", _Q + "1 0 a 0\n", _R),
    ("run-5-fields", _Q, _R + "2 Q0 f 3 0.1\n"),
    ("qrels-3-fields", _Q + "2 0 f\n", _R),
    ("qrels-5-fields", _Q + "2 0 f 1 x\n", _R),
    ("run-nan-score", _Q, _R + "2 Q0 f 3 nan r\n"),
    ("run-inf-score", _Q, _R + "2 Q0 f 3 -inf r\n"),
    ("run-hex-score", _Q, _R + "2 Q0 f 3 0x10 r\n"),
    ("run-junk-score", _Q, _R + "2 Q0 f 3 3abc r\n"),
    ("qrels-fractional-label", _Q + "2 0 f 1.5\n", _R),
    ("qrels-alpha-label", _Q + "2 0 f x\n", _R),
    ("run-indented-comment", _Q, _R + "  # an indented comment\n"),
    ("run-empty", _Q, ""),
    ("qrels-empty", "", _R),
    ("no-common-topic", _Q, "9 Q0 a 1 3 r\n"),
    ("qrels-blank-line", _Q.replace("\n", "\n\n", 1), _R),
    ("qrels-two-comments", "# one\n# two\n" + _Q, _R),
    ("qrels-plus-label", _Q + "2 0 f +1\n", _R),
    ("run-7-fields", _Q, _R + "2 Q0 f 3 0.1 r extra\n"),
]
_CLEAN = {"qrels-blank-line", "qrels-two-comments"}


# Valid hand-made inputs for what random ones rarely hit (s-NAME, compared as usual):
# a topic whose labels are all negative after one with relevance levels.
SPECIAL = [
    ("neg-only-topic", "a 0 d1 2\na 0 d2 1\nb 0 d3 -1\n",
     "a Q0 d1 1 2 r\na Q0 d2 2 1 r\nb Q0 d3 1 1 r\nb Q0 d4 2 0 r\n",
     [["-q", "-m", "all_trec"], ["-q", "-m", "ideal_dcg.1=2", "-m", "Rndcg"]]),
    # one score for every document of a topic, labels -1..3 (ties go by docno,
    # descending), and a topic tied across its cutoffs 1 and 2: the quick path's
    # measures and its tie warning
    ("ties", "1 0 a 2\n1 0 b -1\n1 0 c 0\n1 0 d 3\n1 0 e 1\n2 0 x 1\n2 0 y 0\n2 0 z 2\n",
     "1 Q0 a 1 5 t\n1 Q0 b 2 5 t\n1 Q0 c 3 5 t\n1 Q0 d 4 5 t\n1 Q0 e 5 5 t\n1 Q0 f 6 5 t\n"
     "2 Q0 x 1 9 t\n2 Q0 y 2 1 t\n2 Q0 z 3 1 t\n2 Q0 w 4 1 t\n",
     [["-q", "-m", "P.1,2,3", "-m", "map", "-m", "ndcg_cut.2", "-m", "recip_rank", "-m", "bpref",
       "-m", "Rprec", "-m", "success.1", "-m", "recall.2", "-m", "num_rel_ret"]]),
]


# More command lines on random inputs, drawn from no random stream (adding one does
# not change the other cases): dcg and ideal_dcg with their default gains.
EXTRA = [
    ("i003", ["-q", "-m", "dcg"]), ("i011", ["-q", "-c", "-m", "ideal_dcg"]),
    ("i024", ["-q", "-J", "-l", "2", "-m", "dcg"]), ("i042", ["-M", "5", "-m", "ideal_dcg"]),
    ("i057", ["-q", "-m", "dcg", "-m", "ndcg"]), ("i068", ["-m", "ideal_dcg", "-m", "ndcg_cut"]),
]


# The measures eval's quick path serves (ipsoeval/reading/quick.py), in
# trec_eval's spellings, one command line per random input (q-NNN), drawn from no
# random stream: ties, negative labels, odd docnos, missing topics (served by the
# full program) as the inputs have them.
QUICK_ARGS = [
    ["-m", "P.5,10", "-m", "map", "-m", "ndcg_cut.10", "-m", "recip_rank"],
    ["-q", "-m", "ndcg", "-m", "map_cut.5,100", "-m", "success.1,5", "-m", "recall.10,1000",
     "-m", "bpref", "-m", "Rprec"],
    ["-q", "-m", "num_q", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret", "-m", "P.20",
     "-m", "ndcg_cut.5", "-m", "runid"],
    ["-m", "P", "-m", "recall", "-m", "ndcg_cut", "-m", "map_cut", "-m", "success"],
]
QUICK = [("i%03d" % k, QUICK_ARGS[k % len(QUICK_ARGS)]) for k in range(N_INPUTS)]
# -M (documents kept per topic), which the quick path serves with -m (q-M-NNN)
QUICK_DEPTH = [("i%03d" % k, ["-M", "5"] + QUICK_ARGS[k % 2] if k % 3 else
                ["-M1"] + QUICK_ARGS[3]) for k in range(0, N_INPUTS, 5)]
# and on hand-made inputs: an empty run (an error), a topic whose labels are all
# negative (trec_eval's known bug); SPECIAL's s-ties has ties at every cutoff
QUICK_SPECIAL = [("x-run-empty", QUICK_ARGS[0]),
                 ("s-neg-only-topic", ["-q", "-m", "ndcg", "-m", "ndcg_cut.1", "-m", "map",
                                       "-m", "bpref", "-m", "P.1", "-m", "recip_rank",
                                       "-m", "num_rel"])]

# Ids as bytes: qids, docnos and run tags that differ only in bytes
# above 0x7F -- Latin-1 bytes, invalid UTF-8 (truncated and overlong sequences,
# encoded surrogates, 0xF5..0xFF) and valid UTF-8 mixed in, where Python's str
# order and the byte order (trec_eval's strcmp) disagree (U+E000 is EE 80 80,
# sorted before the lone byte EF).  b-NNN, from their own random stream (adding
# them changed no other case); b-issue is the example of the issue.
BYTES_SEED = 20261125
N_BYTES = 12
HIGH_IDS = [b"caf\xe9", b"caf\xe8", b"caf\xc3\xa9", b"\xff", b"\xfe", b"t\x80", b"t\xc3",
            b"\xed\xa0\x80", b"\xee\x80\x80", b"\xef", b"\xf0\x9f\x98\x80", b"\xf5",
            b"\xc0\xaf", b"abc", b"\xe9t\xe9", b"\xc3\xa9t\xc3\xa9"]
BYTES_ARGS = [["-q"], ["-q", "-m", "all_trec"], ["-q", "-c", "-M", "5"], ["-q", "-J", "-l", "2"]]


def _high(rnd, n):
    return bytes(rnd.randint(0x80, 0xFF) for _ in range(n))


def _bytes_docno(rnd, i):
    """A docno unique by its index i; many differ from another only above 0x7F."""
    kind = rnd.randint(0, 5)
    if kind == 0:
        return b"d" + str(i).encode()
    if kind == 1:                       # a byte above 0x7F at a word boundary
        return b"doc" + str(i).encode() + _high(rnd, rnd.choice([1, 4, 5, 6]))
    if kind == 2:
        return rnd.choice(HIGH_IDS) + str(i).encode()
    if kind == 3:                       # valid UTF-8 around it
        return "é".encode() + str(i).encode() + _high(rnd, 1) + "文".encode()
    return _high(rnd, rnd.choice([1, 2, 7, 8, 9, 16])) + str(i).encode()


def _bytes_input(rnd):
    topics = rnd.sample(HIGH_IDS, rnd.randint(2, 6))
    tags = [b"run", b"run\xe9", b"run\xe8", b"r\xc3\xa9", b"\xff\xfe", b"r\xee\x80\x80"]
    q, r = [], []
    for t in topics:
        docs = []
        n = rnd.randint(3, 25)
        for i in range(n):
            d = _bytes_docno(rnd, i)
            docs.append(d)
            if rnd.random() < 0.4:      # its twin: the same docno with other high bytes
                docs.append(d[:-1] + bytes([0x80 | (d[-1] ^ 0x01)]) if d[-1] >= 0x80
                            else d + _high(rnd, 1))
        docs = list(dict.fromkeys(docs))
        for d in docs:
            if rnd.random() < 0.7:
                q.append(b"%s 0 %s %d" % (t, d, rnd.choice([0, 0, 1, 2, -1])))
        pool = [b"1", b"2", b"0.5"]     # few scores: ties ordered by docno (strcmp)
        for k, d in enumerate(rnd.sample(docs, rnd.randint(1, len(docs)))):
            r.append((t, d, rnd.choice(pool)))
    if not q:
        q.append(b"%s 0 %s 1" % (topics[0], r[0][1]))
    rnd.shuffle(q)
    rnd.shuffle(r)
    tag = rnd.choice(tags)
    run = [b"%s Q0 %s %d %s %s" % (t, d, k + 1, s, tag) for k, (t, d, s) in enumerate(r)]
    return b"\n".join(q) + b"\n", b"\n".join(run) + b"\n"


def generate_bytes(out):
    rnd = random.Random(BYTES_SEED)
    cases = []
    inputs = [("b-issue", b"caf\xe9 0 a 1\ncaf\xe8 0 a 0\ncaf\xe8 0 b 1\n",
               b"caf\xe9 Q0 a 1 1 t\ncaf\xe8 Q0 a 1 1 t\ncaf\xe8 Q0 b 2 0.5 t\n")]
    for k in range(N_BYTES):
        inputs.append(("b-%03d" % k, *_bytes_input(rnd)))
    for name, q, r in inputs:
        (out / f"{name}.qrels").write_bytes(q)
        (out / f"{name}.run").write_bytes(r)
        arg_sets = [["-q", "-m", "P.1", "-m", "num_q"], ["-q"]] if name == "b-issue" else \
            rnd.sample(BYTES_ARGS, 2)
        for j, args in enumerate(arg_sets):
            cases.append({"case": f"{name}-{j}", "input": name, "args": args})
    return cases


def generate_invalid(out):
    cases = [{"case": f"e-{k}", "input": inp, "args": args}
             for k, (inp, args) in enumerate(EXTRA)]
    cases += [{"case": f"q-{inp[1:]}", "input": inp, "args": args} for inp, args in QUICK]
    cases += [{"case": f"q-{inp}", "input": inp, "args": args} for inp, args in QUICK_SPECIAL]
    cases += [{"case": f"q-M-{inp[1:]}", "input": inp, "args": args} for inp, args in QUICK_DEPTH]
    for name, q, r, arg_sets in SPECIAL:
        n = f"s-{name}"
        (out / f"{n}.qrels").write_bytes(q.encode())
        (out / f"{n}.run").write_bytes(r.encode())
        for j, args in enumerate(arg_sets):
            cases.append({"case": f"{n}-{j}", "input": n, "args": args})
    for name, q, r in INVALID:
        for suffix, qq in ([("", q)] + ([("-clean", _Q)] if name in _CLEAN else [])):
            n = f"x-{name}{suffix}"
            (out / f"{n}.qrels").write_bytes(qq.encode())
            (out / f"{n}.run").write_bytes(r.encode())
            cases.append({"case": n, "input": n, "args": ["-q"]})
    return cases


def generate(seed, out):
    rnd = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    cases = []
    for k in range(N_INPUTS):
        qrows, rrows, missing = make_input(rnd, k)
        qtext, rtext = render(rnd, qrows, rrows)
        name = "i%03d" % k
        (out / f"{name}.qrels").write_bytes(qtext.encode())
        (out / f"{name}.run").write_bytes(rtext.encode())
        n_topics = len({t for t, _, _ in qrows})
        groups = rnd.sample(range(len(MEASURE_GROUPS)), CASES_PER_INPUT)
        for j, g in enumerate(groups):
            args = case_args(rnd, MEASURE_GROUPS[g], n_topics)
            if j == 0 and missing and "-c" not in args:
                # trec_eval -c scores a missing topic with a placeholder document
                args = ["-c"] + args + ["-m", "utility.2,-1,0,0", "-m", "relstring.5",
                                        "-m", "rbp_resid.p=0.5", "-m", "unj.2"]
            cases.append({"case": "c%03d%s" % (k, "abc"[j]), "input": name, "args": args})
    cases += generate_invalid(out)
    cases += generate_bytes(out)
    (out / "cases.json").write_text(json.dumps(cases, indent=0, ensure_ascii=False) + "\n")
    return cases


def _topics(text, qrels):
    """The topics of a qrels or run text, read as trec_eval reads them."""
    out = set()
    for line in text.split(b"\n"):
        f = line.split()
        if not f or (qrels and line.startswith(b"#")) or (not qrels and f[0].startswith(b"#")):
            continue
        out.add(f[0])
    return out


def _second_opinions(args, top=4):
    """trec_eval command lines that compute, by another route, the values its known
    bugs spoil: rbp's gains read uninitialised memory next to other measures (alone,
    the -g build reads zeros): cNNN.alone; fractional ndcg gains are mis-sorted by an
    int comparator (gains times 4 are whole and nDCG does not change; every level up
    to the largest label, top, is listed): cNNN.scaled."""
    flags, meas = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-m":
            meas.append(args[i + 1])
            i += 2
            continue
        if a.startswith("-m"):
            meas.append(a[2:])
        elif a in ("-l", "-M", "-N"):
            flags += args[i:i + 2]
            i += 2
            continue
        else:
            flags.append(a)
        i += 1
    out = {}
    rbp = [m for m in meas if m.startswith("rbp")]
    if rbp and len(rbp) < len(meas):
        out["alone"] = flags + [x for m in rbp for x in ("-m", m)]
    for m in meas:
        if m.startswith("ndcg.") and "." in m[5:]:
            gains = {int(k): float(v) for k, v in (kv.split("=") for kv in m[5:].split(","))}
            scaled = ",".join(f"{lv}={4 * gains.get(lv, lv):g}" for lv in range(top + 1))
            out["scaled"] = flags + ["-m", "ndcg." + scaled]
    return out


def golden(cases, out, te10, merge=False):
    """trec_eval's outputs.  Where trec_eval 10.0 exits 4 on a qrels topic missing
    from the run, it is run again on the qrels restricted to the run's topics
    (the topic rule of trec_eval 9.0.8 and ipsoeval's default): cNNN.skip; the
    second opinions (see _second_opinions) are then taken on those qrels too.
    Where the output has a nan and no -q, the -q output goes to cNNN.perq."""
    status = {}
    for c in cases:
        qrels, run = out / (c["input"] + ".qrels"), out / (c["input"] + ".run")
        te10 = os.path.abspath(te10) if os.sep in te10 else te10

        def te(args, q, suffix, entry):
            # relative names: trec_eval's messages in golden.json name no local path
            p = subprocess.run([te10, *args, os.path.relpath(q, out), run.name],
                               capture_output=True, timeout=60, cwd=out)
            (out / (c["case"] + suffix)).write_bytes(p.stdout)
            entry[suffix[1:] + "_exit"] = p.returncode
            return p

        entry = {}
        p = te(c["args"], qrels, ".out", entry)
        entry["exit"] = entry.pop("out_exit")
        if p.returncode != 0:
            entry["stderr"] = p.stderr.decode(errors="replace").strip()
        with tempfile.TemporaryDirectory() as tmp:
            qref = qrels
            if p.returncode == 4 and "not found in qrels" in entry["stderr"]:
                keep = _topics(run.read_bytes(), False)
                lines = qrels.read_bytes().splitlines(keepends=True)
                qref = Path(tmp) / "qrels"
                qref.write_bytes(b"".join(ln for ln in lines if not ln.startswith(b"#")
                                          and ln.split()[0] in keep))
                p = te(c["args"], qref, ".skip", entry)
            if b"nan" in p.stdout and "-q" not in c["args"]:
                # trec_eval prints nan for an emptied ranking: its per-topic values
                # give the mean it should have printed
                te(["-q", *c["args"]], qref, ".perq", entry)
            labels = [int(f[3]) for f in (ln.split() for ln in qrels.read_bytes().split(b"\n")
                                          if not ln.startswith(b"#")) if len(f) == 4
                      and f[3].lstrip(b"-+").isdigit()]
            for suffix, args in _second_opinions(c["args"], max(labels + [4])).items():
                te(args, qref, "." + suffix, entry)
        status[c["case"]] = entry
    if merge:                       # these cases only: the others' entries are kept
        status = {**json.loads((out / "golden.json").read_text()), **status}
    (out / "golden.json").write_text(json.dumps(status, indent=1, sort_keys=True) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--golden", action="store_true",
                    help="also run $TREC_EVAL for the golden outputs")
    ap.add_argument("--only", metavar="PREFIX", default=None,
                    help="with --golden: only the cases whose name starts with PREFIX "
                         "(the other outputs and golden.json entries are kept)")
    a = ap.parse_args(argv)
    cases = generate(a.seed, a.out)
    print(f"{len(cases)} cases, {N_INPUTS} random inputs and {len(INVALID)} invalid ones "
          f"in {a.out}")
    if a.golden:
        te10 = os.environ.get("TREC_EVAL")
        if not te10:
            sys.exit("generate.py: --golden needs TREC_EVAL=/path/to/trec_eval (10.0)")
        if a.only:
            golden([c for c in cases if c["case"].startswith(a.only)], a.out, te10,
                   merge=True)
        else:
            golden(cases, a.out, te10)
        print("golden outputs written")


if __name__ == "__main__":
    main()
