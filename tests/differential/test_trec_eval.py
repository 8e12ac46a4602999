"""Differential test against trec_eval 10.0, every measure trec_eval prints.

tests/data/differential holds ~300 seeded random cases (tests/differential/
generate.py) and trec_eval 10.0's outputs on them (software of NIST, see the
README there).  Every case is run through `ipsoeval eval --format trec` with the
same options, on the compiled and the pure-Python core, and compared byte for byte.

A line may differ only where trec_eval is known to be wrong: KNOWN_TRECEVAL_BUGS
lists each such (case, measure) with the bug, and for it ipsoeval must print the
correct value, taken from another route (trec_eval run so that the bug does not
bite, or a brute-force count) -- never trec_eval's wrong one.  Cases where
trec_eval exits non-zero are in golden.json with its exit status; what ipsoeval
does instead is checked below.  Nothing is skipped.
"""

import json
import os

import pytest

from tests.conftest import ROOT, invoke, invoke_bytes

# run against the compiled reading core and the pure-Python one (conftest.py)
CORE_PATHS = ("c", "python")

D = ROOT / "tests" / "data" / "differential"
CASES = json.loads((D / "cases.json").read_text())
GOLD = json.loads((D / "golden.json").read_text())

BUG_REASONS = {
    "missing-topic-exit":
        "trec_eval 10.0 exits 4 ('result qid not found in qrels') on a qrels topic "
        "missing from the run without -c; 9.0.8 skipped it. ipsoeval skips it with a "
        "warning (compared with trec_eval on the qrels restricted to the run's topics, "
        "cNNN.skip) and stops with an input error under --trec-eval-version 10.",
    "rbp-uninit":
        "m_rbp.c reads its gain min and max uninitialised; next to other measures the -g "
        "build scales rbp's gains with stack garbage. Correct value: trec_eval with the "
        "rbp measures alone (cNNN.alone), where the same build reads zeros.",
    "fractional-gains":
        "gain_init.c sorts gain levels with an int comparator ((int)(g1 - g2)), so "
        "fractional gains less than 1 apart compare equal and the ideal ranking of "
        "ndcg can be mis-sorted. Correct value: trec_eval with every gain times 4 (whole "
        "numbers; nDCG is scale-free), cNNN.scaled.",
    "c-num-rel-level":
        "with -c, m_num_rel.c's summary counts qrels labels > 0 over all topics, "
        "ignoring -l. Correct value: the sum of the topics' num_rel (labels >= -l), "
        "counted here from the qrels.",
    "c-placeholder":
        "trec_eval -c scores a qrels topic missing from the run as a ranking of one "
        "placeholder document (ceci_nest_pas_un_docno, not judged) and then resets only "
        "the plain names utility, relstring, unj* and rbp_resid; with parameters "
        "(utility_2,-1,0,0, relstring_5, rbp_resid_p=0.5) the placeholder counts. "
        "Correct value: an empty ranking -- relstring '', rbp_resid 0 (no unjudged "
        "document; the placeholder's residual is 1) and utility without the "
        "placeholder's nonrel_ret term (value - a1 + a3 per topic, and so on the mean).",
    "negative-only-inherits":
        "form_res_rels.c keeps the relevance levels of the previous topic when a "
        "topic's qrels have no label >= 0, so its ideal_dcg is the previous topic's. "
        "Correct value: 0 (no gain to sort) and the mean with 0 for 'all'.",
    "nan-emptied":
        "an emptied ranking (-J drops every retrieved document) gives 0/0 in "
        "iprec_at_recall and 11pt_avg: trec_eval prints -nan for the topic (and the "
        "mean). Correct value: 0 for the topic (nothing retrieved, precision 0 at every "
        "recall level) and the mean of the topics' values for 'all'.",
}

# (case, measure) -> bug; found by this test, each line checked against the correct value
KNOWN_TRECEVAL_BUGS = {
    ('c000a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c000a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c001a', 'rbp_resid_p=0.95'): 'c-placeholder',
    ('c010a', 'rbp_resid_p=0.95'): 'c-placeholder',
    ('c010a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c011b', 'num_rel'): 'c-num-rel-level',
    ('c021c', 'ndcg_1=1.5,2=1'): 'fractional-gains',
    ('c025a', 'iprec_at_recall_0.10'): 'nan-emptied',
    ('c025a', 'iprec_at_recall_0.20'): 'nan-emptied',
    ('c025a', 'iprec_at_recall_0.25'): 'nan-emptied',
    ('c025a', 'iprec_at_recall_0.50'): 'nan-emptied',
    ('c025a', 'iprec_at_recall_0.75'): 'nan-emptied',
    ('c025c', '11pt_avg'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.00'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.10'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.20'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.30'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.40'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.50'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.60'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.70'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.80'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_0.90'): 'nan-emptied',
    ('c025c', 'iprec_at_recall_1.00'): 'nan-emptied',
    ('c029c', 'num_rel'): 'c-num-rel-level',
    ('c030b', 'rbp_p=0.8'): 'rbp-uninit',
    ('c031c', 'iprec_at_recall_0.10'): 'nan-emptied',
    ('c031c', 'iprec_at_recall_0.20'): 'nan-emptied',
    ('c031c', 'iprec_at_recall_0.25'): 'nan-emptied',
    ('c040a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c040a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c043a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c043a', 'relstring_5'): 'c-placeholder',
    ('c043a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c044a', 'num_rel'): 'c-num-rel-level',
    ('c044a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c044a', 'relstring_5'): 'c-placeholder',
    ('c044a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c044b', 'ndcg_1=1.5,2=1'): 'fractional-gains',
    ('c046b', 'iprec_at_recall_0.00'): 'nan-emptied',
    ('c046b', 'num_rel'): 'c-num-rel-level',
    ('c047a', 'ndcg_1=1.5,2=1'): 'fractional-gains',
    ('c053b', 'num_rel'): 'c-num-rel-level',
    ('c054c', 'ndcg_0=1,1=1.5,2=1.25'): 'fractional-gains',
    ('c057a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c057a', 'relstring_5'): 'c-placeholder',
    ('c057a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c061b', 'rbp_p=0.8'): 'rbp-uninit',
    ('c067a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c067a', 'relstring_5'): 'c-placeholder',
    ('c067a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c069a', 'rbp_p=0.8'): 'rbp-uninit',
    ('c072a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c072a', 'relstring_5'): 'c-placeholder',
    ('c072a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c073b', 'ndcg_1=1.5,2=1'): 'fractional-gains',
    ('c088a', '11pt_avg_0.0,1.0'): 'nan-emptied',
    ('c090b', 'rbp_p=0.8'): 'rbp-uninit',
    ('c095a', 'rbp_resid_p=0.5'): 'c-placeholder',
    ('c095a', 'utility_2,-1,0,0'): 'c-placeholder',
    ('c096a', 'num_rel'): 'c-num-rel-level',
    ('c096c', 'ndcg_0=1,1=1.5,2=1.25'): 'fractional-gains',
    ('c098c', 'ndcg_0=1,1=1.5,2=1.25'): 'fractional-gains',
    ('s-neg-only-topic-1', 'ideal_dcg_1=2'): 'negative-only-inherits',
}

# Cases where trec_eval 10.0 exits non-zero for a reason other than a qrels topic
# missing from the run (those are compared with cNNN.skip, see test_case).
EXIT_BUGS = {
    case: "a qrels topic whose labels are all negative, evaluated first (topics go in "
          "strcmp order), has no relevance levels: te_chk_and_malloc returns its NULL "
          "pointer for the zero-size request and trec_eval 10.0 exits 4 \"Can't calculate "
          "measure\". ipsoeval scores the topic (nothing relevant) and exits 0; no "
          "trec_eval value exists to compare with."
    for case in ("c089a", "c089b", "c089c", "q-089")
}


# Inputs outside the input grammar (docs/conventions.md, Inputs) or refused by trec_eval (x-NAME cases): trec_eval's
# exit status (from golden.json) and what ipsoeval does instead -- an input error
# (exit 3, one line naming FILE:LINE where there is a line), or the output of
# trec_eval on the same input without the lines it refuses but ipsoeval reads.
INVALID_INPUTS = {
    "x-dup-run": (4, "error", ".run:6: duplicate docno 'a' in topic '1' (also at line 1)"),
    "x-dup-qrels": (4, "error", ".qrels:6: duplicate docno 'a' in topic '1'"),
    "x-run-5-fields": (2, "error", ".run:6: expected 6 or more fields"),
    "x-qrels-3-fields": (2, "error", ".qrels:6: expected 4 fields"),
    "x-qrels-5-fields": (2, "error", ".qrels:6: expected 4 fields"),
    # trec_eval reads scores with atof: nan and inf rank, 0x10 is 16, 3abc is 3
    "x-run-nan-score": (0, "error", ".run:6: score is not a finite number ('nan')"),
    "x-run-inf-score": (0, "error", ".run:6: score is not a finite number ('-inf')"),
    "x-run-hex-score": (0, "error", ".run:6: score is not a finite number ('0x10')"),
    "x-run-junk-score": (0, "error", ".run:6: score is not a finite number ('3abc')"),
    # and labels with atol: 1.5 is 1, x is 0
    "x-qrels-fractional-label": (0, "error", ".qrels:6: label is not an integer ('1.5')"),
    "x-qrels-alpha-label": (0, "error", ".qrels:6: label is not an integer ('x')"),
    # trec_eval skips a run line whose first non-blank is '#'; ipsoeval: '#' in column 0 only
    "x-run-indented-comment": (0, "error", ".run:6: expected 6 or more fields"),
    "x-run-empty": (2, "error", ".run: empty run file"),
    "q-x-run-empty": (2, "error", ".run: empty run file"),
    "x-qrels-empty": (2, "error", ".qrels: empty qrels file"),
    "x-no-common-topic": (4, "error", ".run: no topic in common between run(s) and qrels"),
    # trec_eval: "Malformed line" on a blank qrels line, and on the second of two
    # comment lines in a row (its comment skip handles one); ipsoeval skips both
    "x-qrels-blank-line": (2, "as", "x-qrels-blank-line-clean"),
    "x-qrels-two-comments": (2, "as", "x-qrels-two-comments-clean"),
}


def text(data: bytes) -> str:
    """Output or input bytes as text, byte for byte: ids that are not UTF-8
    (the b- cases) are compared as their bytes (surrogateescape)."""
    return data.decode("utf-8", "surrogateescape")


def read(path) -> str:
    return text(path.read_bytes())


def run_eval(args):
    """ipsoeval eval --format trec ARGS: (exit code, stdout as text(), stderr)."""
    code, out, err = invoke_bytes(["eval", "--format", "trec", *args])
    return code, text(out), err


# test_case's outputs of the full program, by (core, case): test_case_quick
# compares the quick path with the same call on the same core, so it reuses
# them instead of running the full program a second time
FULL = {}


def full_eval(case):
    """run_eval on the case's committed inputs, once per core and case."""
    key = (os.environ.get("IPSOEVAL_CORE"), case["case"])
    if key not in FULL:
        FULL[key] = run_eval(_args(case))
    return FULL[key]


# 'all' values derived from trec_eval's printed (rounded) values: two roundings
TOL = 1.5e-4


def _args(case):
    return [*case["args"], D / (case["input"] + ".qrels"), D / (case["input"] + ".run")]


def _lines(text):
    """[(measure, topic, value)] of trec_eval-format output."""
    out = []
    for ln in text.splitlines():
        name, topic, value = ln.split("\t")
        out.append((name.rstrip(" "), topic, value))
    return out


def _level(args):
    lv = 1
    for i, a in enumerate(args):
        if a == "-l":
            lv = int(args[i + 1])
        elif a.startswith("-l"):
            lv = int(a[2:])
    return lv


def _qrels(case):
    """(topic, label) of every qrels line, read as trec_eval reads it."""
    rows = []
    for ln in (D / (case["input"] + ".qrels")).read_bytes().split(b"\n"):
        f = ln.split()
        if f and not ln.startswith(b"#"):
            rows.append((text(f[0]), int(f[3])))
    return rows


def _run_topics(case):
    out = set()
    for ln in (D / (case["input"] + ".run")).read_bytes().split(b"\n"):
        f = ln.split()
        if f and not f[0].startswith(b"#"):
            out.add(text(f[0]))
    return out


def _value(lines, topic, measure=None):
    hits = [v for (m, t, v) in lines if t == topic and (measure is None or m == measure)]
    assert len(hits) == 1, (topic, measure, hits)
    return hits[0]


def _check_bug(bug, case, name, topic, te_value, got_value, te_lines, got_lines):
    stem = D / case["case"]
    if bug == "rbp-uninit":
        assert got_value == _value(_lines(read(stem.with_suffix(".alone"))),
                                   topic, name)
    elif bug == "fractional-gains":
        assert got_value == _value(_lines(read(stem.with_suffix(".scaled"))), topic)
    elif bug == "c-num-rel-level":
        assert topic == "all" and "-c" in case["args"]
        lv = _level(case["args"])
        assert int(got_value) == sum(1 for _, lab in _qrels(case) if lab >= lv)
    elif bug in ("nan-emptied", "negative-only-inherits"):
        if topic == "all" and "-q" not in case["args"]:
            te_lines = _lines(read(stem.with_suffix(".perq")))   # the -q run
        if bug == "nan-emptied":
            assert "nan" in te_value
            wrong = {t for (m, t, v) in te_lines if m == name and "nan" in v}
        else:
            wrong = {t for t, _ in _qrels(case)} - {t for t, lab in _qrels(case) if lab >= 0}
        if topic != "all":
            assert topic in wrong and got_value == "0.0000"
        else:
            per = [0.0 if t in wrong else float(v) for (m, t, v) in te_lines
                   if m == name and t != "all"]
            assert per, "no per-topic lines to average"
            assert abs(float(got_value) - sum(per) / len(per)) <= TOL
    elif bug == "c-placeholder":
        assert "-c" in case["args"]
        qt = {t for t, _ in _qrels(case)}
        missing = qt - _run_topics(case)
        if name.startswith("relstring_"):
            assert topic in missing and te_value == "'-'" and got_value == "''"
        elif name.startswith("rbp_resid_"):
            # the placeholder is unjudged: residual p + (1 - p) = 1; none when empty
            if topic == "all":
                want = float(te_value) - len(missing) / len(qt)
                assert abs(float(got_value) - want) <= TOL
            else:
                assert topic in missing and te_value == "1.0000" and got_value == "0.0000"
        else:
            a = [float(x) for x in name[len("utility_"):].split(",")]
            fix = a[3] - a[1]      # one nonrelevant document less retrieved
            if topic == "all":
                want = float(te_value) + fix * len(missing) / len(qt)
                assert abs(float(got_value) - want) <= TOL
            else:
                assert topic in missing
                assert float(got_value) == pytest.approx(float(te_value) + fix, abs=1e-9)
    else:
        raise AssertionError(f"unknown bug {bug}")


def compare(case, got, want):
    """Differences not explained by a known trec_eval bug (after checking those)."""
    te_lines, got_lines = _lines(want), _lines(got)
    assert [(m, t) for m, t, _ in got_lines] == [(m, t) for m, t, _ in te_lines], \
        (case["case"], "lines differ in measure or topic")
    unexplained = []
    for (m, t, tv), (_, _, gv) in zip(te_lines, got_lines):
        if tv == gv:
            continue
        bug = KNOWN_TRECEVAL_BUGS.get((case["case"], m))
        if bug is None:
            unexplained.append(f"{m} {t}: trec_eval {tv}, ipsoeval {gv}")
            continue
        _check_bug(bug, case, m, t, tv, gv, te_lines, got_lines)
    return unexplained


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["case"])
def test_case(case):
    gold = GOLD[case["case"]]
    code, got, err = full_eval(case)
    if case["case"] in INVALID_INPUTS:
        te_exit, what, detail = INVALID_INPUTS[case["case"]]
        assert gold["exit"] == te_exit
        if what == "error":
            assert code == 3 and got == "", err
            assert err.startswith("ipsoeval: error: ") and err.count("\n") == 1, err
            assert f"{case['input']}{detail}" in err, err
        else:
            assert code == 0, err
            assert got == read(D / (detail + ".out"))
            assert GOLD[detail]["exit"] == 0
        return
    if gold["exit"] == 0:
        want = read(D / (case["case"] + ".out"))
    elif "skip_exit" in gold:
        # BUG_REASONS["missing-topic-exit"]
        assert gold["exit"] == 4 and "not found in qrels" in gold["stderr"]
        assert gold["skip_exit"] == 0
        want = read(D / (case["case"] + ".skip"))
        assert "missing from the run skipped" in err
    else:
        assert case["case"] in EXIT_BUGS, (case["case"], gold)
        assert code == 0 and "Traceback" not in err, err
        assert ("-n" in case["args"] and "-q" not in case["args"]) or got
        return
    assert code == 0, err
    assert "Traceback" not in err
    assert compare(case, got, want) == []
    if case["input"].startswith("b-"):      # ids as bytes: byte for byte, one warning a file
        assert got == want
        assert set(_warned(err)) <= {case["input"] + ".qrels", case["input"] + ".run"}
        assert len(_warned(err)) == len(set(_warned(err))) >= 1


def _warned(err):
    """The files named by the 'not UTF-8' warnings (FILE:LINE: ...)."""
    return [ln.split(": ")[2].rsplit("/", 1)[-1].rsplit(":", 1)[0]
            for ln in err.splitlines() if "identifier is not UTF-8" in ln]


MISSING = [c for c in CASES if "skip_exit" in GOLD[c["case"]] and c["case"] not in INVALID_INPUTS]


@pytest.mark.parametrize("case", MISSING[:8], ids=lambda c: c["case"])
def test_missing_topic_trec_eval_10_rule(case):
    # --trec-eval-version 10 stops where trec_eval 10.0 does (its exit 4 is our
    # input error, exit 3, with the topic named); 9 is the default's skip
    code, out, err = invoke(["eval", "--format", "trec", "--trec-eval-version", "10",
                             *_args(case)])
    assert code == 3 and out == ""
    assert "is missing from the run" in err and err.count("ipsoeval: error:") == 1


def test_known_bugs_are_all_used():
    # every listed exception is a line where trec_eval differs from its own second opinion
    for (case, measure), bug in KNOWN_TRECEVAL_BUGS.items():
        assert bug in BUG_REASONS
        gold = GOLD[case]
        out = read(D / (case + (".out" if gold["exit"] == 0 else ".skip")))
        assert any(m == measure for m, _, _ in _lines(out)), (case, measure)
    for case in EXIT_BUGS:
        assert GOLD[case]["exit"] != 0
    assert set(INVALID_INPUTS) <= {c["case"] for c in CASES}


def test_corpus_size():
    # the figures the README gives
    assert len(CASES) >= 300
    assert sum(1 for c in CASES if GOLD[c["case"]]["exit"] == 0) >= 200


def test_first_parameters_of_a_measure_win():
    # found by this test: trec_eval uses only the first -m with parameters of a
    # measure (meas_init.c stops at the first match); ipsoeval printed both
    te = D.parent / "trec_eval"
    code, out, err = invoke(["eval", "--format", "trec", "-m", "utility.1,-1,0,0",
                             "-m", "utility.0,0,-1,1", "-m", "P.5", "-m", "P.10",
                             te / "qrels.test", te / "results.test"])
    assert code == 0
    assert [ln.split()[0] for ln in out.splitlines()] == ["P_5", "utility_1,-1,0,0"]
    assert "-m utility.0,0,-1,1: trec_eval uses only the first parameters given for " \
           "utility (-m utility.1,-1,0,0); this one is ignored" in err
    assert "-m P.10: trec_eval uses only the first" in err


def test_generator_reproduces_the_committed_inputs(tmp_path):
    # same seed, same bytes: the inputs and cases.json come from generate.py as committed
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "difftest_generate", ROOT / "tests" / "differential" / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    cases = gen.generate(gen.SEED, tmp_path)
    assert cases == CASES
    made = sorted(p.name for p in tmp_path.iterdir())
    assert len(made) == len({c["input"] for c in CASES}) * 2 + 1
    for name in made:
        assert (tmp_path / name).read_bytes() == (D / name).read_bytes(), name


# trec_eval 10.0's measures of the qrels mode (measures.c; the prefs_* and *_avgjg
# families need -R and are in tests/data/trec_modes)
TREC_EVAL_MEASURES = [
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
    "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP",
    "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg",
    "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "yaap",
    "rbp", "rbp_resid", "unj",
]


def test_every_trec_eval_measure_is_compared():
    # each measure, plain and with parameters where it takes them
    printed = set()
    for c in CASES:
        gold = GOLD[c["case"]]
        for suffix in (".out", ".skip"):
            f = D / (c["case"] + suffix)
            if f.exists() and (suffix == ".skip" or gold["exit"] == 0):
                printed |= {m for m, _, _ in _lines(read(f))}

    def family(name):
        return max((f for f in TREC_EVAL_MEASURES if name == f or name.startswith(f + "_")),
                   key=len)
    fams = {family(n) for n in printed}
    assert fams == set(TREC_EVAL_MEASURES)
    plain = {family(n) for n in printed if n in TREC_EVAL_MEASURES}
    assert plain == set(TREC_EVAL_MEASURES) - {"P", "recall", "iprec_at_recall", "ndcg_cut",
                                               "map_cut", "relative_P", "success",
                                               "Rprec_mult", "unj"}
    with_params = {family(n) for n in printed if "=" in n or "," in n}
    assert with_params >= {"utility", "11pt_avg", "ndcg", "G", "Rndcg", "ndcg_rel", "dcg",
                           "ideal_dcg", "rbp", "rbp_resid", "set_F"}


# --- the quick path (ipsoeval/reading/quick.py: the compiled core, no numpy) -----------

QUICK_CASES = [c for c in CASES if c["case"].startswith("q-")]
TIES = next(c for c in CASES if c["case"] == "s-ties-0")


def _quick(case, core_path):
    """(served, stdout, stderr) of the console script's quick path on the case
    (which IPSOEVAL_CORE=python turns off: the full program is test_case's)."""
    from ipsoeval.reading.core import CORE
    from tests.conftest import run_quick
    if CORE is None or core_path == "python":
        pytest.skip("the quick path needs the compiled core")
    return run_quick(["eval", "--format", "trec", *_args(case)])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["case"])
def test_case_quick(case, core_path):
    """Every case the quick path serves prints the full program's bytes (stdout
    and stderr), which test_case holds against trec_eval: compared with
    trec_eval here too."""
    served, got, got_err = _quick(case, core_path)
    if not served:
        assert got == got_err == ""
        return
    code, out, err = full_eval(case)
    assert code == 0 and got == out and got_err == err
    gold = GOLD[case["case"]]
    assert gold["exit"] == 0
    assert compare(case, got, read(D / (case["case"] + ".out"))) == []


def test_quick_cases_are_served(core_path):
    """The q- cases (trec_eval's spellings of the quick path's measures): all but
    those whose inputs the quick path leaves to the full program (a topic in one
    file only, a tie warning's neighbours ...) are served."""
    served = [c["case"] for c in QUICK_CASES if _quick(c, core_path)[0]]
    assert len(QUICK_CASES) == 122 and len(served) >= 55, served
    assert sum(1 for c in served if c.startswith("q-M-")) >= 8
    assert "q-x-run-empty" not in served and "q-s-neg-only-topic" in served
    served, _, err = _quick(TIES, core_path)       # ties at every cutoff: warned
    assert served and "t: 2 topic(s) have tied scores" in err


# ipsoeval's own spellings of trec_eval's measures: the same values (trec_eval's) under
# another label
CANONICAL = {"P_5": "P@5", "P_10": "P@10", "P_20": "P@20", "map": "AP", "ndcg": "nDCG",
             "ndcg_cut_1": "nDCG@1", "ndcg_cut_5": "nDCG@5", "ndcg_cut_10": "nDCG@10",
             "recip_rank": "RR", "P_1": "P@1",
             "map_cut_5": "AP@5", "map_cut_100": "AP@100", "success_1": "Success@1",
             "success_5": "Success@5", "recall_10": "R@10", "recall_1000": "R@1000",
             "bpref": "bpref", "Rprec": "Rprec", "num_q": "NumQ", "num_ret": "NumRet",
             "num_rel": "NumRel", "num_rel_ret": "NumRelRet"}


def _options(args):
    """The arguments but the -m ones."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-m":
            skip = True
        elif not a.startswith("-m"):
            out.append(a)
    return out


def test_case_quick_canonical_names(core_path):
    """The q- cases with the canonical names (nDCG@10 for ndcg_cut.10 ...): the
    quick path prints trec_eval's values under those names."""
    from tests.conftest import run_quick
    if core_path == "python":
        pytest.skip("the quick path needs the compiled core")
    compared = 0
    for case in QUICK_CASES:
        want = read(D / (case["case"] + ".out"))
        if GOLD[case["case"]]["exit"] != 0 or "P_15" in want:
            continue                         # -m P (the default cutoffs): not all named
        names = list(dict.fromkeys(m for m, _, _ in _lines(want) if m != "runid"))
        args = _options(case["args"])            # -q, -M
        for m in names:
            args += ["-m", CANONICAL[m]]
        served, got, _ = run_quick(["eval", "--format", "trec", *args,
                                    D / (case["input"] + ".qrels"),
                                    D / (case["input"] + ".run")])
        if not served:
            continue
        compared += 1
        relabel = [(CANONICAL[m], t, v) for m, t, v in _lines(want) if m != "runid"]
        assert sorted(_lines(got)) == sorted(relabel), case["case"]
        # in the order asked, per topic then 'all'
        assert [m for m, t, _ in _lines(got) if t == "all"] == [CANONICAL[m] for m in names]
    assert compared >= 25, compared
