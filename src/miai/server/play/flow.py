"""Which code carries out an action: the rules' own steps (:mod:`miai.server.play.actions`), an undo
request or answer (:mod:`miai.server.play.undo`), or a claim (:mod:`miai.server.play.claims`).

The room calls :func:`carry_out` on a copy of its game for every action, a person's or a
computer's; an action other than an undo answer that follows a pending undo request cancels it,
and its event's payload says so (``cancels_undo``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from miai.clock import TimeControl
from miai.coords import Color
from miai.errors import IllegalMoveError, MiaiError
from miai.game import Game
from miai.server.config import ServerConfig
from miai.server.errors import ApiError, IllegalAction, WireReason, illegal
from miai.server.play.actions import Action, ActionKind, apply_action
from miai.server.play.claims import Attendance, claim
from miai.server.play.events import Event, EventKind
from miai.server.play.seats import GameRecord, human_seats
from miai.server.play.undo import answer_undo, cancelling, request_undo

__all__ = ["RoomView", "carry_out", "human_seats"]

log = logging.getLogger("miai.server")


class RoomView(Protocol):
    """What :func:`carry_out` reads of a room."""

    events: list[Event]
    record: GameRecord
    config: ServerConfig

    def now_ms(self) -> int: ...

    @property
    def attendance(self) -> Attendance: ...

    def connected(self) -> set[Color]: ...


def carry_out(room: RoomView, game: Game, seat: Color, action: Action) -> tuple[EventKind, dict[str, Any]]:
    """Carry out ``action`` for ``seat`` on ``game`` (a copy of the room's: it is changed);
    returns the event's kind and payload. Every refusal is an :class:`~miai.server.errors.IllegalAction`
    (a 422): the rules' with their reason, and one the core makes that no check before it
    caught (``cannot-apply``, logged: a bug, or a value that should have been refused earlier)."""
    try:
        return _carry_out(room, game, seat, action)
    except IllegalMoveError as e:
        raise illegal(e) from None
    except ApiError:
        raise
    except MiaiError as e:
        log.error("game %s: %s by %s refused by the rules core: %s", room.record.id, action.kind.value, seat.name, e)
        raise IllegalAction(f"the {action.kind.value} cannot be carried out: {e}", reason=WireReason.CANNOT_APPLY) from None


def _carry_out(room: RoomView, game: Game, seat: Color, action: Action) -> tuple[EventKind, dict[str, Any]]:
    events: Sequence[Event] = room.events
    if action.kind is ActionKind.UNDO:
        free = seat.opponent not in human_seats(room.record)
        return request_undo(game, seat, events, free=free)
    if action.kind is ActionKind.UNDO_ANSWER:
        return answer_undo(game, seat, events, bool(action.accept))
    if action.kind is ActionKind.CLAIM:
        kind, payload = claim(
            game,
            seat,
            attendance=room.attendance,
            connected=room.connected(),
            humans=human_seats(room.record),
            now=room.now_ms(),
            abandon_ms=room.config.abandon_ms,
            correspondence=TimeControl.parse(room.record.time_control).correspondence,
        )
    else:
        kind, payload = apply_action(game, seat, action)
    return kind, cancelling(events, payload)
