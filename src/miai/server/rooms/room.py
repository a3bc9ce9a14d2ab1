"""One owner per live game: :class:`GameRoom`, an asyncio task with an inbox.

Lichess's round actor is the model. The room holds the game (:class:`miai.Game`), its seats and
its event log, and runs the jobs of its inbox one at a time, so a game's actions never
interleave. Each action:

1. seat check: the token's hash must be a seat's (:class:`~miai.server.errors.Forbidden`);
2. a retry of an action that already took effect (same seat and action id, or same seat, same
   ``v`` and same request) answers the version it got, and changes nothing;
3. version check: ``v`` must be the current version (:class:`~miai.server.errors.StaleVersion`);
4. the action is carried out on ``game.copy()`` (:func:`miai.server.play.flow.carry_out`: the rules'
   steps, an undo request or answer, a claim): the rules' errors become 422 answers;
5. its event row and the game's row are committed in ONE transaction;
6. only then the new game replaces the old one, the answer goes back and the event is
   broadcast to the subscribers (WebSocket clients).

A failed commit changes nothing in memory, and the room stops (the registry loads a fresh one
from the database on the next request), since the room can no longer be sure what the
database holds.

Its collaborators: the inbox (:mod:`~miai.server.rooms.actor`), who follows the game
(:mod:`~miai.server.rooms.audience`), the computer seats and the estimate thought about in
workers (:mod:`~miai.server.rooms.thinking`: their answers take the path of a person's action).

In a timed game the room keeps a :class:`~miai.clock.Clock`: every commit steps it with
:func:`miai.server.play.timing.step` (whatever the event) and the events carry the clocks after
them. Its timers (:mod:`miai.server.rooms.timers`) submit jobs like any action: the flag at the
clock's deadline, and the marking timer that ends a stalled marking phase. An action that
comes once the running player's time is up is refused and the game ends on time instead.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from miai.clock import Clock, TimeControl
from miai.coords import Color
from miai.game import Game, GameSpec, Phase
from miai.server.compute.estimate import Suggestion
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.errors import (
    Conflict,
    StaleVersion,
    Unavailable,
)
from miai.server.play.actions import Action
from miai.server.play.claims import Attendance
from miai.server.play.events import Event
from miai.server.play.flow import carry_out
from miai.server.play.retries import Retries
from miai.server.play.seats import GameRecord, human_seats
from miai.server.play.timing import clock_from_events, step
from miai.server.rooms.actor import Actor, RoomClosed
from miai.server.rooms.audience import Audience, Subscriber
from miai.server.rooms.standing import turn_after
from miai.server.rooms.thinking import Thinking
from miai.server.rooms.timers import Clockwork, out_of_time, stamp
from miai.server.rooms.views import players
from miai.server.storage.db import is_outage
from miai.server.storage.store import Store, WriteConflict
from miai.server.timekeeper import SystemTimekeeper, Timekeeper
from miai.server.wire.frames import frame

__all__ = ["GameRoom"]

log = logging.getLogger("miai.server")
T = TypeVar("T")


class GameRoom:
    """The owner of one game while it is loaded (the module's docstring says how it acts).
    ``publish`` sends each frame to other processes' clients too (docs/SERVER.md §2.1),
    ``on_close`` hears that the room stopped, and a ``read_only`` replica never starts."""

    def __init__(
        self,
        record: GameRecord,
        game: Game,
        events: list[Event],
        *,
        store: Store,
        workers: Workers | None,
        config: ServerConfig,
        timekeeper: Timekeeper | None = None,
        publish: Callable[[str], None] = lambda text: None,
        on_close: Callable[[GameRoom], None] | None = None,
        read_only: bool = False,
    ):
        self.record = record
        self.spec = GameSpec.from_text(record.size, record.rules, record.handicap)
        self.game = game
        self.events = events
        self.store = store
        self.config = config
        self.timekeeper: Timekeeper = timekeeper if timekeeper is not None else SystemTimekeeper()
        """The time: the clocks' and the timers' monotonic milliseconds, the events' wall-clock ones."""
        self.on_close = on_close
        self.actor = Actor(record.id, closed=read_only)
        self.audience = Audience(
            self.timekeeper,
            chat_history=config.chat_history,
            publish=publish,
            keep=lambda line: store.add_chat(record.id, line),
            chat_limit=(config.chat_burst, config.chat_window_ms),
            presence=self.presence,
            presence_interval_ms=config.presence_interval_ms,
        )
        self.thinking = Thinking(self, workers)
        self.retries = Retries(events)
        self.control = TimeControl.parse(record.time_control)
        self.clock = clock_from_events(self.control, events, time=self.timekeeper, lag=config.lag_allowance)
        """The clocks after the last event (restarted at the load: docs/SERVER.md §1.5)."""
        self.clockwork = Clockwork(self)

    @property
    def id(self) -> str:
        return self.record.id

    def now_ms(self) -> int:
        """Wall-clock milliseconds: what events and presence record."""
        return self.timekeeper.wall_ms()

    @property
    def v(self) -> int:
        """The current version: the number of events."""
        return len(self.events)

    @property
    def closed(self) -> bool:
        return self.actor.closed

    @property
    def suggestion(self) -> Suggestion | None:
        """The computer's estimate of the dead stones in the current marking phase, if ready."""
        return self.thinking.suggestion

    @property
    def attendance(self) -> Attendance:
        return self.audience.attendance

    @property
    def idle(self) -> bool:
        """No job queued or running, no one connected and no timer set (a running clock must
        flag even when nobody watches): the room may be unloaded."""
        return self.actor.quiet and not self.audience.anyone and not self.clockwork.timers.active

    def start(self) -> None:
        self.actor.start()
        self.clockwork.start()
        self.thinking.start()

    async def submit(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` in the room's turn and return its answer (raises :class:`RoomClosed`
        if the room stopped before running it)."""
        return await self.actor.submit(job)

    async def close(self) -> None:
        """Stop: run the jobs already queued (unless a commit failed), refuse later ones,
        disconnect the subscribers (they reconnect with their last ``v``)."""
        if self.closed:
            return
        self.clockwork.timers.cancel()
        self.audience.pace.cancel()
        await self.actor.stop()
        self.audience.end()
        if self.on_close is not None:
            self.on_close(self)

    def seat_of(self, token: str | None) -> Color | None:
        """The seat whose token (or player's credential) this is, or None."""
        return self.record.seat_of(token, self.config.secret)

    def seated(self, record: GameRecord) -> None:
        """The seats changed (a name, a free seat taken), already committed: tell everyone."""
        self.record = record
        self.broadcast(frame("players", players(self.record)))

    # ------------------------------------------------------------------ actions
    async def act(self, token: str | None, action: Action) -> int:
        """Carry out ``action`` for the seat of ``token``; returns the version it took effect at."""

        async def act_as_seat() -> int:
            seat = self.record.seat_for(token, self.config.secret)
            self.seen(seat)
            return await self.perform(seat, action)

        return await self.submit(act_as_seat)

    def seen(self, seat: Color) -> None:
        """``seat`` made an authenticated request: it is present now (docs/SERVER.md §3.4)."""
        if self.attendance.seen(seat, self.now_ms()) and seat not in self.connected():
            self.announce_presence()

    async def perform(self, seat: Color, action: Action) -> int:
        """Steps 2 to 6 of an action (see the module's docstring) for ``seat``, in the room's turn."""
        request = action.canonical(self.game.size)
        done = self.retries.earlier(self.events, seat, action, request)
        if done is not None:
            return done.v
        if action.v is not None and action.v != self.v:
            raise StaleVersion(
                f"the game is at version {self.v}, not {action.v}: fetch the events after {action.v} and try again",
                v=self.v,
            )
        game = self.game.copy()
        kind, payload = carry_out(self, game, seat, action)
        event = Event(self.v + 1, kind, payload, seat, self.now_ms(), action.action_id, request)
        await self.commit([event], game, lag_ms=action.lag_ms)
        return event.v

    async def commit(self, events: list[Event], game: Game, *, lag_ms: int = 0) -> None:
        """Step the clocks for ``events`` (:func:`~miai.server.play.timing.step`: every kind of
        event), then write them. If the running player's time had run out, the game ends on
        time instead and the events are refused (:func:`~miai.server.rooms.timers.out_of_time`)."""
        clock = self.clock.flag()
        if clock.flagged is None:
            clock = step(self.clock, game, actor=events[-1].seat, lag_ms=lag_ms)
        if clock.flagged is not None and self.clock.flagged is None:
            await self.clockwork.lose_on_time(clock)
            raise out_of_time(clock.flagged, self.record.result, self.v)
        await self.write(stamp(events, clock), game, clock)

    async def write(self, events: list[Event], game: Game, clock: Clock) -> None:
        """Persist ``events``, then (only then) make ``game`` and ``clock`` the room's and broadcast."""
        phase = game.phase
        result = str(game.result) if phase is Phase.FINISHED and game.result is not None else None
        ended = self.now_ms() if phase is Phase.FINISHED else None
        turn, settlement = turn_after(self.record, game, clock, self.now_ms())
        try:
            await self.store.append(self.id, events, status=phase.value, result=result, ended_ms=ended, turn=turn, also=settlement)
        except Exception as e:
            self._broken(e)
            if isinstance(e, WriteConflict):
                raise Conflict("the game was changed by another writer; fetch it again and retry", v=self.v) from None
            raise Unavailable(
                "the database could not commit the action: retry it (the same request is never applied twice)"
            ) from None
        was_marking = self.game.phase is Phase.MARKING
        self.game = game
        self.clock = clock
        self.events.extend(events)
        self.record = replace(self.record, v=self.v, status=phase.value, result=result, ended_ms=ended, **turn.values())
        self.retries.note(events)
        for event in events:
            self.broadcast(frame("event", event.wire()))
        self.thinking.after_commit(was_marking)
        self.clockwork.arm()
        self.thinking.maybe_computer()

    def _broken(self, error: Exception) -> None:
        """A commit failed: the room can no longer be sure what the database holds, so it stops
        (the registry loads a fresh one from the database on the next request)."""
        if isinstance(error, WriteConflict):
            log.error("game %s: %s; reloading it", self.id, error)
        elif is_outage(error):
            log.warning("game %s: the database is unreachable (%s); reloading the game", self.id, error)
        else:
            log.exception("game %s: the commit failed; reloading it", self.id)
        self.actor.fail()
        self.actor.spawn(self.close())

    # ------------------------------------------------------------------ the audience
    def subscribe(self, sub: Subscriber, after: int) -> list[Event] | None:
        """Register ``sub``; returns the events after version ``after`` (None when ``after``
        is beyond the current version: the client needs the full state). Done in one step
        with no await, so no event falls between the replay and the live ones."""
        if self.closed:
            raise RoomClosed(self.id)
        self.audience.join(sub)
        self.announce_presence(but=sub)  # the newcomer learns it from its hello
        return list(self.events[after:]) if 0 <= after <= self.v else None

    def unsubscribe(self, sub: Subscriber) -> None:
        if self.audience.leave(sub):
            self.announce_presence()

    def broadcast(self, text: str) -> None:
        self.audience.broadcast(text)

    def connected(self) -> set[Color]:
        """The seats a WebSocket connection holds now (here, or on another process)."""
        return self.audience.connected()

    def presence(self) -> dict[str, Any]:
        """Who is connected, and for each absent human seat of a live game going on, how long it has been away."""
        over = self.game.phase is Phase.FINISHED or self.control.correspondence  # its clock decides
        return self.audience.presence(human_seats(self.record), self.config.abandon_ms, over=over)

    def announce_presence(self, but: Subscriber | None = None) -> None:
        """Tell everyone connected (``but`` one) who is connected (paced: :meth:`Audience.announce`)."""
        if not self.closed:
            self.audience.announce(but)

    def events_after(self, after: int, limit: int) -> list[dict[str, Any]]:
        return [e.wire() for e in self.events[after : after + limit]]
