"""Fixtures for the server's tests: an application on a fresh SQLite file, and players.

:class:`Table` drives one game through the HTTP API as its two seats (and a spectator), the
way a program would: ``table.play("black", "D4")`` sends the version it last saw.
"""

from __future__ import annotations

import multiprocessing
import warnings
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from miai.server import ServerConfig, create_app
from miai.testing.manualtime import ManualTime


def pytest_configure(config):
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture(scope="session")
def estimate_pool():
    """One worker process for the dead-stone estimate, shared by the tests that need it."""
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    yield pool
    pool.shutdown(cancel_futures=True)


def make_client(db: str, *, time: ManualTime | None = None, **config: Any) -> TestClient:
    """A client of an application on ``db``; with ``time``, the games' clocks, their timers
    and the events' times are that fake time's."""
    config.setdefault("suggest_dead_stones", False)
    config.setdefault("start_workers", False)  # a test that uses them starts them on first use
    for name in ("limit_requests", "limit_games", "limit_accounts", "limit_logins", "limit_login_failures", "limit_analysis"):
        config.setdefault(name, "100000/minute")  # the tests of the limits set their own
    config.setdefault("password_time_cost", 1)  # cheap hashes: the tests do not measure argon2
    config.setdefault("password_memory_kib", 1024)
    config.setdefault("allowed_hosts", ("testserver",))  # the test client's Host (hosts.py)
    executor = config.pop("executor", None)
    settings = ServerConfig(database_url=db, **config)
    return TestClient(create_app(settings, executor=executor, timekeeper=time))


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "miai.db")


@pytest.fixture
def client(db):
    with make_client(db) as c:
        yield c


class Table:
    """One game played through the HTTP API by its two seats."""

    def __init__(self, client: TestClient, **settings: Any):
        self.client = client
        answer = client.post("/api/games", json=settings)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        self.id: str = created["id"]
        self.tokens = {"black": created.get("black_token"), "white": created.get("white_token")}
        self.created = created

    @property
    def url(self) -> str:
        return f"/api/games/{self.id}"

    def auth(self, seat: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"} if seat else {}

    def state(self) -> dict[str, Any]:
        answer = self.client.get(self.url)
        assert answer.status_code == 200, answer.text
        return answer.json()

    @property
    def v(self) -> int:
        return self.state()["v"]

    def post(self, seat: str | None, action: str, body: dict[str, Any] | None = None, **kw: Any):
        return self.client.post(f"{self.url}/{action}", json=body, headers=self.auth(seat), **kw)

    def send(self, seat: str | None, action: str, **fields: Any):
        """Post an action with the current version unless ``v`` is given."""
        if action != "resign" and "v" not in fields:
            fields["v"] = self.v
        return self.post(seat, action, fields)

    def play(self, seat: str, move: str, **fields: Any) -> int:
        answer = self.send(seat, "play", move=move, **fields)
        assert answer.status_code == 200, answer.text
        return answer.json()["v"]

    def moves(self, text: str) -> None:
        """Alternate moves from the side to move (``"D4 E5 pass"``)."""
        for move in text.split():
            self.play(self.state()["to_move"], move)

    def events(self, after: int = 0) -> list[dict[str, Any]]:
        answer = self.client.get(f"{self.url}/events", params={"after": after})
        assert answer.status_code == 200, answer.text
        return answer.json()["events"]
