"""The layout of ipsoeval/reading/: one way down, no import cycle,
readers below everything that uses them, the cheap modules without numpy.

The import graph is built from the source with ``ast`` (imports inside
functions count too: a lazy import is still a dependency), so a cycle is
found even where the lazy imports would hide it at run time."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.project.test_layout import MODULES as LAYOUT_MODULES
from tests.project.test_layout import imports

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "ipsoeval"

# lower first: each module may import only modules before it (the package docstring)
ORDER = ["core", "grammar", "words", "opening", "python", "compiled", "memory", "ipcfile",
         "arrow", "irds", "entry", "scores", "nuggets", "predictors", "manifest", "provider", "quick_measures",
         "quick"]
# what reading may use outside itself (measures: score files name measures; ids:
# identifiers decoded, shared with the formatters; labels: the coding of real
# labels under --labels gain|probability; tiewarn_text: the tie-order warning's
# text, which the quick path prints as the full program does -- plain text, no
# imports)
ALLOWED_OUTSIDE = {"ipsoeval.errors", "ipsoeval.model", "ipsoeval.parallel", "ipsoeval._core",
                   "ipsoeval.stdio",
                   "ipsoeval.measures", "ipsoeval.ids", "ipsoeval.labels",
                   "ipsoeval.tiewarn_text", "ipsoeval",
                   "ipsoeval.mean"}          # the one mean (math only), for the quick path's TSV
NO_NUMPY = ["core", "grammar", "opening", "provider", "quick_measures", "quick"]


# the package's modules and their imports, read as tests/project/test_layout.py reads them
MODULES = {m: p for m, p in LAYOUT_MODULES.items() if p.suffix == ".py"}
GRAPH = {m: {d for d in imports(m, p) if d == "ipsoeval" or d.startswith("ipsoeval.")}
         for m, p in MODULES.items()}


def test_every_reading_module_is_in_the_documented_order():
    mine = {m.rpartition(".")[2] for m in MODULES if m.startswith("ipsoeval.reading.")}
    assert mine == set(ORDER)
    doc = (PKG / "reading" / "__init__.py").read_text()
    for m in ORDER:                       # the package docstring lists each module
        assert f"``{m}``" in doc, m


@pytest.mark.parametrize("mod", ORDER)
def test_reading_imports_point_one_way(mod):
    name = f"ipsoeval.reading.{mod}"
    below = {f"ipsoeval.reading.{m}" for m in ORDER[: ORDER.index(mod)]}
    for dep in GRAPH[name]:
        if dep.startswith("ipsoeval.reading"):
            # never the package itself (its names are the entry, above everything)
            assert dep in below, f"{name} imports {dep}, which is not below it"
        else:
            assert dep in ALLOWED_OUTSIDE or dep.startswith("ipsoeval.measures"), \
                f"{name} imports {dep}: readers produce the model and use nothing above it"


def test_no_import_cycle_through_reading():
    """No cycle in the whole package's graph passes through a reading module
    (Tarjan's strongly connected components, tests/project/test_layout.py's)."""
    from tests.project.test_layout import cycles
    found = [c for c in cycles(GRAPH) if any(m.startswith("ipsoeval.reading") for m in c)]
    assert found == []


def test_outside_code_enters_reading_through_its_entries():
    """Outside ipsoeval/reading, the package (runs and qrels), reading.scores
    (score files), reading.quick (the console script), reading.provider (which
    measures the compiled core serves) and reading.core (the compiled
    extension, which the stats use too) are the doors; the
    alignment also uses the ids, the compiled alignment and the opening of
    files (to word a duplicate docno's error), trec_eval's
    other modes the Python tokeniser and the opening of files."""
    doors = {"ipsoeval.reading", "ipsoeval.reading.scores", "ipsoeval.reading.quick",
             "ipsoeval.reading.core", "ipsoeval.reading.nuggets", "ipsoeval.reading.manifest",
             "ipsoeval.reading.predictors",
             "ipsoeval.reading.provider"}
    # (the alignment reopens a qrels file to word a duplicate's error)
    extra = {"ipsoeval.align": {"ipsoeval.reading.words", "ipsoeval.reading.compiled",
                                "ipsoeval.reading.opening"},
             # the score files' formats, for --help without the score reader
             "ipsoeval.pipeline.options": {"ipsoeval.reading.grammar"},
             "ipsoeval.trecmodes.common": {"ipsoeval.reading.grammar", "ipsoeval.reading.words",
                                           "ipsoeval.reading.opening",
                                           "ipsoeval.reading.python"}}
    for m, deps in GRAPH.items():
        if m.startswith("ipsoeval.reading"):
            continue
        for d in deps:
            if d.startswith("ipsoeval.reading"):
                assert d in doors | extra.get(m, set()), f"{m} imports {d}"


@pytest.mark.parametrize("mod", ["__init__", *ORDER])
def test_each_module_imports_alone_in_a_fresh_interpreter(mod):
    name = "ipsoeval.reading" if mod == "__init__" else f"ipsoeval.reading.{mod}"
    code = (f"import sys, {name}; "
            "sys.stdout.write(repr('numpy' in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    if mod in NO_NUMPY or mod == "__init__":
        assert p.stdout == "False", f"{name} loads numpy"
