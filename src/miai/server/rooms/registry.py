"""The live rooms of one server process: loading a game's room on demand, creating games,
unloading rooms nobody uses.

A room is loaded by reading the game's row and events and replaying them through
:class:`miai.Game` (no snapshots: a game of 300 moves rebuilds in about a millisecond). Two
requests for a game that is being loaded wait for the same load, so a game never has two
rooms in one process.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from miai.coords import Color
from miai.game import GameSpec
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.errors import NotFound, Unavailable
from miai.server.play.create import NewGame, new_record
from miai.server.play.events import rebuild
from miai.server.play.seats import GameRecord
from miai.server.play.tokens import GAME_ID
from miai.server.rooms.actor import RoomClosed
from miai.server.rooms.room import GameRoom
from miai.server.storage.store import Store
from miai.server.timekeeper import SystemTimekeeper, Timekeeper

__all__ = ["Registry"]

log = logging.getLogger("miai.server")
T = TypeVar("T")


async def _settled() -> None:
    """A job that does nothing: once it has run, the jobs queued before it have too."""


class Registry:
    """The rooms of the games this process owns, by game id."""

    def __init__(
        self,
        store: Store,
        config: ServerConfig,
        workers: Workers | None = None,
        timekeeper: Timekeeper | None = None,
    ):
        self.store = store
        self.config = config
        self.workers = workers
        self.timekeeper: Timekeeper = timekeeper if timekeeper is not None else SystemTimekeeper()
        """The time of the games: their clocks and timers (monotonic), their events (wall-clock)."""
        self.owns: Callable[[str], bool] = lambda game_id: True
        """Whether this process owns the game (:mod:`miai.server.cluster.shards`): only then is its room loaded."""
        self.publish: Callable[[str, str], None] = lambda game_id, text: None
        """Where a room's frames go besides its own subscribers (the bus, :mod:`miai.server.cluster.bus`)."""
        self.rooms: OrderedDict[str, GameRoom] = OrderedDict()
        self._loading: dict[str, asyncio.Task[GameRoom]] = {}
        self._closing: set[asyncio.Task[None]] = set()

    async def create(self, new: NewGame) -> tuple[GameRecord, dict[Color, str]]:
        """Store a new game; returns its row and its seats' tokens."""
        record, tokens = new_record(new, self.timekeeper.wall_ms())
        await self.store.create_game(record)
        return record, tokens

    async def room(self, game_id: str) -> GameRoom:
        """The game's room, loaded if needed. Raises :class:`NotFound` for an unknown game."""
        if not GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {game_id!r}")
        room = self.rooms.get(game_id)
        if room is not None and not room.closed:
            self.rooms.move_to_end(game_id)
            return room
        task = self._loading.get(game_id)
        if task is None:
            task = asyncio.create_task(self._load(game_id))
            self._loading[game_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(game_id, None))
        return await asyncio.shield(task)

    async def _load(self, game_id: str) -> GameRoom:
        if not self.owns(game_id):
            raise Unavailable(f"game {game_id} is owned by another server process now: retry")
        room = await self._build(game_id, on_close=self._forget, publish=lambda text: self.publish(game_id, text))
        room.start()
        self.rooms[game_id] = room
        self._evict()
        return room

    async def replica(self, game_id: str) -> GameRoom:
        """A read-only copy of a game this process does not own, rebuilt from the database:
        it is never started, and being closed it refuses every action (:class:`RoomClosed`)."""
        if not GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {game_id!r}")
        return await self._build(game_id, read_only=True)

    async def _build(self, game_id: str, **room_options: Any) -> GameRoom:
        """The room of ``game_id`` rebuilt from the database (``room_options``: GameRoom's hooks)."""
        record = await self.store.load_game(game_id)
        if record is None:
            raise NotFound(f"no game {game_id!r}")
        events = await self.store.load_events(game_id)
        if [e.v for e in events] != list(range(1, len(events) + 1)):
            log.error("game %s: its events are not numbered 1..n", game_id)
            raise Unavailable(f"game {game_id} cannot be loaded: its event log has a gap")
        try:
            game = rebuild(GameSpec.from_text(record.size, record.rules, record.handicap), events)
        except Exception:
            log.exception("game %s: its events do not replay", game_id)
            raise Unavailable(f"game {game_id} cannot be loaded: its events do not replay") from None
        room = GameRoom(
            record,
            game,
            events,
            store=self.store,
            workers=self.workers,
            config=self.config,
            timekeeper=self.timekeeper,
            **room_options,
        )
        room.audience.chat.extend(line.to_json() for line in await self.store.load_chat(game_id, self.config.chat_history))
        return room

    def _forget(self, room: GameRoom) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    def _evict(self) -> None:
        """Unload the least recently used idle rooms beyond ``max_idle_rooms``."""
        excess = len(self.rooms) - self.config.max_idle_rooms
        if excess <= 0:
            return
        for room in [r for r in self.rooms.values() if r.idle][:excess]:
            del self.rooms[room.id]
            task = asyncio.create_task(room.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def load_timed(self, which: Callable[[str], bool] | None = None) -> int:
        """Load every game with a timer to keep (at start-up, or those ``which`` selects: the
        games of a shard this process just took): an unfinished timed game, or one in its
        marking phase. A running clock flags, and a marking timer fires, only in a loaded
        room. Returns how many were loaded."""
        loaded = 0
        for game_id in await self.store.unfinished_timed_games():
            if which is not None and not which(game_id):
                continue
            try:
                room = await self.room(game_id)
                await room.submit(_settled)  # its note of the restart is written
                loaded += 1
            except Exception:
                log.exception("game %s: not loaded at start-up", game_id)
        return loaded

    async def drop(self, which: Callable[[str], bool]) -> None:
        """Stop the rooms of the games ``which`` selects (a shard this process lost): their
        clients reconnect, to whichever process, with their last ``v``."""
        for game_id in [g for g in self.rooms if which(g)]:
            room = self.rooms.pop(game_id)
            await room.close()

    async def run(self, game_id: str, job: Callable[[GameRoom], Awaitable[T]]) -> T:
        """``job`` on the game's room; if the room stopped meanwhile, on a freshly loaded one.
        For a game another process owns, ``job`` reads a :meth:`replica` (an action there is
        a 503: the router forwards actions to the owner, :mod:`miai.server.cluster.router`)."""
        if GAME_ID.fullmatch(game_id) and not self.owns(game_id):
            try:
                return await job(await self.replica(game_id))
            except RoomClosed:
                raise Unavailable(f"game {game_id} is owned by another server process: retry") from None
        for _ in range(3):
            room = await self.room(game_id)
            try:
                return await job(room)
            except RoomClosed:
                continue
        raise Unavailable(f"game {game_id} is being reloaded: retry")

    async def close(self) -> None:
        """Stop every room (at shutdown)."""
        for task in list(self._loading.values()):
            task.cancel()
        rooms = list(self.rooms.values())
        self.rooms.clear()
        for room in rooms:
            await room.close()
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
