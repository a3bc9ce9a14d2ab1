"""The game as ``GET /api/games/{id}`` answers it and a WebSocket's hello carries it: one view of
a room's game, record, clocks and marking (docs/SERVER.md §3)."""

from __future__ import annotations

from typing import Any, Protocol

from miai.clock import Clock
from miai.coords import Color, point_to_gtp
from miai.endgame import Marking
from miai.game import Game, Phase
from miai.server.compute.estimate import Suggestion
from miai.server.play.events import Event
from miai.server.play.seats import GameRecord
from miai.server.play.timing import clock_view
from miai.server.play.undo import request_json
from miai.server.records.export import seat_names
from miai.server.wire.forms import score_json, territory_json, vertices

__all__ = ["ViewedRoom", "game_state", "players"]


class ViewedRoom(Protocol):
    """What the view reads of a room."""

    game: Game
    record: GameRecord
    clock: Clock
    events: list[Event]

    @property
    def v(self) -> int: ...

    @property
    def suggestion(self) -> Suggestion | None: ...


def game_state(room: ViewedRoom) -> dict[str, Any]:
    """The game's whole state, as a page needs it to draw the game."""
    game, record = room.game, room.record
    finished = game.phase is Phase.FINISHED
    to_act = game.to_act
    ko = game.ko_point if game.phase is Phase.PLAY else None
    final = game.final_score if finished else None
    return {
        "id": record.id,
        "size": game.size,
        "rules": str(game.rules),
        "komi": game.komi,
        "handicap": game.handicap,
        "time": record.time_control,
        "black": record.black_kind,
        "white": record.white_kind,
        "players": players(record),
        "accounts": {str(c): record.user_id(c) is not None for c in (Color.BLACK, Color.WHITE)},
        "rated": record.rated,
        "phase": game.phase.value,
        "to_move": str(to_act) if to_act is not None else None,
        "v": room.v,
        "moves": [point_to_gtp(m.point) for m in game.moves],
        "captures": {"black": game.captures(Color.BLACK), "white": game.captures(Color.WHITE)},
        "stones": {"black": vertices(game.board.stones(Color.BLACK)), "white": vertices(game.board.stones(Color.WHITE))},
        "ko": point_to_gtp(ko) if ko is not None else None,
        "compensable": compensable(game),
        "result": str(game.result) if finished and game.result is not None else None,
        "end_reason": game.end_words if finished else None,
        "score": score_json(final) if final is not None else None,
        "territory": territory_json(final, game.board) if final is not None else None,
        "clocks": clock_view(room.clock),
        "marking": marking_state(game.marking, room.suggestion),
        "undo_request": request_json(room.events),
        "url": f"/g/{record.id}",
    }


def marking_state(marking: Marking | None, suggestion: Suggestion | None) -> dict[str, Any] | None:
    """The marking phase: who passed first, who acts, the pending proposal, the estimate."""
    if marking is None:
        return None
    pending = marking.pending
    return {
        "first": str(marking.first),
        "to_act": str(marking.to_act),
        "expected": marking.expected,
        "pending": (
            {"by": str(pending.by), "dead": vertices(pending.dead), "seki": vertices(pending.seki)}
            if pending is not None
            else None
        ),
        "suggested": suggestion.to_json() if suggestion is not None else None,
    }


def compensable(game: Game) -> dict[str, list[str]] | None:
    """The §5.8 compensable areas of resumed play (docs/RULES.md), for the page to show; None
    when no resumed play is going on."""
    areas = game.compensable_areas if game.phase is Phase.PLAY else {}
    if not any(areas.values()):
        return None
    return {str(c): vertices(points) for c, points in areas.items()}


def players(record: GameRecord) -> dict[str, str | None]:
    """The players' names: the display names on the human seats (None where nobody with a
    session took it yet), ``miai level N`` for a computer seat; as the SGF's PB/PW."""
    names = seat_names(record)
    return {"black": names.get(Color.BLACK), "white": names.get(Color.WHITE)}
