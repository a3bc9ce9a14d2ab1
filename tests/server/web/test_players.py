"""The players' names on a game: the creator's on the first human seat, the other seat's from
the first session that uses its token (HTTP or WebSocket); a name stays once set."""

from __future__ import annotations

from tests.server.browsers import Browser
from tests.server.conftest import make_client


def frames_until(ws, t: str) -> list[dict]:
    seen = []
    while True:
        seen.append(ws.receive_json())
        if seen[-1]["t"] == t:
            return seen


def players(client, game: str) -> dict:
    return client.get(f"/api/games/{game}").json()["players"]


def test_the_creator_takes_black_and_the_invited_session_names_white_over_http(client):
    alice, bob = Browser(client), Browser(client)
    alice_name, bob_name = alice.me()["name"], bob.me()["name"]
    created = alice.post("/api/games", json={"size": 9}).json()
    game = created["id"]
    assert players(client, game) == {"black": alice_name, "white": None}

    auth = {"Authorization": f"Bearer {created['black_token']}"}
    assert alice.post(f"/api/games/{game}/play", json={"move": "E5", "v": 0}, headers=auth).status_code == 200
    auth = {"Authorization": f"Bearer {created['white_token']}"}
    assert bob.post(f"/api/games/{game}/play", json={"move": "D4", "v": 1}, headers=auth).status_code == 200
    assert players(client, game) == {"black": alice_name, "white": bob_name}

    # a name stays: a later session using the same token does not rename the seat
    carol = Browser(client)
    carol.me()
    carol.post(f"/api/games/{game}/play", json={"move": "C3", "v": 2}, headers=auth)
    assert players(client, game) == {"black": alice_name, "white": bob_name}


def test_a_computer_black_puts_the_creator_on_white(client):
    alice = Browser(client)
    name = alice.me()["name"]
    created = alice.post("/api/games", json={"size": 9, "black": "computer:1"}).json()
    assert players(client, created["id"]) == {"black": "miai level 1", "white": name}  # as the SGF names them


def test_a_program_without_a_cookie_names_nothing(client):
    answer = client.post("/api/games", json={"size": 9})
    game, token = answer.json()["id"], answer.json()["white_token"]
    assert players(client, game) == {"black": None, "white": None}
    client.cookies.clear()
    client.post(f"/api/games/{game}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
    assert players(client, game) == {"black": None, "white": None}


def test_a_user_account_names_the_seat_with_its_username(client):
    alice, dana = Browser(client), Browser(client)
    alice.me()
    dana.post("/api/users", json={"username": "Dana", "password": "a long password"})
    created = alice.post("/api/games", json={"size": 9}).json()
    with dana.websocket(f"/ws/game/{created['id']}?v=0") as ws:
        frames_until(ws, "hello")
        assert players(client, created["id"])["white"] is None  # watching names nothing
        ws.send_json({"t": "auth", "d": {"token": created["white_token"]}})
        got = frames_until(ws, "players")
        assert got[-1]["d"] == {"black": alice.me()["name"], "white": "Dana"}
    assert players(client, created["id"])["white"] == "Dana"


def test_the_websocket_token_in_the_address_names_the_seat_and_the_name_survives_a_restart(db):
    with make_client(db) as client:
        alice, bob = Browser(client), Browser(client)
        alice.me()
        bob_name = bob.me()["name"]
        created = alice.post("/api/games", json={"size": 9}).json()
        with alice.websocket(f"/ws/game/{created['id']}?v=0") as watcher:
            frames_until(watcher, "hello")
            with bob.websocket(f"/ws/game/{created['id']}?v=0&token={created['white_token']}") as ws:
                assert frames_until(ws, "hello")[-1]["d"]["seat"] == "white"
                assert frames_until(watcher, "players")[-1]["d"]["white"] == bob_name
        names = players(client, created["id"])
    with make_client(db) as client:
        assert players(client, created["id"]) == names and names["white"] == bob_name
