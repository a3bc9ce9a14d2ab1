"""A WebSocket client of a game owned by another process (docs/SERVER.md §2.1).

The connection listens to the game's channel on the bus first, then asks the owner for its
opening frames (``join``: hello, the events after the client's ``v`` or the whole state, the
chat), and from then on passes on what the owner publishes. The events are numbered: one
whose ``v`` leaves a gap after the last one sent means the bus dropped some, and the missing
ones are read from the database before it goes on; and when the bus has been quiet for
``relay_poll_s`` seconds while the database holds a later version (read for all the relayed
games of the process at once: :mod:`miai.server.cluster.versions`), the events the bus dropped at the
end are read too. So a client here sees every
event, in order, exactly once, whatever Redis does. The connection is a visitor of the owner's
room (:mod:`miai.server.rooms.visitors`): announced when it joins, again every ``visit_every_s``
seconds, and when it leaves, so that the owner's presence counts it and a seat connected here
never counts as gone (§3.4).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any, Protocol

from miai.coords import Color
from miai.server.cluster.bus import Bus
from miai.server.cluster.router import Router
from miai.server.cluster.versions import GameVersions
from miai.server.config import ServerConfig
from miai.server.rooms.audience import Subscriber
from miai.server.storage.store import Store
from miai.server.wire.frames import frame

__all__ = ["Relay", "RelayClient", "RelayServices"]

log = logging.getLogger("miai.server")
FILL_PAGE = 1000


def event_v(text: str) -> int | None:
    """The ``v`` of an ``event`` frame, None for any other frame."""
    if not text.startswith('{"t":"event"'):
        return None
    try:
        return int(json.loads(text)["d"]["v"])
    except (ValueError, KeyError, TypeError):
        return None


class RelayClient(Protocol):
    """The WebSocket connection a relay feeds: its game, the token it showed, its queue."""

    game_id: str
    token: str | None
    sub: Subscriber

    def send(self, t: str, d: Any) -> None: ...


class RelayServices(Protocol):
    """What a relay uses of the running server (:class:`miai.server.state.Server` has them)."""

    @property
    def bus(self) -> Bus: ...
    @property
    def router(self) -> Router: ...
    @property
    def store(self) -> Store: ...
    @property
    def versions(self) -> GameVersions: ...
    @property
    def config(self) -> ServerConfig: ...


class Relay:
    """The frames of a game owned elsewhere, for one connection (``conn``)."""

    def __init__(self, conn: RelayClient, server: RelayServices):
        self.conn = conn
        self.server = server
        self.game_id = conn.game_id
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.v = 0
        """The last event sent to the client."""
        self._stop = self.server.bus.listen(self.game_id, self.inbox.put_nowait)
        self._unwatch = self.server.versions.watch(self.game_id)
        self._task: asyncio.Task[None] | None = None
        self._last_visit = 0.0
        self._visiting: asyncio.Task[None] | None = None
        self.key = uuid.uuid4().hex
        """This connection's name as a visitor of the owner's room."""

    async def join(self, after: int | None) -> None:
        """The opening frames, from the owner (raises its error: not found, wrong token)."""
        conn = self.conn
        try:
            joined: dict[str, Any] = await self.server.router.call(
                self.game_id,
                "join",
                {"token": conn.token, "after": after if after is not None else -1, "key": self.key},
            )
        except BaseException:
            self._stop()
            self._unwatch()
            raise
        conn.sub.seat = Color.parse(joined["seat"]) if joined["seat"] else None
        conn.send("hello", {"v": joined["v"], "seat": joined["seat"], "presence": joined["presence"]})
        if joined["events"] is None:
            conn.send("full", joined["state"])
        else:
            for e in joined["events"]:
                conn.send("event", e)
        for line in joined["chat"]:
            conn.send("chat", line)
        self.v = int(joined["v"])
        self._last_visit = asyncio.get_running_loop().time()
        self._task = asyncio.create_task(self._run(), name=f"miai relay {self.game_id}")

    async def _run(self) -> None:
        poll = self.server.config.relay_poll_s
        while not self.conn.sub.ended:
            await self._still_here()
            try:
                text = await asyncio.wait_for(self.inbox.get(), poll)
            except asyncio.TimeoutError:
                if self.server.versions.newer_than(self.game_id, self.v):
                    await self._catch_up()
                continue
            v = event_v(text)
            if v is None:
                self.conn.sub.send(text)
            elif v > self.v:
                if v > self.v + 1:
                    await self._catch_up(v - 1)
                if v == self.v + 1:
                    self.conn.sub.send(text)
                    self.v = v

    async def _catch_up(self, upto: int | None = None) -> None:
        """Send the events after the last one sent (up to ``upto``) from the database."""
        try:
            events = await self.server.store.load_events(self.game_id, after=self.v, limit=FILL_PAGE)
        except Exception as err:
            log.warning("game %s: the relay cannot read the database: %s", self.game_id, err)
            return
        for e in events:
            if upto is not None and e.v > upto:
                break
            if e.v == self.v + 1:
                self.conn.sub.send(frame("event", e.wire()))
                self.v = e.v

    async def _still_here(self) -> None:
        """Tell the owner this connection is still here, every ``visit_every_s`` seconds."""
        now = asyncio.get_running_loop().time()
        if now - self._last_visit < self.server.config.visit_every_s:
            return
        self._last_visit = now
        if self._visiting is None or self._visiting.done():  # in the background: frames go on meanwhile
            self._visiting = asyncio.create_task(self.visit())

    async def visit(self, leave: bool = False) -> None:
        """Announce this connection (with its token, if any) to the owner, or its leaving."""
        args = {"token": self.conn.token, "key": self.key, "leave": leave}
        try:
            await asyncio.wait_for(self.server.router.call(self.game_id, "visit", args), 5)
        except Exception as err:  # the next announcement, or the visit's lapse, puts it right
            log.info("game %s: the owner was not told of a connection here: %s", self.game_id, err)

    async def close(self) -> None:
        self._stop()
        self._unwatch()
        if self._visiting is not None:
            self._visiting.cancel()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            await self.visit(leave=True)
