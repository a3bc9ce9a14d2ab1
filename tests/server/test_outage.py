"""A database outage (PostgreSQL restarting, a broken connection) is a 503 to retry, on HTTP
and on a game's WebSocket (close 1013), never a 500: docs/SERVER.md §2.1."""

from __future__ import annotations

import asyncpg
import pytest
import sqlalchemy as sa
from starlette.websockets import WebSocketDisconnect

from miai.server.storage.db import is_outage
from tests.server.conftest import Table, make_client


def wrapped(orig: BaseException) -> sa.exc.DBAPIError:
    """How SQLAlchemy hands an asyncpg error on."""
    try:
        raise sa.exc.DBAPIError("SELECT 1", {}, orig) from orig
    except sa.exc.DBAPIError as e:
        return e


@pytest.mark.parametrize(
    "exc",
    [
        ConnectionRefusedError(111, "Connect call failed"),
        ConnectionResetError(104, "Connection reset by peer"),
        wrapped(TimeoutError()),
        wrapped(asyncpg.exceptions.CannotConnectNowError("the database system is shutting down")),
        wrapped(asyncpg.exceptions.AdminShutdownError("terminating connection due to administrator command")),
        wrapped(asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")),
        sa.exc.OperationalError("SELECT 1", {}, Exception("disk I/O error")),
    ],
    ids=repr,
)
def test_the_database_being_unreachable_is_an_outage(exc):
    assert is_outage(exc)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("a bug"),
        KeyError("v"),
        TimeoutError(),  # the server's own time-out, not the database's
        FileNotFoundError(2, "No such file"),
        wrapped(asyncpg.exceptions.UniqueViolationError("duplicate key")),
        sa.exc.IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed")),
    ],
    ids=repr,
)
def test_a_bug_or_a_refused_write_is_not_an_outage(exc):
    assert not is_outage(exc)


def test_a_game_that_cannot_be_loaded_for_an_outage_is_a_503_and_its_socket_closes_with_1013(db, monkeypatch):
    with make_client(db) as first:
        game_id = Table(first, size=9).id
    with make_client(db) as client:  # a new process: the game is not loaded yet
        store = client.app.state.server.store

        async def down(*args, **kwargs):
            raise wrapped(asyncpg.exceptions.CannotConnectNowError("the database system is shutting down"))

        monkeypatch.setattr(store, "load_game", down)
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 503
        assert answer.json()["error"] == "unavailable" and "retry" in answer.json()["message"]
        with client.websocket_connect(f"/ws/game/{game_id}?v=0") as ws:
            refused = ws.receive_json()
            assert refused["t"] == "error" and refused["d"]["error"] == "unavailable"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013
        monkeypatch.undo()  # the database is back: the same requests succeed
        assert client.get(f"/api/games/{game_id}").json()["id"] == game_id
