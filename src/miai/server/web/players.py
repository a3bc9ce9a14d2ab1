"""The players' names on a game, from the sessions that hold its seats.

The creator's session name goes on the first human seat (Black's if Black is human) when the
game is created (:attr:`miai.server.play.create.NewGame.creator`). The other seat is named the first
time its token is used from a session: an HTTP request with ``Authorization: Bearer TOKEN``,
or a WebSocket's ``?token=`` or ``auth`` frame. A name, once set, stays. ``GET /api/games/{id}``
shows them as ``"players": {"black": name | null, "white": name | null}``, and connected clients
get a ``players`` frame when one is set.

A session never takes a seat by itself: only the seat's token does that, and the name follows
it. A program without a session cookie names nothing.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from miai.server.people.sessions import who
from miai.server.state import Server

__all__ = ["creator_name", "name_seat"]


def creator_name(conn: HTTPConnection) -> str | None:
    """The display name of the session creating a game (None for a program without a cookie)."""
    identity = who(conn)
    return identity.name if identity is not None else None


async def name_seat(server: Server, conn: HTTPConnection, game_id: str, token: str | None) -> None:
    """If ``conn`` has a session and ``token`` is a seat's of the game with no name yet, that
    seat takes the session's name."""
    identity = who(conn)
    if identity is None or not token:
        return
    await server.router.call(game_id, "name", {"token": token, "name": identity.name, "person": identity.id})
