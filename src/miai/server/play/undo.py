"""Undo by request and answer (docs/SERVER.md §3.3): who asked, which moves, and the answer.

A seat asks to take back its own last move. If the opponent has already replied, both moves go,
so that the one who asked is to move again. The request is an event (``undo-request``) that
names who asked and the move numbers that would go; the other seat accepts it (an ``undo``
event that calls :meth:`miai.Game.undo` once per move: the core's own undo, no history of our
own) or refuses it (``undo-refused``). Nobody answers a request of their own, and nobody takes
back a move for the other seat.

A request is pending while it is the game's last event: the answer must quote its version, and
any other event that follows cancels it. The event written by an action that cancels a pending
request says so: its payload carries ``cancels_undo`` (the version of the request), so a client
need not work it out.

Against a computer seat, undo is free: the request takes effect at once as an ``undo`` event
(``free: true``), taking back the computer's reply too, so the person is to move again. A
computer answer being thought about for the old version is dropped by the room, as every answer
for a stale version is.

Undo is only for the play phase, and only of plain moves: play that resumed after a refusal in
the marking phase cannot be taken back past the resumption (the dead-stone agreement is not
reopened by an undo).

A seat asks at most :data:`MAX_UNDO_REQUESTS` times to take back the same move (its move
number), granted or not, free or not: a request and an answer in a loop wrote 15,000 events to
one game in 46 s; now a game's events stay a few per move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miai.coords import Color, Move, point_to_gtp
from miai.game import Game, Phase
from miai.server.errors import IllegalAction, WireReason
from miai.server.play.events import Event, EventKind
from miai.server.wire.forms import vertices

__all__ = ["MAX_UNDO_REQUESTS", "answer_undo", "cancelling", "moves_to_take_back", "pending_request", "request_json", "request_undo"]


MAX_UNDO_REQUESTS = 3
"""How many times a seat may ask to take back the same move (docs/SERVER.md §3.3)."""


def _name(color: Color) -> str:
    return str(color).capitalize()


def pending_request(events: Sequence[Event]) -> Event | None:
    """The pending undo request: the last event, when it is an ``undo-request``."""
    if events and events[-1].kind is EventKind.UNDO_REQUEST:
        return events[-1]
    return None


def request_json(events: Sequence[Event]) -> dict[str, Any] | None:
    """The pending request as the game's state shows it: ``{"by", "moves", "v"}``, or None."""
    pending = pending_request(events)
    if pending is None:
        return None
    return {"by": pending.payload["color"], "moves": list(pending.payload["moves"]), "v": pending.v}


def moves_to_take_back(game: Game, seat: Color) -> list[int]:
    """The move numbers (1 = the game's first move) an undo asked by ``seat`` would take back:
    its last move, and the opponent's reply if there is one. Raises :class:`IllegalAction`
    saying why when there is nothing of ``seat``'s to take back."""
    if game.phase is not Phase.PLAY:
        raise IllegalAction(
            f"moves can be taken back only in the play phase, not in the {game.phase.value} phase",
            reason=WireReason.WRONG_PHASE,
        )
    mine = [seat] if game.to_move is not seat else [seat, seat.opponent]
    tail = game.history[-len(mine) :] if len(game.history) >= len(mine) else []
    if not tail or not all(isinstance(e, Move) and e.color is c for e, c in zip(tail, mine)):
        if any(not isinstance(e, Move) for e in tail):
            why = "play resumed after the marking phase since then, and an undo does not reopen it"
        else:
            why = f"{_name(seat)} has no move to take back"
        raise IllegalAction(f"nothing to undo: {why}", reason=WireReason.NOTHING_TO_UNDO)
    last = game.move_number
    return list(range(last - len(mine) + 1, last + 1))


def requests_for(events: Sequence[Event], seat: Color, move: int) -> int:
    """How many times ``seat`` has asked to take back its move number ``move``: its requests,
    and its free undos against a computer."""
    color = str(seat)
    asked = 0
    for e in events:
        requested = e.kind is EventKind.UNDO_REQUEST and e.payload["color"] == color
        free = e.kind is EventKind.UNDO and e.payload.get("free") and e.payload["requested_by"] == color
        if (requested or free) and e.payload["moves"][0] == move:
            asked += 1
    return asked


def _position(game: Game) -> dict[str, Any]:
    """What a client needs to show the position after an undo, without any rules of its own."""
    ko = game.ko_point
    return {
        "to_move": str(game.to_move),
        "stones": {str(c): vertices(game.board.stones(c)) for c in Color},
        "captures": {str(c): game.captures(c) for c in Color},
        "ko": point_to_gtp(ko) if ko is not None else None,
    }


def _take_back(game: Game, moves: list[int]) -> None:
    for _ in moves:
        game.undo()


def request_undo(
    game: Game, seat: Color, events: Sequence[Event], *, free: bool
) -> tuple[EventKind, dict[str, Any]]:
    """``seat`` asks to take back its last move(s) on ``game`` (a copy: changed when ``free``).
    ``free``: the opponent is a computer, and the undo takes effect at once."""
    pending = pending_request(events)
    if pending is not None:
        by = Color.parse(pending.payload["color"])
        if by is seat:
            message = "you already asked to take back moves: wait for the answer"
        else:
            message = f"{_name(by)} asked to take back moves {pending.payload['moves']}: answer that request first"
        raise IllegalAction(message, reason=WireReason.UNDO_PENDING, request_v=pending.v)
    moves = moves_to_take_back(game, seat)
    if requests_for(events, seat, moves[0]) >= MAX_UNDO_REQUESTS:
        raise IllegalAction(
            f"{_name(seat)} already asked {MAX_UNDO_REQUESTS} times to take back move {moves[0]}: play on",
            reason=WireReason.UNDO_LIMIT,
            limit=MAX_UNDO_REQUESTS,
        )
    color = str(seat)
    if not free:
        return EventKind.UNDO_REQUEST, {"color": color, "moves": moves}
    _take_back(game, moves)
    return EventKind.UNDO, {"color": color, "requested_by": color, "moves": moves, "free": True, **_position(game)}


def answer_undo(
    game: Game, seat: Color, events: Sequence[Event], accept: bool
) -> tuple[EventKind, dict[str, Any]]:
    """``seat`` answers the pending request of the other seat on ``game`` (a copy: changed
    when the answer is yes)."""
    pending = pending_request(events)
    if pending is None:
        raise IllegalAction("there is no undo request to answer", reason=WireReason.NO_UNDO_REQUEST)
    by = Color.parse(pending.payload["color"])
    if by is seat:
        raise IllegalAction(
            f"{_name(seat)} asked for this undo: only {_name(seat.opponent)} can answer it", reason=WireReason.OWN_REQUEST
        )
    moves = list(pending.payload["moves"])
    common = {"color": str(seat), "requested_by": str(by), "moves": moves, "request_v": pending.v}
    if not accept:
        return EventKind.UNDO_REFUSED, common
    _take_back(game, moves)
    return EventKind.UNDO, {**common, "free": False, **_position(game)}


def cancelling(events: Sequence[Event], payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` of an event that follows ``events`` (other than an answer), marked with the
    version of the undo request it cancels, if one is pending."""
    pending = pending_request(events)
    return payload if pending is None else {**payload, "cancels_undo": pending.v}
