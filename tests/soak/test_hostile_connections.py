"""Hostile clients against a real ``miai serve`` (issue 39, items 1 and 2): from ONE address,
1,100 half-sent requests (Slowloris: a header line every few seconds, never the end), four
connections each sending a 100 MB header, and both at once, 40 s each; meanwhile a visitor
from ANOTHER address reads the lobby five times a second, each time on a new connection. The
server starts with the open-files limit at 1024 (soft; 4096 hard), which
the attack exhausted before ``miai serve`` raised it and capped connections per address.

Absorbed when every one of the visitor's requests is answered within 1 s and the server's
memory stays within 50 MB of what it was before the attack. Run it with

    PYTHONPATH=src python3 -m pytest tests/soak/test_hostile_connections.py -m soak -s -p no:cacheprovider

(``-s`` shows the figures). ``MIAI_SOAK_SRC=/path/to/src`` runs the server from another tree
(to measure before a fix). BENCHMARKS.md, *Hostile clients: connections*, has the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import statistics
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from miai.testing.serve import ServeProcess

pytestmark = pytest.mark.soak

SRC = Path(os.environ.get("MIAI_SOAK_SRC") or Path(__file__).resolve().parents[2] / "src")
ATTACKER, VISITOR = "127.0.0.1", "127.0.0.2"
HALF_OPEN = 1100
BIG_HEADERS = 4
HEADER_BYTES = 100 * 1024 * 1024
ATTACK_S = 40.0
OPEN_FILES = (1024, 4096)
"""The server's open-files limits, soft and hard: a common default (systemd's soft 1024), and a low hard one."""
CHUNK = b"a" * 65536


class LimitedServe(ServeProcess):
    """``miai serve`` started with the open-files limits :data:`OPEN_FILES`."""

    def command(self) -> list[str]:
        return ["prlimit", "--nofile={}:{}".format(*OPEN_FILES), "--", *super().command()]


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


class Attack:
    """The attacker's connections, all from :data:`ATTACKER`, counted as they go."""

    def __init__(self, port: int, half_open: int, big_headers: int):
        self.port, self.half_open_count, self.big_headers = port, half_open, big_headers
        self.stop = asyncio.Event()
        self.counts: Counter[str] = Counter()
        self.held = 0
        self.most_held = 0

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port, local_addr=(ATTACKER, 0)), 5
            )
        except (OSError, TimeoutError):
            self.counts["connect failed"] += 1
            await asyncio.sleep(0.5)
            return None
        self.counts["connected"] += 1
        self.held += 1
        self.most_held = max(self.most_held, self.held)
        return reader, writer

    def closed(self, writer: asyncio.StreamWriter) -> None:
        self.held -= 1
        writer.close()

    async def half_open(self) -> None:
        """Slowloris: a request line and a header line every 5 s, never the blank line."""
        while not self.stop.is_set():
            pair = await self.connect()
            if pair is None:
                continue
            reader, writer = pair
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while not self.stop.is_set():
                    try:
                        answer = await asyncio.wait_for(reader.read(4096), 5)
                    except TimeoutError:
                        writer.write(b"X-Slow: 1\r\n")
                        continue
                    self.counts["half-open answered" if answer else "half-open closed"] += 1
                    break
            except OSError:
                self.counts["half-open reset"] += 1
            finally:
                self.closed(writer)

    async def big_header(self) -> None:
        """A 100 MB header as fast as the server takes it, then held open; again when cut."""
        while not self.stop.is_set():
            pair = await self.connect()
            if pair is None:
                continue
            reader, writer = pair
            sent = 0
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
                while sent < HEADER_BYTES and not self.stop.is_set() and not reader.at_eof():
                    writer.write(CHUNK)
                    await asyncio.wait_for(writer.drain(), 10)
                    sent += len(CHUNK)
                if sent >= HEADER_BYTES:
                    self.counts["100 MB headers sent"] += 1
                while not self.stop.is_set() and not reader.at_eof():
                    await asyncio.sleep(0.5)
                self.counts["big header cut by the server"] += reader.at_eof() and sent < HEADER_BYTES
            except (OSError, TimeoutError):
                self.counts["big header reset"] += 1
            finally:
                self.counts["header MB sent"] += sent // (1024 * 1024)
                self.closed(writer)

    async def run(self, seconds: float) -> None:
        tasks = [asyncio.create_task(self.half_open()) for _ in range(self.half_open_count)]
        tasks += [asyncio.create_task(self.big_header()) for _ in range(self.big_headers)]
        await asyncio.sleep(seconds)
        self.stop.set()
        await asyncio.wait(tasks, timeout=15)
        for task in tasks:
            task.cancel()


class Visitor(threading.Thread):
    """Reads ``GET /api/games`` from :data:`VISITOR` on a new connection every 0.2 s."""

    def __init__(self, base: str):
        super().__init__(daemon=True)
        self.base = base
        self.times: list[float] = []
        self.failures: Counter[str] = Counter()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            start = time.monotonic()
            try:
                transport = httpx.HTTPTransport(local_address=VISITOR)
                with httpx.Client(transport=transport, timeout=5) as client:
                    answer = client.get(self.base + "/api/games")
                if answer.status_code != 200:
                    self.failures[f"status {answer.status_code}"] += 1
            except httpx.HTTPError as e:
                self.failures[type(e).__name__] += 1
            self.times.append(time.monotonic() - start)
            self.done.wait(max(0.0, 0.2 - (time.monotonic() - start)))


def raise_own_open_files() -> None:
    """This process holds the attacker's thousand sockets: its soft limit up to its hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 1 << 16)), hard))


ATTACKS = {"slowloris": (HALF_OPEN, 0), "headers": (0, BIG_HEADERS), "both": (HALF_OPEN, BIG_HEADERS)}


@pytest.mark.parametrize(("half_open", "big_headers"), ATTACKS.values(), ids=ATTACKS.keys())
def test_half_open_requests_and_huge_headers_from_one_address_leave_others_served(tmp_path, half_open, big_headers):
    raise_own_open_files()
    server = LimitedServe(
        f"sqlite:///{tmp_path / 'soak.db'}",
        env={"PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
        log_path=tmp_path / "serve.log",
        cwd=tmp_path,
    )
    base = server.start()
    try:
        for _ in range(5):  # warm: the first requests load what the lobby needs
            httpx.get(base + "/api/games", timeout=10)
        before = rss_mb(server.pid)
        visitor = Visitor(base)
        samples: list[float] = []
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.is_set():
                samples.append(rss_mb(server.pid))
                sampling.wait(0.5)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        visitor.start()
        attack = Attack(server.port, half_open, big_headers)
        asyncio.run(attack.run(ATTACK_S))
        visitor.done.set()
        visitor.join()
        time.sleep(3)
        after = rss_mb(server.pid)
        sampling.set()
        sampler.join()
        alive = server.running
    finally:
        server.stop()
    log = (tmp_path / "serve.log").read_text(errors="replace")
    times = sorted(visitor.times)
    figures = {
        "attack": f"{half_open} half-open, {big_headers} x 100 MB headers",
        "visitor requests": len(times),
        "visitor failures": dict(visitor.failures),
        "visitor p50 ms": round(statistics.median(times) * 1000, 1),
        "visitor max ms": round(times[-1] * 1000, 1),
        "visitor over 1 s": sum(t > 1 for t in times),
        "rss before MB": round(before, 1),
        "rss peak MB": round(max(samples), 1),
        "rss after MB": round(after, 1),
        "attacker most held": attack.most_held,
        "attacker": dict(attack.counts),
        "too many open files in the log": log.count("Too many open files"),
        "server alive": alive,
    }
    print(json.dumps(figures, indent=1))
    assert alive
    assert not visitor.failures and times[-1] < 1.0, figures
    assert max(samples) - before < 50, figures
    assert "Too many open files" not in log, figures
