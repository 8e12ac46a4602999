"""The one options vocabulary of the statistics (ipsoeval/stats/registry.py):
every command that tests takes the registry's names and aliases, the same
options (--test, --correct, --alternative, --baseline, --format) in every
command that has them, and the man pages list the registry.
tests/unit/stats/test_registry.py checks the registry itself."""

import csv
import io
import re

import numpy as np
import pytest

from ipsoeval.cli import cli
from ipsoeval.stats import registry
from tests.conftest import TESTDATA, invoke

ADHOC = TESTDATA / "adhoc"
Q = ADHOC / "qrels.txt"
RUNS = [ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"]
VOCAB = {          # option -> commands that must have it (docs/conventions.md, man ipsoeval)
    "--per-query": ["eval", "breakdown", "ipso", "interval-map"],
    "--baseline": ["sigtest", "bootstrap", "breakdown", "ipso"],
    "--correct": ["sigtest", "breakdown", "ipso"],
    "--alternative": ["sigtest", "breakdown", "ipso"],
    "--samples": ["sigtest", "bootstrap", "ipso"],
    "--seed": ["sigtest", "bootstrap", "ipso"],
    "--test": ["sigtest", "bootstrap", "ipso", "interval-map"],
    "--alpha": ["sigtest", "bootstrap", "breakdown", "ipso", "interval-map"],
}
GONE = ["--per-topic", "--permutations", "--trials"]


def _rows(out):
    return list(csv.DictReader(io.StringIO(out), delimiter="\t"))


@pytest.mark.parametrize("cmd", [
    ["sigtest", "-m", "P@10"],
    ["ipso", "-l", "1", "-m", "P@10"],
    ["interval-map", "-m", "P@10", "--analyze"],
    ["bootstrap", "-m", "P@10", "--samples", "20", "--split-half", "2"],
])
def test_every_command_takes_registry_names_and_aliases(cmd):
    code, out, err = invoke([*cmd, "--test", "signed-rank", "--format", "tsv", Q, *RUNS])
    assert code == 0, err
    code, _, err = invoke([*cmd, "--test", "nonsense", Q, *RUNS])
    assert code == 2 and "unknown test 'nonsense'" in err


def test_breakdown_verdict_test_takes_registry_aliases():
    code, out, err = invoke(["breakdown", "--verdict-test", "esl-ttest", "--format", "json",
                             Q, *RUNS])
    assert code == 0, err
    assert '"verdict_test": "esl-t"' in out
    code, _, err = invoke(["breakdown", "--verdict-test", "esl-sign", Q, *RUNS])
    assert code == 2 and "--verdict-test sign is not available" in err


def _opts(name):
    import click
    cmd = cli.get_command(click.Context(cli), name)
    return {o: p for p in cmd.params for o in p.opts + p.secondary_opts}


@pytest.mark.parametrize("option, commands", list(VOCAB.items()))
def test_vocabulary_options_present(option, commands):
    for name in commands:
        assert option in _opts(name), (name, option)


def test_old_spellings_are_gone():
    for name in cli.list_commands(None):
        for old in GONE:
            assert old not in _opts(name), (name, old)


def test_correct_offers_all_four_everywhere():
    for name in cli.list_commands(None):
        p = _opts(name).get("--correct")
        if p is not None:
            assert list(p.type.choices) == ["none", "bonferroni", "holm", "bh"], name


def test_format_lists_only_accepted_formats():
    for name in cli.list_commands(None):
        if name == "report":        # writes one HTML page: no --format
            assert "--format" not in _opts(name)
            continue
        choices = list(_opts(name)["--format"].type.choices)
        assert ("trec" in choices) == (name == "eval"), name


def test_eval_help_lists_the_topic_set_once():
    code, out, _ = invoke(["eval", "--help"])
    assert code == 0
    entries = [ln for ln in out.splitlines() if re.match(r"\s{2}\S", ln)]
    assert sum("--queries" in ln for ln in entries) == 1
    assert not any(re.match(r"\s+-c, --complete", ln) for ln in entries)


@pytest.mark.parametrize("cmd", [
    ["sigtest", "-m", "P@10", "--test", "t"],
    ["bootstrap", "-m", "P@10", "--samples", "20"],
    ["breakdown"],
    ["ipso", "-l", "1"],
])
def test_baseline_by_name_or_file(cmd):
    by_name = invoke([*cmd, "--baseline", "neural", "--format", "tsv", Q, *RUNS])
    by_file = invoke([*cmd, "--baseline", str(RUNS[1]), "--format", "tsv", Q, *RUNS])
    assert by_name[0] == 0, by_name[2]
    assert by_file[0] == 0, by_file[2]
    assert by_name[1] == by_file[1]
    code, _, err = invoke([*cmd, "--baseline", "nope", Q, *RUNS])
    assert code == 2 and "neither a run name nor a RUN argument" in err


def test_breakdown_bh_and_alternative():
    code, out, err = invoke(["breakdown", "--correct", "bh", "--format", "json", Q, *RUNS])
    assert code == 0, err
    two = _rows(invoke(["breakdown", "--format", "tsv", Q, *RUNS])[1])[0]
    less = _rows(invoke(["breakdown", "--alternative", "less", "--format", "tsv",
                         Q, *RUNS])[1])[0]
    assert two["rr_t_p_value"] != less["rr_t_p_value"]


def test_ipso_alternative_and_samples():
    base = ["ipso", "-l", "1", "-m", "P@10", "--format", "tsv", Q, *RUNS]
    two = _rows(invoke([*base, "--test", "t"])[1])
    greater = _rows(invoke([*base, "--test", "t", "--alternative", "greater"])[1])
    assert two[0]["metric_p_value"] != greater[0]["metric_p_value"]
    r1 = invoke([*base, "--test", "randomization", "--samples", "99", "--seed", "3"])
    r2 = invoke([*base, "--test", "randomization", "--samples", "99", "--seed", "3"])
    assert r1[0] == 0 and r1[1] == r2[1]


def test_man_page_lists_the_registry():
    from tests.conftest import ROOT
    text = (ROOT / "man" / "ipsoeval.1").read_text().replace("\\-", "-")
    assert ".SH OPTIONS VOCABULARY" in text
    for t in registry.REGISTRY.values():
        line = next(ln for ln in text.splitlines() if ln.startswith(t.name + "\t"))
        assert line.split("\t")[1] == ", ".join(t.aliases) and t.requires in line, t.name


def test_ipso_correct_one_family():
    """ipso --correct: the sign tests and the metric tests are one family."""
    base = ["ipso", "-l", "1", "-m", "P@10", "--test", "t,sign", "--format", "tsv", Q, *RUNS]
    raw = _rows(invoke(base)[1])
    code, out, err = invoke([*base, "--correct", "bonferroni"])
    assert code == 0, err
    rows = _rows(out)
    m = 1 + 2                      # one sign test (one pair, one depth) + two metric tests
    for r0, r in zip(raw, rows):
        assert float(r["sign_p_adjusted"]) == pytest.approx(min(1, m * float(r0["sign_p_value"])))
        assert float(r["metric_p_adjusted"]) == pytest.approx(min(1, m * float(r0["metric_p_value"])))
    assert "sign_p_adjusted" not in raw[0]


def test_ipso_scores_correct_and_baseline(tmp_path):
    lines = ["run,qid,measure,value"]
    rng = np.random.default_rng(4)
    for run in ("a", "b", "c"):
        for q in range(12):
            lines.append(f"{run},q{q},P@10,{rng.integers(0, 11) / 10}")
    f = tmp_path / "s.csv"
    f.write_text("\n".join(lines) + "\n")
    raw = _rows(invoke(["ipso", "--scores", "--baseline", "b", "--format", "tsv", f])[1])
    assert [(r["run_a"], r["run_b"]) for r in raw] == [("b", "a"), ("b", "c")]
    code, out, err = invoke(["ipso", "--scores", "--baseline", "b", "--correct", "holm",
                             "--format", "tsv", f])
    assert code == 0, err
    rows = _rows(out)
    from ipsoeval.stats.corrections import adjust
    want = adjust(np.array([float(r["p_value"]) for r in raw]), "holm")
    assert [float(r["p_adjusted"]) for r in rows] == pytest.approx(list(want))


def test_scores_baseline_by_file(tmp_path):
    files = []
    rng = np.random.default_rng(5)
    for run in ("a", "b"):
        f = tmp_path / f"{run}.csv"
        f.write_text("run,qid,measure,value\n" + "".join(
            f"{run},q{q},P@10,{rng.integers(0, 11) / 10}\n" for q in range(10)))
        files.append(f)
    both = tmp_path / "both.csv"
    both.write_text(files[0].read_text() + "".join(files[1].read_text().splitlines(True)[1:]))
    for cmd in (["sigtest", "-m", "P@10", "--test", "t"], ["bootstrap", "--samples", "20"],
                ["ipso"]):
        by_name = invoke([*cmd, "--scores", "--baseline", "b", "--format", "tsv", *files])
        by_file = invoke([*cmd, "--scores", "--baseline", str(files[1]), "--format", "tsv",
                          *files])
        assert by_name[0] == 0 and by_name[1] == by_file[1], (cmd, by_file[2])
        code, _, err = invoke([*cmd, "--scores", "--baseline", str(both), both])
        assert code == 2 and "holds 2 runs" in err, (cmd, err)
