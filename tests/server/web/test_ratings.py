"""Rated games through the API: both ratings change in the game's end, games that cannot be
rated are not, the player pages and lists (paged), a seat that follows its player to another
browser, and a guest's games kept when they sign up (docs/SERVER.md §6)."""

from __future__ import annotations

import pytest

from tests.server.browsers import Browser
from tests.server.ratings_replay import check_sqlite

PASSWORD = "a long password"


def signed_up(client, name: str) -> Browser:
    browser = Browser(client)
    answer = browser.post("/api/users", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return browser


def act(browser: Browser, game: str, token: str, action: str, **body):
    return browser.post(f"/api/games/{game}/{action}", json=body, headers={"Authorization": f"Bearer {token}"})


def rated_game(black: Browser, white: Browser, **settings) -> tuple[str, dict[str, str]]:
    created = black.post("/api/games", json={"size": 9, "rated": True, **settings})
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = {"black": body["black_token"], "white": body["white_token"]}
    assert act(black, body["id"], tokens["black"], "play", move="E5", v=0).status_code == 200
    assert act(white, body["id"], tokens["white"], "play", move="C3", v=1).status_code == 200
    return body["id"], tokens


def test_a_rated_game_to_its_end_changes_both_ratings_in_its_history(client, db):
    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    game, tokens = rated_game(alice, bob)
    assert client.get(f"/api/games/{game}").json()["rated"] is True
    assert act(bob, game, tokens["white"], "resign").status_code == 200

    a, b = client.get("/api/players/alice").json(), client.get("/api/players/BOB").json()
    assert a["rating"] > 1500 > b["rating"]
    assert (a["games"], a["wins"], a["losses"], b["wins"], b["losses"]) == (1, 1, 0, 0, 1)
    assert [h["game"] for h in a["history"]] == [game] and a["history"][0]["rating"] == a["rating"]
    assert (a["rank"], b["rank"]) == ("4k", "9k") and a["deviation"] < 350
    assert check_sqlite(db) == 1
    listed = client.get("/api/players/alice/games").json()["games"]
    assert listed[0]["id"] == game and listed[0]["rated"] is True and listed[0]["result"] == "B+R"


def test_games_that_cannot_be_rated_are_not(client, db):
    alice = signed_up(client, "alice")
    signed_up(client, "bob")
    guest = Browser(client)
    guest.me()
    # alice against herself: both seats hers
    self_game, tokens = rated_game(alice, alice)
    assert client.get(f"/api/games/{self_game}").json()["rated"] is False
    act(alice, self_game, tokens["white"], "resign")
    # alice against a guest
    guest_game, tokens = rated_game(alice, guest)
    act(guest, guest_game, tokens["white"], "resign")
    for name in ("alice", "bob"):
        assert client.get(f"/api/players/{name}").json()["history"] == []
    assert client.get("/api/players/alice").json()["rating"] == 1500
    assert check_sqlite(db) == 0


def test_rated_needs_a_signed_in_creator_two_people_and_an_even_game(client):
    guest = Browser(client)
    guest.me()
    refused = guest.post("/api/games", json={"rated": True})
    assert refused.status_code == 403 and refused.json()["reason"] == "sign-in"
    alice = signed_up(client, "alice")
    assert alice.post("/api/games", json={"rated": True, "white": "computer:1"}).status_code == 400
    assert alice.post("/api/games", json={"rated": True, "handicap": 2}).status_code == 400
    assert alice.post("/api/games", json={"rated": "yes"}).status_code == 400


def test_a_signed_in_player_plays_their_seat_from_another_browser(client):
    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    game, tokens = rated_game(alice, bob)
    elsewhere = Browser(client)
    assert elsewhere.post("/api/session", json={"username": "alice", "password": PASSWORD}).status_code == 200
    seat = elsewhere.get(f"/api/games/{game}/seat").json()
    assert seat["seat"] == "black" and seat["token"] != tokens["black"] and seat["tokens"] == {"black": seat["token"]}
    assert act(elsewhere, game, seat["token"], "play", move="G7", v=2).status_code == 200
    assert bob.get(f"/api/games/{game}/seat").json()["seat"] == "white"
    assert Browser(client).get(f"/api/games/{game}/seat").status_code == 401
    carol = signed_up(client, "carol")
    assert carol.get(f"/api/games/{game}/seat").status_code == 404
    # over the WebSocket, the session alone takes the seat
    with elsewhere.websocket(f"/ws/game/{game}?v=0") as ws:
        hello = ws.receive_json()
        assert hello["t"] == "hello" and hello["d"]["seat"] == "black"


def test_a_players_credential_is_no_other_seats(client):
    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    game, _ = rated_game(alice, bob)
    other, _ = rated_game(bob, alice)
    mine = alice.get(f"/api/games/{game}/seat").json()["token"]
    assert act(alice, other, mine, "play", move="G7", v=2).status_code == 403


def test_a_guest_who_signs_up_keeps_their_games(client):
    alice = signed_up(client, "alice")
    guest = Browser(client)
    guest.me()
    created = alice.post("/api/games", json={"size": 9}).json()
    act(guest, created["id"], created["white_token"], "play", move="E5", v=0)  # out of turn, but it names the seat
    act(alice, created["id"], created["black_token"], "play", move="E5", v=0)
    act(guest, created["id"], created["white_token"], "play", move="C3", v=1)
    assert guest.post("/api/users", json={"username": "gina", "password": PASSWORD}).status_code == 201
    state = client.get(f"/api/games/{created['id']}").json()
    assert state["players"]["white"] == "gina" and state["accounts"] == {"black": True, "white": True}
    mine = guest.get("/api/me/games").json()
    assert [g["id"] for g in mine["games"]] == [created["id"]] and mine["games"][0]["seat"] == "white"
    assert guest.get(f"/api/games/{created['id']}/seat").json()["seat"] == "white"


def test_my_games_say_whose_turn_and_pages_go_newest_first(client):
    alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
    ids = []
    for _ in range(5):
        created = alice.post("/api/games", json={"size": 9, "time": "fischer:3d:1d"}).json()
        act(bob, created["id"], created["white_token"], "play", move="E5", v=0)  # names bob's seat (out of turn)
        ids.append(created["id"])
    mine = bob.get("/api/me/games?limit=2").json()
    assert [g["id"] for g in mine["games"]] == ids[::-1][:2] and mine["next"] == ids[3]
    assert mine["your_turn"] == 0 and mine["games"][0]["your_turn"] is False
    page = bob.get(f"/api/me/games?limit=2&before={mine['next']}").json()
    assert [g["id"] for g in page["games"]] == ids[::-1][2:4]
    last = bob.get(f"/api/me/games?limit=2&before={page['next']}").json()
    assert [g["id"] for g in last["games"]] == [ids[0]] and last["next"] is None
    first = alice.get("/api/me/games?status=ongoing&limit=100").json()
    assert first["your_turn"] == 5 and all(g["your_turn"] and g["to_move"] == "black" for g in first["games"])
    assert client.get("/api/players/bob/games?limit=1").json()["games"][0]["id"] == ids[-1]
    assert Browser(client).get("/api/me/games").status_code == 401
    assert bob.get("/api/me/games?status=lost").status_code == 400
    assert client.get("/api/players/nobody").status_code == 404


@pytest.mark.parametrize("limit", ["0", "101", "x"])
def test_a_bad_page_is_a_400(client, limit):
    signed_up(client, "alice")
    assert client.get(f"/api/players/alice/games?limit={limit}").status_code == 400


def test_a_player_connected_from_another_browser_is_present_and_the_game_not_claimable(db):
    from miai.testing.manualtime import ManualTime
    from tests.server.conftest import make_client

    clock = ManualTime()
    with make_client(db, time=clock) as client:
        alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
        game, tokens = rated_game(alice, bob)
        assert act(alice, game, tokens["black"], "play", move="G7", v=2).status_code == 200  # White to move
        elsewhere = Browser(client)  # bob on another machine, signed in, without the seat's token
        elsewhere.post("/api/session", json={"username": "bob", "password": PASSWORD})
        with elsewhere.websocket(f"/ws/game/{game}?v=0") as ws:
            assert ws.receive_json()["d"]["seat"] == "white"
            clock.advance(120_000)
            refused = act(alice, game, tokens["black"], "claim", v=3)
            assert refused.status_code == 422 and refused.json()["reason"] == "opponent-present"
        clock.advance(120_000)  # gone now
        claimed = act(alice, game, tokens["black"], "claim", v=3)
        assert claimed.status_code == 200
        assert client.get("/api/players/alice").json()["history"] == []  # claimed in its first moves: not rated
        assert client.get(f"/api/games/{game}").json()["rated"] is False


def test_a_void_game_is_not_rated(db):
    from miai.testing.manualtime import ManualTime
    from tests.server.conftest import make_client

    clock = ManualTime()
    with make_client(db, time=clock) as client:
        alice, bob = signed_up(client, "alice"), signed_up(client, "bob")
        created = alice.post("/api/games", json={"size": 9, "rated": True}).json()
        game = created["id"]
        with bob.websocket(f"/ws/game/{game}?v=0&token={created['white_token']}") as ws:
            assert ws.receive_json()["d"]["seat"] == "white"  # bob takes White: the game stays rated
            assert client.get(f"/api/games/{game}").json()["rated"] is True
            clock.advance(120_000)  # alice, to move, never comes back
            claimed = act(bob, game, created["white_token"], "claim", v=0)
            assert claimed.status_code == 200
        state = client.get(f"/api/games/{game}").json()
        assert state["result"] == "Void" and state["rated"] is False
        assert client.get("/api/players/bob").json()["history"] == []
        assert check_sqlite(db) == 0
