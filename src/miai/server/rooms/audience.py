"""Who follows a game: its WebSocket subscribers here, visitors from other processes, when each
seat was last seen, and the chat; what they are told, and who counts as present.

The players chat, the spectators watch (docs/SERVER.md §5); each line is kept with the game
(the room gives ``keep``: the store's chat table) before anyone is shown it. Each seat may say
``chat_burst`` lines in ``chat_window_ms``, counted here, by the game's owner: reconnecting, or
connecting through another process, does not start the count again (it did when each
connection had its own: 200 lines in 2.4 s)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from miai.coords import Color
from miai.server.errors import Forbidden, TooManyRequests
from miai.server.play.chat import ChatLine
from miai.server.play.claims import Attendance
from miai.server.rooms.visitors import Visitors
from miai.server.rooms.window import Window
from miai.server.timekeeper import Handle, Timekeeper
from miai.server.wire.frames import frame

__all__ = ["Audience", "Pace", "SPECTATORS_WATCH", "Subscriber"]

SPECTATORS_WATCH = "spectators watch the game: only its players chat"


async def _forget(line: ChatLine) -> None:
    """Keep no chat line (an audience without a store: tests of its own)."""


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


class Pace:
    """Runs ``act`` at most once per ``interval_ms`` of the timekeeper's time: at once when it
    last ran longer ago (for everyone ``but`` the subscriber that asked, if any: a newcomer
    learns it from its hello), else once at the end of the interval, for everyone (the asks in
    between are one)."""

    def __init__(self, timekeeper: Timekeeper, interval_ms: int, act: Callable[[Subscriber | None], None]):
        self.timekeeper = timekeeper
        self.interval_ms = interval_ms
        self.act = act
        self._last: int | None = None
        self._due: Handle | None = None

    @property
    def pending(self) -> bool:
        """A run is set for the end of the interval."""
        return self._due is not None

    def ask(self, but: Subscriber | None = None) -> None:
        if self._due is not None:
            return
        now = self.timekeeper.monotonic_ms()
        if self._last is None or now - self._last >= self.interval_ms:
            self._last = now
            self.act(but)
            return
        self._due = self.timekeeper.call_at(self._last + self.interval_ms, self._run)

    async def _run(self) -> None:
        self._due = None
        self._last = self.timekeeper.monotonic_ms()
        self.act(None)

    def cancel(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None


class Audience:
    """A game's audience; ``publish`` sends each frame to the other processes' clients too;
    ``time``'s wall clock dates the sightings and the chat."""

    def __init__(
        self,
        time: Timekeeper,
        *,
        chat_history: int,
        publish: Callable[[str], None],
        keep: Callable[[ChatLine], Awaitable[None]] = _forget,
        chat_limit: tuple[int, int] = (5, 10_000),
        presence: Callable[[], dict[str, Any]] = dict,
        presence_interval_ms: int = 1000,
    ):
        self.time = time
        self._presence = presence
        """Who is present, as the room says it (presence frames carry it)."""
        self.pace = Pace(time, presence_interval_ms, self._announce)
        self.publish = publish
        self.keep = keep
        """Where a chat line is kept before it is shown (the game's chat table)."""
        self.subscribers: set[Subscriber] = set()
        self.visitors = Visitors()
        """The connections other processes hold to this game (visitors.py)."""
        self.attendance = Attendance(time.wall_ms())
        """When each seat was last seen (in memory only: a reloaded room starts it again)."""
        self.chat: deque[dict[str, Any]] = deque(maxlen=chat_history)
        self.chat_limit = chat_limit
        """Lines a seat may say (``chat_burst``) in a window of milliseconds (``chat_window_ms``)."""
        self._said = {color: Window(*chat_limit) for color in (Color.BLACK, Color.WHITE)}

    @property
    def anyone(self) -> bool:
        """Someone follows the game, here or from another process."""
        return bool(self.subscribers) or self.visitors.any(self.time.wall_ms())

    def join(self, sub: Subscriber) -> None:
        self.subscribers.add(sub)

    def leave(self, sub: Subscriber) -> bool:
        """``sub`` goes; True if it was here (the presence changed)."""
        if sub.seat is not None:
            self.attendance.left(sub.seat, self.time.wall_ms())
        if sub not in self.subscribers:
            return False
        self.subscribers.discard(sub)
        return True

    def broadcast(self, text: str, but: Subscriber | None = None) -> None:
        """Send ``text`` to everyone (``but`` one); a subscriber too slow to keep up is dropped."""
        self.publish(text)
        for sub in list(self.subscribers):
            if sub is not but:
                sub.send(text)
                if sub.ended:
                    self.subscribers.discard(sub)

    def connected(self) -> set[Color]:
        """The seats a WebSocket connection holds now (here, or on another process)."""
        own = {s.seat for s in self.subscribers if s.seat is not None and not s.ended}
        return own | self.visitors.seats(self.time.wall_ms())

    def presence(self, humans: Collection[Color], abandon_ms: int, *, over: bool) -> dict[str, Any]:
        """Who is connected: each seat, the number of spectators, and while the game goes on
        (not ``over``), how long each absent human seat has been away (``gone``)."""
        now = self.time.wall_ms()
        connected = self.connected()
        spectators = sum(1 for s in self.subscribers if not s.ended and s.seat is None)
        return {
            "black": Color.BLACK in connected,
            "white": Color.WHITE in connected,
            "spectators": spectators + self.visitors.spectators(now),
            "gone": {} if over else self.attendance.to_json(connected, humans, now, abandon_ms),
        }

    async def say(self, seat: Color | None, text: str, *, name: str | None, move: int) -> dict[str, Any]:
        """A chat line from a seat (named ``name``, said when ``move`` moves had been played),
        kept with the game, then sent to everyone connected. Raises :class:`Forbidden` for a
        spectator and :class:`TooManyRequests` beyond the seat's limit."""
        if seat is None:
            raise Forbidden(SPECTATORS_WATCH)
        now = self.time.wall_ms()
        window = self._said[seat]
        if not window.hit(now):
            retry = max(1, -(-window.retry_after_ms(now) // 1000))
            burst, window_ms = self.chat_limit
            raise TooManyRequests(
                f"too many chat lines: at most {burst} in {window_ms / 1000:g} seconds from one seat; retry in {retry} s",
                limit="chat",
                retry_after=retry,
            )
        said = ChatLine(seat=seat, name=name, text=text, at_ms=now, move=move)
        await self.keep(said)
        line = said.to_json()
        self.chat.append(line)
        self.broadcast(frame("chat", line))
        return line

    def announce(self, but: Subscriber | None = None) -> None:
        """Tell everyone connected (``but`` one) who is present: at once, or when another notice
        went out within the interval, once at its end, to everyone, with who is present then: a
        crowd joining costs one frame per watcher per interval, not one per join."""
        self.pace.ask(but)

    def _announce(self, but: Subscriber | None) -> None:
        self.broadcast(frame("presence", self._presence()), but=but)

    def end(self) -> None:
        """Disconnect everyone here (they reconnect with their last ``v``) and stop the notices."""
        self.pace.cancel()
        for sub in list(self.subscribers):
            sub.end()
        self.subscribers.clear()
