"""GNU Go's questions about the position, which controllers ask to draw and check the board.

Kigo shows its stones from ``list_stones black|white``; qgo, GoGui and others ask the
rest. Each answer has the format GNU Go 3.8 gives (``tests/gtp/test_gnugo.py``
checks them against GNU Go on the same positions):

============================  ==========================================================
``query_boardsize``           ``19``
``get_komi``                  ``6.5`` (one decimal at least: ``7.0``, ``0.25``)
``list_stones COLOR``         ``D16 Q16 D4``: top row first, left to right
``captures COLOR``            ``3``: stones that colour has captured
``is_legal COLOR VERTEX``     ``1`` or ``0``
``all_legal COLOR``           every point where that colour may play, in the same order
                              (no ``pass``; nothing once the game is over)
``move_history``              one ``color VERTEX`` line per move, the last move first
                              (``white PASS``); handicap and setup stones are not moves
============================  ==========================================================

``is_legal`` and ``all_legal`` answer what ``play`` would accept: after two passes a
``play`` resumes the game, so they are asked of the game resumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from miai.coords import Move, point_to_gtp
from miai.game import Phase
from miai.gtp import words
from miai.gtp.protocol import Handler, bound
from miai.gtp.state import GtpState
from miai.gtp.words import expect, gtp_vertices

if TYPE_CHECKING:  # pragma: no cover
    from miai.game import Game


def commands(state: GtpState) -> list[tuple[str, Handler]]:
    """The handlers of this module, bound to ``state`` (the engine), for its dispatcher."""
    return bound(state, query_boardsize, get_komi, list_stones, captures, is_legal, all_legal, move_history)


def query_boardsize(state: GtpState, args: Sequence[str]) -> str:
    """``query_boardsize``: the size of the board (of the game, or of the next one)."""
    expect(args, 0, "no arguments")
    return str(state.size)


def get_komi(state: GtpState, args: Sequence[str]) -> str:
    """``get_komi``: the komi in effect."""
    expect(args, 0, "no arguments")
    return format_komi(state.rules.komi)


def format_komi(komi: float) -> str:
    """Komi as GNU Go writes it, one decimal at least (``6.5``, ``7.0``, ``-3.0``), but
    never rounded (``0.25``): miai accepts any komi.

    >>> format_komi(6.5), format_komi(7), format_komi(0.25)
    ('6.5', '7.0', '0.25')
    """
    text = f"{komi:.1f}"
    return text if float(text) == komi else repr(float(komi))


def list_stones(state: GtpState, args: Sequence[str]) -> str:
    """``list_stones COLOR``: the stones of that colour on the board."""
    expect(args, 1, "list_stones <color>")
    color = words.color(args[0])
    return gtp_vertices(state.game.board.stones(color))


def captures(state: GtpState, args: Sequence[str]) -> str:
    """``captures COLOR``: the number of stones that colour has captured."""
    expect(args, 1, "captures <color>")
    color = words.color(args[0])
    return str(state.game.captures(color))


def is_legal(state: GtpState, args: Sequence[str]) -> str:
    """``is_legal COLOR VERTEX``: ``1`` if ``play COLOR VERTEX`` would be accepted, else ``0``."""
    expect(args, 2, "is_legal <color> <vertex>")
    move = Move(words.color(args[0]), words.vertex(args[1], state.size))
    return "1" if _as_play_finds_it(state.game).is_legal(move) else "0"


def all_legal(state: GtpState, args: Sequence[str]) -> str:
    """``all_legal COLOR``: the points where that colour may play now."""
    expect(args, 1, "all_legal <color>")
    color = words.color(args[0])
    return gtp_vertices(_as_play_finds_it(state.game).legal_moves(color))


def move_history(state: GtpState, args: Sequence[str]) -> str:
    """``move_history``: the moves played, the last one first."""
    expect(args, 0, "no arguments")
    lines = [f"{move.color} {point_to_gtp(move.point).upper()}" for move in reversed(state.game.moves)]
    return "\n".join(lines)


def _as_play_finds_it(game: Game) -> Game:
    """``game``, or after two passes a resumed copy of it: ``play`` resumes the game then."""

    if game.phase is Phase.MARKING:
        resumed = game.copy()
        resumed.resume()
        return resumed
    return game
