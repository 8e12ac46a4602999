"""Defect 5: what a --queries warning says is what every analysis does.

Under ``--queries intersection`` a topic missing from a run is never scored
as 0: a single run is analysed on its own topics, several runs on the topics
common to all of them (and the warning says so).
"""

import csv
import io
import random

import pytest

from tests.conftest import invoke


@pytest.fixture
def data(tmp_path):
    rnd = random.Random(1)
    with open(tmp_path / "qrels", "w") as q, open(tmp_path / "a.run", "w") as a, \
            open(tmp_path / "b.run", "w") as b:
        for t in range(1, 9):
            for d in range(10):
                q.write(f"q{t} 0 d{d} {rnd.randint(0, 2)}\n")
            for d in range(10):
                a.write(f"q{t} Q0 d{d} {d + 1} {10 - d} A\n")
                if t <= 5:                       # B lacks q6, q7, q8
                    b.write(f"q{t} Q0 d{9 - d} {d + 1} {10 - d} B\n")
    return tmp_path


def _rows(out):
    return list(csv.DictReader(io.StringIO(out), delimiter="\t"))


def _eval_mean(data, run, measure="P@5", topics=None):
    args = ["eval", "-q", "-m", measure, "--queries", "intersection", data / "qrels", data / run]
    code, out, _ = invoke(args)
    assert code == 0
    vals = {}
    for line in out.splitlines():
        name, topic, v = line.split("\t")
        if topic != "all":
            vals[topic] = float(v)
    keep = topics or vals
    return sum(vals[t] for t in keep) / len(keep)


def test_sigtest_intersection_uses_common_topics(data):
    code, out, err = invoke(["sigtest", "-m", "P@5", "--test", "t", "--queries", "intersection",
                             "--format", "tsv", data / "qrels", data / "a.run", data / "b.run"])
    assert code == 0, err
    (row,) = _rows(out)
    assert int(row["n"]) == 5
    common = [f"q{t}" for t in range(1, 6)]
    assert float(row["mean_b"]) == pytest.approx(_eval_mean(data, "b.run"), abs=1e-12)
    assert float(row["mean_a"]) == pytest.approx(_eval_mean(data, "a.run", topics=common),
                                                 abs=1e-12)
    assert "5 topic(s) common to all 2 runs" in err


def test_sigtest_qrels_scores_missing_as_empty(data):
    code, out, err = invoke(["sigtest", "-m", "P@5", "--test", "t", "--format", "tsv",
                             data / "qrels", data / "a.run", data / "b.run"])
    assert code == 0, err
    (row,) = _rows(out)
    assert int(row["n"]) == 8
    assert float(row["mean_b"]) == pytest.approx(_eval_mean(data, "b.run") * 5 / 8, abs=1e-12)
    assert "evaluated as empty rankings" in err


def test_sigtest_strict_refuses(data):
    code, _, err = invoke(["sigtest", "-m", "P@5", "--queries", "strict",
                           data / "qrels", data / "a.run", data / "b.run"])
    assert code == 3 and "topics differ" in err


@pytest.mark.parametrize("cmd", [
    ["bootstrap", "-m", "P@5", "--samples", "50"],
    ["breakdown"],
    ["ipso", "-l", "1"],
    ["interval-map", "-m", "P@5", "-q"],
])
def test_other_commands_intersection_use_common_topics(data, cmd):
    code, out, err = invoke([*cmd, "--queries", "intersection", "--format", "json",
                             data / "qrels", data / "a.run", data / "b.run"])
    assert code == 0, err
    assert "5 topic(s) common to all 2 runs" in err
    for t in ("q6", "q7", "q8"):
        assert f'"{t}"' not in out


def test_one_rule_for_every_default():
    """Each command's default --queries is topicset.default_queries, and its man page
    says why (topic sets chosen one way)."""
    from ipsoeval.analyses.topicset import default_queries
    from ipsoeval.pipeline import COMMANDS, command
    from tests.conftest import ROOT
    for name in COMMANDS:
        opt = next((o for o in command(name).opts() if "--queries" in o.flags), None)
        if opt is None:
            continue
        want = default_queries(paired=name != "eval")
        assert f"[default: {want}]" in opt.help_record()[1], name
        page = (ROOT / "man" / f"ipsoeval-{name}.1").read_text()
        assert f"Why {want}:" in page, name


def test_intersection_warning_is_one_line_naming_the_runs(data):
    code, _, err = invoke(["sigtest", "-m", "P@5", "--test", "t", "--queries", "intersection",
                           data / "qrels", data / "a.run", data / "b.run"])
    assert code == 0, err
    lines = [ln for ln in err.splitlines() if "missing" in ln]
    assert len(lines) == 1 and "B lacks 3" in lines[0], err
