"""A room's seats changing hands: a name put on a seat by the first session to use it, and an
open game's free seat given to the first joiner (docs/SERVER.md §4.1).

An open game's White seat has no token until someone joins: the games row holds a
``free:...`` marker that no token's hash can match. Joining makes the token and puts its hash
in place of the marker with one conditional update, in the game owner's turn, so exactly one
joiner wins (the router runs this on the owner, whichever process the request reached).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from miai.coords import Color
from miai.game import Phase
from miai.server.errors import Conflict
from miai.server.play.tokens import FREE_SEAT, hash_token, new_token
from miai.server.rooms.room import GameRoom

__all__ = ["join_free_seat", "name_seat", "reload_seats"]

log = logging.getLogger("miai.server")


async def join_free_seat(room: GameRoom, name: str | None, person: str | None = None) -> str:
    """Give ``room``'s free White seat to a joiner named ``name`` (the session ``person``,
    docs/SERVER.md §5); returns the seat's new token.
    Raises :class:`Conflict` (``seat-taken``) when the game has no free seat (any more)."""

    async def take() -> str:
        marker = room.record.white_token_hash
        if marker is None or not marker.startswith(FREE_SEAT):
            raise Conflict("this game has no free seat: someone joined it first, or it was not open", error="seat-taken")
        if room.game.phase is Phase.FINISHED:
            raise Conflict("this game is over: there is nothing to join", error="seat-taken")
        token = new_token()
        seated = replace(room.record, white_token_hash=hash_token(token)).bound(Color.WHITE, name, person)
        if not await room.store.take_free_seat(seated, marker):
            raise Conflict("someone joined this game first", error="seat-taken")
        room.seated(seated)
        return token

    return await room.submit(take)


async def name_seat(room: GameRoom, token: str | None, name: str, person: str | None = None) -> None:
    """Put ``name`` on the seat of ``token`` if that seat has no name yet (the first session
    to use a seat's token names it, and holds it: ``person``, its id, a signed-in user's seat
    follows them to any browser), committed before anyone is told (a ``players`` frame)."""
    seat = room.seat_of(token)
    if seat is None or room.record.name(seat) is not None:
        return

    async def name_it() -> None:
        if room.record.name(seat) is not None:
            return
        seated = room.record.bound(seat, name, person)
        try:
            named = await room.store.bind_seat(seated, seat)
        except Exception:  # a name is not worth failing the request that carried it
            log.exception("game %s: the %s seat's name could not be stored", room.id, seat)
            return
        if named:
            room.seated(seated)

    await room.submit(name_it)


async def reload_seats(room: GameRoom) -> None:
    """The seats' players as the database has them now (a guest's seats handed to the account
    they signed up with): everyone is told the names."""

    async def reload() -> None:
        fresh = await room.store.load_game(room.id)
        if fresh is None:
            return
        keep = {k: getattr(fresh, k) for c in ("black", "white") for k in (f"{c}_name", f"{c}_user_id", f"{c}_guest")}
        room.seated(replace(room.record, **keep, rated=fresh.rated))

    await room.submit(reload)
