"""What a room does with its clocks besides :func:`~miai.server.play.timing.step`: its two timers,
the events the server writes on its own (a flag, the marking timer's steps, the note of a
restart) and the answer to an action that came too late (docs/SERVER.md §1.5).

The room (:mod:`miai.server.rooms.room`) owns one :class:`Clockwork`, whose :class:`RoomTimers`
run what they set off as jobs of the room's inbox, so they are serialized with the players'
actions, and whose events go through the room's commit path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from miai.clock import Clock, TimeControl
from miai.coords import Color
from miai.endgame import Marking
from miai.errors import MiaiError
from miai.game import Game, Phase
from miai.server.compute.estimate import Suggestion
from miai.server.config import ServerConfig
from miai.server.errors import IllegalAction, WireReason
from miai.server.play.actions import Action, ActionKind, apply_action
from miai.server.play.events import Event, EventKind
from miai.server.play.seats import GameRecord
from miai.server.play.timing import clock_view, ticking
from miai.server.rooms.actor import Actor, RoomClosed
from miai.server.timekeeper import Handle, Timekeeper, Wake

__all__ = [
    "Clockwork",
    "MARKING_TIMER",
    "RoomTimers",
    "SERVER_RESTART",
    "TimedRoom",
    "clock_event",
    "lose_on_time",
    "marking_timeout_actions",
    "out_of_time",
    "stamp",
]

log = logging.getLogger("miai.server")

MARKING_TIMER = "marking-timer"
"""The ``auto`` field of the events the marking timer writes on a player's behalf."""
SERVER_RESTART = "server-restart"
"""The ``reason`` of the ``clock`` event a room writes when it takes over a running clock."""


class TimedRoom(Protocol):
    """What the clock jobs read of a room, and its two commit paths."""

    actor: Actor
    game: Game
    clock: Clock
    control: TimeControl
    events: list[Event]
    record: GameRecord
    config: ServerConfig
    timekeeper: Timekeeper

    def now_ms(self) -> int: ...

    @property
    def id(self) -> str: ...

    @property
    def v(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    @property
    def suggestion(self) -> Suggestion | None: ...

    async def commit(self, events: list[Event], game: Game) -> None: ...

    async def write(self, events: list[Event], game: Game, clock: Clock) -> None: ...


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

    def set_flag(self, at_ms: int | None, wake: Wake | None = None) -> None:
        """Set the flag timer to run ``wake`` at ``at_ms`` (None: clear it)."""
        if self._flag is not None:
            self._flag.cancel()
        self._flag, self.flag_at = None, at_ms
        if at_ms is not None and wake is not None:
            self._flag = self.timekeeper.call_at(at_ms, wake)

    def set_marking(self, at_ms: int | None, wake: Wake | None = None) -> None:
        """Set the marking timer to run ``wake`` at ``at_ms`` (None: clear it)."""
        if self._marking is not None:
            self._marking.cancel()
        self._marking, self.marking_at = None, at_ms
        if at_ms is not None and wake is not None:
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
    return after, {"color": str(loser), "result": str(result)}


def out_of_time(loser: Color, result: str | None, v: int) -> IllegalAction:
    """The answer to an action that arrived once ``loser``'s time had run out: refused, the
    game being over on time (the ``flag`` event is at version ``v``)."""
    name = str(loser).capitalize()
    return IllegalAction(
        f"{name}'s time ran out before this arrived: the game is over on time ({result})",
        reason=WireReason.OUT_OF_TIME,
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


def clock_event(v: int, downtime_ms: int, at_ms: int, charged: bool = False) -> Event:
    """The note a room writes when it takes over a game whose clock runs: the clock goes on
    from where the last event left it, and the ``downtime_ms`` since is charged to nobody (to
    the player to move in a correspondence game: ``charged``)."""
    payload = {"reason": SERVER_RESTART, "downtime_ms": downtime_ms, **({"charged": True} if charged else {})}
    return Event(v, EventKind.CLOCK, payload, None, at_ms)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Take a background job's outcome (its failure is logged where it happened)."""
    if not future.cancelled():
        future.exception()


class Clockwork:
    """A room's clock jobs: setting its timers after every event, and what they do when
    they fire (the flag, the marking timer), and the note of a restart. Every job runs in
    the room's inbox; every event goes through the room's commit."""

    def __init__(self, room: TimedRoom):
        self.room = room
        self.timers = RoomTimers(room.timekeeper)

    def start(self) -> None:
        """When the room starts: note the restart of a running clock (the first job of the
        inbox, before any action) and set the timers."""
        room = self.room
        if ticking(room.clock) is not None and room.game.phase is Phase.PLAY:
            room.actor.enqueue(self.note_restart).add_done_callback(_retrieve)
        self.arm()

    def _wake(self, job: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """A timer's action: ``job`` as a job of the inbox (dropped if the room has stopped)."""
        async def wake() -> None:
            try:
                await self.room.actor.submit(job)
            except RoomClosed:
                pass

        return wake

    def arm(self) -> None:
        """Set the flag timer just after the running clock's deadline (in a timed game), and
        the marking timer in any game's marking phase (restarted by every event); clear them
        otherwise."""
        room = self.room
        if room.closed:
            self.timers.cancel()
            return
        deadline = None if room.control.unlimited else room.clock.deadline_ms()
        playing = room.game.phase is Phase.PLAY
        if deadline is not None and playing:
            self.timers.set_flag(deadline + 1, self._wake(self.flag_due))
        else:
            self.timers.set_flag(None)
        if room.game.phase is Phase.MARKING:
            v = room.v
            at = room.timekeeper.monotonic_ms() + room.config.marking_timer_ms
            self.timers.set_marking(at, self._wake(lambda: self.marking_due(v)))
        else:
            self.timers.set_marking(None)

    async def flag_due(self) -> None:
        """The flag timer: the running player loses on time if their time (and lag bank) is up."""
        room = self.room
        clock = room.clock.flag()
        if clock.flagged is None or room.game.phase is Phase.FINISHED:
            self.arm()  # a timer that fired early is set again
            return
        await self.lose_on_time(clock)

    async def lose_on_time(self, clock: Clock) -> None:
        """Write the ``flag`` event of ``clock.flagged`` (the game ends on time)."""
        room = self.room
        game, payload = lose_on_time(room.game, clock)
        event = Event(room.v + 1, EventKind.FLAG, payload, None, room.now_ms())
        await room.write(stamp([event], clock), game, clock)

    async def marking_due(self, v: int) -> None:
        """The marking timer: the stalled phase ends as :func:`marking_timeout_actions` says.
        If it cannot (the rules core refuses every way, or the commit fails), the failure is
        logged and the timer set again: it never stops in silence."""
        room = self.room
        marking = room.game.marking
        if room.v != v or marking is None:
            return
        for suggestion in (room.suggestion, None):  # an estimate that does not apply: every stone alive
            game, events = room.game.copy(), list[Event]()
            try:
                for seat, action in marking_timeout_actions(marking, suggestion):
                    kind, payload = apply_action(game, seat, action)
                    payload = {**payload, "auto": MARKING_TIMER}
                    events.append(Event(room.v + len(events) + 1, kind, payload, seat, room.now_ms()))
            except MiaiError as e:  # the rules' refusals and the core's (a count it cannot make)
                log.warning("game %s: the marking timer cannot end the phase this way: %s", room.id, e)
                continue
            try:
                await room.commit(events, game)
            except Exception:
                log.exception("game %s: the marking timer's events were not written; it is set again", room.id)
                self.arm()
            return
        log.error("game %s: the marking timer could not end the marking phase; it is set again", room.id)
        self.arm()

    async def note_restart(self) -> None:
        """On taking over a game whose clock runs: say in the log that the time since the
        last event (while no owner was alive, or before the restart) is charged to nobody."""
        room = self.room
        if ticking(room.clock) is None or room.game.phase is not Phase.PLAY:
            return
        now = room.now_ms()
        last = room.events[-1].at_ms if room.events else room.record.created_ms
        charged = room.clock.control.correspondence  # days per move: the calendar's time (§6)
        await room.commit([clock_event(room.v + 1, max(0, now - last), now, charged)], room.game.copy())
