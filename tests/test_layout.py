"""The layout of the whole package (issue 26): the import graph has no circle,
and the layers of SPEC's layout point one way.

cli -> api -> analyses -> engine/stats -> measures -> label models -> model;
readers produce the model; formatters see only finished reports; nothing
below the CLI imports click; only the table formatter imports rich; a CLI
helper never imports a command.

The graph is built from the source with ``ast``: an import inside a function
counts (a lazy import is still a dependency, and a circle of lazy imports is
still a circle).  ``tests/test_reading_layout.py`` holds the finer order inside
``ipsoeval/reading``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "ipsoeval"


def modules(pkg: Path = PKG) -> dict[str, Path]:
    out = {}
    for p in pkg.rglob("*.py"):
        parts = list(p.relative_to(pkg.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


MODULES = modules()
MODULES["ipsoeval._core"] = PKG / "_core.c"       # the compiled extension: a leaf


def imports(name: str, path: Path, known=MODULES) -> set[str]:
    """Every module ``name`` imports (ipsoeval's and outside ones), anywhere in its source."""
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                                + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.add(sub if sub in known else base)
    return out


ALL_IMPORTS = {m: imports(m, p) for m, p in MODULES.items() if p.suffix == ".py"}
GRAPH = {m: {d for d in deps if d in MODULES} for m, deps in ALL_IMPORTS.items()}
GRAPH["ipsoeval._core"] = set()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one
    module importing itself (Tarjan)."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in comps if len(c) > 1 or c[0] in graph.get(c[0], ())]


def _under(mod: str, *prefixes: str) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in prefixes)


# (who, may not import, why): each a set of module prefixes
LAYERS = [
    (("ipsoeval.measures", "ipsoeval.model", "ipsoeval.labels", "ipsoeval.reading",
      "ipsoeval.align", "ipsoeval.stats", "ipsoeval.special", "ipsoeval.engine",
      "ipsoeval.analyses", "ipsoeval.formatters", "ipsoeval.results", "ipsoeval.plots",
      "ipsoeval.distributed", "ipsoeval.trecmodes", "ipsoeval.errors", "ipsoeval.ids"),
     ("ipsoeval.cli", "ipsoeval.api", "ipsoeval.interop"),
     "below the CLI and the API: nothing imports them back"),
    (("ipsoeval.measures", "ipsoeval.stats", "ipsoeval.special", "ipsoeval.engine",
      "ipsoeval.reading", "ipsoeval.align", "ipsoeval.model", "ipsoeval.labels",
      "ipsoeval.formatters", "ipsoeval.results"),
     ("ipsoeval.analyses",),
     "analyses sit above the engine, the statistics and the measures"),
    (("ipsoeval.measures", "ipsoeval.model", "ipsoeval.labels", "ipsoeval.reading",
      "ipsoeval.align"),
     ("ipsoeval.stats", "ipsoeval.engine"),
     "measures, readers and the model are below the engine and the statistics"),
    (("ipsoeval.stats",),
     ("ipsoeval.engine", "ipsoeval.measures.family", "ipsoeval.measures.families"),
     "a test statistic works on score matrices, not on measures' definitions"),
    (("ipsoeval.model", "ipsoeval.labels", "ipsoeval.errors", "ipsoeval.ids"),
     ("ipsoeval.measures", "ipsoeval.reading", "ipsoeval.align"),
     "the model is the bottom"),
    # the hand-written special functions (ipsoeval/special/__init__.py: their
    # accuracy contract): the statistics build on them, they on math alone
    (("ipsoeval.special",),
     ("ipsoeval",),
     "the special functions are a leaf below the statistics (math and numpy only)"),
    # the one mean: every layer calls it, so it calls none of them
    (("ipsoeval.mean",),
     ("ipsoeval",),
     "the one mean is a leaf (math only)"),
    # label models (integer, gain, probability, bounds, tie orders): measures use
    # them, never the reverse
    (("ipsoeval.labels", "ipsoeval.measures.kernels", "ipsoeval.measures.expected",
      "ipsoeval.measures.ties", "ipsoeval.measures.bounds"),
     ("ipsoeval.measures.family", "ipsoeval.measures.families", "ipsoeval.measures.registry",
      "ipsoeval.measures.names"),
     "label models sit below the measures' declarations"),
    (("ipsoeval.api", "ipsoeval.interop"),
     ("ipsoeval.cli",),
     "the API sits beside the CLI, never on it"),
    (("ipsoeval.interop",),
     ("ipsoeval.api",),
     "interop names other tools' objects; the API uses it, never the reverse"),
    (("ipsoeval.formatters",),
     ("ipsoeval.analyses", "ipsoeval.engine", "ipsoeval.stats", "ipsoeval.reading",
      "ipsoeval.align"),
     "formatters see only finished reports"),
]


def layer_violations(all_imports: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, deps in sorted(all_imports.items()):
        for who, banned, why in LAYERS:
            if _under(mod, *who):
                bad += [f"{mod} imports {d}: {why}" for d in sorted(deps)
                        if _under(d, *banned) and not _under(d, *(w for w in who if _under(mod, w)))]
        if not _under(mod, "ipsoeval.cli", "ipsoeval._quick", "ipsoeval.__main__"):
            bad += [f"{mod} imports {d}: nothing below the CLI imports click"
                    for d in deps if _under(d, "click")]
        if mod != "ipsoeval.formatters.table":
            bad += [f"{mod} imports {d}: only the table formatter imports rich"
                    for d in deps if _under(d, "rich")]
        if _under(mod, "ipsoeval.cli") and not mod.endswith("_cmd"):
            bad += [f"{mod} imports {d}: a CLI helper never imports a command"
                    for d in deps if _under(d, "ipsoeval.cli") and d.endswith("_cmd")]
    return bad


def test_no_circle_in_the_whole_package():
    found = cycles(GRAPH)
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_layers_point_one_way():
    bad = layer_violations(ALL_IMPORTS)
    assert not bad, "\n".join(bad)


def test_a_planted_circle_is_caught(tmp_path):
    """The check finds a circle planted in a copy of the package: the lowest
    module (errors) made to import a command."""
    import shutil
    copy = tmp_path / "ipsoeval"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    errors = copy / "errors.py"
    errors.write_text(errors.read_text() + "\n\ndef _planted():\n"
                      "    from ipsoeval.cli import sigtest_cmd  # noqa: F401\n")
    mods = modules(copy)
    mods["ipsoeval._core"] = copy / "_core.c"
    graph = {m: {d for d in imports(m, p, mods) if d in mods} for m, p in mods.items()
             if p.suffix == ".py"}
    found = cycles(graph)
    assert any("ipsoeval.errors" in c and "ipsoeval.cli.sigtest_cmd" in c for c in found)
    assert not cycles(GRAPH)


def test_cycles_finds_small_circles():
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize("rule", ["click", "rich", "command", "layer", "special"])
def test_a_planted_layer_violation_is_caught(rule):
    planted = {"click": ("ipsoeval.stats.tests", "click"),
               "special": ("ipsoeval.special.dist", "ipsoeval.stats.paired"),
               "rich": ("ipsoeval.formatters.tsv", "rich.table"),
               "command": ("ipsoeval.cli.output", "ipsoeval.cli.eval_cmd"),
               "layer": ("ipsoeval.measures.ties", "ipsoeval.measures.families.dcg")}[rule]
    graph = {m: set(d) for m, d in ALL_IMPORTS.items()}
    graph[planted[0]].add(planted[1])
    assert any(v.startswith(f"{planted[0]} imports {planted[1]}")
               for v in layer_violations(graph))
