"""Correspondence games (docs/SERVER.md §6.3): days per move, kept on the server; an absent
player loses on time when their days run out, a restart charges the days that went by to the
player to move, and the player's list says whose turn it is and how long is left."""

from __future__ import annotations

import pytest

from miai.clock import LagAllowance
from miai.testing.manualtime import ManualTime
from tests.server.browsers import Browser
from tests.server.conftest import Table, make_client

NO_LAG = LagAllowance.none()
DAY = 86_400_000
PASSWORD = "a long password"


@pytest.fixture
def fake() -> ManualTime:
    return ManualTime()


def started(client, time: str) -> Table:
    table = Table(client, size=9, time=time)
    table.moves("E5 D4")
    assert table.state()["clocks"]["ticking"] == "black"
    return table


def test_an_absent_player_loses_on_time_when_the_days_run_out_and_the_list_says_whose_turn(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        alice, bob = Browser(client), Browser(client)
        alice.post("/api/users", json={"username": "alice", "password": PASSWORD})
        bob.post("/api/users", json={"username": "bob", "password": PASSWORD})
        created = alice.post("/api/games", json={"size": 9, "time": "fischer:2d:1d"}).json()
        game = created["id"]
        for browser, seat, move, v in ((alice, "black", "E5", 0), (bob, "white", "D4", 1)):
            auth = {"Authorization": f"Bearer {created[f'{seat}_token']}"}
            assert browser.post(f"/api/games/{game}/play", json={"move": move, "v": v}, headers=auth).status_code == 200
        fake.advance(DAY)
        mine = alice.get("/api/me/games").json()
        assert mine["your_turn"] == 1
        listed = mine["games"][0]
        assert listed["your_turn"] and listed["to_move"] == "black" and listed["time"] == "fischer:2d:1d"
        left = client.get(f"/api/games/{game}").json()["clocks"]["remaining_ms"]["black"]
        assert listed["time_left_ms"] == left == 2 * DAY - DAY  # two days, one gone by
        assert bob.get("/api/me/games").json()["games"][0]["your_turn"] is False
        fake.advance(left)
        assert client.get(f"/api/games/{game}").json()["phase"] == "play"
        fake.advance(1)  # the server's timer flags the absent player
        state = client.get(f"/api/games/{game}").json()
        assert state["result"] == "W+T"
        assert alice.get("/api/me/games").json()["your_turn"] == 0


def test_a_restart_charges_the_days_that_went_by_to_the_player_to_move(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "fischer:3d:1d")
        before = table.state()
        black = before["clocks"]["remaining_ms"]["black"]
        fake.advance(DAY // 2)
    fake.advance(DAY)  # a day and a half with no server
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table.client = client
        after = table.state()
        note = table.events(after=before["v"])[0]
        assert (note["reason"], note["downtime_ms"], note["charged"]) == ("server-restart", DAY + DAY // 2, True)
        assert after["clocks"]["remaining_ms"]["black"] == black - DAY - DAY // 2
        fake.advance(black - DAY - DAY // 2 + 1)
        assert table.state()["result"] == "W+T"


def test_a_live_games_restart_still_charges_nobody(db, fake):
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table = started(client, "fischer:300:10")
        black = table.state()["clocks"]["remaining_ms"]["black"]
    fake.advance(DAY)
    with make_client(db, time=fake, lag_allowance=NO_LAG) as client:
        table.client = client
        assert table.state()["clocks"]["remaining_ms"]["black"] == black
        assert "charged" not in table.events(after=2)[0]
