"""Automatch through the API: the first two fitting requests make a game, both players learn
it (the waiting one by its poll), the rank range and the fields are kept, a request can be
withdrawn (docs/SERVER.md §6.2)."""

from __future__ import annotations

import pytest

from tests.server.browsers import Browser

PASSWORD = "a long password"


def signed_up(client, name: str) -> Browser:
    browser = Browser(client)
    assert browser.post("/api/users", json={"username": name, "password": PASSWORD}).status_code == 201
    return browser


def test_two_requests_make_a_game_both_players_hold(client):
    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    wish = {"size": 9, "time_control": "fischer:3d:1d", "rated": True}
    assert alice.post("/api/automatch", json=wish).json() == {"status": "waiting"}
    assert alice.get("/api/automatch?wait=0").json() == {"status": "waiting"}
    paired = bob.post("/api/automatch", json=wish)
    assert paired.status_code == 200 and paired.json()["status"] == "paired"
    game = paired.json()["game"]
    heard = alice.get("/api/automatch?wait=5").json()
    assert heard["game"] == game and {heard["seat"], paired.json()["seat"]} == {"black", "white"}
    state = client.get(f"/api/games/{game}").json()
    assert state["rated"] is True and state["size"] == 9 and state["time"] == "fischer:3d:1d" and state["handicap"] == 0
    assert state["accounts"] == {"black": True, "white": True}
    assert set(state["players"].values()) == {"alice", "bob"}
    first = alice if heard["seat"] == "black" else bob
    token = heard["token"] if first is alice else paired.json()["token"]
    move = first.post(f"/api/games/{game}/play", json={"move": "E5", "v": 0}, headers={"Authorization": f"Bearer {token}"})
    assert move.status_code == 200
    assert alice.get("/api/automatch?wait=0").status_code == 404  # done with
    assert alice.get(f"/api/games/{game}/seat").json()["token"] == heard["token"]


def test_requests_that_do_not_fit_wait_and_a_withdrawn_one_is_gone(client):
    alice, bob, carol = signed_up(client, "alice"), signed_up(client, "bob"), signed_up(client, "carol")
    assert alice.post("/api/automatch", json={"size": 9}).status_code == 202
    assert bob.post("/api/automatch", json={"size": 13}).status_code == 202
    assert carol.post("/api/automatch", json={"size": 9, "rated": False}).status_code == 202
    assert alice.delete("/api/automatch").json() == {"status": "cancelled"}
    assert alice.get("/api/automatch?wait=0").status_code == 404
    dave = signed_up(client, "dave")
    assert dave.post("/api/automatch", json={"size": 13}).json()["status"] == "paired"
    assert bob.get("/api/automatch?wait=0").json()["status"] == "paired"


def test_a_rank_range_keeps_stronger_players_out(client, db):
    import sqlite3

    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    with sqlite3.connect(db) as conn:  # bob is 3 dan
        bob_id = conn.execute("SELECT id FROM users WHERE username = 'bob'").fetchone()[0]
        conn.execute("INSERT INTO ratings VALUES (?, 2200, 60, 0.06, 30)", (bob_id,))
    assert alice.post("/api/automatch", json={"size": 19, "rank_range": [-2, 2]}).status_code == 202
    assert bob.post("/api/automatch", json={"size": 19, "rank_range": [-30, 0]}).status_code == 202
    assert alice.post("/api/automatch", json={"size": 19, "rank_range": [0, 9]}).json()["status"] == "paired"
    game = alice.get("/api/me/games").json()["games"][0]
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["handicap"] == 9 and state["komi"] == 0.5 and state["players"]["black"] == "alice"
    assert state["to_move"] == "white"  # White plays first after the handicap stones


def test_automatch_is_for_signed_in_players_and_bad_fields_are_400(client):
    guest = Browser(client)
    guest.me()
    assert guest.post("/api/automatch", json={}).status_code == 401
    alice = signed_up(client, "alice")
    for body in (
        {"size": 30},
        {"time_control": "soon"},
        {"rated": 1},
        {"rank_range": [3, -3]},
        {"rank_range": [0, 99]},
        {"time": "none", "time_control": "none"},
        {"colour": "black"},
    ):
        assert alice.post("/api/automatch", json=body).status_code == 400, body
    assert alice.get("/api/automatch?wait=31").status_code == 400


@pytest.mark.parametrize("rated", [True, False])
def test_a_player_never_pairs_with_themselves(client, rated):
    alice = signed_up(client, "alice")
    assert alice.post("/api/automatch", json={"rated": rated}).status_code == 202
    assert alice.post("/api/automatch", json={"rated": rated}).status_code == 202


def test_open_games_in_the_lobby_show_the_creators_rank(client):
    alice = signed_up(client, "alice")
    guest = Browser(client)
    guest.me()
    alice.post("/api/games", json={"size": 9, "open": True, "rated": True})
    guest.post("/api/games", json={"size": 9, "open": True})
    listed = {g["players"]["black"]: g for g in client.get("/api/games?status=open").json()["games"]}
    assert listed["alice"]["ranks"] == {"black": "6k", "white": None} and listed["alice"]["rated"] is True
    (other,) = [g for name, g in listed.items() if name != "alice"]
    assert other["ranks"] == {"black": None, "white": None} and other["rated"] is False


def test_a_request_nobody_polls_for_a_minute_is_dropped(db):
    from miai.testing.manualtime import ManualTime
    from tests.server.conftest import make_client

    clock = ManualTime()
    with make_client(db, time=clock) as client:
        alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
        assert alice.post("/api/automatch", json={}).status_code == 202
        clock.advance(30_000)
        assert alice.get("/api/automatch?wait=0").json() == {"status": "waiting"}  # polled: still there
        clock.advance(61_000)  # alice's page was closed
        assert bob.post("/api/automatch", json={}).status_code == 202
        assert alice.get("/api/automatch?wait=0").status_code == 404
