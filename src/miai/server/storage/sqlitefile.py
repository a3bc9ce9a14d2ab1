"""The SQLite file under a running server: checked at start, watched while it runs.

- **At start** (:func:`check_file`): ``PRAGMA quick_check`` on the file, if there is one. A
  file that is no database or is damaged stops ``miai serve`` with a sentence that says so
  (and what to do), not a traceback and then a 500 for every request.
- **While it runs** (:func:`watch`): the file's device and inode are read when the first
  connection opens it, and compared when another opens and before every commit (an
  ``os.stat``, about a microsecond; a check before every statement cost 6 to 10 µs of
  SQLAlchemy's event dispatch on each). SQLite keeps writing to a file that was deleted or
  replaced under it, so that every move after is acknowledged and then lost with the process;
  instead the commit fails with :class:`DatabaseFileGone`, which the server answers 503
  (retry), like any database it cannot reach (:func:`~miai.server.storage.db.is_outage`), and
  logs once what happened. Reads on the connections already open still see what the lost
  file held: every answer is true, and no change is acknowledged.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.errors import MiaiError

__all__ = ["DatabaseFileGone", "DatabaseUnusable", "check_file", "watch", "damaged"]

log = logging.getLogger("miai.server")

_DAMAGE = ("file is not a database", "database disk image is malformed")


def damaged(error: BaseException) -> bool:
    """Whether ``error`` is SQLite saying its file is no database or is damaged."""
    return isinstance(error, sqlite3.DatabaseError) and any(text in str(error) for text in _DAMAGE)


class DatabaseUnusable(MiaiError):
    """The SQLite file cannot be used: no database, or damaged."""


class DatabaseFileGone(Exception):
    """The SQLite file the server opened was deleted or replaced while it ran."""


def check_file(path: Path) -> None:
    """Raise :class:`DatabaseUnusable`, saying why and what to do, if ``path`` exists and is not
    a sound SQLite database (a missing file is fine: the server creates it)."""
    if not path.exists():
        return
    advice = f"restore it from a backup, or move it away to start with a new one ({path})"
    try:
        with contextlib.closing(sqlite3.connect(path)) as connection:
            rows = [str(row[0]) for row in connection.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as e:
        raise DatabaseUnusable(f"the database file {path} cannot be read: {e}; {advice}") from None
    if rows != ["ok"]:
        problems = [line for row in rows for line in row.splitlines() if not line.startswith("***")]
        raise DatabaseUnusable(f"the database file {path} is damaged ({'; '.join(problems)}); {advice}")


class _Identity:
    """The file's (device, inode) when the server first opened it, and whether its loss was logged."""

    def __init__(self, path: Path):
        self.path = path
        self.first: tuple[int, int] | None = None
        self.told = False

    def now(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None
        return stat.st_dev, stat.st_ino

    def check(self) -> None:
        """Raise :class:`DatabaseFileGone` if the file is not the one first opened."""
        now = self.now()
        if self.first is None:
            self.first = now
        if now is not None and now == self.first:
            return
        what = "deleted" if now is None else "replaced by another file"
        if not self.told:
            self.told = True
            log.error(
                "the database file %s was %s while the server ran: every change is refused (503) "
                "from now on; restore the file and restart the server",
                self.path,
                what,
            )
        raise DatabaseFileGone(f"the database file {self.path} was {what} while the server ran")


def watch(engine: AsyncEngine, path: Path) -> None:
    """Check the file's identity when a connection opens and before every commit on ``engine``
    (see the module)."""
    identity = _Identity(path)

    @sa.event.listens_for(engine.sync_engine, "connect")
    def _opened(dbapi_connection: Any, _record: Any) -> None:
        identity.check()

    @sa.event.listens_for(engine.sync_engine, "commit")
    def _commit(conn: Any) -> None:
        identity.check()
