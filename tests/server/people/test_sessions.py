"""Sessions: every browser a signed guest cookie; tampered or foreign cookies are a new guest,
never an error; the secret survives restarts; a cookie never grants a seat."""

from __future__ import annotations

import base64
import json

import itsdangerous
import pytest
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from miai.server import ServerConfig
from miai.server.config import SECRET_ENV
from miai.server.people.sessions import COOKIE, SecretError, Who, resolve_secret, who
from tests.server.browsers import Browser
from tests.server.conftest import Table, make_client


def test_a_browser_gets_a_signed_guest_cookie_http_only_and_same_site_lax(client):
    answer = client.get("/")
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "secure" not in flags
    me = client.get("/api/me").json()
    assert me["kind"] == "guest" and me["name"].startswith("Guest ")
    assert client.get("/api/me").json() == me  # the same guest while the cookie is kept


def test_https_only_marks_the_cookie_secure(db):
    with make_client(db, https_only=True) as client:
        flags = [p.strip().lower() for p in client.get("/api/me").headers["set-cookie"].split(";")]
    assert "secure" in flags


def test_programs_acting_with_a_token_get_no_cookie(client):
    table = Table(client, size=9)
    client.cookies.clear()
    answer = table.post("black", "play", {"move": "E5", "v": 0})
    assert answer.status_code == 200 and "set-cookie" not in answer.headers


def _forge(payload: dict, secret: str) -> str:
    data = base64.b64encode(json.dumps(payload).encode())
    return itsdangerous.TimestampSigner(secret).sign(data).decode()


@pytest.mark.parametrize(
    "mangle",
    [
        lambda value, secret: value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB"),  # signature broken
        lambda value, secret: value.replace(".", "x.", 1),  # payload changed under the signature
        lambda value, secret: _forge({"id": "u:1", "name": "admin"}, "another secret, not the server's"),
        lambda value, secret: "not-a-cookie-at-all!$%",
        lambda value, secret: _forge({"id": "u:1", "name": ["not", "a", "name"]}, secret),  # ours, but no identity
        lambda value, secret: _forge({"id": "root", "name": "root"}, secret),
    ],
)
def test_a_tampered_or_foreign_cookie_is_a_new_guest_never_an_error(db, mangle):
    secret = "a test secret of enough length"
    with make_client(db, secret=secret) as client:
        browser = Browser(client)
        first = browser.me()
        value = browser.cookies[COOKIE]
        browser.set_cookie(COOKIE, mangle(value, secret))
        for path in ("/", "/api/me"):
            assert browser.get(path).status_code == 200
        again = browser.me()
        assert again["kind"] == "guest"
        assert browser.cookies[COOKIE] != value  # a new cookie was issued
        answer = browser.post("/api/games", json={"size": 9})
        assert answer.status_code == 201
    assert first["kind"] == "guest"


def test_who_reads_only_well_formed_identities():
    def conn(session):
        return HTTPConnection({"type": "http", "headers": [], "session": session})

    assert who(conn({"id": "g:abcdefgh12", "name": "Guest 1234"})) == Who("g:abcdefgh12", "Guest 1234")
    assert who(conn({"id": "u:12", "name": "alice"})).user_id == 12
    for bad in ({}, {"id": "u:x", "name": "a"}, {"id": "g:short", "name": "a"}, {"id": "u:1", "name": ""},
                {"id": "u:1", "name": "x" * 41}, {"id": 5, "name": "a"}):
        assert who(conn(bad)) is None, bad


def test_the_secret_is_kept_next_to_the_database_and_cookies_survive_a_restart(tmp_path, monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    db = str(tmp_path / "games.db")
    with make_client(db) as client:
        browser = Browser(client)
        me = browser.me()
    secret_file = tmp_path / "games.db.secret"
    assert secret_file.exists() and oct(secret_file.stat().st_mode & 0o777) == "0o600"
    assert len(secret_file.read_text().strip()) >= 32
    with make_client(db) as client:
        browser.client = client
        assert browser.me() == me


def test_the_secret_from_the_environment_or_the_config(tmp_path, monkeypatch):
    db = str(tmp_path / "games.db")
    monkeypatch.setenv(SECRET_ENV, "from the environment, long enough")
    assert resolve_secret(ServerConfig(database_url=db)) == "from the environment, long enough"
    assert resolve_secret(ServerConfig(database_url=db, secret="from the config, long enough")) == (
        "from the config, long enough"
    )
    assert not (tmp_path / "games.db.secret").exists()
    monkeypatch.setenv(SECRET_ENV, "short")
    with pytest.raises(SecretError):
        resolve_secret(ServerConfig(database_url=db))
    monkeypatch.delenv(SECRET_ENV)
    (tmp_path / "games.db.secret").write_text("tiny\n")
    with pytest.raises(SecretError, match="shorter"):
        resolve_secret(ServerConfig(database_url=db))


def test_an_in_memory_database_gets_a_secret_of_its_own_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    one = resolve_secret(ServerConfig(database_url="sqlite://"))
    two = resolve_secret(ServerConfig(database_url="sqlite:///:memory:"))
    assert one != two and len(one) >= 32
    assert list(tmp_path.iterdir()) == []


def test_a_cookie_alone_never_grants_a_seat(client):
    """The session that created the game and named Black still needs Black's token to act."""
    creator = Browser(client)
    creator.me()
    created = creator.post("/api/games", json={"size": 9}).json()
    game = created["id"]
    assert client.get(f"/api/games/{game}").json()["players"]["black"] == creator.me()["name"]
    answer = creator.post(f"/api/games/{game}/play", json={"move": "E5", "v": 0})
    assert answer.status_code == 403
    with creator.websocket(f"/ws/game/{game}?v=0") as ws:
        hello = ws.receive_json()
        assert hello["t"] == "hello" and hello["d"]["seat"] is None
        ws.send_json({"t": "play", "d": {"move": "E5", "v": 0}})
        while (f := ws.receive_json())["t"] != "reject":
            pass
        assert f["d"]["status"] == 403
    # another session with Black's cookie copied still has no seat without the token
    thief = Browser(client)
    thief.cookies = creator.cookies
    assert thief.post(f"/api/games/{game}/play", json={"move": "E5", "v": 0}).status_code == 403
    assert client.get(f"/api/games/{game}").json()["v"] == 0


def test_a_refused_websocket_never_crashes_on_a_bad_cookie(client):
    table = Table(client, size=9)
    with client.websocket_connect(f"/ws/game/{table.id}", headers={"cookie": f"{COOKIE}=garbage.x.y"}) as ws:
        assert ws.receive_json()["t"] == "hello"
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws/game/nosuchgame", headers={"cookie": f"{COOKIE}=a"}) as ws:
            assert ws.receive_json()["t"] == "error"
            ws.receive_json()
