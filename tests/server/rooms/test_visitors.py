"""Visitors: the connections of other processes, counted by the game's owner until they leave
or their announcement lapses."""

from __future__ import annotations

from miai.coords import Color
from miai.server.rooms.visitors import Visitors
from tests.server.conftest import Table, make_client


def test_a_visitor_counts_until_it_leaves_or_lapses():
    v = Visitors()
    assert v.here("a", Color.BLACK, now=1000, ttl_ms=500) is True
    assert v.here("a", Color.BLACK, now=1200, ttl_ms=500) is False  # the same again: no news
    assert v.here("b", None, now=1200, ttl_ms=500) is True
    assert (v.seats(1300), v.spectators(1300), v.any(1300)) == ({Color.BLACK}, 1, True)
    assert v.seats(1700) == set() and v.spectators(1700) == 0  # both lapsed (a at 1700, b at 1700)
    assert v.here("a", Color.BLACK, now=1800, ttl_ms=500) is True  # back after a lapse: news
    assert v.here("a", Color.WHITE, now=1900, ttl_ms=500) is True  # another seat: news
    assert v.leave("a") is True and v.leave("a") is False
    assert v.any(1900) is False


def test_the_owners_presence_counts_visitors_and_a_visiting_seat_is_never_gone(db):
    with make_client(db, abandon_ms=1000) as client:
        table = Table(client)
        server = client.app.state.server

        def presence():
            return client.portal.call(server.router.local, table.id, "state", {})  # loads the room

        presence()
        room = server.registry.rooms[table.id]
        now = room.now_ms()
        room.audience.visitors.here("far-away", Color.WHITE, now, 60_000)
        room.audience.visitors.here("spectator", None, now, 60_000)
        seen = room.presence()
    assert (seen["black"], seen["white"], seen["spectators"]) == (False, True, 1)
    assert "white" not in seen["gone"]  # a connected seat is not gone, wherever it is connected
