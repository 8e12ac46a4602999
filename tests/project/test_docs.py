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
    """A 296 KB wheel was once committed at the repository root.  Only
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


# An outside contributor can look up neither the project's issue numbers nor
# the design spec (it is not in the repository): comments, docstrings and the
# pages a user reads say why in their own terms, or cite docs/conventions.md.
# The CHANGELOG may cite issues.
CITATION = re.compile(r"\b[Ii]ssues? ?#?\d+|\bSPEC\b")


def test_no_issue_number_or_spec_cited_outside_the_changelog():
    places = [*ROOT.glob("ipsoeval/**/*.py"), *ROOT.glob("ipsoeval/**/*.c"),
              *ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/**/*.py"),
              *ROOT.glob("man/*.1"), *ROOT.glob("docs/*.md"), ROOT / "README.md",
              ROOT / "tests" / "data" / "differential" / "README.md"]
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in places if p.is_file() and p.name != "test_docs.py"
             for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1)
             if CITATION.search(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", COMMANDS)
def test_each_man_pages_synopsis_is_its_declarations(name):
    """The SYNOPSIS is generated from the command's declaration (`make
    manpages`), and OPTIONS names every spelling the declaration has."""
    from ipsoeval.cli.manpages import page, synopsis_section
    from ipsoeval.declare import man_options, man_synopsis
    from ipsoeval.pipeline import command
    try:
        decl = command(name)
    except (ImportError, AttributeError):
        pytest.skip(f"{name} is not declared yet")
    text = page(name).read_text()
    assert synopsis_section(text) == man_synopsis(decl), \
        f"run `make manpages`: the SYNOPSIS of {page(name).name} differs from its declaration"
    plain = man_text(name)
    assert not [f for f in man_options(decl) if f not in plain]
