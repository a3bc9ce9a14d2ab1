"""Strict downward layering (ARCHITECTURE.md): the core imports no protocol, AI or app; the AI
imports no protocol or app; the protocols import no app (the command line or the server); the
learners (miai.learn, over the records and the AI) and the server's client (miai.client, over the
core alone) are imported by the apps only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "miai"
CORE = ["errors", "coords", "rules", "handicap", "board", "game", "scoring", "endgame", "life", "regions", "result", "clock", "_kernel"]
UPPER = ("miai.gtp", "miai.cli", "miai.sgf", "miai.render", "miai.ai", "miai.match", "miai.server", "miai.learn", "miai.client")
APPS = ("miai.cli", "miai.server")
FOR_APPS = ("miai.learn", "miai.client", *APPS)
FORBIDDEN_ABOVE_CORE = {
    "ai": ("miai.gtp", "miai.match", "miai.sgf", *FOR_APPS),
    "gtp": ("miai.match", *FOR_APPS),
    "sgf": ("miai.gtp", "miai.match", "miai.ai", *FOR_APPS),
    "render": ("miai.gtp", "miai.match", "miai.ai", *FOR_APPS),
    "match": FOR_APPS,
    "learn": ("miai.gtp", "miai.match", "miai.render", "miai.client", *APPS),
    "client": ("miai.gtp", "miai.match", "miai.sgf", "miai.render", "miai.ai", "miai.learn", *APPS),
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
            assert root in {"numpy", "numba", "__future__", "hashlib", "pathlib", "math"} or name.startswith("miai._kernel"), (
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
