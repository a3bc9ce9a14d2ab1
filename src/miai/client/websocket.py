"""A game's WebSocket on a miai server: its frames, and a connection to it, blocking (``miai
bot``) or with asyncio (the load benchmark's clients).

Every frame is a JSON object ``{"t": type, "d": data}`` (docs/SERVER.md): the server sends
``hello`` first (the version and the seat the token holds), then ``full`` (the state) or the
``event`` frames after the version asked for, and ``ack`` or ``reject`` for each action sent;
a client sends its actions (``play``, ``dead``, ``accept``...) and ``ping``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio import client as asyncio_client
from websockets.sync import client as sync_client

from miai.client.errors import ClientError
from miai.client.links import GameLink, socket_url

__all__ = ["MAX_FRAME_BYTES", "Frame", "connect", "connect_asyncio", "open_seat"]

MAX_FRAME_BYTES = 2**20
"""The largest frame a client takes (a full state of 19×19 is far below it)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its type ``t`` (``hello``, ``event``, ``play``...) and its data ``d``.

    >>> Frame.read(Frame("play", {"move": "D4", "v": 3}).text())
    Frame(t='play', d={'move': 'D4', 'v': 3})
    """

    t: str
    d: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, text: str | bytes) -> Frame:
        """The frame a message holds; :class:`ClientError` if it holds none."""
        try:
            message = json.loads(text)
        except ValueError as e:
            raise ClientError(f"not a frame: {e}") from None
        data = message.get("d", {}) if isinstance(message, dict) else None
        if not isinstance(message, dict) or not isinstance(message.get("t"), str) or not isinstance(data, dict):
            raise ClientError(f"not a frame: {str(text)[:100]!r}")
        return cls(message["t"], data)

    def text(self) -> str:
        """The frame as the message that carries it."""
        return json.dumps({"t": self.t, "d": self.d})


def connect(
    base: str, game_id: str, *, token: str | None = None, v: int | None = None, open_timeout: float = 30.0
) -> sync_client.ClientConnection:
    """A blocking connection to the game's WebSocket (:func:`~miai.client.links.socket_url`)."""
    return sync_client.connect(
        socket_url(base, game_id, token=token, v=v), max_size=MAX_FRAME_BYTES, open_timeout=open_timeout
    )


def connect_asyncio(
    base: str, game_id: str, *, token: str | None = None, v: int | None = None, open_timeout: float = 30.0
) -> asyncio_client.connect:
    """A connection to the game's WebSocket for asyncio, to be entered with ``async with``
    (:func:`~miai.client.links.socket_url`)."""
    return asyncio_client.connect(
        socket_url(base, game_id, token=token, v=v), max_size=MAX_FRAME_BYTES, open_timeout=open_timeout
    )


def open_seat(link: GameLink, open_timeout: float = 30.0) -> tuple[str, sync_client.ClientConnection]:
    """Connect to the game's WebSocket as the seat of ``link.token``: the seat (``black`` or
    ``white``) the server's ``hello`` gives, and the connection; :class:`ClientError` (the
    connection closed) when the server refuses it or the token holds no seat."""
    ws = connect(link.base, link.game_id, token=link.token, open_timeout=open_timeout)
    hello = Frame.read(ws.recv(timeout=open_timeout))
    if hello.t != "hello":
        ws.close()
        raise ClientError(f"the server refused the connection: {hello.d.get('message', hello)}")
    seat = hello.d.get("seat")
    if seat not in ("black", "white"):
        ws.close()
        raise ClientError("the token is not a seat's token for this game")
    return str(seat), ws
