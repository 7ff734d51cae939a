"""The package's layers (docs/architecture.md, "Layers"), read from the
source so that they stay true:

- no import cycle among the modules of claimsolve/, cli/ (installed as
  claimsolve.cli) and the engines (ext/*.pyx, built as claimsolve._*),
  counting the imports inside functions too;
- the library never imports its front ends, cli and web; web never cli;
- a game's package never imports what draws the games, plays them against
  each other, runs studies of them or serves them (ABOVE_GAMES).

Every module is read with `ast`, not imported: an import anywhere in a
file (module level, in a function, in a `try`) is an edge of the graph,
relative ones resolved.  `from package import name` is an edge to the
submodule `package.name` when there is one, else to the package's
`__init__` (whose names it reads).  The package a module sits in is not
counted as an import of it, so a package's `__init__` may import its own
submodules; a submodule that imports names from its own package (`from
claimsolve import load` inside claimsolve/) closes a cycle.  Modules
imported by name at run time (the catalog's and the descriptors'
importlib.import_module strings: a game plugs in by name) are not seen."""
import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"claimsolve": ROOT / "claimsolve", "claimsolve.cli": ROOT / "cli"}
# the layers, top first: a module imports only from its own layer and those below it.  A name
# is a module or a package (all its modules); "claimsolve" is the package's own __init__ alone;
# every module not named is in the last layer, the core.
LAYERS = (
    ("the command line", ("claimsolve.cli",)),
    ("the web board", ("claimsolve.web",)),
    ("what draws, plays, studies and reviews the games",
     ("claimsolve", "claimsolve.render", "claimsolve.play", "claimsolve.match", "claimsolve.study",
      "claimsolve.learn.train",
      "claimsolve.env")),
    ("the games", ("claimsolve.claim", "claimsolve.claimit", "claimsolve.colorclaim")),
    ("the searches, analysis and review", ("claimsolve.search", "claimsolve.analysis", "claimsolve.interop",
                                           "claimsolve.reviewer", "claimsolve.player_kinds")),
    ("the core", ()),
)


def inside(module, package):
    return module == package or module.startswith(package + ".")


@functools.lru_cache(maxsize=None)
def read_modules():
    """{module name: (path, is_package)} for every .py file of the sources
    and every engine (ext/NAME.pyx, built as claimsolve._NAME: they import
    none of ours, so they are leaves)."""
    modules = {f"claimsolve._{path.stem}": (path, False) for path in sorted((ROOT / "ext").glob("*.pyx"))}
    for prefix, folder in SOURCES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            package = parts[-1] == "__init__"
            if package:
                parts.pop()
            modules[".".join([prefix, *parts])] = (path, package)
    return modules


def known(name, modules):
    """The module `name` is, or the nearest enclosing one we have (an
    import of claimsolve.x.y where y is a class runs claimsolve.x)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module, path, package, modules):
    """[(imported module, line)] for every import in the file of one of ours."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = known(alias.name, modules) if inside(alias.name, "claimsolve") else None
                if target:
                    found.append((target, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module if package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            if not inside(base, "claimsolve"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                target = sub if sub in modules else known(base, modules)
                if target:
                    found.append((target, node.lineno))
    return found


@functools.lru_cache(maxsize=None)
def import_graph():
    """{module: {imported module: first line}}, self-imports left out."""
    modules = read_modules()
    graph = {}
    for module, (path, package) in modules.items():
        if path.suffix != ".py":
            graph[module] = {}
            continue
        edges = {}
        for target, line in imports_of(module, path, package, modules):
            if target != module:
                edges.setdefault(target, line)
        graph[module] = dict(sorted(edges.items()))
    return graph


def components(graph):
    """The strongly connected components of more than one module (Tarjan's,
    iterative): each holds at least one cycle."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def shortest_cycle(graph, component, start):
    """A shortest cycle through `start` within the component, as the list
    of modules in import order (`start` repeated at the end)."""
    members = set(component)
    parents, frontier = {start: None}, [start]
    while frontier:
        following = []
        for node in frontier:
            for child in graph[node]:
                if child not in members:
                    continue
                if child == start:
                    path = [node]
                    while parents[path[-1]] is not None:
                        path.append(parents[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if child not in parents:
                    parents[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle through {start}")


def cycles(graph):
    """A shortest cycle through each module that is on one, each cycle once
    (starting from its first module in name order)."""
    found = []
    for component in components(graph):
        for start in component:
            cycle = shortest_cycle(graph, component, start)[:-1]
            first = cycle.index(min(cycle))
            cycle = cycle[first:] + cycle[:first]
            if cycle + cycle[:1] not in found:
                found.append(cycle + cycle[:1])
    return found


def where(module):
    path, _ = read_modules()[module]
    return path.relative_to(ROOT).as_posix()


def describe(graph, cycle):
    """'a (a.py:12) -> b (b.py:40) -> a': each module with the line of its
    import of the next."""
    steps = [f"{module} ({where(module)}:{graph[module][following]})"
             for module, following in zip(cycle, cycle[1:])]
    return " -> ".join([*steps, cycle[-1]])


def test_no_import_cycle():
    graph = import_graph()
    found = [describe(graph, cycle) for cycle in cycles(graph)]
    assert not found, ("import cycles (each module with the file and line of its import of the next):\n  "
                       + "\n  ".join(found))


def layer_of(module):
    """The index in LAYERS of the module's layer (the longest name that
    holds it decides)."""
    best, found = -1, len(LAYERS) - 1
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            holds = module == name if name == "claimsolve" else inside(module, name)
            if holds and len(name) > best:
                best, found = len(name), index
    return found


def upward(graph):
    """'file:line: module (its layer) imports module (a layer above)' for
    every import that goes up the layers."""
    return [f"{where(module)}:{line}: {module} ({LAYERS[layer_of(module)][0]}) imports {target} "
            f"({LAYERS[layer_of(target)][0]})"
            for module, imported in graph.items() for target, line in imported.items()
            if layer_of(target) < layer_of(module)]


def test_nothing_in_claimsolve_imports_the_command_line():
    """claimsolve/ (the library and the web board) never imports cli/, which
    reads /proc and sets a Ctrl-C handler when it is imported."""
    wrong = [f"{where(module)}:{line} imports {target}"
             for module, imported in import_graph().items() for target, line in imported.items()
             if not inside(module, "claimsolve.cli") and inside(target, "claimsolve.cli")]
    assert not wrong, "claimsolve/ imports the command line (cli/):\n  " + "\n  ".join(wrong)


def test_imports_go_down_the_layers():
    wrong = upward(import_graph())
    assert not wrong, "imports up the layers (docs/architecture.md, Layers):\n  " + "\n  ".join(wrong)


def test_the_graph_sees_every_kind_of_import():
    """The reader itself: module level and deferred, absolute and relative,
    names and submodules; a cycle is found and named in order."""
    graph = import_graph()
    assert "claimsolve.errors" in graph["claimsolve"]                   # from .errors import ...
    assert "claimsolve.limits" in graph["claimsolve"]                   # from . import limits
    assert "claimsolve.reviewer" in graph["claimsolve"]                 # deferred, in review()
    assert "claimsolve.cli.study" in graph["claimsolve.cli.main"]       # from claimsolve.cli.study import ...
    assert "claimsolve.render" in graph["claimsolve.cli.analyze"]       # from claimsolve import render
    assert "claimsolve._alphabeta" in graph["claimsolve.search.alphabeta"]  # from .. import _alphabeta
    assert [layer_of(m) for m in ("claimsolve.cli.main", "claimsolve.web.api", "claimsolve", "claimsolve.render.svg",
                                  "claimsolve.claimit.odds", "claimsolve.analysis", "claimsolve.errors",
                                  "claimsolve._claim")] == [0, 1, 2, 2, 3, 4, 5, 5]
    toy = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}}
    assert components(toy) == [["a", "b", "c"]]
    assert shortest_cycle(toy, ["a", "b", "c"], "b") == ["b", "c", "a", "b"]
    assert cycles(toy) == [["a", "b", "c", "a"]]
    assert describe({"claimsolve": {"claimsolve.errors": 3}, "claimsolve.errors": {"claimsolve": 7}},
                    ["claimsolve", "claimsolve.errors", "claimsolve"]) == (
        "claimsolve (claimsolve/__init__.py:3) -> claimsolve.errors (claimsolve/errors.py:7) -> claimsolve")
