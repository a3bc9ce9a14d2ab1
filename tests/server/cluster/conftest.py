"""A private PostgreSQL cluster and a private Redis for the distributed mode's tests.

Both are Debian's own binaries (``postgresql`` and ``redis-server``; ``.ci/run`` installs them),
started once per test session in a temporary directory on free ports and stopped at the end.
PostgreSQL refuses to run as root: as root, the cluster's directory belongs to the
``postgres`` user and the server runs under ``runuser -u postgres``. Each test gets a fresh
database of its own (:func:`pg_url`).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REDIS_SERVER = "/usr/bin/redis-server"


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def wait_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


class Postgres:
    """A PostgreSQL cluster in ``directory``, listening on 127.0.0.1:``port``."""

    def __init__(self, bindir: Path, directory: Path, port: int):
        self.bindir, self.directory, self.port = bindir, directory, port
        self.proc: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)

    def start(self) -> None:
        data = self.directory / "data"
        subprocess.run(
            _as_postgres([str(self.bindir / "initdb"), "-D", str(data), "-U", "miai", "-A", "trust", "--no-sync"]),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.proc = subprocess.Popen(
            _as_postgres(
                [
                    str(self.bindir / "postgres"),
                    "-D", str(data),
                    "-p", str(self.port),
                    "-k", str(self.directory),
                    "-c", "listen_addresses=127.0.0.1",
                    "-c", "fsync=off",
                    "-c", "max_connections=200",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(self.directory / "postgres.log", "wb"),
        )
        deadline = time.monotonic() + 30
        while subprocess.run(
            [str(self.bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-q"]
        ).returncode != 0:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError((self.directory / "postgres.log").read_text())
            time.sleep(0.1)

    def new_database(self) -> str:
        """A fresh, empty database; its ``postgresql://`` URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        subprocess.run(
            [str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "miai", name], check=True
        )
        return f"postgresql://miai@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # smart shutdown would wait for clients: -m fast is SIGINT
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Redis:
    """A redis-server on 127.0.0.1:``port`` that keeps nothing on disk; it can be stopped and
    started again on the same port (the tests of a Redis outage)."""

    def __init__(self, directory: Path, port: int):
        self.directory, self.port = directory, port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
        )
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    bindir = postgres_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    directory = Path(tempfile.mkdtemp(prefix="miai-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    server = Postgres(bindir, directory, free_port())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    if not os.access(REDIS_SERVER, os.X_OK):
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    directory = Path(tempfile.mkdtemp(prefix="miai-redis-"))
    server = Redis(directory, free_port())
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
