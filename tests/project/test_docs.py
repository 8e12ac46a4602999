"""Man pages stay in step with --help: every option of every command is documented."""

import re

import click
import pytest

from ipsoeval.cli import cli
from tests.conftest import ROOT
from tests.project.test_examples import examples

CTX = click.Context(cli)
COMMANDS = cli.list_commands(CTX)


def man_text(name):
    path = ROOT / "man" / f"ipsoeval-{name}.1"
    assert path.exists(), f"missing man page {path}"
    return path.read_text().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "") \
        .replace("\\fI", "")


def test_main_page_lists_every_command():
    text = (ROOT / "man" / "ipsoeval.1").read_text().replace("\\-", "-")
    for name in COMMANDS:
        assert re.search(rf"^\.B {re.escape(name)}$", text, re.M), name


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_documented(name):
    cmd = cli.get_command(CTX, name)
    text = man_text(name)
    for p in cmd.params:
        if isinstance(p, click.Option):
            for opt in p.opts + p.secondary_opts:
                assert opt in text, f"{name}: {opt} missing from man/ipsoeval-{name}.1"
    for section in ("NAME", "SYNOPSIS", "OPTIONS", "EXIT STATUS", "EXAMPLES"):
        assert f".SH {section}" in text, (name, section)


@pytest.mark.parametrize("name", COMMANDS)
def test_help_runs(name, cli_invoke):
    code, out, _ = cli_invoke([name, "--help"])
    assert code == 0 and "Usage:" in out


def test_examples_never_sort_a_header_into_the_data():
    piped = [(p, ln) for p, _, ln in examples() if "| sort" in ln]
    assert piped
    for page, line in piped:
        head = line.split("| sort")[0]
        assert "--format tsv" in head or "--format json" in head, (page, line)
        assert "NR > 1" in head or "tail -n +2" in head, (page, line)


def test_eval_q_with_several_runs_in_the_trec_layout_names_each_block(cli_invoke):
    qrels, run = ROOT / "testdata/adhoc/qrels.txt", ROOT / "testdata/adhoc/run-bm25.txt"
    run2 = ROOT / "testdata/adhoc/run-neural.txt"
    code, out, err = cli_invoke(["eval", "-q", "-m", "P@5", "--format", "trec", qrels, run,
                                 run2])
    assert code == 0 and "do not name their run" not in err
    lines = out.splitlines()
    heads = [i for i, text in enumerate(lines) if text.startswith("runid")]
    assert heads[0] == 0 and len(heads) == 2
    assert lines[0].split("\t") == ["runid                 ", "all", "bm25"]
    assert lines[heads[1]].split("\t")[2] == "neural"
    code, out, err = cli_invoke(["eval", "-q", "-m", "P@5", qrels, run])
    assert code == 0 and err == "" and "runid" not in out
    code, out, err = cli_invoke(["eval", "-q", "-m", "P@5", "--format", "tsv", qrels, run, run])
    assert code == 0 and err == ""


def test_no_binary_or_large_file_tracked_outside_the_data_folders():
    """Issue 22: a 296 KB wheel was committed at the repository root.  Only
    tests/data and testdata hold binary or large files (compressed inputs)."""
    import shutil
    import subprocess
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode("utf-8", "surrogateescape").split("\0")
    bad = []
    for name in filter(None, files):
        if name.startswith(("tests/data/", "testdata/")):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if len(data) > 1_000_000 or b"\0" in data[:65536]:
            bad.append(f"{name} ({len(data)} bytes)")
    assert not bad, f"binary or large files tracked outside tests/data and testdata: {bad}"
