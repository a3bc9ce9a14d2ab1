"""A game's position counted with the stones a page marks dead (the live count of the marking
phase), and the computer's estimate of the score during play (docs/SERVER.md §3.7): both counted
by the game's own rules (:meth:`miai.game.Game.score`), with the territory to draw."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from miai.endgame import whole_chains
from miai.errors import IllegalMoveError
from miai.game import Game, GameSpec, Phase
from miai.server.compute.workers import Workers
from miai.server.errors import Busy, IllegalAction, WireReason, illegal
from miai.server.play.actions import board_points
from miai.server.play.events import Event
from miai.server.wire.forms import score_json, territory_json, vertices

__all__ = ["CountedRoom", "count_marked", "estimate_score"]


class CountedRoom(Protocol):
    game: Game
    events: list[Event]
    spec: GameSpec

    @property
    def v(self) -> int: ...


def counted(game: Game, dead: Sequence[str], seki: Sequence[str] = ()) -> dict[str, Any]:
    """The count of ``game``'s position with the chains of ``dead`` removed and ``seki`` given."""
    try:
        chains = whole_chains(game.board, board_points(tuple(dead), game.size))
        score = game.score(chains, seki=board_points(tuple(seki), game.size))
    except IllegalMoveError as e:
        raise illegal(e) from None
    return {
        "dead": vertices(chains),
        "score": score_json(score),
        "territory": territory_json(score, game.board),
    }


def count_marked(room: CountedRoom, dead: Sequence[str], seki: Sequence[str]) -> dict[str, Any]:
    """The count of the room's position with ``dead`` marked, at its version ``v``."""
    return {"v": room.v, **counted(room.game, dead, seki)}


async def estimate_score(room: CountedRoom, workers: Workers | None) -> dict[str, Any]:
    """The computer's view of the score now, in play: its dead stones and the count with them;
    :class:`~miai.server.errors.Busy` when no worker is free (nothing waits for it)."""
    game = room.game
    if game.phase is not Phase.PLAY:
        raise IllegalAction("the score is estimated during play", reason=WireReason.WRONG_PHASE)
    if workers is None:
        raise Busy("this server estimates no score")
    v, game = room.v, game.copy()
    dead, seki = await workers.estimate(room.spec, [(e.kind.value, e.payload) for e in room.events])
    return {"v": v, "seki": seki, **counted(game, dead, seki)}
