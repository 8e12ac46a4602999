"""``sigtest --fail-if ... --junit FILE`` writes the gate as JUnit XML,
valid under the schema Jenkins' xUnit plugin reads (tests/data/junit/
junit-10.xsd, copied with its notice): one test case per gated comparison,
a failure carrying the gate's line."""

import pytest

from tests.conftest import ROOT, TESTDATA, invoke

etree = pytest.importorskip("lxml.etree")

ADHOC = TESTDATA / "adhoc"
XSD = ROOT / "tests" / "data" / "junit" / "junit-10.xsd"


@pytest.fixture(scope="module")
def schema():
    return etree.XMLSchema(etree.parse(str(XSD)))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Qrels of 50 topics, and three runs: relevant documents first (good),
    in random order (mid), last (bad; a name XML must escape)."""
    import random
    root = tmp_path_factory.mktemp("junit")
    rnd = random.Random(3)
    rel = {q: [(rnd.choice([0, 0, 1, 2]), f"d{d}") for d in range(20)] for q in range(1, 51)}
    with open(root / "qrels", "w") as fh:
        for q, docs in rel.items():
            fh.writelines(f"{q} 0 {d} {lab}\n" for lab, d in docs)
    made = []
    for name, order in (("good", lambda x: sorted(x, reverse=True)),
                        ("mid", lambda x: rnd.sample(x, len(x))),
                        ("bad & <worse>", sorted)):
        path = root / f"{name}.txt"
        with open(path, "w") as fh:
            for q, docs in rel.items():
                for i, (_, d) in enumerate(order(docs)):
                    fh.write(f"{q} Q0 {d} {i + 1} {1000 - i} {name.replace(' ', '')}\n")
        made.append(path)
    return (root / "qrels", *made)


def _gate(schema, tmp_path, args):
    xml = tmp_path / "gate.xml"
    code, out, err = invoke(["sigtest", "--format", "tsv", "--junit", xml, *args])
    doc = etree.parse(str(xml))
    assert schema.validate(doc), schema.error_log
    return code, out, err, doc, xml


def test_failed_gate(schema, tmp_path, runs):
    qrels, good, mid, bad = runs
    code, out, err, doc, _ = _gate(schema, tmp_path, [
        "-m", "P@10", "-m", "AP", "--fail-if", "worse", qrels, good, mid, bad])
    assert code == 1
    gate_line = [ln for ln in err.splitlines() if ln.startswith("ipsoeval: gate failed: ")]
    assert len(gate_line) == 1
    suite = doc.getroot().find("testsuite")
    cases = suite.findall("testcase")
    # one case per gated comparison: 2 challengers x 2 measures, against good
    assert len(cases) == 4 == int(suite.get("tests"))
    names = [c.get("name") for c in cases]
    assert all(n.split(" vs ")[1].startswith("good on ") for n in names), names
    assert {c.get("classname") for c in cases} == {"ipsoeval.sigtest.P@10",
                                                    "ipsoeval.sigtest.AP"}
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(suite.get("failures")) == len(failed) >= 2
    worst = [c for c in cases if c.get("name").startswith("bad&<worse> vs ")]
    assert len(worst) == 2 and all(c in failed for c in worst)
    # the first failure is the line the gate printed (before its "; N ... in all")
    first = failed[0].find("failure")
    assert gate_line[0].startswith(f"ipsoeval: gate failed: {first.get('message')}")
    assert first.text == f"ipsoeval: gate failed: {first.get('message')}"
    # the tests table holds the gated rows: every case is one of them
    rows = [ln.split("\t") for ln in out.splitlines()]
    head = rows[0]
    pairs = {(r[head.index("run_b")], r[head.index("run_a")], r[head.index("measure")],
              r[head.index("test")]) for r in rows[1:]}
    for n in names:
        b, rest = n.split(" vs ")
        a, rest = rest.split(" on ")
        m, t = rest[:-1].split(" (")
        assert (b, a, m, t) in pairs
    assert suite.find("properties/property[@name='gate']").get("value") == "failed"


def test_passed_gate_and_same_bytes(schema, tmp_path, runs):
    qrels, good, mid, bad = runs
    args = ["-m", "P@10", "--fail-if", "worse", qrels, bad, good]
    code, _, err, doc, xml = _gate(schema, tmp_path, args)
    assert code == 0 and "gate passed" in err
    suite = doc.getroot().find("testsuite")
    assert suite.get("failures") == "0" and len(suite.findall("testcase")) == 1
    first = xml.read_bytes()
    _gate(schema, tmp_path, args)
    assert xml.read_bytes() == first


def test_junit_needs_the_gate_and_good_input(tmp_path, runs):
    bm25, neural = ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"
    xml = tmp_path / "gate.xml"
    code, _, err = invoke(["sigtest", "-m", "P@10", "--junit", xml, ADHOC / "qrels.txt",
                           bm25, neural])
    assert code == 2 and "--fail-if" in err and not xml.exists()
    missing = tmp_path / "missing.txt"
    code, _, err = invoke(["sigtest", "-m", "P@10", "--fail-if", "worse", "--junit", xml,
                           ADHOC / "qrels.txt", bm25, missing])
    assert code == 3 and not xml.exists()
    code, _, err = invoke(["sigtest", "-m", "P@10", "--fail-if", "worse", "-W", "error",
                           "--junit", xml, ADHOC / "qrels.txt", bm25, neural])
    assert code == 3 and not xml.exists()
    code, _, err = invoke(["sigtest", "-m", "P@10", "--fail-if", "worse", "--junit",
                           tmp_path / "no" / "dir.xml", ADHOC / "qrels.txt", bm25, neural])
    assert code == 3 and len(err.splitlines()) == 1
