"""Strict downward layering (ARCHITECTURE.md): the core imports no protocol, AI or app; the AI
imports no protocol or app; the protocols import no app (the command line or the server); the
learners (miai.train, over the records and the AI) and the server's client (miai.client, over the
core alone) are imported by the apps only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "miai"
CORE = ["errors", "coords", "rules", "handicap", "ratings", "board", "game", "scoring", "endgame", "life", "regions", "result", "clock", "timesource", "_kernel"]
UPPER = ("miai.gtp", "miai.cli", "miai.sgf", "miai.render", "miai.ai", "miai.match", "miai.server", "miai.train", "miai.client", "miai.lessons", "miai.problems")
APPS = ("miai.cli", "miai.server")
FOR_APPS = ("miai.train", "miai.client", *APPS)
FORBIDDEN_ABOVE_CORE = {
    "ai": ("miai.gtp", "miai.match", "miai.sgf", *FOR_APPS),
    "gtp": ("miai.match", *FOR_APPS),
    "sgf": ("miai.gtp", "miai.match", "miai.ai", *FOR_APPS),
    "render": ("miai.gtp", "miai.match", "miai.ai", *FOR_APPS),
    "match": FOR_APPS,
    "lessons": ("miai.gtp", "miai.match", "miai.sgf", "miai.render", "miai.ai", "miai.problems", *FOR_APPS),
    "problems": ("miai.gtp", "miai.match", "miai.render", "miai.ai", "miai.lessons", *FOR_APPS),
    "train": ("miai.gtp", "miai.match", "miai.render", "miai.client", *APPS),
    "client": ("miai.gtp", "miai.match", "miai.sgf", "miai.render", "miai.ai", "miai.train", *APPS),
}


def within(name: str, packages: tuple[str, ...]) -> bool:
    """``name`` is one of ``packages`` or inside one (``miai.client`` is not inside ``miai.cli``)."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", CORE)
def test_core_imports_nothing_above_it(module):
    paths = list((SRC / module).rglob("*.py")) if (SRC / module).is_dir() else [SRC / f"{module}.py"]
    for path in paths:
        bad = sorted(i for i in imports_of(path) if within(i, UPPER))
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_kernel_imports_only_numpy_numba_and_itself():
    for path in (SRC / "_kernel").rglob("*.py"):
        for name in imports_of(path):
            root = name.split(".")[0]
            assert root in {"numpy", "numba", "__future__", "hashlib", "pathlib", "math", "typing"} or name.startswith("miai._kernel"), (
                f"{path.name} imports {name}"
            )


@pytest.mark.parametrize("package", sorted(FORBIDDEN_ABOVE_CORE))
def test_upper_layers_import_only_downwards(package):
    forbidden = FORBIDDEN_ABOVE_CORE[package]
    paths = list((SRC / package).rglob("*.py")) if (SRC / package).is_dir() else [SRC / f"{package}.py"]
    assert all(p.exists() for p in paths) and paths, f"no module miai.{package}"
    for path in paths:
        bad = sorted(i for i in imports_of(path) if within(i, forbidden))
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_nothing_in_the_package_imports_the_testing_helpers():
    for path in SRC.rglob("*.py"):
        if path.is_relative_to(SRC / "testing"):
            continue
        bad = sorted(i for i in imports_of(path) if i.startswith("miai.testing"))
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


SERVER_LAYERS: list[tuple[str, ...]] = [
    ("errors", "config", "timekeeper", "gcpause"),
    ("wire",),
    ("play",),
    ("storage",),
    ("people", "records"),
    ("compute",),
    ("rooms",),
    ("cluster",),
    ("state",),
    ("web",),
    ("app",),
]
"""The server's parts from the bottom up (ARCHITECTURE.md): each imports only from its own part
and the layers below it, never from a layer above or from another part of its own layer."""
SERVER_RANK = {part: rank for rank, parts in enumerate(SERVER_LAYERS) for part in parts}


def server_part(module: str) -> str | None:
    """The part of the server a module belongs to (``miai.server.play.events`` -> ``play``)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["miai", "server"] else None


def server_modules() -> list[tuple[str, Path]]:
    """Every module of ``miai.server`` but the package itself, with its part."""
    found = []
    for path in sorted((SRC / "server").rglob("*.py")):
        rel = path.relative_to(SRC / "server")
        if rel == Path("__init__.py") or "static" in rel.parts:
            continue
        found.append((rel.parts[0].removesuffix(".py"), path))
    return found


def test_every_server_module_is_in_a_layer():
    assert {part for part, _ in server_modules()} <= set(SERVER_RANK)


@pytest.mark.parametrize("part", sorted(SERVER_RANK))
def test_server_parts_import_only_downwards(part):
    for own, path in server_modules():
        if own != part:
            continue
        for name in imports_of(path):
            other = server_part(name)
            if other is None or other == part:
                continue
            assert other in SERVER_RANK, f"{path.relative_to(SRC)} imports {name}, in no layer"
            assert SERVER_RANK[other] < SERVER_RANK[part], (
                f"{path.relative_to(SRC)} ({part}) imports {name} ({other}): not a layer below"
            )


def test_no_more_than_a_dozen_modules_at_the_top_of_the_server():
    top = [p.name for p in (SRC / "server").glob("*.py")]
    assert len(top) <= 12, top
