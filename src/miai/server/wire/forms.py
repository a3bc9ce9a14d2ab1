"""The JSON forms of the core's values on the wire: sets of points, a count's breakdown (a
colour is its own text form, ``str(color)`` and :meth:`Color.parse <miai.coords.Color.parse>`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from miai.board import Board
from miai.coords import Color, point_to_gtp
from miai.scoring import Score

__all__ = ["score_json", "territory_json", "vertices"]


def vertices(points: Iterable[tuple[int, int]]) -> list[str]:
    """Points as sorted GTP vertices (column, then row), the wire's form of a set of points."""
    return [point_to_gtp(p) for p in sorted(points, key=lambda p: (p[1], p[0]))]


def score_json(score: Score) -> dict[str, Any]:
    """A count's breakdown as JSON: per colour every part and the total, dame, dead stones, result."""

    def part(color: Color) -> dict[str, Any]:
        cs = score.of(color)
        out: dict[str, Any] = {f.name: getattr(cs, f.name) for f in fields(cs)}
        out["total"] = cs.total
        return out

    return {
        "scoring": score.scoring.value,
        "black": part(Color.BLACK),
        "white": part(Color.WHITE),
        "neutral": score.neutral,
        "dead": vertices(score.dead_stones),
        "result": str(score.result),
    }


def territory_json(score: Score, board: Board) -> dict[str, list[str]]:
    """The points a count gives each colour besides its living stones: the empty points it
    owns and the dead stones on them, for drawing the territory on the board."""
    owned: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
    for p in board:
        owner = score.owners[p[0]][p[1]]
        if owner in owned and (board[p] is None or p in score.dead_stones):
            owned[owner].append(p)
    return {"black": vertices(owned[1]), "white": vertices(owned[2])}
