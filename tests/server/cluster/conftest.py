"""A private PostgreSQL cluster and a private Redis for the distributed mode's tests.

Both are Debian's own binaries (``postgresql`` and ``redis-server``; ``.ci/run`` installs them),
started by :mod:`miai.testing.services` once per test session in a temporary directory on free
ports and stopped at the end. Each test gets a fresh database of its own (:func:`pg_url`).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from miai.testing.services import REDIS_SERVER, Postgres, Redis, free_port

__all__ = ["free_port", "pg_url", "postgres", "redis_server"]

Server = TypeVar("Server", Postgres, Redis)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    directory = Path(tempfile.mkdtemp(prefix="miai-pg-"))
    try:
        server = Postgres.in_directory(directory)
    except FileNotFoundError as e:
        shutil.rmtree(directory, ignore_errors=True)
        pytest.skip(str(e))
    yield from running(server, directory)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    if not os.access(REDIS_SERVER, os.X_OK):
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    directory = Path(tempfile.mkdtemp(prefix="miai-redis-"))
    yield from running(Redis(directory, free_port()), directory)


def running(server: Server, directory: Path) -> Iterator[Server]:
    """Start ``server`` for the fixture's life, then stop it and remove its directory."""
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """The URL of a fresh database for this test."""
    return postgres.new_database()
