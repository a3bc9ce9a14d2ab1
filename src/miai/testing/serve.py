"""``miai serve`` as a child process, for tests and benchmarks that drive a real server.

The process is started with the interpreter running the caller (``python -m miai serve``), in a
process group of its own (so a SIGKILL takes its worker processes with it), and is considered up
once it prints the URL it listens on — the server prints it only when it accepts connections.
Started again after a kill, it keeps its port, so clients reconnect to the same address.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["ServeProcess"]

_URL = re.compile(r"^miai serve: http://127\.0\.0\.1:(\d+)/")


class ServeProcess:
    """One ``miai serve --host 127.0.0.1`` on ``database`` (and ``redis``, for several processes).

    ``port`` 0 lets the first start pick a free port; later starts reuse it. ``extra`` are more
    command-line options (``--no-rate-limits``); ``env`` is added to this process's environment;
    the server's stderr goes to ``log_path`` (appended, across restarts) or nowhere.
    """

    def __init__(
        self,
        database: str,
        *,
        redis: str | None = None,
        port: int = 0,
        extra: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
        cwd: Path | None = None,
    ):
        self.database, self.redis, self.port = database, redis, port
        self.extra, self.env, self.log_path, self.cwd = list(extra), dict(env or {}), log_path, cwd
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0
        """How many times the server was started."""

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT`` (known once it has started)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None, "the server was never started"
        return self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def command(self) -> list[str]:
        command = [sys.executable, "-m", "miai", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--database", self.database, "--no-browser", *self.extra]  # fmt: skip
        if self.redis is not None:
            command += ["--redis", self.redis]
        return command

    def start(self, timeout: float = 120.0) -> str:
        """Start the server and wait until it listens; returns its base URL. Raises
        ``RuntimeError`` with the end of its log when it exits or stays silent instead."""
        log = open(self.log_path, "a") if self.log_path is not None else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                self.command(),
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                start_new_session=True,
                env={**os.environ, **self.env},
                cwd=self.cwd,
            )
        finally:
            if log is not subprocess.DEVNULL:
                log.close()  # type: ignore[union-attr]
        assert self.proc.stdout is not None
        timer = threading.Timer(timeout, self.proc.kill)  # a silent start cannot hang the caller
        timer.daemon = True
        timer.start()
        try:
            for line in self.proc.stdout:  # ends when the process exits (or the alarm kills it)
                found = _URL.match(line)
                if found:
                    self.port = int(found.group(1))
                    self.starts += 1
                    return self.base
        finally:
            timer.cancel()
        self.stop()
        tail = self.log_path.read_text(errors="replace")[-2000:] if self.log_path is not None else ""
        raise RuntimeError(f"miai serve did not start within {timeout:.0f} s. {tail}")

    def kill(self) -> None:
        """SIGKILL to the server's process group (the server and its workers), then reap it."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (a clean stop), SIGKILL after ``timeout`` s; returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.proc.returncode

