"""eval's tie warning under every tie break (ipsoeval.measures.ties.tie_notes)
and the quick path's same warning (_core.c eval_one_run counts, the text of
ipsoeval/tiewarn_text.py).

The outside reference is a brute-force count from the raw files: per topic,
the documents grouped by score; a group counts when it holds two different
labels (qrels label; unjudged; pooled: a negative qrels label) and either
straddles a reported rank cutoff k (it holds ranks k and k + 1) or a measure
without a rank cutoff (AP) is reported."""

from __future__ import annotations

import collections
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipsoeval.reading import compiled as _fast
from tests.conftest import invoke, run_quick

TOPICS = ["1", "2", "10", "301"]
DOCS = ["d1", "d2", "d3", "d4", "d5", "d6", "e" * 9, "x"]
SCORES = ["1", "2", "2.0", "3.5", "-1", "0", "7"]
NOTE = re.compile(r"warning: (\S+): (\d+) topic\(s\) have tied scores")


@st.composite
def files(draw):
    topics = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True))
    qrels, run = [], []
    for t in topics:
        for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=6, unique=True)):
            qrels.append(f"{t} 0 {d} {draw(st.integers(-1, 2))}")
        for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True)):
            run.append(f"{t} Q0 {d} 0 {draw(st.sampled_from(SCORES))} tag")
    if draw(st.booleans()):      # rows scattered (not streamed: read, then aligned)
        run = draw(st.permutations(run))
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


def brute(qrels: str, run: str, cutoffs=(), whole=False) -> int:
    """Topics whose tie order moves a reported value (module docstring)."""
    label = {}
    for ln in qrels.splitlines():
        t, _, d, x = ln.split()
        label[(t, d)] = "pooled" if int(x) < 0 else int(x)
    rows = collections.defaultdict(list)
    for ln in run.splitlines():
        t, _, d, _, s, _ = ln.split()
        rows[t].append((float(s), label.get((t, d), "unjudged")))
    n = 0
    for docs in rows.values():
        hit = False
        for s in {x for x, _ in docs}:
            labs = {lab for x, lab in docs if x == s}
            if len(labs) < 2:
                continue
            first = 1 + sum(x > s for x, _ in docs)              # 1-based ranks first..last
            last = first + sum(x == s for x, _ in docs) - 1
            hit |= whole or any(first <= k < last for k in cutoffs)
        n += hit
    return n


def _count(err: str) -> int:
    got = NOTE.findall(err)
    assert len(got) <= 1, err                                 # one line per run
    return int(got[0][1]) if got else 0


def _grouped(run) -> bool:
    qs = [ln.split()[0] for ln in run.read_text().splitlines()]
    return len({q for q in qs}) == 1 + sum(a != b for a, b in zip(qs, qs[1:]))


def _eval(path, tmp, args, tie_break):
    with pytest.MonkeyPatch.context() as m:
        m.setenv("IPSOEVAL_CORE", "python" if path == "python" else "c")
        if path == "two-step":
            m.setattr(_fast, "stream_run", lambda *a, **k: None)
        calls = []
        real = _fast.stream_run

        def spy(*a, **k):
            got = real(*a, **k)
            calls.append(got is not None)
            return got
        m.setattr(_fast, "stream_run", spy)
        code, out, err = invoke(["eval", "--tie-break", tie_break, *args,
                                 tmp / "q", tmp / "r"])
    if path == "stream" and _fast._core is not None and _grouped(tmp / "r"):
        assert calls == [True]                                # read in one pass
    return code, out, err


CASES = [(["-m", "P@1", "-m", "P@3"], (1, 3), False),
         (["-m", "AP"], (), True),
         (["-m", "P@2", "-m", "RR", "-m", "num_rel_ret"], (2,), True),
         (["-m", "num_ret", "-m", "set_P"], (), False),
         ([], (5, 10, 15, 20, 30, 100, 200, 500, 1000), True)]      # trec_eval's defaults


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(f=files(), case=st.sampled_from(CASES),
       tie_break=st.sampled_from(["trec", "docno-asc", "input"]),
       path=st.sampled_from(["stream", "two-step", "python"]))
def test_warning_counts_the_topics_brute_force_finds(tmp_path_factory, f, case, tie_break,
                                                     path):
    tmp = tmp_path_factory.mktemp("t")
    (tmp / "q").write_text(f[0])
    (tmp / "r").write_text(f[1])
    args, cutoffs, whole = case
    code, out, err = _eval(path, tmp, args, tie_break)
    assert code == 0, err
    assert _count(err) == brute(f[0], f[1], cutoffs, whole), err


@settings(max_examples=40, deadline=None)
@given(f=files())
def test_expected_counts_only_cutoffs(tmp_path_factory, f):
    tmp = tmp_path_factory.mktemp("t")
    (tmp / "q").write_text(f[0])
    (tmp / "r").write_text(f[1])
    code, out, err = invoke(["eval", "--tie-break", "expected", "-m", "P@2", "-m", "AP",
                             tmp / "q", tmp / "r"])
    assert code == 0, err
    assert _count(err) == brute(f[0], f[1], (2,), False), err


@pytest.mark.skipif(_fast._core is None, reason="compiled core not built")
@settings(max_examples=150, deadline=None)
@given(f=files())
def test_quick_path_warns_exactly_as_the_full_program(tmp_path_factory, f):
    tmp = tmp_path_factory.mktemp("t")
    (tmp / "q").write_text(f[0])
    (tmp / "r").write_text(f[1])
    quick = _fast._core.eval_official(os.fsencode(tmp / "q"), [os.fsencode(tmp / "r")])
    served, q_out, q_err = run_quick(["eval", "--format", "trec", tmp / "q", tmp / "r"])
    code, out, err = invoke(["eval", "--format", "trec", tmp / "q", tmp / "r"])
    mixed = brute(f[0], f[1], (), True)
    assert _count(err) == mixed
    if [ln for ln in err.splitlines() if "have tied scores" not in ln]:
        assert quick is None and not served        # another warning: the full program
        return
    assert quick is not None and served            # tie warning or none: the quick path
    assert quick[1] == [(b"tag", mixed, quick[1][0][2])]
    assert q_out == out and q_err == err


def test_official_tie_names_are_the_registry_s():
    """tiewarn_text's official measures (the quick path's names) are the ones
    tie_cells names for trec_eval's official set, in its order."""
    from ipsoeval.measures import expand_all
    from ipsoeval.tiewarn_text import OFFICIAL_CUTOFFS, OFFICIAL_WHOLE
    whole, cut = [], []
    for r in expand_all([]):
        m = r.measure
        if m.fam.kind == "text" or m.fam.tie_invariant:
            continue
        if m.cutoff is not None and m.fam.cutoff_kind == "rank":
            cut.append((int(m.k), m.name))
        else:
            assert not cut                         # every cutoff measure after the others
            whole.append(m.name)
    assert tuple(whole) == OFFICIAL_WHOLE
    assert cut == [(k, f"P@{k}") for k in OFFICIAL_CUTOFFS]


def test_message_names_the_affected_measures(tmp_path):
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n")
    (tmp_path / "r").write_text("1 Q0 a 1 2 x\n1 Q0 b 2 2 x\n1 Q0 c 3 1 x\n")
    code, out, err = invoke(["eval", "-m", "P@1", "-m", "P@3", "-m", "AP", "-m", "RR",
                             "-m", "nDCG", "-m", "bpref", tmp_path / "q", tmp_path / "r"])
    assert err == ("ipsoeval: warning: x: 1 topic(s) have tied scores across a cutoff or "
                   "between documents of different labels (the values of P@1, AP, RR, nDCG and "
                   "1 more depend on the tie order; --tie-break expected averages over it)\n")
    code, out, err = invoke(["eval", "-m", "P@1", "-m", "P@3", "-m", "AP", tmp_path / "q",
                             tmp_path / "r"])
    assert "(the values of P@1 and AP depend on the tie order;" in err
    code, out, err = invoke(["eval", "-m", "P@1", "-m", "P@3", "-m", "AP", "-m", "RR",
                             tmp_path / "q", tmp_path / "r"])
    assert "(the values of P@1, AP and RR depend on the tie order;" in err
