"""The server is an apps-layer package: only it, ``miai serve`` and the helpers of tests and
benchmarks (``miai.testing``) import it, and it imports no other app (ARCHITECTURE.md: strict
downward layering)."""

from __future__ import annotations

from pathlib import Path

from tests.test_layers import imports_of

SRC = Path(__file__).resolve().parents[2] / "src" / "miai"


def test_nothing_below_the_server_imports_it():
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(("server/", "testing/")) or rel == "cli/serve.py":  # testing/: for tests and benchmarks only
            continue
        bad = sorted(i for i in imports_of(path) if i == "miai.server" or i.startswith("miai.server."))
        assert not bad, f"{rel} imports {bad}"


ALLOWED = {"miai.render.numbered"}
"""The numbered figures of docs/SERVER.md §4.3: a pure function from a Game to SVG, as the SGF
writer is; the server imports nothing else of render and nothing of cli or gtp."""


def test_the_server_imports_no_other_app():
    for path in (SRC / "server").rglob("*.py"):
        bad = sorted(
            i for i in imports_of(path) if i.startswith(("miai.cli", "miai.gtp", "miai.render")) and i not in ALLOWED
        )
        assert not bad, f"server/{path.relative_to(SRC / 'server')} imports {bad}"
