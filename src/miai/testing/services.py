"""Private PostgreSQL and Redis servers for tests and benchmarks: Debian's own binaries
(``postgresql`` and ``redis-server``) started in a temporary directory on free ports.

PostgreSQL refuses to run as root: as root, the cluster's directory belongs to the ``postgres``
user and the server runs under ``runuser -u postgres``. Both can be stopped and started again on
the same port and data (the chaos soak test restarts PostgreSQL and stops Redis for a while).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["REDIS_SERVER", "Postgres", "Redis", "free_port", "postgres_bin", "wait_port"]

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

    def __init__(self, bindir: Path, directory: Path, port: int, *, durable: bool = False):
        self.bindir, self.directory, self.port = bindir, directory, port
        self.durable = durable
        """Whether commits reach the disk (``fsync``): on for benchmarks, off for tests' speed."""
        self.proc: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)

    @classmethod
    def in_directory(cls, directory: Path, port: int | None = None, *, durable: bool = False) -> "Postgres":
        """A cluster in ``directory`` (made the ``postgres`` user's when run as root) on ``port``
        (default: a free one). Raises ``FileNotFoundError`` when PostgreSQL is not installed."""
        bindir = postgres_bin()
        if bindir is None:
            raise FileNotFoundError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        if os.geteuid() == 0:
            shutil.chown(directory, "postgres", "postgres")
        return cls(bindir, directory, free_port() if port is None else port, durable=durable)

    def start(self) -> None:
        """Start the server, creating the cluster the first time; waits until it accepts connections."""
        data = self.directory / "data"
        if not data.exists():
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
                    "-c", f"fsync={'on' if self.durable else 'off'}",
                    "-c", "max_connections=200",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(self.directory / "postgres.log", "ab"),
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
        """Stop the server (``pg_ctl stop -m fast``: open sessions are cut, as in a restart; a
        SIGKILL if that fails); the data stays."""
        if self.proc is None or self.proc.poll() is not None:
            return
        data = self.directory / "data"
        subprocess.run(
            _as_postgres([str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "20", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            self.proc.wait(timeout=20)  # runuser exits with the server
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
