"""The SQLite file under a running server (sqlitefile.py): deleted or replaced while it runs,
every change is a 503 and nothing more is acknowledged; a file that is no database, or is
damaged, stops ``miai serve`` at start with one sentence."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from miai.server.storage.db import is_outage
from miai.server.storage.sqlitefile import DatabaseFileGone, DatabaseUnusable, check_file
from tests.server.conftest import Table, make_client

SRC = Path(__file__).resolve().parents[3] / "src"


def moves_after(client, table: Table, v: int) -> list[int]:
    """The statuses of three moves sent from version ``v`` on (none acknowledged, none advances it)."""
    statuses = []
    for color, move in [("white", "C3"), ("white", "C3"), ("white", "G7")]:
        answer = client.post(f"/api/games/{table.id}/play", json={"move": move, "v": v},
                             headers={"Authorization": f"Bearer {table.tokens[color]}"})  # fmt: skip
        statuses.append(answer.status_code)
        assert answer.status_code == 503 and answer.json()["error"] == "unavailable", answer.text
    return statuses


@pytest.mark.parametrize("loss", ["deleted", "replaced"])
def test_a_database_file_lost_while_running_makes_every_change_a_503(db, loss, caplog):
    with make_client(db) as client:
        table = Table(client, size=9)
        v = table.play("black", "E5")
        os.remove(db)
        if loss == "replaced":
            sqlite3.connect(db).close()  # another, empty, file at the same path
        assert moves_after(client, table, v) == [503, 503, 503]
        assert client.post("/api/games", json={"size": 9}).status_code == 503
        game = client.get(f"/api/games/{table.id}")  # what the lost file held, and no more
        assert game.status_code == 200 and game.json()["v"] == v
    assert f"the database file {db} was {'deleted' if loss == 'deleted' else 'replaced by another file'}" in caplog.text


def test_the_file_is_not_questioned_while_it_stays(db):
    with make_client(db) as client:
        table = Table(client, size=9)
        for color, move in [("black", "E5"), ("white", "C3"), ("black", "G7")]:
            table.play(color, move)
        assert client.get(f"/api/games/{table.id}").json()["v"] == 3


def damaged_copy(tmp_path: Path) -> Path:
    """A database whose second page (a table's root) is overwritten."""
    path = tmp_path / "damaged.db"
    with sqlite3.connect(path) as connection:
        connection.execute("create table t (x)")
        connection.executemany("insert into t values (?)", [(i,) for i in range(3000)])
    data = bytearray(path.read_bytes())
    data[4096 : 4096 + 8] = b"\x07" * 8
    path.write_bytes(bytes(data))
    return path


def test_a_file_that_is_no_database_or_is_damaged_is_refused_with_what_to_do(tmp_path):
    text = tmp_path / "notes.db"
    text.write_text("these are my notes, not a database; " * 10)
    with pytest.raises(DatabaseUnusable, match="cannot be read: file is not a database; restore it from a backup"):
        check_file(text)
    with pytest.raises(DatabaseUnusable, match=r"is damaged \(Page 2: btreeInitPage\(\) returns error code 11"):
        check_file(damaged_copy(tmp_path))
    check_file(tmp_path / "missing.db")  # created at start: nothing to check


def test_miai_serve_on_a_damaged_file_says_so_in_one_line_and_exits(tmp_path):
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    damaged = str(damaged_copy(tmp_path))
    command = [sys.executable, "-m", "miai", "serve", "--port", "0", "--no-browser", "--database", damaged]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.startswith("miai serve: the database file ") and "is damaged" in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_a_lost_or_damaged_file_is_an_outage_and_another_database_error_is_not():
    assert is_outage(DatabaseFileGone("the database file x.db was deleted while the server ran"))
    for text in ("file is not a database", "database disk image is malformed"):
        assert is_outage(sa.exc.DatabaseError("SELECT 1", {}, sqlite3.DatabaseError(text)))
    assert not is_outage(sa.exc.DatabaseError("SELECT 1", {}, sqlite3.DatabaseError("no such table: games")))
