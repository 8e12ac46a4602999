"""Every shell example in README.md and the man pages runs.

The examples are read from the pages themselves: in README.md the lines of
```sh blocks that call ipsoeval; in a man page every ipsoeval command inside a
.nf/.fi block (roff escapes undone, continuation lines joined), a Makefile rule
is run with make, a CI step's `run:` line with bash.  Each runs in a sandbox
folder whose files carry the names the examples use (qrels.txt, run1.txt,
bm25.q.txt, runs/, ...) and hold real data from testdata/ and trec_eval's test
files, with this interpreter's ipsoeval first on PATH.  An example passes when
it exits 0 (1 too where it asks for a gate with --fail-if) and says nothing on
standard error that is an error.  `make demo` and `make test` themselves are
the two set-up commands: CI runs them; they are not run again from here.
"""

from __future__ import annotations

import gzip
import lzma
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT, TE, TESTDATA, invoke

ADHOC = TESTDATA / "adhoc"
SETUP = {"make demo", "make test", ". .venv/bin/activate"}
# examples whose work takes more than a few seconds (interval maps at N = 30)
SLOW = ("--analyze -N 30", "-m AP -m 'DCG(b=2)' -N 30", "--scale both")


def _roff(text: str) -> str:
    return (text.replace("\\-", "-").replace("\\(sc", "§").replace("\\e", "\\")
            .replace("\\\\", "\\"))


def _join(lines: list[str]) -> list[str]:
    """Shell lines with their continuations (a trailing backslash, or a pipe
    at the end of a line) joined."""
    out, cur = [], ""
    for ln in lines:
        s = ln.rstrip()
        if cur:
            s = s.lstrip()
        if s.endswith("\\"):
            cur += s[:-1].rstrip() + " "
        elif s.endswith("|"):
            cur += s + " "
        else:
            out.append(cur + s)
            cur = ""
    if cur:
        out.append(cur)
    return out


def examples():
    """(page, kind, text): kind 'sh' (one command line), 'make' (a Makefile)."""
    readme = (ROOT / "README.md").read_text()
    for block in re.findall(r"^```sh\n(.*?)^```", readme, re.M | re.S):
        for line in _join(block.splitlines()):
            cmd = line.split("  #")[0].strip()
            if cmd and cmd.split("#")[0].strip() not in SETUP:
                yield "README.md", "sh", cmd
    for page in sorted((ROOT / "man").glob("*.1")):
        text = page.read_text()
        for block in re.findall(r"^\.nf\n(.*?)^\.fi", text, re.M | re.S):
            lines = [_roff(ln) for ln in block.splitlines() if not ln.startswith(".")]
            if not any("ipsoeval " in ln for ln in lines):
                continue
            body = "\n".join(lines)
            if re.search(r"^\s*[\w./%$-]+:( |$)", body, re.M) and "\t" in body:
                yield page.name, "make", textwrap.dedent(body)
            elif re.search(r"^\s*- run: ", body, re.M):
                # a CI step: YAML folds the plain scalar's lines into one
                first, *rest = [ln.strip() for ln in lines if ln.strip()]
                yield page.name, "sh", " ".join([first.split("run: ", 1)[1], *rest])
            else:
                for line in _join(lines):
                    if line.strip().startswith("ipsoeval "):
                        yield page.name, "sh", line.strip()


def _copy(src: Path, *names: str, root: Path) -> None:
    for n in names:
        (root / n).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, root / n)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """A folder holding every file the examples name."""
    root = tmp_path_factory.mktemp("examples")
    (root / "testdata").symlink_to(TESTDATA)
    qrels, bm25, neural = ADHOC / "qrels.txt", ADHOC / "run-bm25.txt", ADHOC / "run-neural.txt"
    # binary labels: the ipso examples without --gains want them (graded ones ask for --gains)
    binary = re.sub(rb" [2-9]$", b" 1", qrels.read_bytes(), flags=re.M)
    for n in ("qrels.txt", "qrels.dev.txt"):
        (root / n).write_bytes(binary)
    qrels = root / "qrels.txt"
    (root / "qrels.gz").write_bytes(gzip.compress(qrels.read_bytes()))
    for names, src in (
            (("run1.txt", "run1", "base.run", "old.run", "base.txt",
              "champion.run", "a.run", "baseline.run", "runs/production.run", "runs/bm25.run",
              "bm25.run",
              "runs/bm25.txt"), bm25),
            (("run2.txt", "run2", "new.run", "new.txt", "challenger.run", "b.run",
              "candidate.run", "runs/candidate.run", "runs/neural.run", "runs/neural.txt",
              "neural.run"),
             neural)):
        _copy(src, *names, root=root)
    (root / "run.xz").write_bytes(lzma.compress(bm25.read_bytes()))
    (root / "splade.run").write_bytes(re.sub(rb" bm25$", b" splade", bm25.read_bytes(),
                                             flags=re.M))
    # real-valued gains and probabilities of relevance (--labels gain|probability),
    # for the topics of trec_eval's test run the README's examples pair them with
    lines = (TE / "qrels.test").read_text().splitlines()
    (root / "qrels.real").write_text("".join(
        f"{q} {i} {d} {float(lab) * 1.5:g}\n" for q, i, d, lab in map(str.split, lines)))
    (root / "qrels.prob").write_text("".join(
        f"{q} {i} {d} {0.9 if int(lab) > 0 else 0.2}\n" for q, i, d, lab in map(str.split, lines)))
    # a third run (run*.txt): bm25's lines under another tag
    (root / "run.txt").write_bytes(re.sub(rb" bm25$", b" bm25-copy", bm25.read_bytes(),
                                          flags=re.M))
    # trec_eval's own test files, under the names its examples use
    for n in ("prefs.test", "prefs.results.test", "qrels.123", "results.test", "qrels.test",
              "zscores_file"):
        _copy(TE / n, n, root=root)
    # human and machine (LLM) qrels: ppi's and agree's examples
    for n in ("human.qrels", "qrels.human", "qrels.human.txt"):
        _copy(TESTDATA / "ppi" / "human.qrels", n, root=root)
    for n in ("llm.qrels", "qrels.llm", "qrels.llm.txt", "auto.qrels"):
        _copy(TESTDATA / "ppi" / "auto.qrels", n, root=root)
    _copy(TE / "qrels.test", "qrels", root=root)
    _copy(TE / "results.test", "run", root=root)
    _copy(TE / "prefs.test", "prefs", root=root)
    # per-topic score files: trec_eval -q layouts holding map, and a judge's CSV
    for name, src in (("bm25", bm25), ("neural", neural), ("splade", root / "splade.run")):
        code, out, _ = invoke(["eval", "-q", "-c", "--format", "trec", "-m", "map",
                               str(qrels), str(src)])
        assert code == 0
        (root / f"{name}.q.txt").write_text(f"runid                 \tall\t{name}\n" + out)
    code, out, _ = invoke(["eval", "-q", "-c", "--format", "tsv", "-m", "P@10", str(qrels),
                           str(bm25), str(neural)])
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    (root / "judged.csv").write_text("run,qid,measure,value\n" + "".join(
        f"{r[0]},{r[1]},nugget_recall,{r[3]}\n" for r in rows if r[1] != "all"))
    code, out, _ = invoke(["eval", "-q", "-c", "--format", "tsv", "-m", "nDCG@10", str(qrels),
                           str(bm25), str(neural), str(root / "splade.run")])
    (root / "scores.csv").write_text("run,qid,measure,value\n" + "".join(
        f"{r[0]},{r[1]},nDCG@10,{r[3]}\n" for r in (ln.split("\t") for ln in
                                                   out.splitlines()[1:]) if r[1] != "all"))
    topics = sorted({r[1] for r in rows if r[1] != "all"})
    (root / "public.tsv").write_text("".join(f"{q}\n" for q in topics[::2]))
    (root / "trec2020.tsv").write_text("".join(f"{q}\n" for q in topics[1::2]))
    # query performance predictors of the adhoc topics (qpp's examples)
    for i, n in enumerate(("clarity.txt", "wig.txt", "nqc.txt")):
        (root / n).write_text("".join(f"{q}\t{(k * (i + 2)) % 5 + 0.5 * i}\n"
                                      for k, q in enumerate(topics)))
    (root / "long.tsv").write_text("".join(f"{p}\t{q}\t{(k * j) % 3 + k}\n"
                                           for j, p in enumerate(("nqc", "scq"), 1)
                                           for k, q in enumerate(topics)))
    for d in ("results", "reports"):
        (root / d).mkdir()
    # a Parquet run, and an ir_datasets data set's qrels placed where
    # ir_datasets keeps its download (IR_DATASETS_HOME, set by _run; no network)
    import pyarrow as pa
    import pyarrow.parquet as pq
    rows = [ln.split() for ln in bm25.read_text().splitlines() if ln.strip()]
    pq.write_table(pa.table({"qid": [r[0] for r in rows], "docno": [r[2] for r in rows],
                             "rank": [int(r[3]) for r in rows],
                             "score": [float(r[4]) for r in rows],
                             "tag": [r[5] for r in rows]}), root / "run.parquet")
    dl19 = root / ".irds" / "msmarco-passage" / "trec-dl-2019"
    dl19.mkdir(parents=True)
    (dl19 / "qrels").write_text("".join(     # the real file's format: no comment lines
        ln + "\n" for ln in (ADHOC / "qrels.txt").read_text().splitlines()
        if len(ln.split()) == 4 and not ln.startswith("#")))
    return root


def _run(kind: str, text: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="100", IR_DATASETS_HOME=str(cwd / ".irds"),
               # one interval-map cache for every example, as for a user running
               # a page's examples in turn: the N = 30 value sets of AP are
               # enumerated once, not by each of the three examples that map it
               IPSOEVAL_CACHE_DIR=str(cwd / ".cache"),
               # an irds: example never downloads here: a closed local proxy, one try
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9",
               https_proxy="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9",
               NO_PROXY="", no_proxy="", IR_DATASETS_DL_TRIES="1")
    env.pop("FORCE_COLOR", None)
    if kind == "make":
        (cwd / "Makefile").write_text(text + "\n")
        target = re.search(r"^\s*([\w./%$-]+):", text, re.M).group(1)
        if "%" in target:   # a pattern rule: make the file of one run
            target = target.replace("%", "bm25")
        args = ["make", "-s", target]
    else:
        args = ["bash", "-o", "pipefail", "-c", text]
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)


ALL = list(examples())


def test_examples_found_in_every_page():
    pages = {p for p, _, _ in ALL}
    assert "README.md" in pages
    assert {p.name for p in (ROOT / "man").glob("*.1")} <= pages
    assert any(k == "make" for _, k, _ in ALL) and len(ALL) >= 40


@pytest.mark.parametrize("page,kind,text", [
    pytest.param(p, k, t, marks=[pytest.mark.slow] if any(s in t for s in SLOW) else [],
                 id=f"{p}:{i}")
    for i, (p, k, t) in enumerate(ALL)])
def test_example_runs(sandbox, page, kind, text):
    if kind == "make" and shutil.which("make") is None:
        pytest.skip("make is not installed")
    r = _run(kind, text, sandbox)
    allowed = {0, 1} if "--fail-if" in text else {0}
    assert r.returncode in allowed, (page, text, r.returncode, r.stderr[-2000:])
    assert "error" not in r.stderr.lower() and "Traceback" not in r.stderr, (page, text,
                                                                               r.stderr)
