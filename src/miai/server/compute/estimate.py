"""The dead-stone estimate for a marking phase (computed in a worker process, see
:mod:`miai.server.compute.workers`): the first passer's starting proposal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from miai.game import GameSpec
from miai.server.play.events import EventKind, rebuild
from miai.server.wire.forms import vertices

__all__ = ["Suggestion", "estimate_dead_stones"]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The computer's estimate of the dead (and seki) stones, offered to the first passer as
    the starting proposal of the marking phase that opened at version ``v``."""

    v: int
    dead: tuple[str, ...]
    seki: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"v": self.v, "dead": list(self.dead), "seki": list(self.seki)}


def estimate_dead_stones(
    spec: tuple[int, str, int], events: list[tuple[str, dict[str, Any]]], seed: int = 0
) -> tuple[list[str], list[str]]:
    """In a worker: the game rebuilt from ``events``, and its estimated dead and seki stones."""
    from miai.ai.status import estimate_status

    game = rebuild(GameSpec.from_text(*spec), [(EventKind(k), p) for k, p in events])
    estimate = estimate_status(game, seed=seed)
    return vertices(estimate.dead), vertices(estimate.seki)
