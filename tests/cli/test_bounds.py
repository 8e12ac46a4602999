"""--bounds on the command line (eval's layouts, sigtest's verdicts that do not
survive the unjudged documents, the paper formats) and through the API; the
bounds themselves are checked in tests/unit/measures/test_bounds.py."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
import scipy.stats as ss

from ipsoeval import api
from tests.conftest import invoke


def _files(tmp_path, topics=8):
    """Run A puts a judged relevant document first (a second one on odd topics);
    run B an unjudged document first and a judged non-relevant one second."""
    q, a, b = [], [], []
    for t in range(topics):
        q += [f"{t} 0 rel{t} 1", f"{t} 0 rel2{t} 1", f"{t} 0 non{t} 0"]
        a += [f"{t} Q0 rel{t} 1 9 A", f"{t} Q0 {'rel2' if t % 2 else 'unjA'}{t} 2 8 A"]
        b += [f"{t} Q0 unjB{t} 1 9 B", f"{t} Q0 non{t} 2 8 B"]
    paths = []
    for name, lines in (("qrels", q), ("a", a), ("b", b)):
        p = tmp_path / name
        p.write_text("\n".join(lines) + "\n")
        paths.append(p)
    return paths


def _tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def test_eval_bounds_layouts(tmp_path):
    qrels, a, b = _files(tmp_path)
    code, plain, _ = invoke(["eval", qrels, a, "-m", "P.2", "-m", "map", "-q",
                             "--format", "trec"])
    assert code == 0
    code, out, _ = invoke(["eval", qrels, a, "-m", "P.2", "-m", "map", "-q", "--format",
                           "trec", "--bounds"])
    assert code == 0
    lines = out.splitlines()
    # trec_eval's lines unchanged, each followed by its _low and _high lines
    assert [x for x in lines if not x.split("\t")[0].rstrip().endswith(("_low", "_high"))] \
        == plain.splitlines()
    i = lines.index("P_2                   \t1\t1.0000")
    assert lines[i + 1:i + 3] == ["P_2_low               \t1\t1.0000",
                                  "P_2_high              \t1\t1.0000"]
    i = lines.index("P_2                   \t0\t0.5000")
    assert lines[i + 1:i + 3] == ["P_2_low               \t0\t0.5000",
                                  "P_2_high              \t0\t1.0000"]
    assert "runid_low" not in out
    code, out, _ = invoke(["eval", qrels, a, b, "-m", "P@2", "--format", "tsv", "--bounds"])
    rows = _tsv(out)
    assert list(rows[0]) == ["run", "qid", "measure", "value", "low", "high"]
    allb = [r for r in rows if r["run"] == "B" and r["qid"] == "all"][0]
    assert (float(allb["value"]), float(allb["low"]), float(allb["high"])) == (0.0, 0.0, 0.5)
    code, out, _ = invoke(["eval", qrels, a, "-m", "P@2", "--format", "json", "--bounds"])
    table = json.loads(out)["tables"]["scores"] if "tables" in json.loads(out) else None
    assert table is not None and "low" in json.dumps(table)
    code, out, _ = invoke(["eval", qrels, a, "-m", "P@2", "--format", "table", "--bounds"])
    assert code == 0 and "low" in out and "high" in out


def test_eval_bounds_usage_errors(tmp_path):
    qrels, a, _ = _files(tmp_path)
    for extra in (["-R", "qrels_jg"], ["--trec-eval-version", "9"], ["-D", "1.0"]):
        code, _, err = invoke(["eval", qrels, a, "--bounds", *extra])
        assert code == 2 and "--bounds does not combine" in err


def test_api_bounds_match_the_command(tmp_path):
    qrels, a, b = _files(tmp_path)
    res = api.evaluate(str(qrels), [str(a), str(b)], ["P@2", "AP"], bounds=True,
                       queries="intersection")
    code, out, _ = invoke(["eval", qrels, a, b, "-m", "P@2", "-m", "AP", "--format", "tsv",
                           "--bounds"])
    got = {(r["run"], r["measure"]): (float(r["low"]), float(r["high"]))
           for r in _tsv(out) if r["qid"] == "all"}
    assert got == {(run, m): v for run, ms in res.mean_bounds().items() for m, v in ms.items()}
    recs = res.to_table().records
    assert all("low" in r and "high" in r for r in recs)
    with pytest.raises(ValueError):
        api.evaluate(str(qrels), str(a), ["P@2"]).matrix_bounds("P@2")


def test_sigtest_bounds(tmp_path):
    """A beats B on P@2 on every topic; with B's unjudged first document
    relevant and A's unjudged second one not, A still wins on the even
    topics only (t test by scipy on the hand-made worst case)."""
    qrels, a, b = _files(tmp_path, topics=10)
    code, out, err = invoke(["sigtest", qrels, a, b, "-m", "P@2", "--test", "t,sign",
                             "--bounds", "--format", "tsv"])
    assert code == 0, err
    rows = {r["test"]: r for r in _tsv(out)}
    a_low = np.array([1.0 if t % 2 else 0.5 for t in range(10)])   # A's unjudged: non-rel.
    b_high = np.full(10, 0.5)                                       # B's unjudged: relevant
    want = ss.ttest_rel(b_high, a_low).pvalue
    assert float(rows["t"]["p_bounds"]) == pytest.approx(want, rel=1e-12)
    assert rows["t"]["significant"] == "true"
    assert rows["t"]["survives_bounds"] == ("true" if want < 0.05 else "false")
    # sign test: 5 wins, 5 ties in the worst case
    assert float(rows["sign"]["p_bounds"]) == pytest.approx(
        ss.binomtest(5, 5).pvalue, rel=1e-12)


def test_sigtest_bounds_does_not_survive(tmp_path):
    qrels, a, b = _files(tmp_path, topics=10)
    text = b.read_text().replace(" non", " unjC")         # B: nothing judged
    b.write_text(text)
    code, out, err = invoke(["sigtest", qrels, a, b, "-m", "P@2", "--test", "t", "--bounds",
                             "--format", "tsv"])
    row = _tsv(out)[0]
    assert row["significant"] == "true" and row["survives_bounds"] == "false"
    code, out, _ = invoke(["sigtest", qrels, a, b, "-m", "P@2", "--test", "t", "--bounds",
                           "--format", "table"])
    assert "!" in out


def test_sigtest_bounds_usage(tmp_path):
    qrels, a, b = _files(tmp_path)
    code, _, err = invoke(["sigtest", qrels, a, b, "-m", "P@2", "--bounds", "--scale",
                           "both"])
    assert code == 2 and "--bounds" in err


def test_paper_formats_show_low_and_high(tmp_path):
    qrels, a, b = _files(tmp_path)
    code, out, _ = invoke(["eval", qrels, a, b, "-m", "P@2", "--bounds", "--format",
                           "markdown"])
    assert code == 0
    assert "| run | P@2 | P@2 (low) | P@2 (high) |" in out
    assert "| A | **0.7500** | **0.7500** | **1.0000** |" in out
    assert "| B | 0.0000 | 0.0000 | 0.5000 |" in out
