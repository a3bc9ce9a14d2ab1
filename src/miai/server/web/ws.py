"""The WebSocket of a game: ``/ws/game/{id}?v=N`` (optionally ``&token=SEAT_TOKEN``).

On connecting, the client gets ``hello`` (the current version, its seat, who is connected),
then the events after ``v`` (or, without ``v`` or with a ``v`` beyond the current version,
``full``: the whole state), the recent chat, and from then on every new event, presence
change, chat line and estimate. Frames are JSON text ``{"t": type, "d": data}``, at most
16 KiB.

Client frames: ``ping``; ``auth {token}`` (take a seat); ``play {move, v, a, l}``, ``resign``,
``dead {dead, seki, v}``, ``accept {v, dead?}``, ``refuse {v}``, ``undo {v}``, ``undo_answer {accept, v}``,
``claim {v}`` (the same fields as the HTTP API, whose path for ``undo_answer`` is ``undo-answer``;
answered ``ack {v, a}`` or ``reject {status, error, message, ..., a}``); ``chat {text}``.
Spectators read only: they neither act nor chat. A bad frame gets an ``error`` frame that says what was wrong, and the
connection stays open.

Guards (origin.py, ratelimit.py): a handshake from another site's page is refused (close
4403), and so is one over the address's limit of open connections (close 4429); a connection
sends at most ``ws_frames_per_second`` frames a second (each one beyond gets an ``error``
frame, ``rate-limited``, and is dropped) and is closed (4429) only when the flood goes on. A
session (its cookie) names the seat whose token it uses first (players.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from miai.coords import Color
from miai.server.cluster.relay import Relay
from miai.server.cluster.router import action_json
from miai.server.errors import (
    ApiError,
    BadRequest,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    TooManyRequests,
    Unavailable,
    database_down,
)
from miai.server.play.actions import ActionKind, parse_action
from miai.server.play.tokens import MAX_TOKEN_CHARS
from miai.server.rooms.actor import RoomClosed
from miai.server.rooms.audience import SPECTATORS_WATCH, Subscriber
from miai.server.rooms.room import GameRoom
from miai.server.rooms.views import game_state
from miai.server.rooms.window import Window
from miai.server.state import Server
from miai.server.storage.db import is_outage
from miai.server.web.games import parse_json
from miai.server.web.origin import CLOSE_CROSS_SITE, cross_site
from miai.server.web.players import name_seat
from miai.server.web.profiles import own_seat
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import check_fields
from miai.server.wire.frames import frame

__all__ = ["routes"]

log = logging.getLogger("miai.server")

ACTION_FRAMES = {k.value.replace("-", "_"): k for k in ActionKind}
"""The frame type of each action: its HTTP path with ``_`` for ``-`` (``undo_answer``)."""

CLOSE_NOT_FOUND = 4404
CLOSE_RELOAD = 1012
"""The game's room restarted (or the client was too slow): reconnect with the last ``v``."""
CLOSE_TRY_AGAIN = 1013
"""The game cannot be served for a moment (no owner, the database unreachable): reconnect soon."""
CLOSE_RATE_LIMITED = 4429
FLOOD_WINDOW_MS = 10_000


class Connection:
    """One client's connection to one game."""

    def __init__(self, server: Server, ws: WebSocket, game_id: str, token: str | None):
        self.server = server
        self.ws = ws
        self.game_id = game_id
        self.token = token
        self.sub = Subscriber(None, server.config.subscriber_queue)
        config = server.config
        self.frames = Window(config.ws_frames_per_second, 1000)
        self.refused = Window(config.ws_flood_refusals, FLOOD_WINDOW_MS)
        self.close_code, self.close_reason = CLOSE_RELOAD, "reconnect with the last v you saw"
        self.relay: Relay | None = None
        """Set when the game's owner is another process (relay.py)."""

    def send(self, t: str, d: Any) -> None:
        self.sub.send(frame(t, d))

    def error(self, err: ApiError, **extra: Any) -> None:
        self.send("error", {"status": err.status, **err.to_json(), **extra})

    # -------------------------------------------------------------- connecting
    def join(self, room: GameRoom, after: int | None) -> None:
        """Subscribe and queue the opening frames, in one step (no event can fall between)."""
        self.sub.seat = room.seat_of(self.token) if self.token else None
        replay = room.subscribe(self.sub, after if after is not None else -1)
        self.send(
            "hello",
            {"v": room.v, "seat": str(self.sub.seat) if self.sub.seat else None, "presence": room.presence()},
        )
        if replay is None:
            self.send("full", game_state(room))
        else:
            for e in replay:
                self.send("event", e.wire())
        for line in room.audience.chat:
            self.send("chat", line)

    # -------------------------------------------------------------- frames in
    async def handle(self, text: str) -> None:
        config = self.server.config
        if len(text.encode()) > config.max_frame_bytes:
            raise PayloadTooLarge(f"the frame is over the limit of {config.max_frame_bytes} bytes")
        message = check_fields(parse_json(text), {"t": True, "d": False}, "frame")
        t, d = message["t"], message.get("d")
        if not isinstance(t, str):
            raise BadRequest("'t' must be a string naming the frame's type")
        if t == "ping":
            self.send("pong", {"server_ms": self.server.registry.timekeeper.wall_ms()})
        elif t == "auth":
            body = check_fields(d, {"token": True}, "auth")
            token = body["token"]
            if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
                raise BadRequest("'token' must be a seat's token (a string)")
            if self.relay is None:
                await self.server.registry.run(self.game_id, lambda room: self._auth(room, token))
            else:
                seat = await self.server.router.call(self.game_id, "auth", {"token": token})
                self.token, self.sub.seat = token, Color.parse(seat)
                self.send("seat", {"seat": seat})
                await self.relay.visit()  # the owner's presence shows the seat now
            await name_seat(self.server, self.ws, self.game_id, token)
        elif t == "chat":
            await self._chat(d)
        elif t in ACTION_FRAMES:
            action = parse_action(ACTION_FRAMES[t], d)
            try:
                v = await self.server.router.call(
                    self.game_id, "act", {"token": self.token, "action": action_json(action)}
                )
            except ApiError as e:
                self.send("reject", {"status": e.status, **e.to_json(), "a": action.action_id})
            else:
                self.send("ack", {"v": v, "a": action.action_id})
        else:
            kinds = ", ".join(["ping", "auth", "chat", *ACTION_FRAMES])
            raise BadRequest(f"unknown frame type {t!r}; the types are: {kinds}")

    async def _auth(self, room: GameRoom, token: str) -> None:
        seat = room.seat_of(token)
        if seat is None:
            raise Forbidden("the token is not a seat's token for this game")
        self.token = token
        self.sub.seat = seat
        room.announce_presence()
        self.send("seat", {"seat": str(seat)})

    async def _chat(self, d: Any) -> None:
        """A chat line of the connection's seat; a spectator only watches (docs/SERVER.md §5).
        The room counts each seat's lines, whatever connection they come through."""
        config = self.server.config
        body = check_fields(d, {"text": True}, "chat")
        text = body["text"]
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("'text' must be a non-empty string")
        if len(text) > config.chat_max_chars:
            raise BadRequest(f"a chat line has at most {config.chat_max_chars} characters")
        if self.sub.seat is None:
            raise Forbidden(SPECTATORS_WATCH)
        await self.server.router.call(self.game_id, "chat", {"seat": str(self.sub.seat), "text": text.strip()})

    # -------------------------------------------------------------- the two loops
    async def read(self) -> None:
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            verdict = self._admit()
            if verdict == "close":
                return
            if verdict == "drop":
                continue
            text = message.get("text")
            if text is None:
                self.error(BadRequest("frames are JSON text, not binary"))
                continue
            try:
                await self.handle(text)
            except ApiError as e:
                self.error(e)

    def _admit(self) -> Literal["handle", "drop", "close"]:
        """Count a frame: handle it, drop it (over the limit: an error frame says so) or close
        (the flood goes on: the connection ends once the frames queued before are sent)."""
        now = self.server.registry.timekeeper.wall_ms()
        if self.frames.hit(now):
            return "handle"
        if not self.refused.hit(now):
            self.close_code, self.close_reason = CLOSE_RATE_LIMITED, "too many frames: closed after a sustained flood"
            self.sub.end()
            return "close"
        limit = self.server.config.ws_frames_per_second
        self.error(
            TooManyRequests(
                f"too many frames: at most {limit} a second; this one was dropped",
                limit="frames",
                retry_after=max(1, -(-self.frames.retry_after_ms(now) // 1000)),
            )
        )
        return "drop"

    async def write(self) -> None:
        while True:
            text = await self.sub.queue.get()
            if text is None:
                await self.ws.close(self.close_code, self.close_reason)
                return
            await self.ws.send_text(text)


def _after(ws: WebSocket) -> int | None:
    text = ws.query_params.get("v")
    if text is None or text == "":
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        raise BadRequest(f"v must be a whole number from 0, not {text!r}")
    return int(text)


async def _refuse(ws: WebSocket, err: ApiError, code: int, reason: str) -> None:
    await ws.send_text(frame("error", {"status": err.status, **err.to_json()}))
    await ws.close(code, reason)


async def game_socket(ws: WebSocket) -> None:
    """A game's WebSocket, after the guards: the origin and the address's open connections."""
    server: Server = ws.app.state.server
    await ws.accept()
    refusal = cross_site(ws.scope, server.config.allowed_origins)
    if refusal is not None:
        await _refuse(ws, refusal, CLOSE_CROSS_SITE, "cross-site: the page is not this server's")
        return
    limits, address = limits_of(ws), client_address(ws.scope)
    too_many = await limits.open_connection(address)
    if too_many is not None:
        await _refuse(ws, too_many, CLOSE_RATE_LIMITED, f"too many {too_many.extra['limit']} from your address")
        return
    try:
        await _serve(ws, server)
    finally:
        limits.close_connection(address)


async def _serve(ws: WebSocket, server: Server) -> None:
    game_id = str(ws.path_params["id"])
    token = ws.query_params.get("token") or None
    conn = Connection(server, ws, game_id, token)
    room: GameRoom | None = None
    try:
        after = _after(ws)
        if token is None:  # a signed-in player's seat is theirs in any browser (docs/SERVER.md §6)
            own = await own_seat(server, ws, game_id)
            token = conn.token = own[min(own)] if len(own) == 1 else None
        if not server.router.owns(game_id):
            conn.relay = Relay(conn, conn.server)
            await conn.relay.join(after)
        for _ in range(3 if conn.relay is None else 0):
            room = await server.registry.room(game_id)
            try:
                if token and room.seat_of(token) is None:
                    raise Forbidden("the token is not a seat's token for this game")
                conn.join(room, after)
                break
            except RoomClosed:
                room = None
        if room is None and conn.relay is None:
            await ws.close(CLOSE_RELOAD, "the game is being reloaded")
            return
    except ApiError as e:  # NotFound here, or the owner's 404 (router.RemoteError)
        if e.status == NotFound.status:
            await _refuse(ws, e, CLOSE_NOT_FOUND, "no such game")
        elif e.status == Unavailable.status:
            await _refuse(ws, e, CLOSE_TRY_AGAIN, e.message[:120])
        else:
            await _refuse(ws, e, 1008, e.message[:120])
        return
    except Exception as e:
        if not is_outage(e):
            raise
        log.warning("game %s: the database is unreachable (%s): the socket is closed with 1013", game_id, e)
        await _refuse(ws, database_down(), CLOSE_TRY_AGAIN, "the database cannot be reached: reconnect in a moment")
        return
    try:
        await name_seat(server, ws, game_id, token)
    except ApiError as e:
        conn.error(e)
    reader = asyncio.create_task(conn.read())
    writer = asyncio.create_task(conn.write())
    try:
        done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        if reader in done and conn.sub.ended and writer not in done:
            await asyncio.wait({writer}, timeout=5)  # the frames queued before a close, then the close
    finally:
        for task in (reader, writer):
            task.cancel()
        for task in (reader, writer):
            try:
                await task
            except (asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                pass
            except Exception:
                log.exception("game %s: a WebSocket task failed", game_id)
        if room is not None:
            room.unsubscribe(conn.sub)
        if conn.relay is not None:
            await conn.relay.close()


def routes() -> list[WebSocketRoute]:
    return [WebSocketRoute("/ws/game/{id}", game_socket)]
