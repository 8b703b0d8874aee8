"""The package's import graph: no circle between modules, and the stages' arrows point one way.

Every import counts, wherever it stands: at the top of a module, inside a function, or under
`TYPE_CHECKING`.  A circle usually means a type lives in the wrong place (STYLE: move it down into the
model or into the lower stage), not that an import should hide inside a function.
"""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "rulesdsl"

# The stages, lowest first.  A module may import from its own subpackage or from a lower layer, never
# from a higher one or from another subpackage of its own layer.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"errors", "version", "cache"}),   # what every stage shares
    frozenset({"core"}),                         # what the IR and the engine share: units, result notation and
                                                 # the core vocabulary compiled (standard library only)
    frozenset({"runtime"}),                      # the rules engine that generated modules import
    frozenset({"model"}),                        # the IR
    frozenset({"language"}),                     # text to the IR
    frozenset({"queries"}),                      # worked examples' queries, one module per kind (reads limits)
    frozenset({"checks"}),                       # schema, semantics, resolution, worked examples
    frozenset({"modules", "cards"}),             # outputs of a resolved rulebook
    frozenset({"errata"}),                       # two rulebooks compared (reads the cards' words)
    frozenset({"project"}),                      # a project on disk: the build driver
    frozenset({"editor"}),                       # where designers write: highlighting
    frozenset({"cli", "__init__"}),              # the front doors: the command line and the API
    frozenset({"__main__"}),                     # python -m rulesdsl: the command line
)


def module_names() -> dict[str, Path]:
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports, anywhere in its text."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + (node.module.split(".") if node.module else []))
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                       for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def graph() -> dict[str, set[str]]:
    known = module_names()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
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


def stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer(module: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if stage(module) in names)


def test_no_module_imports_itself_round_a_circle():
    assert circles(graph()) == []


def test_the_circle_finder_finds_circles():
    """The check can fail: a two-module and a three-module circle are found, a chain is not."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_every_subpackage_has_a_layer():
    stages = {stage(name) for name in module_names()}
    placed = set().union(*LAYERS)
    assert stages - placed == set(), "a new subpackage needs its place in LAYERS (and in the README's layout)"


def test_stages_import_only_downwards():
    upward = []
    for module, targets in sorted(graph().items()):
        for target in sorted(targets):
            if stage(target) == stage(module):
                continue
            if layer(target) >= layer(module):
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_the_runtime_imports_nothing_of_the_compiler():
    """Generated modules import rulesdsl.runtime alone: it must not drag the compiler in (the shared core
    below it is no part of the compiler)."""
    outside = {f"{m} -> {t}" for m, targets in graph().items() if stage(m) == "runtime"
               for t in targets if stage(t) not in ("runtime", "core")}
    assert outside == set()


def test_the_core_imports_nothing_of_the_package_but_itself():
    """What the model and the engine share stands on the standard library alone."""
    outside = {f"{m} -> {t}" for m, targets in graph().items() if stage(m) == "core"
               for t in targets if stage(t) != "core"}
    assert outside == set()


def test_the_model_imports_nothing_of_the_runtime():
    """The IR reads what it shares with the engine from the core below both, never from the engine."""
    into = {f"{m} -> {t}" for m, targets in graph().items() if stage(m) == "model"
            for t in targets if stage(t) == "runtime"}
    assert into == set()


def test_the_graph_sees_imports_inside_functions_and_type_checking(tmp_path):
    """The walk reads every import statement, not only the module's top lines."""
    text = ("from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from rulesdsl.model import ir\n"
            "def f():\n    from rulesdsl.checks.resolve import resolve\n")
    path = tmp_path / "probe.py"
    path.write_text(text, encoding="utf-8")
    known = module_names()
    assert imports_of("rulesdsl.language.probe", path, known) == {"rulesdsl.model.ir", "rulesdsl.checks.resolve"}
