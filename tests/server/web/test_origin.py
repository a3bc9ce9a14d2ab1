"""Origin checks: another site's page cannot open a game's WebSocket or send cookie-backed
requests; programs without Origin and requests with a Bearer token are not affected."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from miai.server.web.origin import CLOSE_CROSS_SITE, cross_site, normal_origin
from tests.server.browsers import Browser
from tests.server.conftest import Table, make_client

EVIL = "https://evil.example"


def scope(origin: str | None, host: str = "go.example:8000") -> dict:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "http", "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (None, "go.example", True),
        ("http://go.example:8000", "go.example:8000", True),
        ("HTTPS://Go.Example", "go.example", True),
        ("https://go.example:443", "go.example", True),
        ("http://go.example", "go.example:80", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("https://go.example.evil.example", "go.example", False),
        ("http://go.example:8001", "go.example:8000", False),
        ("null", "go.example", False),
        ("", "go.example", False),
        (EVIL, "go.example", False),
    ],
)
def test_the_origin_must_be_the_servers_own(origin, host, allowed):
    refusal = cross_site(scope(origin, host), ())
    assert (refusal is None) is allowed
    if refusal is not None:
        assert refusal.status == 403 and refusal.code == "cross-site" and "not of this server" in refusal.message


def test_an_allowed_origin_is_accepted_whatever_its_spelling():
    assert cross_site(scope("https://Play.Example:443", "go.example"), ("https://play.example",)) is None
    assert cross_site(scope("http://play.example", "go.example"), ("https://play.example",)) is not None
    assert normal_origin("HTTPS://A.B:443") == "https://a.b"


def test_a_cross_site_websocket_is_refused_with_a_reason(client):
    table = Table(client, size=9)
    with pytest.raises(WebSocketDisconnect) as info:
        with client.websocket_connect(f"/ws/game/{table.id}", headers={"origin": EVIL}) as ws:
            error = ws.receive_json()
            assert error["t"] == "error" and error["d"]["error"] == "cross-site" and EVIL in error["d"]["message"]
            ws.receive_json()
    assert info.value.code == CLOSE_CROSS_SITE and "cross-site" in info.value.reason


@pytest.mark.parametrize("headers", [{}, {"origin": "http://testserver"}, {"origin": "https://friend.example"}])
def test_same_site_allowed_and_origin_less_websockets_connect(db, headers):
    with make_client(db, allowed_origins=("https://friend.example",)) as client:
        table = Table(client, size=9)
        with client.websocket_connect(f"/ws/game/{table.id}?token={table.tokens['black']}", headers=headers) as ws:
            assert ws.receive_json()["d"]["seat"] == "black"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/users", {"username": "mallory", "password": "a long password"}),
        ("POST", "/api/session", {"username": "alice", "password": "a long password"}),
        ("DELETE", "/api/session", None),
        ("POST", "/api/games", {"size": 9}),
    ],
)
def test_cookie_backed_requests_from_another_site_get_403(client, method, path, body):
    alice = Browser(client)
    assert alice.post("/api/users", json={"username": "alice", "password": "a long password"}).status_code == 201
    answer = alice.request(method, path, json=body, headers={"origin": EVIL})
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"] == "cross-site" and "not of this server" in answer.json()["message"]
    assert alice.me() == {"kind": "user", "name": "alice", "language": None}  # nothing happened
    same = alice.request(method, path, json=body, headers={"origin": "http://testserver"})
    assert same.status_code < 500 and same.json().get("error") != "cross-site"


def test_bearer_requests_are_not_affected_by_the_origin(client):
    table = Table(client, size=9)
    answer = client.post(
        f"{table.url}/play",
        json={"move": "E5", "v": 0},
        headers={"origin": EVIL, "Authorization": f"Bearer {table.tokens['black']}"},
    )
    assert answer.status_code == 200 and table.v == 1
    assert client.get(table.url, headers={"origin": EVIL}).status_code == 200  # reads are not checked
