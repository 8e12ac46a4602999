"""Adding a measure is one file: a family declared in one object (or one module)
is parsed, computed, ordered as trec_eval orders it and listed by
``ipsoeval measures`` without any other module knowing it; every -m argument
is parsed once."""

import sys
import textwrap

import numpy as np
import pytest

from ipsoeval import engine
from ipsoeval.errors import UsageError
from ipsoeval.measures import (
    FAMILIES,
    Family,
    expand_all,
    parse_measure,
    register,
    registry,
    unregister,
)
from ipsoeval.measures import names as N
from ipsoeval.measures.family import TrecName
from ipsoeval.measures.params import REL
from tests.conftest import TE, invoke

QRELS, RUN = TE / "qrels.test", TE / "results.test"


def _judged_nonrel(ctx, m):
    """Judged non-relevant documents in the top k (a toy measure)."""
    lab = ctx.al.labels[:, :, :m.k]
    level = m.level(ctx.al.rel_level)
    return np.count_nonzero((lab >= 0) & (lab < level), axis=2).astype(np.float64)


TOY = Family("ToyNonRel", "judged non-relevant documents in the top k (a test's family)",
             "ratio", _judged_nonrel, cutoff="required", params=(REL,), kind="int", agg="sum",
             higher_is_better=False, trec=TrecName("toy_nonrel", 99, (), (2, 5)),
             other_names=("toynonrelevant",))


@pytest.fixture
def toy():
    register(TOY)
    yield TOY
    unregister(TOY.name)


def _brute(k, rel=1):
    """The toy measure from the files, by hand: per topic of the run."""
    qrels = {}
    for line in QRELS.read_text().split("\n"):
        if line.strip():
            q, _, d, lab = line.split()
            qrels[(q, d)] = int(lab)
    ranked = {}
    for line in RUN.read_text().split("\n"):
        if line.strip():
            q, _, d, _, s, _ = line.split()
            ranked.setdefault(q, []).append((float(s), d))
    out = {}
    for q, docs in ranked.items():
        docs = sorted(docs, key=lambda x: x[1], reverse=True)       # ties: docno descending
        top = [d for _, d in sorted(docs, key=lambda x: -x[0])][:k]
        out[q] = sum(1 for d in top if (q, d) in qrels and 0 <= qrels[(q, d)] < rel)
    return out


def test_a_family_registered_from_one_object_is_parsed_and_computed(toy):
    m = parse_measure("ToyNonRel@5")
    assert m.fam is toy and m.trec_name == "toy_nonrel_5" and not m.higher_is_better
    assert parse_measure("toy_nonrel.5") == m == parse_measure("toy_nonrel_5")
    assert parse_measure("ToyNonRel(rel=2)@5").name == "ToyNonRel(rel=2)@5"
    al = engine.load(str(QRELS), [str(RUN)])
    sc = engine.evaluate(al, ["ToyNonRel@5"])
    per_topic = dict(zip(al.topics, sc.matrix("ToyNonRel@5")[0].tolist()))
    want = _brute(5)
    assert per_topic == {q: float(want[q]) for q in al.topics}
    assert sc.aggregate("ToyNonRel@5")[0] == sum(want[q] for q in al.topics)


def test_a_registered_family_in_the_cli(toy):
    code, out, err = invoke(["eval", "-q", "-m", "toy_nonrel", "-m", "map", QRELS, RUN])
    assert code == 0, err
    names = [ln.split()[0] for ln in out.splitlines() if ln.split()[1] == "all"]
    assert names == ["map", "toy_nonrel_2", "toy_nonrel_5"]      # trec_eval's order: 5 < 99
    code, out, _ = invoke(["measures", "--format", "tsv"])
    rows = {r.split("\t")[0]: r.split("\t") for r in out.splitlines()}
    assert rows["ToyNonRel"][1:6] == ["ToyNonRel@10", "ratio", "required", "rel",
                                      "toy_nonrel_K"]
    code, _, err = invoke(["eval", "-m", "toynonrelevant@5", QRELS, RUN])
    assert code == 2 and "did you mean 'ToyNonRel@5' or 'toy_nonrel.5'?" in err
    code, _, err = invoke(["eval", "-m", "ToyNonRel(rel=x)@5", QRELS, RUN])
    assert code == 2 and "ToyNonRel's rel must be a whole number" in err


def test_unregistered_is_unknown():
    assert "ToyNonRel" not in FAMILIES
    with pytest.raises(UsageError, match="unknown measure"):
        parse_measure("ToyNonRel@5")


def test_a_family_module_is_discovered(tmp_path, monkeypatch):
    """The families package is read by module: a new module is a new measure."""
    pkg = tmp_path / "toyfamilies"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "first_doc.py").write_text(textwrap.dedent('''
        import numpy as np
        from ipsoeval.measures.family import Family, TrecName

        def first_label(ctx, m):
            return np.maximum(ctx.al.labels[:, :, 0], 0).astype(np.float64)

        FAMILIES = (Family("ToyFirst", "label of the first document", "ordinal",
                           first_label, trec_plain=TrecName("toy_first", 98)),)
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        registry.discover("toyfamilies")
        assert [r.label for r in expand_all(["toy_first"])] == ["toy_first"]
        code, out, err = invoke(["eval", "-m", "ToyFirst", QRELS, RUN])
        assert code == 0 and out.startswith("ToyFirst"), err
    finally:
        unregister("ToyFirst")
        sys.modules.pop("toyfamilies.first_doc", None)
        sys.modules.pop("toyfamilies", None)


def test_names_are_declared_once():
    with pytest.raises(ValueError, match="declared twice"):
        register(FAMILIES["P"])
    with pytest.raises(ValueError, match="trec_eval name 'map'"):
        register(Family("Other", "x", "ordinal", _judged_nonrel,
                        trec_plain=TrecName("map", 5)))
    assert "Other" not in FAMILIES
    # unregistering frees its trec_eval names (kept in a set, not rebuilt per family)
    register(Family("Other", "x", "ordinal", _judged_nonrel, trec_plain=TrecName("other_x", 5)))
    try:
        with pytest.raises(ValueError, match="trec_eval name 'other_x'"):
            register(Family("Other2", "x", "ordinal", _judged_nonrel,
                            trec_plain=TrecName("other_x", 5)))
    finally:
        unregister("Other")
    register(Family("Other2", "x", "ordinal", _judged_nonrel, trec_plain=TrecName("other_x", 5)))
    unregister("Other2")
    assert "Other2" not in FAMILIES


def test_each_kernel_lives_with_its_declaration():
    """A family's kernel is in the module that declares the family (or, when
    shared, in a family module): nothing else decides what a measure computes."""
    import importlib
    for f in FAMILIES.values():
        assert f.kernel.__module__.startswith("ipsoeval.measures.families."), f.name
        mod = importlib.import_module(f.kernel.__module__)
        assert f in mod.FAMILIES, f.name


def test_each_argument_is_parsed_once(monkeypatch):
    calls = []
    real = N.expand

    def counting(text):
        calls.append(text)
        return real(text)
    monkeypatch.setattr(N, "expand", counting)
    code, out, err = invoke(["eval", "-m", "P.5", "-m", "P.1.5", "-m", "nDCG@10", QRELS, RUN])
    assert code == 0, err
    assert "trec_eval reads the cutoff '1.5' as 1" in err
    assert sorted(calls) == ["P.1.5", "P.5", "nDCG@10"]


@pytest.mark.parametrize("fam", ["SetF", "SetP", "SetAP", "P", "AP", "nDCG"])
def test_judged_only_where_the_catalogue_lists_it(fam):
    # the listing and the parser read one declaration: SetF(judged_only=True) was listed
    # and refused; with no -M it equals the measure under -J
    m = fam + ("@5" if FAMILIES[fam].cutoff == "required" else "")
    assert "judged_only" in FAMILIES[fam].param_names
    jo = m.replace("@", "(judged_only=True)@") if "@" in m else m + "(judged_only=True)"
    _, a, err = invoke(["eval", "--format", "tsv", "-m", jo, QRELS, RUN])
    _, b, _ = invoke(["eval", "--format", "tsv", "-J", "-m", m, QRELS, RUN])
    assert a.split("\n")[1].split("\t")[-1] == b.split("\n")[1].split("\t")[-1], err
