"""The core never imports protocols, AI or apps (ARCHITECTURE.md: strict downward layering)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "miai"
CORE = ["errors", "coords", "rules", "handicap", "board", "game", "scoring", "endgame", "life", "regions", "result", "_kernel"]
UPPER = ("miai.gtp", "miai.cli", "miai.sgf", "miai.render", "miai.ai", "miai.server")


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
        bad = sorted(i for i in imports_of(path) if i.startswith(UPPER))
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_kernel_imports_only_numpy_numba_and_itself():
    for path in (SRC / "_kernel").rglob("*.py"):
        for name in imports_of(path):
            root = name.split(".")[0]
            assert root in {"numpy", "numba", "__future__", "hashlib", "pathlib", "math"} or name.startswith("miai._kernel"), (
                f"{path.name} imports {name}"
            )
