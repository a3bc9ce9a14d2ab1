"""Numbered figures of a review's moves (:func:`miai.render.numbered.move_diagram`), for a game of
this server (drawn where its room is) and for an uploaded review (replayed and drawn in a worker
of the reviews' pool: the record may be long)."""

from __future__ import annotations

from miai.errors import ArgumentError, MiaiError
from miai.game import Game
from miai.render.numbered import MoveRange, move_diagram
from miai.server.compute.analysis import Position, replay

__all__ = ["diagram_svg", "review_diagram"]


def diagram_svg(game: Game, moves: str | None, first_number: str | None) -> str:
    """The SVG of ``moves`` of ``game`` (``FIRST-LAST``, ``FIRST-`` or one number; all moves
    without it), numbered from ``first_number`` if given. Raises :class:`ArgumentError` saying
    what is wrong with the range or the number."""
    total = len(game.moves)
    span = MoveRange.parse(moves, total) if moves is not None else MoveRange.within(1, total, total)
    number: int | None = None
    if first_number is not None:
        if not (first_number.isascii() and first_number.isdigit()) or len(first_number) > 6:
            raise ArgumentError(f"number must be a whole number from 1, not {first_number!r}")
        number = int(first_number)
    return move_diagram(game, span.first, span.last, first_number=number).svg()


def review_diagram(position: Position, moves: str | None, first_number: str | None) -> tuple[str, str]:
    """In a worker: ``("svg", text)`` for the figure of an uploaded review's ``moves``, or
    ``("error", message)`` for a range that is not one (or a record that no longer replays)."""
    try:
        return "svg", diagram_svg(replay(position), moves, first_number)
    except ArgumentError as e:
        return "error", str(e)
    except (MiaiError, Exception) as e:  # _AtMove: the record was read before, so hardly ever
        return "error", f"the record cannot be replayed: {e}"
