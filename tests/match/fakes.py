"""Engines for the referee's tests: scripted fake players and the fuzzing's misbehaving
engines, run as real subprocesses."""

from __future__ import annotations

import sys
from pathlib import Path

from miai.match import EngineSpec, GameResult, Match, MatchConfig

FAKE = [sys.executable, str(Path(__file__).with_name("fake_player.py"))]
FUZZ = [sys.executable, str(Path(__file__).parents[1] / "data" / "fuzz" / "fake_engine.py")]


def fake(label: str, script: str, *options: str) -> EngineSpec:
    return EngineSpec((*FAKE, "--script", script, "--name", label, *options), label)


def fuzz(label: str, mode: str, n: int = 1) -> EngineSpec:
    """An engine from the fuzzing of the referee that misbehaves at its ``n``-th genmove."""
    return EngineSpec((*FUZZ, mode, str(n)), label)


def play(tmp_path: Path, a: EngineSpec, b: EngineSpec, **kwargs) -> list[GameResult]:
    kwargs.setdefault("games", 1)
    kwargs.setdefault("size", 9)
    kwargs.setdefault("move_timeout", 10.0)
    config = MatchConfig((a, b), **kwargs)
    return Match(config, tmp_path / "out").run()
