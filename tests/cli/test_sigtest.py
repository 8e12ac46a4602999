"""`ipsoeval sigtest` on the command line: the default test per scale and why, the
gate (--fail-if), JSON and the options, scale both."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from ipsoeval.analyses import sigtest
from ipsoeval.cli import cli
from tests.conftest import environment


def test_cli_default_says_which_test_and_why(tmp_path):
    ranks = {f"r{i}": [((t * (i + 2)) % 7) + 1 for t in range(12)] for i in range(3)}
    qrels, paths = _write(tmp_path, ranks)
    r = invoke([qrels, *paths, "-m", "RR@10", "-m", "P@5", "--correct", "holm",
                "--format", "tsv"], code=0)
    rows = _tsv(r.stdout)
    assert [(x["measure"], x["test"]) for x in rows] == [("RR@10", "sign")] * 2 + \
        [("P@5", "t")] * 2
    assert all(x["permissible"] == "true" for x in rows)
    assert rows[2]["why"] == "interval scale: paired t is permissible"
    r = invoke([qrels, *paths, "-m", "RR@10", "--format", "table"], code=0)
    assert "RR@10: ordinal scale: sign test" in " ".join(r.stdout.split())
    # an explicit --test keeps working, without the why column
    r = invoke([qrels, *paths, "-m", "RR@10", "--test", "t,wilcoxon", "--format", "tsv"],
               code=0)
    rows = _tsv(r.stdout)
    assert [x["test"] for x in rows] == ["t", "wilcoxon"] * 2 and "why" not in rows[0]


def _write(tmp_path, scores_by_run, n_rel=1):
    """Qrels with one relevant doc per topic (d0) and runs placing it at the
    given rank (None: not retrieved)."""
    topics = len(next(iter(scores_by_run.values())))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 d0 1\n" for t in range(1, topics + 1)))
    paths = []
    for name, ranks in scores_by_run.items():
        lines = []
        for t, rank in enumerate(ranks, start=1):
            docs = [f"x{i}" for i in range(10)]
            if rank is not None:
                docs.insert(rank - 1, "d0")
            for i, d in enumerate(docs[:10]):
                lines.append(f"{t} Q0 {d} {i + 1} {100 - i} {name}\n")
        p = tmp_path / f"{name}.run"
        p.write_text("".join(lines))
        paths.append(str(p))
    return str(qrels), paths


def invoke(args, code=None):
    r = CliRunner().invoke(cli, ["sigtest", *map(str, args)], obj={"env": environment()},
                           catch_exceptions=False)
    if code is not None:
        assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    return r


def _tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def test_cli_gate_regression_and_not(tmp_path):
    good = [1, 1, 2, 1, 1, 3, 1, 2, 1, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1]
    worse = [4, 6, 5, None, 7, 8, 3, 9, 5, 4, 6, None, 5, 8, 7, 3, 9, 6, 5, 4]
    qrels, (base, bad, same) = _write(tmp_path, {"base": good, "bad": worse, "same": good})
    r = invoke([qrels, base, bad, "-m", "RR@10", "--fail-if", "worse", "--format", "tsv"], code=1)
    assert r.stderr.strip().splitlines()[-1].startswith("ipsoeval: gate failed:")
    rows = _tsv(r.stdout)
    # RR is ordinal: the default is one sign test per comparison
    assert [row["test"] for row in rows] == ["sign"]
    assert rows[0]["why"].startswith("ordinal scale: sign test")
    assert all(float(row["diff"]) < 0 for row in rows)
    # a challenger equal to the baseline passes
    r = invoke([qrels, base, same, "-m", "RR@10", "--fail-if", "worse"], code=0)
    assert r.stderr.strip().splitlines()[-1].startswith("ipsoeval: gate passed:")
    # the improvement direction never fails "worse" but fails "different"
    invoke([qrels, bad, base, "-m", "RR@10", "--fail-if", "worse", "--gate-test", "sign"], code=0)
    invoke([qrels, bad, base, "-m", "RR@10", "--fail-if", "different"], code=1)


def test_cli_json_and_options(tmp_path):
    ranks = {f"r{i}": [((t * (i + 2)) % 7) + 1 for t in range(12)] for i in range(4)}
    qrels, paths = _write(tmp_path, ranks)
    r = invoke([qrels, *paths, "-m", "RR@10", "-m", "P@5", "--all-pairs",
                "--test", "t,ranksum", "--test", "friedman", "--correct", "holm",
                "--samples", "500", "--format", "json"], code=0)
    doc = json.loads(r.stdout)
    assert doc["command"] == "sigtest" and doc["params"]["correction"] == "holm"
    res = doc["results"]
    assert len(res) == 2 * (6 * 3 + 1)
    assert set(res[0]) == set(sigtest.COLUMNS)
    p5 = [x for x in res if x["measure"] == "P@5" and x["test"] == "t"]
    assert all(x["permissible"] is True for x in p5)           # P@k is interval
    rr = [x for x in res if x["measure"] == "RR@10" and x["test"] == "t"]
    assert all(x["permissible"] is False for x in rr)          # RR is ordinal
    # usage errors
    assert invoke([qrels, paths[0], "-m", "RR@10"]).exit_code == 2
    assert invoke([qrels, *paths[:2], "-m", "RR@10", "--test", "anova"]).exit_code == 2
    assert invoke([qrels, *paths[:2], "-m", "RR@10", "--test", "nope"]).exit_code == 2
    assert invoke([qrels, *paths[:2], "-m", "RR@10", "--gate-test", "t"]).exit_code == 2


def test_cli_scale_both(tmp_path):
    """sigtest calls interval-map's mapped_matrices directly (no guard, no re-run)."""
    qrels, paths = _write(tmp_path, {"a": [1, 2, 3, 1, None, 2], "b": [2, 2, 1, 4, 5, None],
                                     "c": [None, 1, 1, 2, 3, 3]})
    r = invoke([qrels, *paths, "-m", "P@5", "--scale", "both", "--all-pairs",
                "--test", "t,sign,anova2", "--format", "tsv"])
    assert r.exit_code == 0, r.stderr
    rows = _tsv(r.stdout)        # one table: the flips are --table flips
    assert {row["scale"] for row in rows} == {"original", "interval"}
    # P@k is an interval scale: its interval map is affine, so p-values agree
    orig = {(x["run_a"], x["run_b"], x["test"]): x["p_value"] for x in rows
            if x["scale"] == "original"}
    inter = {(x["run_a"], x["run_b"], x["test"]): x["p_value"] for x in rows
             if x["scale"] == "interval"}
    assert orig.keys() == inter.keys()
    for k in orig:
        if orig[k]:
            assert float(orig[k]) == pytest.approx(float(inter[k]), abs=1e-9)
    r = invoke([qrels, *paths, "-m", "P@5", "--scale", "both", "--all-pairs",
                "--test", "t,sign,anova2", "--format", "tsv", "--table", "flips"])
    flips = _tsv(r.stdout)
    assert flips and all(f["s2ns"] == "0" and f["ns2s"] == "0" for f in flips)
