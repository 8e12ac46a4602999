"""The layout of the whole package: the import graph has no circle,
and the layers point one way.

cli -> api -> analyses -> engine/stats -> measures -> label models -> model;
readers produce the model; formatters see only finished reports; nothing
below the CLI imports click; only the table formatter imports rich; a CLI
helper never imports a command.

Rooms and floors.  A *room* is a top-level module or package of ipsoeval
(``ipsoeval.measures``, ``ipsoeval.reading``, ``ipsoeval.errors``, ...; the
package itself, ``ipsoeval/__init__.py``, is the room ``ipsoeval``).  The rooms
stand on the floors of :data:`FLOORS`, bottom first, and every import runs to
a room on an earlier or the same floor -- never up.  The order is written
down there, once:

 0. shared leaves: errors, ids, the one mean, the thread pool, standard
    output, warning texts, file writing, the version, the compiled core,
    the loading of a package's names on first use (``_lazy``),
    the declaration of options (``declare``) and the options every command
    shares (alignment, output)
 1. the model: model, label models, results (the finished report), and the
    package itself
 2. measures (their declarations, kernels and catalogues)
 3. formatters and plots: finished reports and the measure names in them
 4. readers: files and frames into the model
 5. alignment: runs x qrels into label matrices
 6. the engine and the statistics
 7. sweeps (``--engine``): runs scored a batch at a time
 8. analyses
 9. trec_eval's other modes (``eval -R``, ``-Z``), built on the analyses
10. interop: other tools' objects as ipsoeval's names
11. the pipeline: each command's declaration and the calls from its inputs
    to a Report, made by both doors above it
12. the Python API, and ipsoeval as an ir_measures provider (imported
    only by whoever asks for it: it imports ir_measures)
13. the CLI
14. the entry points (the console script's quick paths, ``python -m``)

One import runs up, documented: ``ipsoeval/__init__.py`` loads the API in its
module ``__getattr__`` (``ipsoeval.evaluate`` on first use), so that
``import ipsoeval`` stays cheap and the API still reads as ``ipsoeval.X``.

The graph is built from the source with ``ast``: an import inside a function
counts (a lazy import is still a dependency, and a circle of lazy imports is
still a circle).  ``tests/project/test_reading_layout.py`` holds the finer order inside
``ipsoeval/reading``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
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
        elif _lazy_call(node):
            out.update(_lazy_modules(node))
    return out


def _lazy_call(node) -> bool:
    """A call of ipsoeval._lazy.lazy_attributes: the modules it names are
    imported on first use, so they are dependencies like a lazy import."""
    return isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
        node.func, "attr", None)) == "lazy_attributes"


def _lazy_modules(call) -> set[str]:
    return {n.value for n in ast.walk(call) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and n.value.startswith("ipsoeval")}


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
     ("ipsoeval.cli", "ipsoeval.api", "ipsoeval.interop", "ipsoeval.pipeline"),
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
    (("ipsoeval.pipeline",),
     ("ipsoeval.cli", "ipsoeval.api", "click"),
     "the pipeline serves the command line and the API; it imports neither"),
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


# --- rooms and floors (see the module docstring) ---------------------------------------

# bottom first; every import runs to a room on an earlier or the same floor
FLOORS: list[tuple[str, ...]] = [
    ("ipsoeval.errors", "ipsoeval.ids", "ipsoeval.mean", "ipsoeval.parallel",
     "ipsoeval.stdio", "ipsoeval.tiewarn_text", "ipsoeval.warntext", "ipsoeval.writing",
     "ipsoeval._version", "ipsoeval._core", "ipsoeval.declare", "ipsoeval.special",
     "ipsoeval.align_options",
     "ipsoeval.output_options", "ipsoeval._lazy"),
    ("ipsoeval.model", "ipsoeval.labels", "ipsoeval.results", "ipsoeval"),
    ("ipsoeval.measures",),
    ("ipsoeval.formatters", "ipsoeval.plots"),
    ("ipsoeval.reading",),
    ("ipsoeval.align",),
    ("ipsoeval.engine", "ipsoeval.stats"),
    ("ipsoeval.distributed",),
    ("ipsoeval.analyses",),
    ("ipsoeval.trecmodes",),
    ("ipsoeval.interop",),
    ("ipsoeval.pipeline",),
    ("ipsoeval.api", "ipsoeval.ir_measures_provider"),
    ("ipsoeval.cli",),
    ("ipsoeval._quick", "ipsoeval.__main__"),
]
FLOOR = {room: i for i, rooms in enumerate(FLOORS) for room in rooms}

# (importer room, imported room): the one import that runs up, lazily
UPWARD = {("ipsoeval", "ipsoeval.api")}


def room(mod: str) -> str:
    """The top-level module or package ``mod`` lives in (``ipsoeval`` for the package)."""
    return ".".join(mod.split(".")[:2])


def room_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Rooms and the rooms they import, the documented upward import left out."""
    out: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        here = out.setdefault(room(mod), set())
        here.update(room(d) for d in deps
                    if room(d) != room(mod) and (room(mod), room(d)) not in UPWARD)
    return out


def floor_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = [f"{r} stands on no floor: add it to FLOORS" for r in sorted(room_graph(graph))
           if r not in FLOOR]
    for mod, deps in sorted(graph.items()):
        for d in sorted(deps):
            a, b = room(mod), room(d)
            if a in FLOOR and b in FLOOR and FLOOR[b] > FLOOR[a] and (a, b) not in UPWARD:
                bad.append(f"{mod} imports {d}: floor {FLOOR[a]} ({a}) imports up to "
                           f"floor {FLOOR[b]} ({b})")
    return bad


def test_rooms_form_no_circle():
    found = cycles(room_graph(GRAPH))
    assert not found, "circles of rooms: " + "; ".join(" <-> ".join(c) for c in found)


def test_every_import_runs_down_the_floors():
    bad = floor_violations(GRAPH)
    assert not bad, "\n".join(bad)


def test_floors_name_each_room_once():
    named = [r for rooms in FLOORS for r in rooms]
    assert len(named) == len(set(named))
    assert set(named) == set(room_graph(GRAPH)), "a floor names a room that does not exist"


def test_the_one_upward_import_is_lazy():
    """ipsoeval/__init__.py imports the API only inside a function: ``import
    ipsoeval`` loads no part of it."""
    tree = ast.parse((PKG / "__init__.py").read_text())
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not any("api" in {a.name for a in n.names} or (getattr(n, "module", "") or "")
                   .startswith("ipsoeval.api") for n in top)
    assert "ipsoeval.api" in GRAPH["ipsoeval"]
    assert not any(a != "ipsoeval" for a, b in UPWARD)


@pytest.mark.parametrize("planted", [
    ("ipsoeval.measures.names", "ipsoeval.trecmodes.evaluate"),   # data of an upper room
    ("ipsoeval.stats.scales", "ipsoeval.engine"),                  # same floor, both ways
    ("ipsoeval.errors", "ipsoeval.measures"),                      # a leaf importing up
])
def test_a_planted_back_edge_between_rooms_is_caught(planted):
    """A back edge in a copy of the graph: the floors report it, and where the
    upper room already imports the lower one the rooms form a circle."""
    mod, dep = planted
    graph = {m: set(d) for m, d in GRAPH.items()}
    graph[mod].add(dep)
    if room(dep) == "ipsoeval.engine":          # make it a circle: the engine imports stats
        graph["ipsoeval.engine"].add("ipsoeval.stats.scales")
        assert any({room(mod), room(dep)} <= set(c) for c in cycles(room_graph(graph)))
    else:
        assert any(v.startswith(f"{mod} imports {dep}:") for v in floor_violations(graph))
    if room(dep) == "ipsoeval.trecmodes":       # trecmodes imports the measures' catalogue
        assert any({"ipsoeval.measures", "ipsoeval.trecmodes"} <= set(c)
                   for c in cycles(room_graph(graph)))
    assert not cycles(room_graph(GRAPH)) and not floor_violations(GRAPH)


def test_a_new_room_must_be_placed_on_a_floor():
    graph = {m: set(d) for m, d in GRAPH.items()}
    graph["ipsoeval.newroom"] = {"ipsoeval.errors"}
    assert "ipsoeval.newroom stands on no floor: add it to FLOORS" in floor_violations(graph)


def test_statistics_take_from_the_readers_only_the_compiled_core():
    """The readers' floor is below the statistics' for one reason: the
    randomised Tukey HSD draws its samples from the compiled core, whose one
    handle is ipsoeval.reading.core.  Nothing else of the readers: a test
    statistic works on score matrices."""
    used = {d for m, deps in GRAPH.items() if _under(m, "ipsoeval.stats")
            for d in deps if _under(d, "ipsoeval.reading")}
    assert used <= {"ipsoeval.reading.core"}, sorted(used)
