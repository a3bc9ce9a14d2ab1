"""The shape of the code (ARCHITECTURE.md): no import cycle in ``miai``, counting every
import (top level, inside functions, under ``TYPE_CHECKING``), and no function or method
over 100 lines (from its ``def`` line to the last line of its body, decorators excluded)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "miai"
MAX_FUNCTION_LINES = 100

# empty since the restructuring (#38) split the kernel's last two (light.useless_sacrifice, tree.expand)
PENDING_LONG_FUNCTIONS: set[str] = set()
"""Functions over the limit known today (qualified names), which the check lets pass."""


# ---------------------------------------------------------------------- the import graph
@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of a source file (read once for all the checks)."""
    return ast.parse(path.read_text(), str(path))


def module_name(path: Path, src: Path = SRC) -> str:
    """The dotted name of the module in ``path`` (a package's ``__init__.py`` is the package)."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}


def imported_names(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` in ``path`` imports anywhere in its
    text: relative imports resolved, ``from pkg import sub`` read as an import of the
    submodule ``pkg.sub`` when there is one (else of ``pkg``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    targets = {_nearest_module(imported, known) for imported in found}
    return {target for target in targets if target is not None and target != name}


def _nearest_module(name: str, known: set[str]) -> str | None:
    """``name``, or the closest enclosing package of it that is a module of ``known``."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package with the modules of the package it imports."""
    found = modules(package)
    known = set(found)
    return {name: imported_names(path, name, known) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def a_cycle(graph: dict[str, set[str]], component: frozenset[str]) -> list[str]:
    """One shortest loop through the component's first module, to show in a failure."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & component):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not a cycle")  # pragma: no cover


# ---------------------------------------------------------------------- function lengths
def functions(path: Path, name: str) -> Iterator[tuple[str, int]]:
    """Every function and method in ``path`` with its qualified name and its length in lines
    (from the ``def`` line to the end of the body, decorators excluded)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qualified = f"{prefix}.{child.name}"
                yield qualified, (child.end_lineno or child.lineno) - child.lineno + 1
                yield from walk(child, f"{qualified}.<locals>")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}.{child.name}")
            else:
                yield from walk(child, prefix)

    yield from walk(parsed(path), name)


def long_functions(package: Path = PACKAGE) -> dict[str, int]:
    """The functions of the package over :data:`MAX_FUNCTION_LINES`, with their lengths."""
    return {
        qualified: length
        for name, path in modules(package).items()
        for qualified, length in functions(path, name)
        if length > MAX_FUNCTION_LINES
    }


# ---------------------------------------------------------------------- the tests
def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(
        f"{', '.join(sorted(c))} (for one: {' -> '.join(a_cycle(graph, c))})" for c in found
    )


def test_no_function_over_100_lines():
    found = {name: length for name, length in long_functions().items() if name not in PENDING_LONG_FUNCTIONS}
    assert not found, "over 100 lines: " + ", ".join(f"{name} ({length} lines)" for name, length in sorted(found.items()))


def test_pending_long_functions_are_still_long():
    current = long_functions()
    stale = sorted(PENDING_LONG_FUNCTIONS - set(current))
    assert not stale, f"gone or no longer over 100 lines, remove them from PENDING_LONG_FUNCTIONS: {stale}"


# ---------------------------------------------------------------------- the checks can fail
def test_the_cycle_check_sees_imports_in_functions_and_under_type_checking(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "engine.py").write_text("from pkg import group\n")
    (package / "group.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .engine import Engine\n")
    (package / "late.py").write_text("def f():\n    import pkg.engine\n")
    (package / "low.py").write_text("")
    (package / "uses.py").write_text("from . import low\nfrom pkg.low import x\n")
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("from .deep import y\n")
    (package / "sub" / "deep.py").write_text("from .. import low\nfrom ..uses import z\n")
    graph = import_graph(package)
    assert graph["pkg.group"] == {"pkg.engine"} and graph["pkg.late"] == {"pkg.engine"}
    assert graph["pkg.uses"] == {"pkg.low"}
    assert graph["pkg.sub"] == {"pkg.sub.deep"} and graph["pkg.sub.deep"] == {"pkg.low", "pkg.uses"}
    assert cycles(graph) == [frozenset({"pkg.engine", "pkg.group"})]
    assert a_cycle(graph, cycles(graph)[0]) == ["pkg.engine", "pkg.group", "pkg.engine"]


def test_the_length_check_counts_from_the_def_line_to_the_end_of_the_body(tmp_path):
    def body(count: int, indent: str) -> str:
        return "".join(f"{indent}x{i} = {i}\n" for i in range(count))

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "@decorator\ndef fits():\n" + body(99, "    ")  # 100 lines: the decorator is not counted
        + "def long():\n" + body(100, "    ")
        + "class C:\n    def method(self):\n        def inner():\n" + body(100, "            ")
    )
    assert long_functions(package) == {"pkg.long": 101, "pkg.C.method": 102, "pkg.C.method.<locals>.inner": 101}
