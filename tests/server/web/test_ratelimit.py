"""Rate limits: 429 with Retry-After naming the limit, per address (a flood from one address
leaves another alone), open WebSockets per address, frames per connection (error frames, then
a close only when the flood goes on), and the moving window itself on a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from miai.server import ServerConfig, create_app
from miai.server.rooms.window import Window
from miai.server.web.ratelimit import client_address
from miai.server.web.ws import CLOSE_RATE_LIMITED
from tests.server.browsers import Browser, with_address
from tests.server.conftest import make_client

RELAXED = {
    name: "100000/minute" for name in ("limit_requests", "limit_games", "limit_accounts", "limit_logins", "limit_login_failures")
}


def limited_client(db: str, **config) -> TestClient:
    settings = {**RELAXED, "suggest_dead_stones": False, "password_time_cost": 1, "password_memory_kib": 1024,
                "allowed_hosts": ("testserver",)}  # fmt: skip
    return TestClient(with_address(create_app(ServerConfig(database_url=db, **{**settings, **config}))))


def check_429(answer, limit: str, word: str) -> None:
    assert answer.status_code == 429, answer.text
    body = answer.json()
    assert body["error"] == "rate-limited" and body["limit"] == limit and word in body["message"]
    retry = int(answer.headers["Retry-After"])
    assert 1 <= retry <= 60 and body["retry_after"] == retry


def test_game_creation_is_limited_per_address_with_retry_after(db):
    with limited_client(db, limit_games="3/minute") as client:
        a, b = Browser(client, "10.0.0.1"), Browser(client, "10.0.0.2")
        for _ in range(3):
            assert a.post("/api/games", json={"size": 9}).status_code == 201
        check_429(a.post("/api/games", json={"size": 9}), "games", "games created")
        assert b.post("/api/games", json={"size": 9}).status_code == 201


def test_account_creation_and_logins_are_limited(db):
    with limited_client(db, limit_accounts="2/minute", limit_logins="3/minute") as client:
        a = Browser(client, "10.0.0.1")
        for name in ("one", "two"):
            assert a.post("/api/users", json={"username": name, "password": "a long password"}).status_code == 201
        check_429(a.post("/api/users", json={"username": "three", "password": "a long password"}), "accounts", "accounts")
        for _ in range(3):
            assert a.post("/api/session", json={"username": "one", "password": "wrong password"}).status_code == 401
        # the right password does not get through either: guessing stops here
        check_429(a.post("/api/session", json={"username": "one", "password": "a long password"}), "logins", "login")
        b = Browser(client, "10.0.0.2")
        assert b.post("/api/session", json={"username": "one", "password": "a long password"}).status_code == 200


def test_a_flood_from_one_address_leaves_another_alone(db):
    with limited_client(db, limit_requests="20/minute") as client:
        game = Browser(client, "192.0.2.9").post("/api/games", json={"size": 9}).json()["id"]
        flood, calm = Browser(client, "192.0.2.1"), Browser(client, "198.51.100.7")
        answers = [flood.get(f"/api/games/{game}").status_code for _ in range(30)]
        assert answers[:20] == [200] * 20 and set(answers[20:]) == {429}
        check_429(flood.get("/"), "requests", "requests")
        for _ in range(10):
            assert calm.get(f"/api/games/{game}").status_code == 200
        # an IPv6 host is counted by its /64: another address in it is the same client
        v6a, v6b = Browser(client, "2001:db8:1:2::1"), Browser(client, "2001:db8:1:2::ffff")
        for _ in range(20):
            assert v6a.get("/api/me").status_code == 200
        assert v6b.get("/api/me").status_code == 429
        assert Browser(client, "2001:db8:1:3::1").get("/api/me").status_code == 200


def test_open_websockets_are_limited_per_address(db):
    with limited_client(db, ws_max_per_address=2) as client:
        game = Browser(client, "10.0.0.9").post("/api/games", json={"size": 9}).json()["id"]
        a, b = Browser(client, "10.0.0.1"), Browser(client, "10.0.0.2")
        with a.websocket(f"/ws/game/{game}") as one, a.websocket(f"/ws/game/{game}") as two:
            assert one.receive_json()["t"] == two.receive_json()["t"] == "hello"
            with pytest.raises(WebSocketDisconnect) as info:
                with a.websocket(f"/ws/game/{game}") as three:
                    error = three.receive_json()
                    assert error["t"] == "error" and error["d"]["error"] == "rate-limited"
                    assert "at most 2" in error["d"]["message"]
                    three.receive_json()
            assert info.value.code == CLOSE_RATE_LIMITED
            with b.websocket(f"/ws/game/{game}") as other:
                assert other.receive_json()["t"] == "hello"
        with a.websocket(f"/ws/game/{game}") as again:  # the closed ones no longer count
            assert again.receive_json()["t"] == "hello"


def test_too_many_frames_get_error_frames_and_the_connection_stays(db):
    with limited_client(db, ws_frames_per_second=3, ws_flood_refusals=1000) as client:
        game = client.post("/api/games", json={"size": 9}).json()["id"]
        with client.websocket_connect(f"/ws/game/{game}") as ws:
            ws.receive_json(), ws.receive_json()  # hello, full
            for _ in range(30):
                ws.send_json({"t": "ping"})
            frames = [ws.receive_json() for _ in range(30)]
            pongs = [f for f in frames if f["t"] == "pong"]
            errors = [f["d"] for f in frames if f["t"] == "error"]
            assert 3 <= len(pongs) < 30 and len(pongs) + len(errors) == 30
            assert all(e["error"] == "rate-limited" and e["limit"] == "frames" and "at most 3" in e["message"]
                       for e in errors)


def test_a_sustained_flood_closes_the_connection(db):
    with limited_client(db, ws_frames_per_second=2, ws_flood_refusals=5) as client:
        game = client.post("/api/games", json={"size": 9}).json()["id"]
        with pytest.raises(WebSocketDisconnect) as info:
            with client.websocket_connect(f"/ws/game/{game}") as ws:
                for _ in range(20):
                    ws.send_json({"t": "ping"})
                while True:
                    ws.receive_json()
        assert info.value.code == CLOSE_RATE_LIMITED and "flood" in info.value.reason


# ------------------------------------------------------------------ the pieces
@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.5", "203.0.113.5"),
        ("2001:db8:aa:bb:1:2:3:4", "2001:db8:aa:bb::/64"),
        ("::ffff:203.0.113.5", "203.0.113.5"),
        ("testclient", "testclient"),
    ],
)
def test_client_address_keys(host, key):
    assert client_address({"client": (host, 1)}) == key


def test_no_client_address_is_one_key():
    assert client_address({"client": None}) == client_address({}) == "unknown"


def test_the_window_on_a_fake_clock():
    w = Window(3, 1000)
    assert [w.hit(t) for t in (0, 100, 200, 300)] == [True, True, True, False]
    assert w.retry_after_ms(300) == 700
    assert w.hit(999) is False and w.hit(1000) is True  # the first hit left the window
    assert w.retry_after_ms(1000) == 100
    with pytest.raises(ValueError):
        Window(0, 1000)


@given(
    st.integers(1, 5),
    st.integers(1, 2000),
    st.lists(st.integers(0, 300), max_size=60),
)
def test_the_window_never_lets_more_than_its_limit_through_in_any_window(limit, length, gaps):
    w = Window(limit, length)
    now, accepted = 0, []
    for gap in gaps:
        now += gap
        if w.hit(now):
            accepted.append(now)
        else:  # refused only when the window is full
            assert sum(1 for u in accepted if now - u < length) == limit
            assert w.retry_after_ms(now) > 0
    for i, t in enumerate(accepted):
        assert sum(1 for u in accepted[i:] if u - t < length) <= limit


def test_websocket_handshakes_count_as_requests(db):
    with limited_client(db, limit_requests="4/minute") as client:
        a = Browser(client, "10.0.0.1")
        game = Browser(client, "10.0.0.2").post("/api/games", json={"size": 9}).json()["id"]
        for _ in range(4):
            with a.websocket(f"/ws/game/{game}") as ws:
                assert ws.receive_json()["t"] == "hello"
        with pytest.raises(WebSocketDisconnect) as info:
            with a.websocket(f"/ws/game/{game}") as ws:
                error = ws.receive_json()["d"]
                assert error["limit"] == "requests" and error["status"] == 429
                ws.receive_json()
        assert info.value.code == CLOSE_RATE_LIMITED and "requests" in info.value.reason


def test_a_failing_limit_storage_lets_requests_through_and_says_so(db, caplog):
    settings = {**RELAXED, "limit_requests": "1/minute", "allowed_hosts": ("testserver",)}
    app = create_app(ServerConfig(database_url=db, **settings))

    async def broken(*args, **kwargs):
        raise ConnectionError("the limit storage is down")

    app.state.limits.limiter.hit = broken
    with TestClient(app) as client:
        for _ in range(3):
            assert client.get("/api/me").status_code == 200
    assert "the rate-limit storage failed" in caplog.text


def test_bad_limit_settings_are_refused_at_start(db):
    with pytest.raises(ValueError):
        create_app(ServerConfig(database_url=db, ws_frames_per_second=0))
    with pytest.raises(ValueError):
        create_app(ServerConfig(database_url=db, limit_games="ten a minute"))



def test_the_memory_storage_cleans_expired_entries_but_only_every_few_seconds(monkeypatch):
    """The library's cleaning after every hit is throttled (it cost most of a core with
    thousands of addresses); expired entries still go, at the next pass."""
    import asyncio
    import time as real_time
    import types

    from limits import parse
    from limits.aio.storage import memory as limits_memory
    from limits.aio.strategies import MovingWindowRateLimiter

    from miai.server.web.ratelimit import MemoryStorage

    async def run():
        storage = MemoryStorage()
        limiter = MovingWindowRateLimiter(storage)
        item = parse("2/second")
        for i in range(50):
            assert await limiter.hit(item, "requests", f"10.0.0.{i}")
        assert await limiter.hit(item, "requests", "10.0.0.1") and not await limiter.hit(item, "requests", "10.0.0.1")
        later = real_time.time() + 120
        monkeypatch.setattr(limits_memory, "time", types.SimpleNamespace(time=lambda: later))
        assert await limiter.hit(item, "requests", "10.0.0.1")  # the window moved on: exact without cleaning
        await asyncio.sleep(0.05)
        kept = len(storage.events)  # throttled: no pass yet
        storage._cleaned = float("-inf")
        await limiter.hit(item, "requests", "10.0.0.200")
        for _ in range(100):
            await asyncio.sleep(0.01)
            if len(storage.events) <= 2:
                break
        return kept, len(storage.events)

    kept, after = asyncio.run(run())
    assert kept >= 50 and after <= 2


def test_with_rate_limits_off_one_address_is_not_limited(db):
    with make_client(db, rate_limits=False, limit_games="2/minute", ws_max_per_address=1) as client:
        made = [client.post("/api/games", json={"size": 9}).status_code for _ in range(5)]
        assert made == [201] * 5
