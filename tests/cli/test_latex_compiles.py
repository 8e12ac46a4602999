"""Every command's ``--format latex`` compiles with Debian's ``pdflatex`` under
the plainest preamble (``article`` and ``booktabs``), and the PDF shows a
table.

For each command that offers ``--format latex`` (the table of commands, so a
new command is covered when it is registered), on the inputs of its golden
case (tests/golden/test_output_contract.py) with every run renamed to a name
holding ``_ & % # $ ~ ^ { } \\ | < >``:

- pdflatex -interaction=nonstopmode -halt-on-error exits 0, and its log has
  no error, no undefined control sequence and no character missing from a
  font (``\\tracinglostchars=2`` logs them);
- the run names come back from the PDF's text as they were written (the
  underscore excepted: OT1's ``\\_`` is a rule, which pdftotext reads as a
  space) -- escaping that lost or mangled a character would show here; no
  option name lost a hyphen to TeX's ``--`` ligature (an en dash), and no
  raw ``| < >`` (OT1 prints an em dash and inverted ! and ?);
- pdftoppm renders page 1, and the page is not blank;
- nothing outside a ``%`` comment is a shell command line (``ipsoeval CMD
  --option``): a paper's table holds results, not instructions (and TeX
  typesets ``--`` as an en dash);
- the tables fit article's text width (no "Overfull \\hbox" in the log).

``compare`` (the paper table) also gets its own case with ``--marks pairs
--ci`` on three runs; it is skipped only while the command does not exist.

Set IPSOEVAL_LATEX_PNG=DIR to keep each rendered page as DIR/<case>.png
(100 dpi) and the LaTeX source beside it, to look at the tables.

Needs pdflatex with booktabs and pdftoppm/pdftotext (``make latex-deps``);
skipped, saying so, without them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ipsoeval import pipeline
from tests.conftest import ROOT, invoke
from tests.golden.test_output_contract import GOLDEN_CASES

PDFLATEX, PDFTOPPM, PDFTOTEXT = (shutil.which(t) for t in ("pdflatex", "pdftoppm",
                                                           "pdftotext"))


def _booktabs() -> bool:
    kpsewhich = shutil.which("kpsewhich")
    return bool(kpsewhich) and subprocess.run(
        [kpsewhich, "booktabs.sty"], capture_output=True).returncode == 0


MISSING = [name for name, path in (("pdflatex", PDFLATEX), ("pdftoppm", PDFTOPPM),
                                   ("pdftotext", PDFTOTEXT)) if not path]
if PDFLATEX and not _booktabs():
    MISSING.append("booktabs.sty")

# on the tests that run pdflatex (the others read the LaTeX only)
NEEDS_TEX = [
    pytest.mark.latex,
    pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed: run "
                                             "`make latex-deps` (apt-get install "
                                             "texlive-latex-base texlive-latex-recommended "
                                             "poppler-utils; needs root or sudo)"),
]


def needs_tex(f):
    for mark in NEEDS_TEX:
        f = mark(f)
    return f


PREAMBLE = ("\\documentclass{article}\n\\usepackage{booktabs}\n"
            "\\tracinglostchars=2\n"          # a glyph a font lacks is logged
            "\\begin{document}\n")
SPECIAL = "_&%#$"                             # each is a LaTeX special character
# and those OT1 has no glyph for in text, or another one
ODD = "~^{}\\|<>"
# pdftotext reads \textasciitilde and \textasciicircum as spacing accents
PDF_READS = str.maketrans({"\u02dc": "~", "\u02c6": "^"})


def tricky(name: str) -> str:
    """A run name with LaTeX's special characters in it."""
    return f"{name}{SPECIAL[0]}v{SPECIAL[1:]}{ODD}"


def latex_commands() -> list[str]:
    out = []
    for name in pipeline.COMMANDS:
        try:
            fmt = pipeline.command(name).opt("fmt")
        except KeyError:                      # report writes HTML only
            continue
        if "latex" in fmt.choices:
            out.append(name)
    return out


# Commands whose LaTeX puts a shell command line into the table (see the
# module's docstring); the check runs anyway and says when they are fixed.
SHELL_IN_LATEX: dict = {}


# --- inputs with tricky run names -------------------------------------------------------

def _retag(src: Path, dst: Path) -> None:
    """A TREC run with its tag column renamed by :func:`tricky`."""
    lines = []
    for line in src.read_text().splitlines():
        f = line.split()
        if len(f) == 6:
            f[5] = tricky(f[5])
        lines.append(" ".join(f))
    dst.write_text("\n".join(lines) + "\n")


def _renamed_nuggets(src: Path, dst: Path) -> None:
    rows = src.read_text().splitlines()
    out = [rows[0]]
    for row in rows[1:]:
        f = row.split("\t")
        f[0] = tricky(f[0])
        out.append("\t".join(f))
    dst.write_text("\n".join(out) + "\n")


def renamed_args(args: list[str], tmp: Path) -> tuple[list[str], set[str]]:
    """``args`` with each run file replaced by a copy whose runs carry tricky
    names (run files, --name values, the across manifest's runs, nugget
    files); and the names the output should show."""
    out, names = [], set()
    prev = None
    for a in args:
        p = ROOT / a
        if prev in ("--name", "--baseline"):
            a = tricky(a)
            names.add(a)
        elif a.startswith("testdata/adhoc/run-") or (a.startswith("testdata/repro/")
                                                     and a.endswith(".run")):
            dst = tmp / f"{p.stem}-{len(out)}.run"
            _retag(p, dst)
            a = str(dst)
            names.add(tricky(p.read_text().split()[5]))
        elif a == "testdata/across/manifest.tsv":
            d = tmp / "across"
            if not d.exists():
                shutil.copytree(p.parent, d)
                for run in d.glob("*.run"):
                    _retag(run, run)
                    names.add(run.read_text().split()[5])
            a = str(d / "manifest.tsv")
        elif a.startswith("testdata/nuggets/") and a.endswith(".tsv"):
            dst = tmp / p.name
            _renamed_nuggets(p, dst)
            a = str(dst)
            names |= {line.split("\t")[0] for line in dst.read_text().splitlines()[1:]}
        elif a.startswith("testdata/"):
            a = str(p)
        out.append(a)
        prev = args[len(out) - 1]
    return out, names


def compare_args(tmp: Path) -> tuple[list[str], set[str]]:
    """compare on adhoc's two runs and a third (neural with the top two
    documents of every other topic swapped), all with tricky names."""
    a, b, c = tmp / "a.run", tmp / "b.run", tmp / "c.run"
    _retag(ROOT / "testdata/adhoc/run-bm25.txt", a)
    _retag(ROOT / "testdata/adhoc/run-neural.txt", b)
    rows = [line.split() for line in b.read_text().splitlines()]
    by_topic: dict[str, list[list[str]]] = {}
    for r in rows:
        by_topic.setdefault(r[0], []).append(r)
    lines = []
    for i, (topic, rs) in enumerate(by_topic.items()):
        rs = sorted(rs, key=lambda r: -float(r[4]))
        docs = [r[2] for r in rs]
        if i % 2 and len(docs) > 1:
            docs[0], docs[1] = docs[1], docs[0]
        lines += [f"{topic} Q0 {d} {k + 1} {100 - k} {tricky('third')}"
                  for k, d in enumerate(docs)]
    c.write_text("\n".join(lines) + "\n")
    args = ["compare", "-m", "AP", "-m", "P@10", "-m", "nDCG@10", "--marks", "pairs", "--ci",
            str(ROOT / "testdata/adhoc/qrels.txt"), str(a), str(b), str(c)]
    return args, {tricky("bm25"), tricky("neural"), tricky("third")}


# --- compiling and looking ---------------------------------------------------------------

def compile_latex(tex: str, tmp: Path) -> tuple[Path, str]:
    """pdflatex on ``tex`` wrapped in the plain preamble: the PDF and the log."""
    src = tmp / "table.tex"
    src.write_text(PREAMBLE + tex + "\n\\end{document}\n")
    r = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", src.name],
                       cwd=tmp, capture_output=True, text=True, errors="replace", timeout=120,
                       stdin=subprocess.DEVNULL)
    log_path = tmp / "table.log"
    log = log_path.read_text(errors="replace") if log_path.exists() else r.stdout
    errors = [ln for ln in log.splitlines() if ln.startswith("!")]
    assert r.returncode == 0, f"pdflatex failed: {errors or log[-2000:]}"
    assert not errors, errors
    assert "Undefined control sequence" not in log
    lost = [ln for ln in log.splitlines() if "Missing character" in ln]
    assert not lost, lost
    pdf = tmp / "table.pdf"
    assert pdf.exists() and pdf.stat().st_size > 0
    return pdf, log


def read_pgm(path: Path) -> tuple[int, int, bytes]:
    """(width, height, pixels) of a binary (P5) 8-bit PGM file."""
    data = path.read_bytes()
    fields, pos = [], 0
    while len(fields) < 4:                    # magic, width, height, maxval
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P5" and int(fields[3]) == 255, fields
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h]
    assert len(pixels) == w * h
    return w, h, pixels


def render(pdf: Path, tmp: Path, keep_as: str) -> None:
    """Page 1 at 100 dpi in grey: not blank; kept as PNG on request."""
    r = subprocess.run([PDFTOPPM, "-gray", "-r", "100", "-f", "1", "-l", "1", "-singlefile",
                        str(pdf), str(tmp / "page")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    pgm = tmp / "page.pgm"
    assert pgm.exists()
    w, h, pixels = read_pgm(pgm)
    assert w > 500 and h > 500, (w, h)        # a page (A4 or letter, as TeX is set up)
    ink = sum(1 for v in pixels if v < 128)
    assert ink > 500, f"page 1 is blank ({ink} dark pixels)"
    where = os.environ.get("IPSOEVAL_LATEX_PNG")
    if where:
        out = Path(where)
        out.mkdir(parents=True, exist_ok=True)
        r = subprocess.run([PDFTOPPM, "-png", "-r", "100", "-f", "1", "-l", "1", "-singlefile",
                            str(pdf), str(out / keep_as)], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        assert (out / f"{keep_as}.png").stat().st_size > 0
        shutil.copy(tmp / "table.tex", out / f"{keep_as}.tex")


def pdf_text(pdf: Path) -> str:
    r = subprocess.run([PDFTOTEXT, "-layout", str(pdf), "-"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def body(tex: str) -> str:
    """The LaTeX without its ``%`` comment lines."""
    return "\n".join(ln for ln in tex.splitlines() if not ln.lstrip().startswith("%"))


def shell_lines(tex: str) -> list[str]:
    """Command lines (``ipsoeval CMD ... --option``) outside ``%`` comments."""
    return re.findall(r"ipsoeval [a-z-]+ [^&\n]*?-(?:\{\})?-[a-z]", body(tex))


def check(tex: str, names: set[str], tmp: Path, keep_as: str) -> set[str]:
    """Compile and render ``tex``; the run names it shows."""
    assert "\\begin{tabular}" in tex and "\\toprule" in tex and "\\bottomrule" in tex
    pdf, _ = compile_latex(tex, tmp)
    render(pdf, tmp, keep_as)
    text = pdf_text(pdf).translate(PDF_READS)
    shown = set()
    for name in names:
        assert name not in tex, f"{name!r} unescaped"
        if name.split(SPECIAL[0])[0] in tex:
            shown.add(name)
            # OT1's \_ is a rule, which pdftotext reads as a space
            assert name.replace("_", " ") in text, (name, text[:2000])
    # OT1 prints a raw | as an em dash, < and > as inverted ! and ?
    assert not re.findall(r"[|<>]", re.sub(r"\$[^$]*\$", "", body(tex))), "raw | < or >"
    assert "¡" not in text and "¿" not in text
    # TeX's -- ligature would eat an option's hyphens: "--test" prints "–test"
    assert not re.findall(r"\u2013[a-z]", text), re.findall(r".{20}\u2013[a-z].{10}", text)
    return shown


# --- the tests ---------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _plain(plain_env):
    """No $IPSOEVAL_WARNINGS from the caller's shell."""


_TEX: dict = {}


@pytest.fixture(scope="module")
def latex_of(tmp_path_factory):
    """command -> (its case's args, run names, LaTeX), each command's CLI run
    once for the tests of this module."""
    def get(command, renamed=True):
        if (command, renamed) not in _TEX:
            if renamed:
                args, names = renamed_args(GOLDEN_CASES[command], tmp_path_factory.mktemp("in"))
            else:
                args = [str(ROOT / a) if a.startswith("testdata/") else a
                        for a in GOLDEN_CASES[command]]
                names = set()
            code, tex, err = invoke([args[0], "--format", "latex", *args[1:]])
            assert code == 0, err
            _TEX[command, renamed] = args, names, tex
        return _TEX[command, renamed]
    return get


def test_the_commands_are_found():
    cmds = latex_commands()
    assert {"eval", "sigtest", "leaderboard"} <= set(cmds)
    assert "report" not in cmds
    missing = set(cmds) - set(GOLDEN_CASES)
    assert not missing, f"no golden case (inputs) for {missing}"


# tables of measures or of the collection, not of runs
NO_RUN_NAMES = {"measures", "power", "meta",
                "qpp",        # its rows are predictors (one run)
                "repro"}      # its rows are the roles: baseline, advanced


@pytest.mark.parametrize("command", latex_commands())
@needs_tex
def test_latex_compiles_and_renders(command, tmp_path, latex_of):
    _, names, tex = latex_of(command)
    assert names or command in ("measures", "qpp"), "the case has no run to rename"
    shown = check(tex, names, tmp_path, command)
    assert bool(shown) == (command not in NO_RUN_NAMES), (shown, names)


@pytest.mark.parametrize("command", [
    pytest.param(c, marks=pytest.mark.xfail(reason=SHELL_IN_LATEX[c], strict=True))
    if c in SHELL_IN_LATEX else c for c in latex_commands()])
def test_no_shell_command_in_latex(command, latex_of):
    assert shell_lines(latex_of(command)[2]) == []


# Tables wider than article's text width (345 pt) run off the page: pdflatex's
# "Overfull \hbox" by this much (pt, the widest table of the golden case, its
# run names as they are) on the day the test was written.  They compile; a paper
# would need \resizebox, table* or fewer columns.
TOO_WIDE = {"measures": 1980, "across": 750, "breakdown": 672,
            "ipso": 633, "agree": 446, "ppi": 287, "sigtest": 219, "bootstrap": 194,
            "meta": 144, "power": 115, "leaderboard": 64}


def overfull(log: str) -> float:
    """The widest overflow of a line or table in pdflatex's log (pt)."""
    return max((float(x) for x in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide", log)),
               default=0.0)


@pytest.mark.parametrize("command", [
    pytest.param(c, marks=pytest.mark.xfail(
        reason=f"its widest table is about {TOO_WIDE[c]} pt wider than the text", strict=True))
    if c in TOO_WIDE else c for c in latex_commands()])
@needs_tex
def test_latex_fits_the_text_width(command, tmp_path, latex_of):
    _, log = compile_latex(latex_of(command, renamed=False)[2], tmp_path)
    assert overfull(log) < 1.0


@needs_tex
def test_compare_pairs_with_ci_compiles_and_renders(tmp_path):
    if "compare" not in pipeline.COMMANDS:
        pytest.skip("compare not built: `ipsoeval compare` is not in ipsoeval.pipeline.COMMANDS")
    args, names = compare_args(tmp_path)
    code, tex, err = invoke([args[0], "--format", "latex", *args[1:]])
    assert code == 0, err
    assert check(tex, names, tmp_path, "compare-pairs-ci") == names
    assert shell_lines(tex) == []
    assert "\\textbf{" in tex                 # the best value per column


@needs_tex
def test_the_checks_catch_what_they_should(tmp_path):
    """The checks fail on LaTeX that does not compile, on a glyph a font
    lacks, on a blank page, and find a shell command line."""
    with pytest.raises(AssertionError, match="pdflatex failed"):
        compile_latex("\\begin{tabular}{l}\\toprule a_b \\\\ \\bottomrule\\end{tabular}",
                      tmp_path)
    with pytest.raises(AssertionError, match="Missing character"):
        compile_latex("\\char200", tmp_path)
    pdf, _ = compile_latex("\\thispagestyle{empty}\\mbox{}", tmp_path)
    with pytest.raises(AssertionError, match="blank"):
        render(pdf, tmp_path, "blank")
    assert shell_lines("% ipsoeval sigtest --all-pairs\nsee ipsoeval sigtest -m AP --test t")
    assert shell_lines("ipsoeval sigtest -{}-all-pairs -{}-test sign -m 'AP'")
    assert not shell_lines("% ipsoeval sigtest --all-pairs\n\\caption{ipsoeval eval}")
    _, log = compile_latex("\\begin{tabular}{l}" + "x" * 80 + "\\end{tabular}", tmp_path)
    assert overfull(log) > 100
