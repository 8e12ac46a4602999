"""Every measure family in the registry, checked the same way (as
scikit-learn's ``test_common`` checks every estimator).

The tests are parametrized over ``ipsoeval.measures.FAMILIES``, so a family
added to ``ipsoeval/measures/families/`` (or registered by a plug-in) is
picked up without editing this file.  For each family, on its example form
(the one ``ipsoeval measures`` prints):

- the name parses, and the parsed measure's canonical name (and trec_eval
  name, where it has one) parses back to the same measure;
- it declares a scale, and ``ipsoeval measures`` lists that scale;
- under each label model and tie break it declares it computes, on a small
  generated study with ties and unjudged documents, with values in range
  (within ``--bounds`` where it has bounds, whole counts for a count); under
  each one it declares it does not have, it refuses with one usage line
  (exit 2, nothing on standard output) and the API with ``UsageError``;
- the API and the command line give the same values, topic by topic.

What the registry declares, and where:

- ``--labels probability``: ``ipsoeval.measures.expected.status`` ("not
  defined": refused);
- ``--tie-break expected``: ``ipsoeval.measures.ties.status`` ("not defined":
  refused);
- ``--bounds``: refused for the families that read diversity qrels
  (``Family.subtopics``);
- ``--labels gain``: the families that read diversity qrels take integer
  judgments only; trec_eval's LEVEL=GAIN parameter forms name integer labels
  and refuse it too.  Every other family computes.

The trec_eval modes (``-R prefs``, ``-R qrels_jg``) and the nugget measures
that ``ipsoeval measures`` also lists are not families of this registry;
their own tests cover them (tests/unit/trecmodes, tests/cli/test_nuggets.py).
"""

from __future__ import annotations

import json
import math
import random
import re
import warnings

import numpy as np
import pytest

import ipsoeval
from ipsoeval.errors import UsageError
from ipsoeval.measures import FAMILIES, Family, parse_measure, register, registry, unregister
from ipsoeval.measures import expected as E
from ipsoeval.measures import ties as T
from ipsoeval.measures.params import REL
from tests.conftest import invoke

SCALES = ("nominal", "ordinal", "interval", "ratio")
SEED, SAMPLES = 42, 50          # Monte Carlo: few labelings, the same on both paths

FAMILY_NAMES = sorted(FAMILIES)

# Families whose value is an estimate from the judged documents rather than
# the value of one labelling of the unjudged ones: --bounds need not contain
# it.  infAP counts a document missing from the qrels as not pooled, while
# --bounds labels it (pooled and judged), which moves the smoothed estimate:
# on this study the value falls 3e-7 below its low bound.
ESTIMATES = {"infAP"}


def _example(name):
    fam = FAMILIES[name]
    return fam, parse_measure(fam.example_name())


# --- the study ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """Three topics, two runs of six documents with tied scores, two documents
    of each ranking unjudged; the same judgments as integer grades, as real
    gains, as probabilities and as diversity qrels (two subtopics)."""
    d = tmp_path_factory.mktemp("common")
    rnd = random.Random(7)
    topics, docs = ["q1", "q2", "q3"], [f"d{i}" for i in range(8)]
    grade, gain, prob, div = [], [], [], []
    for q in topics:
        for doc in docs[:6]:
            g = rnd.choice([0, 0, 1, 2, 3])
            grade.append(f"{q} 0 {doc} {g}")
            gain.append(f"{q} 0 {doc} {g * 0.75:g}")
            prob.append(f"{q} 0 {doc} {g / 3:.3f}")
            div.extend(f"{q} {s} {doc} {int(rnd.random() < 0.4)}" for s in (1, 2))
    files = {"integer": grade, "gain": gain, "probability": prob, "diversity": div}
    for kind, lines in files.items():
        (d / f"qrels.{kind}").write_text("\n".join(lines) + "\n")
    runs = []
    for tag in ("a", "b"):
        lines = []
        for q in topics:
            ranked = sorted(((rnd.choice([1.0, 2.0, 2.0, 3.0, 4.0]), doc)
                             for doc in rnd.sample(docs, 6)), key=lambda x: -x[0])
            lines += [f"{q} Q0 {doc} {i} {s} {tag}" for i, (s, doc) in enumerate(ranked, 1)]
        (d / f"run.{tag}").write_text("\n".join(lines) + "\n")
        runs.append(str(d / f"run.{tag}"))
    return d, runs


def _qrels(study, fam, labels):
    d, _ = study
    return str(d / ("qrels.diversity" if fam.subtopics else f"qrels.{labels}"))


# --- what each family declares ------------------------------------------------------------

# (API keywords, CLI options) of each way of computing a measure
MODES = {
    "integer": ({}, []),
    "gain": ({"labels": "gain"}, ["--labels", "gain"]),
    "probability": ({"labels": "probability", "samples": SAMPLES, "seed": SEED},
                    ["--labels", "probability", "--samples", str(SAMPLES), "--seed", str(SEED)]),
    "ties": ({"tie_break": "expected"}, ["--tie-break", "expected"]),
    "bounds": ({"bounds": True}, ["--bounds"]),
}


def declared(fam, m, mode) -> bool:
    """Whether the registry declares ``m`` computable under ``mode``."""
    if mode == "integer":
        return True
    if mode == "probability":
        return E.status(fam) != "not defined"
    if mode == "ties":
        return T.status(fam) != "not defined"
    if mode == "bounds":
        return not fam.subtopics
    if mode == "gain":
        te = m.param("te")
        return not fam.subtopics and not (te is not None and re.match(r"-?\d+=", te))
    raise AssertionError(mode)


def _labels(mode):
    return mode if mode in ("gain", "probability") else "integer"


def _text_only(fam):
    """Text per topic (relstring): printed by ``eval -q`` alone, not an API value."""
    return fam.kind == "text" and fam.agg == "none"


# --- names and scale ---------------------------------------------------------------------

@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_name_parses_and_round_trips(name):
    fam, m = _example(name)
    assert m.family == fam.name
    assert parse_measure(m.name) == m
    if m.trec_name is not None:
        assert parse_measure(m.trec_name) == m
    for key, _ in m.params:
        assert key in fam.param_names or key == "te", (m.name, key)
    if fam.cutoff == "required":
        assert m.cutoff is not None
    if fam.cutoff == "none":
        assert m.cutoff is None


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_declares_a_scale_and_lists_it(name):
    fam, m = _example(name)
    assert fam.scale in SCALES
    assert m.scale in SCALES
    row = next(r for r in registry.catalogue() if r["measure"] == fam.name)
    assert row["scale"] == fam.scale
    assert row["probability"] == E.status(fam)
    assert row["ties"] == T.status(fam)


def test_every_family_is_listed_by_the_measures_command():
    code, out, err = invoke(["measures", "--format", "json"])
    assert code == 0, err
    listed = {r["measure"]: r for r in json.loads(out)["results"]}
    for fam in FAMILIES.values():
        assert listed[fam.name]["scale"] == fam.scale
        assert listed[fam.name]["example"] == fam.example_name()


# --- computing under each declared label model -------------------------------------------

def _api(study, fam, m, mode):
    kw, _ = MODES[mode]
    _, runs = study
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ipsoeval.evaluate(_qrels(study, fam, _labels(mode)), runs, [m.name],
                                queries="qrels", **kw)
    return _cells(res.to_table().records)


def _cli(study, fam, m, mode, fmt="json"):
    _, opts = MODES[mode]
    _, runs = study
    return invoke(["eval", "-q", "--queries", "qrels", "--format", fmt, "-m", m.name,
                   *opts, _qrels(study, fam, _labels(mode)), *runs])


def _cells(records):
    """(run, qid, measure) -> (value, low, high), NaN as None."""
    def num(v):
        return None if isinstance(v, float) and math.isnan(v) else v
    return {(r["run"], r["qid"], r["measure"]):
            tuple(num(r.get(k)) for k in ("value", "low", "high")) for r in records}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_computes_under_what_it_declares_and_refuses_the_rest(study, name, mode):
    _check(study, *_example(name), mode)


def _check(study, fam, m, mode):
    code, out, err = _cli(study, fam, m, mode)
    if not declared(fam, m, mode):
        assert code == 2, (code, err)
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("ipsoeval: error: "), err
        assert "Traceback" not in err
        with pytest.raises(UsageError):
            _api(study, fam, m, mode)
        return

    assert code == 0, err
    cli = _cells(json.loads(out)["results"])
    if fam.kind == "text":
        # text (runid, relstring) is trec_eval's: its layout prints it
        code, trec, err = _cli(study, fam, m, mode, fmt="trec")
        assert code == 0 and m.trec_name in trec, (err, trec)
    else:
        topics = {q for _, q, _ in cli if q != "all"}
        assert topics == ({"q1", "q2", "q3"} if fam.per_query else set())
        assert {r for r, _, _ in cli} == {"a", "b"}
    for (run, qid, measure), (value, low, high) in cli.items():
        assert measure == m.name
        if fam.kind == "text":
            assert isinstance(value, str)
            continue
        assert value is None or math.isfinite(value), (run, qid, value)
        if fam.kind == "int" and value is not None and mode != "probability":
            assert value == int(value) and value >= 0, (run, qid, value)
        if mode == "bounds" and value is not None and fam.name not in ESTIMATES:
            assert low is not None and high is not None, (run, qid)
            tol = 1e-9 * max(1.0, abs(value))     # infAP's smoothing moves the last bits
            assert low - tol <= value <= high + tol, (run, qid, low, value, high)

    if _text_only(fam):          # no API value: text per topic, for eval -q
        with pytest.raises(UsageError):
            _api(study, fam, m, mode)
        return
    api = _api(study, fam, m, mode)
    assert api == cli


def _judged_nonrel(ctx, m):
    """Judged non-relevant documents in the top k (a test's family)."""
    lab = ctx.al.labels[:, :, :m.k]
    return np.count_nonzero((lab >= 0) & (lab < m.level(ctx.al.rel_level)),
                            axis=2).astype(np.float64)


def test_a_family_registered_later_is_checked_the_same_way(study):
    """What a new family gets from these tests without editing them: registered,
    it is in FAMILIES (which the tests above are parametrized over) and passes
    the same checks."""
    toy = Family("ToyCommon", "judged non-relevant documents in the top k (a test's family)",
                 "ratio", _judged_nonrel, cutoff="required", params=(REL,), kind="int",
                 agg="sum")
    register(toy)
    try:
        assert "ToyCommon" in FAMILIES
        test_name_parses_and_round_trips("ToyCommon")
        test_declares_a_scale_and_lists_it("ToyCommon")
        for mode in MODES:
            _check(study, *_example("ToyCommon"), mode)
    finally:
        unregister("ToyCommon")
