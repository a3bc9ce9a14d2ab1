"""The JSON forms of the core's values on the wire: sets of points, a count's breakdown (a
colour is its own text form, ``str(color)`` and :meth:`Color.parse <miai.coords.Color.parse>`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from miai.coords import Color, point_to_gtp
from miai.scoring import Score

__all__ = ["score_json", "vertices"]


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
