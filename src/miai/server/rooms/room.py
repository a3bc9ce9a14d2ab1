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
database holds. Jobs run to the end even when the client that asked has gone.

A computer seat thinks in a worker process when it is its turn (to move, or to act in the
marking phase); its answer comes back as a job of the inbox and takes the path of a person's
action, for the version it thought about: if the game moved on meanwhile, it is dropped.

In a timed game the room keeps a :class:`~miai.clock.Clock`: every commit steps it with
:func:`miai.server.play.timing.step` (whatever the event) and the events carry the clocks after
them. Its timers (:mod:`miai.server.rooms.timers`) submit jobs like any action: the flag at the
clock's deadline, and the marking timer that ends a stalled marking phase. An action that
comes once the running player's time is up is refused and the game ends on time instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from miai.clock import Clock, TimeControl
from miai.coords import Color, point_to_gtp
from miai.errors import IllegalMoveError
from miai.game import Game, GameSpec, Phase
from miai.server.compute.estimate import Suggestion
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.errors import (
    ApiError,
    Conflict,
    Forbidden,
    StaleVersion,
    Unavailable,
    illegal,
)
from miai.server.play.actions import Action, ActionKind, parse_action
from miai.server.play.claims import Attendance
from miai.server.play.events import Event
from miai.server.play.flow import carry_out
from miai.server.play.seats import GameRecord, computer_level, human_seats
from miai.server.play.timing import (
    clock_from_events,
    clock_view,
    step,
    thinking_seconds,
)
from miai.server.play.tokens import token_matches
from miai.server.play.undo import request_json
from miai.server.records.export import seat_names
from miai.server.rooms import timers as roomclock
from miai.server.rooms.visitors import Visitors
from miai.server.storage.db import is_outage
from miai.server.storage.store import Store, WriteConflict
from miai.server.timekeeper import SystemTimekeeper, Timekeeper
from miai.server.wire.forms import score_json, vertices
from miai.server.wire.frames import frame

__all__ = ["GameRoom", "RoomClosed", "Subscriber"]

log = logging.getLogger("miai.server")
T = TypeVar("T")
Job = Callable[[], Awaitable[Any]]


class RoomClosed(Exception):
    """The room stopped (unloaded or broken): ask the registry for the game again."""


class Subscriber:
    """A connection that receives a game's frames (JSON text) through a queue.

    ``seat`` is the colour whose token the connection showed, or None for a spectator. A
    client too slow to take its frames gets ``None`` (the end) and is disconnected; it comes
    back with the last ``v`` it saw.
    """

    def __init__(self, seat: Color | None = None, limit: int = 1024):
        self.seat = seat
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False

    def send(self, frame: str) -> None:
        if self.ended:
            return
        if self.queue.qsize() >= self.limit:
            self.end()
            return
        self.queue.put_nowait(frame)

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            self.queue.put_nowait(None)


class GameRoom:
    """The owner of one game while it is loaded (see the module's docstring)."""

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
    ):
        self.record = record
        self.spec = GameSpec.from_text(record.size, record.rules, record.handicap)
        self.game = game
        self.events = events
        self.store = store
        self.workers = workers
        self.config = config
        self.timekeeper: Timekeeper = timekeeper if timekeeper is not None else SystemTimekeeper()
        """The time: the clocks' and the timers' monotonic milliseconds, the events' wall-clock ones."""
        self.subscribers: set[Subscriber] = set()
        self.attendance = Attendance(self.now_ms())
        """When each seat was last seen (in memory only: a reloaded room starts it again)."""
        self.suggestion: Suggestion | None = None
        self.chat: deque[dict[str, Any]] = deque(maxlen=config.chat_history)
        self.closed = False
        self.last_used = 0.0
        self._by_action_id = {(e.seat, e.action_id): e for e in events if e.action_id is not None}
        self._inbox: asyncio.Queue[tuple[Job, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._side_tasks: set[asyncio.Task[Any]] = set()
        self._busy = False
        self._broken = False
        self._thinking: int | None = None
        """The version a computer seat is thinking about, if any."""
        self.on_close: Callable[[GameRoom], None] | None = None
        self.visitors = Visitors()
        """The connections other processes hold to this game (visitors.py)."""
        self.publish: Callable[[str], None] = lambda text: None
        """Sends each frame to the clients of the other processes too (the bus: docs/SERVER.md §2.1)."""
        self.control = TimeControl.parse(record.time_control)
        self.clock = clock_from_events(self.control, events, time=self.timekeeper, lag=config.lag_allowance)
        """The clocks after the last event (restarted at the load: docs/SERVER.md §1.5)."""
        self.clockwork = roomclock.Clockwork(self)

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
    def idle(self) -> bool:
        """No job queued or running, no one connected and no timer set (a running clock must
        flag even when nobody watches): the room may be unloaded."""
        return (
            not self.subscribers
            and not self._busy
            and self._inbox.empty()
            and not self.clockwork.timers.active
            and not self.visitors.any(self.now_ms())
        )

    # ------------------------------------------------------------------ the actor
    def start(self) -> None:
        self.last_used = asyncio.get_running_loop().time()
        self._task = asyncio.create_task(self._run(), name=f"miai room {self.id}")
        self.clockwork.start()
        self._maybe_suggest()
        self._maybe_computer()

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            if item is None:
                break
            job, future = item
            if self._broken:  # a commit failed: the jobs behind it go to a fresh room
                if not future.done():
                    future.set_exception(RoomClosed(self.id))
                continue
            self._busy = True
            try:
                result = await job()
            except asyncio.CancelledError:
                future.cancel()
                raise
            except Exception as e:  # the job's error goes to whoever asked
                if not future.done():
                    future.set_exception(e)
            else:
                if not future.done():
                    future.set_result(result)
            finally:
                self._busy = False
                self.last_used = asyncio.get_running_loop().time()
        self._fail_pending()

    def _fail_pending(self) -> None:
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if item is not None and not item[1].done():
                item[1].set_exception(RoomClosed(self.id))

    async def submit(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` in the room's turn and return its answer (raises :class:`RoomClosed`
        if the room stopped before running it)."""
        return await self._enqueue(job)

    def _enqueue(self, job: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        if self.closed:
            raise RoomClosed(self.id)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((job, future))
        return future

    async def close(self) -> None:
        """Stop: run the jobs already queued (unless a commit failed), refuse later ones,
        disconnect the subscribers (they reconnect with their last ``v``)."""
        if self.closed:
            return
        self.closed = True
        self.clockwork.timers.cancel()
        self._inbox.put_nowait(None)
        for task in list(self._side_tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._fail_pending()
        for sub in list(self.subscribers):
            sub.end()
        self.subscribers.clear()
        if self.on_close is not None:
            self.on_close(self)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str | None) -> Color | None:
        """The seat whose token this is, or None."""
        for color in (Color.BLACK, Color.WHITE):
            if token_matches(token, self.record.token_hash(color)):
                return color
        return None

    def _seat(self, token: str | None) -> Color:
        if not token:
            raise Forbidden("this action needs a seat's token: send it as Authorization: Bearer TOKEN")
        seat = self.seat_of(token)
        if seat is None:
            raise Forbidden("the token is not a seat's token for this game: spectators cannot act")
        return seat

    async def name_seat(self, token: str | None, name: str) -> None:
        """Put ``name`` on the seat of ``token`` if that seat has no name yet (the first session
        to use a seat's token names it), committed before anyone is told (a ``players`` frame)."""
        seat = self.seat_of(token)
        if seat is None or self.record.name(seat) is not None:
            return

        async def name_it() -> None:
            if self.record.name(seat) is not None:
                return
            try:
                named = await self.store.name_seat(self.id, seat, name)
            except Exception:  # a name is not worth failing the request that carried it
                log.exception("game %s: the %s seat's name could not be stored", self.id, str(seat))
                return
            if named:
                self.record = self.record.with_name(seat, name)
                self.broadcast(frame("players", self.players()))

        await self.submit(name_it)

    def players(self) -> dict[str, str | None]:
        """The players' names: the display names on the human seats (None where nobody with a
        session took it yet), ``miai level N`` for a computer seat; as the SGF's PB/PW."""
        names = seat_names(self.record)
        return {"black": names.get(Color.BLACK), "white": names.get(Color.WHITE)}

    # ------------------------------------------------------------------ actions
    async def act(self, token: str | None, action: Action) -> int:
        """Carry out ``action`` for the seat of ``token``; returns the version it took effect at."""
        return await self.submit(lambda: self._act(token, action))

    def _earlier(self, seat: Color, action: Action, request: str) -> Event | None:
        """The event an identical earlier request produced, if this is a retry of it."""
        if action.action_id is not None:
            done = self._by_action_id.get((seat, action.action_id))
            if done is not None:
                if done.request != request:
                    raise Conflict(
                        f"the action id {action.action_id!r} was already used for another action (v={done.v})",
                        v=self.v,
                    )
                return done
        if action.v is not None and action.v < self.v:
            e = self.events[action.v]  # the event that followed the version the client saw
            if e.seat is seat and e.request == request:
                return e
        if action.v is None and self.events:
            last = self.events[-1]
            if last.seat is seat and last.request == request:
                return last
        return None

    async def _act(self, token: str | None, action: Action) -> int:
        seat = self._seat(token)
        self.seen(seat)
        return await self._perform(seat, action)

    def seen(self, seat: Color) -> None:
        """``seat`` made an authenticated request: it is present now (docs/SERVER.md §3.4)."""
        if self.attendance.seen(seat, self.now_ms()) and seat not in self.connected():
            self.announce_presence()

    async def _perform(self, seat: Color, action: Action) -> int:
        """Steps 2 to 6 of an action (see the module's docstring) for ``seat``."""
        request = action.canonical(self.game.size)
        done = self._earlier(seat, action, request)
        if done is not None:
            return done.v
        if action.v is not None and action.v != self.v:
            raise StaleVersion(
                f"the game is at version {self.v}, not {action.v}: fetch the events after {action.v} and try again",
                v=self.v,
            )
        game = self.game.copy()
        try:
            kind, payload = carry_out(self, game, seat, action)
        except IllegalMoveError as e:
            raise illegal(e) from None
        event = Event(self.v + 1, kind, payload, seat, self.now_ms(), action.action_id, request)
        await self._commit([event], game, lag_ms=action.lag_ms)
        return event.v

    async def _commit(self, events: list[Event], game: Game, *, lag_ms: int = 0) -> None:
        """Step the clocks for ``events`` (:func:`~miai.server.play.timing.step`: every kind of
        event), then write them. If the running player's time had run out, the game ends on
        time instead and the events are refused (:func:`~miai.server.rooms.timers.out_of_time`)."""
        clock = self.clock.flag()
        if clock.flagged is None:
            clock = step(self.clock, game, actor=events[-1].seat, lag_ms=lag_ms)
        if clock.flagged is not None and self.clock.flagged is None:
            await self.clockwork.lose_on_time(clock)
            raise roomclock.out_of_time(clock.flagged, self.record.result, self.v)
        await self._write(roomclock.stamp(events, clock), game, clock)

    async def _write(self, events: list[Event], game: Game, clock: Clock) -> None:
        """Persist ``events``, then (only then) make ``game`` and ``clock`` the room's and broadcast."""
        phase = game.phase
        result = str(game.result) if phase is Phase.FINISHED and game.result is not None else None
        ended = self.now_ms() if phase is Phase.FINISHED else None
        try:
            await self.store.append(self.id, events, status=phase.value, result=result, ended_ms=ended)
        except WriteConflict as e:
            log.error("game %s: %s; reloading it", self.id, e)
            self._broken = True
            self._spawn(self.close())
            raise Conflict("the game was changed by another writer; fetch it again and retry", v=self.v) from None
        except Exception as e:
            if is_outage(e):
                log.warning("game %s: the database is unreachable (%s); reloading the game", self.id, e)
            else:
                log.exception("game %s: the commit failed; reloading it", self.id)
            self._broken = True
            self._spawn(self.close())
            raise Unavailable(
                "the database could not commit the action: retry it (the same request is never applied twice)"
            ) from None
        was_marking = self.game.phase is Phase.MARKING
        self.game = game
        self.clock = clock
        self.events.extend(events)
        self.record = replace(self.record, v=self.v, status=phase.value, result=result, ended_ms=ended)
        for event in events:
            if event.action_id is not None:
                self._by_action_id[(event.seat, event.action_id)] = event
            self.broadcast(frame("event", event.wire()))
        if phase is Phase.MARKING and not was_marking:
            self.suggestion = None
            self._maybe_suggest()
        elif phase is not Phase.MARKING:
            self.suggestion = None
        self.clockwork.arm()
        self._maybe_computer()

    # ------------------------------------------------------------------ computer seats
    def _maybe_computer(self) -> None:
        """If a computer seat is to act, let it think (in a worker) about the current version."""
        color = self.game.to_act
        if color is None or self.workers is None or self._thinking == self.v:
            return
        level = computer_level(self.record.kind(color))
        if level is None:
            return
        self._thinking = self.v
        seconds = thinking_seconds(self.clock, color, self.game, level, self.config.computer_max_seconds)
        self._spawn(self._computer(color, level, self.v, [(e.kind.value, e.payload) for e in self.events], seconds))

    async def _computer(
        self, color: Color, level: int, v: int, events: list[tuple[str, dict[str, Any]]], seconds: float
    ) -> None:
        assert self.workers is not None
        for attempt in range(3):
            try:
                name, body = await self.workers.computer_action(self.spec, events, level, seconds)
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: the computer's move failed (attempt %d)", self.id, attempt + 1)
                await asyncio.sleep(0.5)
        else:
            self._thinking = None
            return
        action = parse_action(ActionKind(name), {**body, "v": v})

        async def apply() -> None:
            if self._thinking == v:
                self._thinking = None
            if self.v != v:
                return  # the position changed while it thought (a resignation): the answer is dropped
            try:
                await self._perform(color, action)
            except ApiError as e:
                log.error("game %s: the computer's %s was refused: %s", self.id, name, e)

        try:
            await self.submit(apply)
        except RoomClosed:
            pass

    # ------------------------------------------------------------------ the estimate
    def _maybe_suggest(self) -> None:
        """In a marking phase with no proposal yet: compute the estimate for the first passer."""
        marking = self.game.marking
        if not self.config.suggest_dead_stones or self.workers is None or marking is None or marking.proposal is not None:
            return
        self._spawn(self._suggest(self.v, [(e.kind.value, e.payload) for e in self.events]))

    async def _suggest(self, v: int, events: list[tuple[str, dict[str, Any]]]) -> None:
        assert self.workers is not None
        try:
            dead, seki = await self.workers.dead_stones(self.spec, events)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the dead-stone estimate failed", self.id)
            return

        async def offer() -> None:
            marking = self.game.marking
            if self.v != v or marking is None:
                return  # the game moved on: the estimate is for a position that is gone
            self.suggestion = Suggestion(v, tuple(dead), tuple(seki))
            self.broadcast(frame("suggestion", {"for": str(marking.first), **self.suggestion.to_json()}))

        try:
            await self.submit(offer)
        except RoomClosed:
            pass

    # ------------------------------------------------------------------ subscribers
    def subscribe(self, sub: Subscriber, after: int) -> list[Event] | None:
        """Register ``sub``; returns the events after version ``after`` (None when ``after``
        is beyond the current version: the client needs the full state). Done in one step
        with no await, so no event falls between the replay and the live ones."""
        if self.closed:
            raise RoomClosed(self.id)
        self.subscribers.add(sub)
        self.announce_presence(but=sub)  # the newcomer learns it from its hello
        return list(self.events[after:]) if 0 <= after <= self.v else None

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub.seat is not None:
            self.attendance.left(sub.seat, self.now_ms())
        if sub in self.subscribers:
            self.subscribers.discard(sub)
            self.announce_presence()

    def broadcast(self, text: str) -> None:
        self.publish(text)
        for sub in list(self.subscribers):
            sub.send(text)
            if sub.ended:
                self.subscribers.discard(sub)

    def connected(self) -> set[Color]:
        """The seats a WebSocket connection holds now (here, or on another process)."""
        own = {s.seat for s in self.subscribers if s.seat is not None and not s.ended}
        return own | self.visitors.seats(self.now_ms())

    def presence(self) -> dict[str, Any]:
        """Who is connected: each seat (true or false), the number of spectators, and while the
        game goes on, for each absent human seat how long it has been away (``gone``)."""
        seats = [s.seat for s in self.subscribers if not s.ended]
        connected = self.connected()
        gone = (
            self.attendance.to_json(connected, human_seats(self.record), self.now_ms(), self.config.abandon_ms)
            if self.game.phase is not Phase.FINISHED
            else {}
        )
        return {
            "black": Color.BLACK in connected,
            "white": Color.WHITE in connected,
            "spectators": sum(1 for s in seats if s is None) + self.visitors.spectators(self.now_ms()),
            "gone": gone,
        }

    def announce_presence(self, but: Subscriber | None = None) -> None:
        """Tell everyone connected (``but`` one) who is connected now."""
        text = frame("presence", self.presence())
        self.publish(text)
        for sub in list(self.subscribers):
            if sub is not but:
                sub.send(text)

    def say(self, seat: Color | None, text: str) -> dict[str, Any]:
        """A chat line from a seat or a spectator, to everyone connected (not persisted)."""
        line = {"from": str(seat) if seat is not None else "spectator", "text": text, "at_ms": self.now_ms()}
        self.chat.append(line)
        self.broadcast(frame("chat", line))
        return line

    # ------------------------------------------------------------------ the state
    def state(self) -> dict[str, Any]:
        """The game as ``GET /api/games/{id}`` answers it (docs/SERVER.md §3, and what a page needs)."""
        game, record = self.game, self.record
        phase = game.phase
        marking = game.marking
        to_act = game.to_act
        result = game.result if phase is Phase.FINISHED else None
        final = game.final_score if phase is Phase.FINISHED else None
        ko = game.ko_point if phase is Phase.PLAY else None
        state: dict[str, Any] = {
            "id": record.id,
            "size": game.size,
            "rules": str(game.rules),
            "komi": game.komi,
            "handicap": game.handicap,
            "time": record.time_control,
            "black": record.black_kind,
            "white": record.white_kind,
            "players": self.players(),
            "phase": phase.value,
            "to_move": str(to_act) if to_act is not None else None,
            "v": self.v,
            "moves": [point_to_gtp(m.point) for m in game.moves],
            "captures": {"black": game.captures(Color.BLACK), "white": game.captures(Color.WHITE)},
            "stones": {
                "black": vertices(game.board.stones(Color.BLACK)),
                "white": vertices(game.board.stones(Color.WHITE)),
            },
            "ko": point_to_gtp(ko) if ko is not None else None,
            "compensable": self._compensable(),
            "result": str(result) if result is not None else None,
            "end_reason": game.end_words if phase is Phase.FINISHED else None,
            "score": score_json(final) if final is not None else None,
            "clocks": clock_view(self.clock),
            "marking": None,
            "undo_request": request_json(self.events),
            "url": f"/g/{record.id}",
        }
        if marking is not None:
            pending = marking.pending
            state["marking"] = {
                "first": str(marking.first),
                "to_act": str(marking.to_act),
                "expected": marking.expected,
                "pending": (
                    {"by": str(pending.by), "dead": vertices(pending.dead), "seki": vertices(pending.seki)}
                    if pending is not None
                    else None
                ),
                "suggested": self.suggestion.to_json() if self.suggestion is not None else None,
            }
        return state

    def _compensable(self) -> dict[str, list[str]] | None:
        """The §5.8 compensable areas of resumed play (docs/RULES.md), for the page to show;
        None when no resumed play is going on."""
        areas = self.game.compensable_areas if self.game.phase is Phase.PLAY else {}
        if not any(areas.values()):
            return None
        return {str(c): vertices(points) for c, points in areas.items()}

    def events_after(self, after: int, limit: int) -> list[dict[str, Any]]:
        return [e.wire() for e in self.events[after : after + limit]]
