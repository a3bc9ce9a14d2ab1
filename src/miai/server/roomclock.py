"""What a room does with its clocks besides :func:`~miai.server.timing.step`: its two timers,
the events the server writes on its own (a flag, the marking timer's steps, the note of a
restart) and the answer to an action that came too late (docs/SERVER.md §1.5).

The room (:mod:`miai.server.room`) owns one :class:`RoomTimers` and runs what the timers set
off as jobs of its inbox, so they are serialized with the players' actions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from miai.clock import Clock
from miai.coords import Color
from miai.endgame import Marking
from miai.game import Game
from miai.server.actions import Action, ActionKind
from miai.server.errors import IllegalAction
from miai.server.estimate import Suggestion
from miai.server.events import Event, EventKind, color_name
from miai.server.timekeeper import Handle, Timekeeper, Wake
from miai.server.timing import clock_view

__all__ = [
    "MARKING_TIMER",
    "RoomTimers",
    "SERVER_RESTART",
    "clock_event",
    "lose_on_time",
    "marking_timeout_actions",
    "out_of_time",
    "stamp",
]

MARKING_TIMER = "marking-timer"
"""The ``auto`` field of the events the marking timer writes on a player's behalf."""
SERVER_RESTART = "server-restart"
"""The ``reason`` of the ``clock`` event a room writes when it takes over a running clock."""


class RoomTimers:
    """A room's flag timer and marking timer: each set again (or cleared) after every event."""

    def __init__(self, timekeeper: Timekeeper):
        self.timekeeper = timekeeper
        self._flag: Handle | None = None
        self._marking: Handle | None = None
        self.flag_at: int | None = None
        """When the flag timer fires (monotonic ms), if it is set."""
        self.marking_at: int | None = None
        """When the marking timer fires, if it is set."""

    @property
    def active(self) -> bool:
        """A timer is set: the room must stay loaded, or nothing would fire it."""
        return self.flag_at is not None or self.marking_at is not None

    def set_flag(self, at_ms: int | None, wake: Wake) -> None:
        if self._flag is not None:
            self._flag.cancel()
        self._flag, self.flag_at = None, at_ms
        if at_ms is not None:
            self._flag = self.timekeeper.call_at(at_ms, wake)

    def set_marking(self, at_ms: int | None, wake: Wake) -> None:
        if self._marking is not None:
            self._marking.cancel()
        self._marking, self.marking_at = None, at_ms
        if at_ms is not None:
            self._marking = self.timekeeper.call_at(at_ms, wake)

    def cancel(self) -> None:
        for handle in (self._flag, self._marking):
            if handle is not None:
                handle.cancel()
        self._flag = self._marking = None
        self.flag_at = self.marking_at = None


def stamp(events: list[Event], clock: Clock) -> list[Event]:
    """The events with the clocks after them in their payloads (``clock``), in a timed game."""
    if clock.control.unlimited:
        return events
    view = clock_view(clock)
    return [replace(e, payload={**e.payload, "clock": view}) for e in events]


def lose_on_time(game: Game, clock: Clock) -> tuple[Game, dict[str, Any]]:
    """The game after ``clock.flagged`` lost on time (a copy) and the ``flag`` event's payload."""
    loser = clock.flagged
    assert loser is not None
    after = game.copy()
    result = after.lose_on_time(loser)
    return after, {"color": color_name(loser), "result": str(result)}


def out_of_time(loser: Color, result: str | None, v: int) -> IllegalAction:
    """The answer to an action that arrived once ``loser``'s time had run out: refused, the
    game being over on time (the ``flag`` event is at version ``v``)."""
    name = color_name(loser).capitalize()
    return IllegalAction(
        f"{name}'s time ran out before this arrived: the game is over on time ({result})",
        reason="out-of-time",
        result=result,
        v=v,
    )


def marking_timeout_actions(marking: Marking, suggestion: Suggestion | None) -> list[tuple[Color, Action]]:
    """What the marking timer does when a marking phase stalls: the pending proposal is
    accepted by the player who should answer it; with none, the computer's estimate (or,
    without one, every stone alive) stands as the first passer's proposal and is accepted
    by the other player."""
    if marking.pending is not None:
        return [(marking.to_act, Action(ActionKind.ACCEPT))]
    dead, seki = (suggestion.dead, suggestion.seki) if suggestion is not None else ((), ())
    return [
        (marking.first, Action(ActionKind.DEAD, dead=dead, seki=seki)),
        (marking.second, Action(ActionKind.ACCEPT)),
    ]


def clock_event(v: int, downtime_ms: int, at_ms: int) -> Event:
    """The note a room writes when it takes over a game whose clock runs: the clock goes on
    from where the last event left it, and the ``downtime_ms`` since is charged to nobody."""
    return Event(v, EventKind.CLOCK, {"reason": SERVER_RESTART, "downtime_ms": downtime_ms}, None, at_ms)
