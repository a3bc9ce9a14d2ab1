"""The bus between the processes that share one database (docs/SERVER.md §2.1): Redis pub/sub.

Three kinds of channels:

- ``miai:ev:{game}``: every frame a game's owner sends its WebSocket clients (events, presence,
  chat, names, the estimate), for the clients connected to other processes
  (:mod:`miai.server.cluster.relay`). Redis may drop a message (it keeps nothing for a subscriber that
  is not connected): the relay sees the gap in the events' ``v`` and reads the database, so no
  correctness rests on the bus.
- ``miai:in:{shard}``: requests for the games of a shard, forwarded by a process that does not
  own it (:mod:`miai.server.cluster.router`); only the owner subscribes.
- ``miai:out:{process}``: the answers, one channel per process.

:class:`LocalBus` is the one-process bus: nothing to forward, nobody else to tell.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from miai.server.errors import Unavailable

__all__ = ["Bus", "LocalBus", "RedisBus", "NoOwner", "events_channel", "requests_channel"]

log = logging.getLogger("miai.server")

Listener = Callable[[str], None]
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
PUBLISH_QUEUE = 10_000
READ_POLL_S = 1.0
"""How long one read of the subscription waits; a closing bus stops within about this."""


class NoOwner(Exception):
    """No process listens for the shard's requests: nobody owns it right now."""


def events_channel(game_id: str) -> str:
    return f"miai:ev:{game_id}"


def requests_channel(shard: int) -> str:
    return f"miai:in:{shard}"


class Bus:
    """What the server needs from a bus (the base class: one process, nothing to do)."""

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def publish(self, game_id: str, text: str) -> None:
        """Send a frame of a game to the other processes' clients (in order, without waiting)."""

    def listen(self, game_id: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with each frame of the game published by its owner; returns the
        function that stops it."""
        return lambda: None

    async def serve(self, shard: int, handler: Handler) -> None:
        """Answer the requests forwarded for ``shard`` with ``handler``."""

    async def unserve(self, shard: int) -> None:
        """Stop answering the requests of ``shard``."""

    async def request(self, shard: int, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Forward ``message`` to the owner of ``shard`` and return its answer. Raises
        :class:`NoOwner` when nobody listens, :class:`~miai.server.errors.Unavailable` when
        the answer does not come in ``timeout`` seconds or the bus is down."""
        raise NoOwner(shard)


class LocalBus(Bus):
    """One process: it owns every game, so nothing is forwarded or relayed."""


class RedisBus(Bus):
    """The bus over Redis at ``url`` (``redis://host:6379/0``)."""

    def __init__(self, url: str):
        self.url = url
        self.process = uuid.uuid4().hex[:16]
        self.reply_channel = f"miai:out:{self.process}"
        self._wanted: set[str] = {self.reply_channel}
        self._listeners: dict[str, set[Listener]] = {}
        self._handlers: dict[str, Handler] = {}
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(PUBLISH_QUEUE)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pubsub: Any = None
        self._redis: Any = None
        self._closing = False

    async def start(self) -> None:
        import redis.asyncio as redis

        self._redis = redis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)
        await self._redis.ping()  # a wrong URL stops the start-up with a clear error
        await self._subscribe_all()
        for coro in (self._read(), self._send()):
            task = asyncio.create_task(coro)
            self._tasks.add(task)

    async def close(self) -> None:
        """Stop the tasks and the connections. A cancellation that redis-py swallows (it can,
        when it lands on a read's own timeout) still ends the reader at its next poll."""
        self._closing = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=3 * READ_POLL_S)
            if late:
                log.warning("bus: %d task(s) did not stop when the bus closed", len(late))
        for future in self._pending.values():
            future.cancel()
        for thing in (self._pubsub, self._redis):
            if thing is not None:
                try:
                    await thing.aclose()
                except Exception:
                    pass

    # ------------------------------------------------------------------ subscriptions
    async def _subscribe_all(self) -> None:
        """A fresh subscription to every wanted channel (at the start and after an outage)."""
        old, self._pubsub = self._pubsub, self._redis.pubsub(ignore_subscribe_messages=True)
        if old is not None:
            try:
                await old.aclose()
            except Exception:
                pass
        await self._pubsub.subscribe(*sorted(self._wanted))

    async def _want(self, channel: str) -> None:
        if channel in self._wanted:
            return
        self._wanted.add(channel)
        try:
            await self._pubsub.subscribe(channel)
        except Exception as e:  # down: the next reconnection subscribes to it
            log.warning("bus: cannot subscribe to %s now: %s", channel, e)

    async def _unwant(self, channel: str) -> None:
        if channel not in self._wanted:
            return
        self._wanted.discard(channel)
        try:
            await self._pubsub.unsubscribe(channel)
        except Exception:
            pass

    def listen(self, game_id: str, listener: Listener) -> Callable[[], None]:
        channel = events_channel(game_id)
        self._listeners.setdefault(channel, set()).add(listener)
        self._spawn(self._want(channel))

        def stop() -> None:
            listeners = self._listeners.get(channel)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._listeners[channel]
                self._spawn(self._unwant(channel))

        return stop

    async def serve(self, shard: int, handler: Handler) -> None:
        channel = requests_channel(shard)
        self._handlers[channel] = handler
        await self._want(channel)

    async def unserve(self, shard: int) -> None:
        channel = requests_channel(shard)
        self._handlers.pop(channel, None)
        await self._unwant(channel)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self) -> None:
        """Deliver what arrives; after an outage, subscribe again (what was published
        meanwhile is lost: the relays read the database)."""
        while not self._closing:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=READ_POLL_S)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bus: Redis is unreachable (%s); reconnecting", e)
                await asyncio.sleep(0.5)
                try:
                    await self._subscribe_all()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    pass
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
            data = message["data"].decode() if isinstance(message["data"], bytes) else message["data"]
            try:
                self._deliver(channel, data)
            except Exception:
                log.exception("bus: a message on %s could not be delivered", channel)

    def _deliver(self, channel: str, data: str) -> None:
        if channel == self.reply_channel:
            answer = json.loads(data)
            future = self._pending.pop(answer.get("id", ""), None)
            if future is not None and not future.done():
                future.set_result(answer)
        elif channel in self._handlers:
            self._spawn(self._answer(self._handlers[channel], json.loads(data)))
        else:
            for listener in list(self._listeners.get(channel, ())):
                listener(data)

    async def _answer(self, handler: Handler, message: dict[str, Any]) -> None:
        answer = await handler(message)
        answer["id"] = message.get("id")
        try:
            await self._redis.publish(message["reply"], json.dumps(answer, separators=(",", ":")))
        except Exception as e:  # the asker times out and its client retries
            log.warning("bus: an answer could not be sent: %s", e)

    # ------------------------------------------------------------------ sending
    def publish(self, game_id: str, text: str) -> None:
        try:
            self._outbox.put_nowait((events_channel(game_id), text))
        except asyncio.QueueFull:  # the relays read the database for what is missing
            log.warning("bus: the outbox is full; a frame of game %s is dropped", game_id)

    async def _send(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            try:
                await self._redis.publish(channel, text)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("bus: a frame for %s is dropped (%s)", channel, e)

    async def request(self, shard: int, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        key = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        body = json.dumps({**message, "id": key, "reply": self.reply_channel}, separators=(",", ":"))
        try:
            try:
                receivers = await self._redis.publish(requests_channel(shard), body)
            except Exception as e:
                raise Unavailable(f"the servers cannot reach each other ({e}): retry") from None
            if receivers == 0:
                raise NoOwner(shard)
            try:
                return await asyncio.wait_for(future, timeout)
            except asyncio.TimeoutError:
                raise Unavailable("the game's server did not answer in time: retry the same request") from None
        finally:
            self._pending.pop(key, None)
