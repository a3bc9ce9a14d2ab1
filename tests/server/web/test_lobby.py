"""The lobby's lists and joining an open game (docs/SERVER.md §4.1): an open game's free seat
has no token until the first joiner gets one; nobody else can take it after."""

from __future__ import annotations

import threading

from miai.server.play.tokens import FREE_SEAT
from miai.testing.manualtime import ManualTime
from tests.server.browsers import Browser
from tests.server.conftest import Table, make_client


def test_an_open_game_is_listed_until_someone_joins_and_only_the_first_joiner_gets_the_seat(db):
    with make_client(db) as client:
        alice, bob, carol = Browser(client), Browser(client), Browser(client)
        names = {b: b.get("/api/me").json()["name"] for b in (alice, bob, carol)}  # a page's first GET makes a guest
        created = alice.post("/api/games", json={"size": 9, "open": True})
        assert created.status_code == 201, created.text
        game = created.json()
        assert "black_token" in game and "white_token" not in game
        listed = alice.get("/api/games", params={"status": "open"}).json()["games"]
        assert [g["id"] for g in listed] == [game["id"]]
        assert listed[0]["open"] is True and listed[0]["players"]["white"] is None
        # nobody can act for the free seat: no token matches its marker
        for token in (FREE_SEAT, "", "x" * 40):
            refused = client.post(f"/api/games/{game['id']}/play", json={"move": "D4", "v": 0},
                                  headers={"Authorization": f"Bearer {token}"} if token else {})
            assert refused.status_code in (400, 403), refused.text
        joined = bob.post(f"/api/games/{game['id']}/join", json={})
        assert joined.status_code == 200, joined.text
        token = joined.json()["white_token"]
        state = client.get(f"/api/games/{game['id']}").json()
        assert state["players"] == {"black": names[alice], "white": names[bob]}
        late = carol.post(f"/api/games/{game['id']}/join", json={})
        assert late.status_code == 409 and late.json()["error"] == "seat-taken"
        assert alice.get("/api/games", params={"status": "open"}).json()["games"] == []
        # the joiner's token is White's
        black = {"Authorization": f"Bearer {game['black_token']}"}
        assert client.post(f"/api/games/{game['id']}/play", json={"move": "D4", "v": 0}, headers=black).status_code == 200
        white = {"Authorization": f"Bearer {token}"}
        assert client.post(f"/api/games/{game['id']}/play", json={"move": "E5", "v": 1}, headers=white).status_code == 200
        live = client.get("/api/games", params={"status": "live"}).json()["games"]
        assert [g["id"] for g in live] == [game["id"]]


def test_two_joiners_at_once_one_wins(db):
    with make_client(db) as client:
        game = Table(client, size=9, open=True)
        answers: list[int] = []

        def join() -> None:
            answers.append(client.post(f"/api/games/{game.id}/join", json={}).status_code)

        threads = [threading.Thread(target=join) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409, 409, 409]


def test_a_game_that_is_not_open_cannot_be_joined_and_is_not_listed(db):
    with make_client(db) as client:
        invited = Table(client, size=9)  # a friend's game: White's token went with the link
        computer = Table(client, size=9, white="computer:1")
        for game in (invited, computer):
            refused = client.post(f"/api/games/{game.id}/join", json={})
            assert refused.status_code == 409, refused.text
        assert client.get("/api/games", params={"status": "open"}).json()["games"] == []
        assert client.post("/api/games/nope/join", json={}).status_code == 404


def test_open_games_leave_the_list_after_an_hour(db):
    clock = ManualTime()
    with make_client(db, time=clock) as client:
        Table(client, size=9, open=True)
        assert len(client.get("/api/games?status=open").json()["games"]) == 1
        clock.advance(3_600_001)
        assert client.get("/api/games?status=open").json()["games"] == []


def test_bad_listing_and_creation_requests_are_400s(client):
    for query in ("status=nope", "limit=0", "limit=x", "limit=-1", "limit=101", "limit=100000", "order=new"):
        answer = client.get(f"/api/games?{query}")
        assert answer.status_code == 400, query
        assert answer.json()["error"] == "bad-request"
    assert client.get("/api/games?status=live&limit=100").status_code == 200
    assert client.get("/api/games?status=open&limit=1").status_code == 200
    for body in ({"open": "yes"}, {"open": True, "white": "computer:3"}):
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 400 and "open" in answer.json()["message"], body


def test_live_games_list_the_newest_first_and_respect_the_limit(db):
    clock = ManualTime()
    with make_client(db, time=clock) as client:
        ids = []
        for _ in range(3):
            game = Table(client, size=9)
            game.play("black", "E5")
            ids.append(game.id)
            clock.advance(1000)
        Table(client, size=9)  # no move yet: not live
        live = client.get("/api/games?status=live&limit=2").json()["games"]
        assert [g["id"] for g in live] == ids[::-1][:2]


def test_one_address_has_at_most_five_open_games_waiting(db):
    """3,000 open games from 300 addresses filled the list: one address's open games are capped."""
    from starlette.testclient import TestClient

    from miai.server import ServerConfig, create_app
    from tests.server.browsers import with_address

    clock = ManualTime()
    config = ServerConfig(
        database_url=db, suggest_dead_stones=False, start_workers=False, limit_games="1000/minute",
        allowed_hosts=("testserver",),  # the test client's Host (hosts.py)
    )
    with TestClient(with_address(create_app(config, timekeeper=clock))) as client:
        mallory, bob = Browser(client, "10.0.0.1"), Browser(client, "10.0.0.2")
        made = [mallory.post("/api/games", json={"size": 9, "open": True}) for _ in range(5)]
        assert [a.status_code for a in made] == [201] * 5
        clock.advance(60_000)
        refused = mallory.post("/api/games", json={"size": 9, "open": True})
        assert refused.status_code == 429 and refused.json()["limit"] == "open-games"
        assert "at most 5" in refused.json()["message"] and refused.json()["retry_after"] == 3_540
        assert mallory.post("/api/games", json={"size": 9}).status_code == 201  # not an open game
        assert bob.post("/api/games", json={"size": 9, "open": True}).status_code == 201  # another address
        assert bob.post(f"/api/games/{made[0].json()['id']}/join").status_code == 200
        assert mallory.post("/api/games", json={"size": 9, "open": True}).status_code == 201  # one was taken
        assert mallory.post("/api/games", json={"size": 9, "open": True}).status_code == 429
        clock.advance(3_540_001)  # the first four leave the list an hour after they were made
        assert mallory.post("/api/games", json={"size": 9, "open": True}).status_code == 201


def test_an_open_game_shows_its_creators_rank_when_signed_in(db):
    """The lobby shows a signed-in creator's rank (a new player's 1500 is 6k) and whether the
    game is rated; a guest has no rank."""
    with make_client(db) as client:
        player, guest = Browser(client), Browser(client)
        assert player.post("/api/users", json={"username": "Ranked", "password": "correct horse battery"}).status_code == 201
        guest.get("/api/me")
        for browser, rated in ((player, True), (guest, False)):
            assert browser.post("/api/games", json={"size": 9, "open": True, "rated": rated}).status_code == 201
        listed = client.get("/api/games", params={"status": "open"}).json()["games"]
        ranks = {g["players"]["black"]: g["ranks"] for g in listed}
        assert {g["players"]["black"]: g["rated"] for g in listed}["Ranked"] is True
        assert ranks.pop("Ranked") == {"black": "6k", "white": None}
        assert list(ranks.values()) == [{"black": None, "white": None}]
