"""A room's thinking done in worker processes: the computer seat's action when it is its turn
(to move, or to act in the marking phase) and the dead-stone estimate offered at the start of
the marking phase. Each answer comes back as a job of the room's inbox, for the version it was
thought about: if the game moved on meanwhile, it is dropped.

A computer seat's clock does not run while its job waits for a worker (other games' computer
moves may be ahead of it): the room pauses it when the job has to wait and resumes it when a
worker takes it, so the queue never costs it time, let alone the game."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from miai.clock import Clock
from miai.coords import Color
from miai.game import Game, GameSpec, Phase
from miai.server.compute.estimate import Suggestion
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.errors import ApiError
from miai.server.play.actions import Action, ActionKind, parse_action
from miai.server.play.events import Event
from miai.server.play.seats import GameRecord, computer_level
from miai.server.play.timing import thinking_seconds
from miai.server.rooms.actor import Actor, RoomClosed
from miai.server.wire.frames import frame

__all__ = ["Thinking", "ThinkingRoom"]

log = logging.getLogger("miai.server")


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Take a background job's outcome (its failure is logged where it happened)."""
    if not future.cancelled():
        future.exception()


class Rearm(Protocol):
    def arm(self) -> None: ...


class ThinkingRoom(Protocol):
    """What the thinking reads of its room, and the two doors back into it."""

    actor: Actor
    game: Game
    events: list[Event]
    spec: GameSpec
    record: GameRecord
    clock: Clock
    config: ServerConfig

    @property
    def clockwork(self) -> Rearm: ...

    @property
    def id(self) -> str: ...

    @property
    def v(self) -> int: ...

    async def perform(self, seat: Color, action: Action) -> int: ...

    def broadcast(self, text: str) -> None: ...


class Thinking:
    """The computer seats' turns and the estimate of one room (``workers`` None: neither)."""

    def __init__(self, room: ThinkingRoom, workers: Workers | None):
        self.room = room
        self.workers = workers
        self.suggestion: Suggestion | None = None
        """The estimate of the dead stones for the current marking phase, once computed."""
        self._thinking: int | None = None
        """The version a computer seat is thinking about, if any."""

    def start(self) -> None:
        self.maybe_suggest()
        self.maybe_computer()

    def after_commit(self, was_marking: bool) -> None:
        """After an event: a new marking phase gets an estimate, any other phase none."""
        phase = self.room.game.phase
        if phase is Phase.MARKING and not was_marking:
            self.suggestion = None
            self.maybe_suggest()
        elif phase is not Phase.MARKING:
            self.suggestion = None

    def _events(self) -> list[tuple[str, dict[str, Any]]]:
        return [(e.kind.value, e.payload) for e in self.room.events]

    async def _back(self, job: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` in the room's turn, unless the room has stopped meanwhile."""
        try:
            await self.room.actor.submit(job)
        except RoomClosed:
            pass

    def maybe_computer(self) -> None:
        """If a computer seat is to act, let it think (in a worker) about the current version."""
        room = self.room
        color = room.game.to_act
        if color is None or self.workers is None or self._thinking == room.v:
            return
        level = computer_level(room.record.kind(color))
        if level is None:
            return
        self._thinking = room.v
        seconds = thinking_seconds(room.clock, color, room.game, level, room.config.computer_max_seconds)
        room.actor.spawn(self._computer(color, level, room.v, self._events(), seconds))

    async def _computer(
        self, color: Color, level: int, v: int, events: list[tuple[str, dict[str, Any]]], seconds: float
    ) -> None:
        answer = await self._ask_computer(level, v, events, seconds)
        if answer is None:
            self._thinking = None
            return
        name, body = answer
        action = parse_action(ActionKind(name), {**body, "v": v})

        async def apply() -> None:
            if self._thinking == v:
                self._thinking = None
            if self.room.v != v:
                return  # the position changed while it thought (a resignation): the answer is dropped
            try:
                await self.room.perform(color, action)
            except ApiError as e:
                log.error("game %s: the computer's %s was refused: %s", self.room.id, name, e)

        await self._back(apply)

    async def _ask_computer(
        self, level: int, v: int, events: list[tuple[str, dict[str, Any]]], seconds: float
    ) -> tuple[str, dict[str, Any]] | None:
        """The computer's action from a worker, tried three times (None: it failed); its clock
        stands still while the job waits for a worker."""
        assert self.workers is not None
        for attempt in range(3):
            try:
                return await self.workers.computer_action(
                    self.room.id, self.room.spec, events, level, seconds,
                    waiting=lambda: self._clock_job(v, paused=True),
                    started=lambda: self._clock_job(v, paused=False),
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: the computer's move failed (attempt %d)", self.room.id, attempt + 1)
                await asyncio.sleep(0.5)
        return None

    def _clock_job(self, v: int, *, paused: bool) -> None:
        """Pause (or resume) the clocks in the room's turn while the computer's job for version
        ``v`` waits for a worker, if the game is still there (its flag timer follows)."""

        async def job() -> None:
            room = self.room
            if room.v != v or room.game.phase is not Phase.PLAY:
                return
            room.clock = room.clock.pause() if paused else room.clock.resume()
            room.clockwork.arm()

        try:
            self.room.actor.enqueue(job).add_done_callback(_retrieve)
        except RoomClosed:
            pass

    def maybe_suggest(self) -> None:
        """In a marking phase with no proposal yet: compute the estimate for the first passer."""
        marking = self.room.game.marking
        if not self.room.config.suggest_dead_stones or self.workers is None or marking is None or marking.proposal is not None:
            return
        self.room.actor.spawn(self._suggest(self.room.v, self._events()))

    async def _suggest(self, v: int, events: list[tuple[str, dict[str, Any]]]) -> None:
        assert self.workers is not None
        try:
            dead, seki = await self.workers.dead_stones(self.room.spec, events)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the dead-stone estimate failed", self.room.id)
            return

        async def offer() -> None:
            marking = self.room.game.marking
            if self.room.v != v or marking is None:
                return  # the game moved on: the estimate is for a position that is gone
            self.suggestion = Suggestion(v, tuple(dead), tuple(seki))
            self.room.broadcast(frame("suggestion", {"for": str(marking.first), **self.suggestion.to_json()}))

        await self._back(offer)
