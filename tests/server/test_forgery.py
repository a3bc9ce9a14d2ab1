"""Seats cannot be forged: only a seat's own token, in ``Authorization: Bearer``, acts for it.

Each attempt below is refused and changes nothing (the events and the state stay the same):
another game's token, a token with one character changed, a token in the wrong header form or
in the query string, a replay of a seat's action under the other seat's token, a session
cookie without a token; and on the WebSocket an ``auth`` with a forged token gets an error
frame and the connection stays a spectator. (test_api.py has the missing and unknown tokens,
test_sessions.py the creator's own cookie.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.browsers import Browser
from tests.server.conftest import Table
from tests.server.fuzzing import live_and_replayed

# every action, with a body that would be valid for Black on a fresh 9x9 game at v=0
ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("play", {"move": "E5", "v": 0}),
    ("resign", {"v": 0}),
    ("dead", {"dead": [], "v": 0}),
    ("accept", {"v": 0}),
    ("refuse", {"v": 0}),
    ("undo", {"v": 0}),
    ("undo-answer", {"accept": True, "v": 0}),
    ("claim", {"v": 0}),
]


def changed_one_character(token: str) -> str:
    last = "A" if token[-1] != "A" else "B"
    return token[:-1] + last


def assert_unchanged(table: Table, before: dict[str, Any], *, real_token: bool = False) -> None:
    """The game as it was; with ``real_token`` (a seat's own token was used, from the test
    client's guest session) the seat may have taken the session's name (players.py)."""
    ignored = {"presence", "players"} if real_token else {"presence"}
    after = {k: v for k, v in table.state().items() if k not in ignored}
    assert after == {k: v for k, v in before.items() if k not in ignored}
    live, rebuilt = live_and_replayed(table.client, table.id)
    assert live == rebuilt


def forged_tokens(table: Table, other: Table) -> dict[str, str]:
    black = table.tokens["black"]
    return {
        "another game's black": other.tokens["black"],
        "another game's white": other.tokens["white"],
        "last character changed": changed_one_character(black),
        "first character changed": ("B" if black[0] == "A" else "A") + black[1:],
        "one character dropped": black[:-1],
        "one character added": black + "A",
        "upper-cased": black.upper() if black.upper() != black else black.lower(),
        "the game's id": table.id,
        "padded inside": black[:10] + " " + black[10:],
    }


@pytest.mark.parametrize(("action", "body"), ACTIONS)
def test_forged_tokens_are_refused_for_every_action(client, action, body):
    table, other = Table(client, size=9), Table(client, size=9)
    before = table.state()
    for what, token in forged_tokens(table, other).items():
        answer = client.post(f"{table.url}/{action}", json=body, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 403, (what, answer.text)
        assert answer.json()["error"] == "forbidden" and answer.json()["message"], what
    assert_unchanged(table, before)
    assert other.events() == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "{token}"},  # no scheme
        {"Authorization": "Token {token}"},
        {"Authorization": "Basic {token}"},
        {"Authorization": "Bearer: {token}"},
        {"Authorization": "Bearer{token}"},
        {"X-Token": "{token}"},
        {"Token": "{token}"},
        {"Cookie": "token={token}"},
        {"X-Authorization": "Bearer {token}"},
    ],
)
def test_a_real_token_in_the_wrong_header_form_is_refused(client, headers):
    """The real token itself, sent any other way than ``Authorization: Bearer TOKEN``: a 400
    that names the right form (a malformed Authorization header) or a 403 (no token)."""
    table = Table(client, size=9)
    before = table.state()
    sent = {k: v.replace("{token}", table.tokens["black"]) for k, v in headers.items()}
    answer = client.post(f"{table.url}/play", json={"move": "E5", "v": 0}, headers=sent)
    assert answer.status_code in (400, 403), answer.text
    body = answer.json()
    if answer.status_code == 400:
        assert "Bearer TOKEN" in body["message"]
    else:
        assert body["error"] == "forbidden" and body["message"]
    assert_unchanged(table, before)


@pytest.mark.parametrize("name", ["token", "access_token", "auth", "authorization"])
def test_a_token_in_the_query_string_of_an_action_is_refused(client, name):
    table = Table(client, size=9)
    before = table.state()
    answer = client.post(f"{table.url}/play", params={name: table.tokens["black"]}, json={"move": "E5", "v": 0})
    assert answer.status_code == 403 and answer.json()["error"] == "forbidden", answer.text
    assert_unchanged(table, before)


def test_a_seats_token_acts_only_as_that_seat(client):
    """White's token on Black's turn is White moving out of turn, never Black moving."""
    table = Table(client, size=9)
    before = table.state()
    answer = table.send("white", "play", move="E5")
    assert answer.status_code == 422 and answer.json()["reason"] == "out-of-turn", answer.text
    assert_unchanged(table, before, real_token=True)


def test_a_replayed_action_under_the_other_seats_token_is_not_the_first_seats(client):
    """Black's action (with its action id) replayed with White's token is White's request: it
    is not recognised as Black's retry (no ack of Black's version) and applies nothing."""
    table = Table(client, size=9)
    sent = {"move": "E5", "v": 0, "a": "black-1"}
    assert table.post("black", "play", sent).json() == {"v": 1}
    before = table.state()
    replay = table.post("white", "play", sent)
    assert replay.status_code == 409 and replay.json()["error"] == "stale-version", replay.text
    assert_unchanged(table, before, real_token=True)
    # at the current version the replay is White playing on Black's stone: refused by the rules
    replay = table.post("white", "play", {**sent, "v": 1})
    assert replay.status_code == 422 and replay.json()["reason"] == "occupied", replay.text
    assert_unchanged(table, before, real_token=True)
    # Black's undo request cannot be answered with Black's own token
    assert table.post("black", "undo", {"v": 1}).status_code == 200
    before = table.state()
    answer = table.post("black", "undo-answer", {"accept": True, "v": 2})
    assert 400 <= answer.status_code < 500 and answer.json()["message"], answer.text
    assert_unchanged(table, before, real_token=True)


@pytest.mark.parametrize(("action", "body"), ACTIONS)
def test_another_sessions_cookie_without_a_token_is_refused(client, action, body):
    creator = Browser(client)
    created = creator.post("/api/games", json={"size": 9}).json()
    game = created["id"]
    before = client.get(f"/api/games/{game}").json()
    thief = Browser(client)
    thief.cookies = creator.cookies
    for who in (creator, thief):
        answer = who.post(f"/api/games/{game}/{action}", json=body)
        assert answer.status_code == 403 and answer.json()["error"] == "forbidden", answer.text
    after = client.get(f"/api/games/{game}").json()
    assert {k: v for k, v in after.items() if k != "presence"} == {k: v for k, v in before.items() if k != "presence"}


def frames_until(ws, t: str) -> list[dict]:
    seen = []
    while True:
        seen.append(ws.receive_json())
        if seen[-1]["t"] == t:
            return seen


@pytest.mark.parametrize("seat", [None, "white"])
def test_a_websocket_auth_with_a_forged_token_gets_an_error_and_no_seat(client, seat):
    table, other = Table(client, size=9), Table(client, size=9)
    before = table.state()
    query = f"&token={table.tokens[seat]}" if seat else ""
    with client.websocket_connect(f"/ws/game/{table.id}?v=0{query}") as ws:
        assert ws.receive_json()["d"]["seat"] == seat
        for what, token in forged_tokens(table, other).items():
            ws.send_json({"t": "auth", "d": {"token": token}})
            error = frames_until(ws, "error")[-1]["d"]
            assert error["status"] == 403 and error["error"] == "forbidden", (what, error)
            # still what it was: a spectator cannot act, White cannot act for Black
            ws.send_json({"t": "play", "d": {"move": "E5", "v": 0}})
            reject = frames_until(ws, "reject")[-1]["d"]
            expected = 403 if seat is None else 422
            assert reject["status"] == expected, (what, reject)
    assert_unchanged(table, before, real_token=seat is not None)
    assert other.events() == []


@pytest.mark.parametrize("forge", ["another game's", "changed"])
def test_a_websocket_with_a_forged_token_in_its_query_is_refused(client, forge):
    table, other = Table(client, size=9), Table(client, size=9)
    token = other.tokens["black"] if forge == "another game's" else changed_one_character(table.tokens["black"])
    with client.websocket_connect(f"/ws/game/{table.id}?v=0&token={token}") as ws:
        error = ws.receive_json()
        assert error["t"] == "error" and error["d"]["status"] == 403
