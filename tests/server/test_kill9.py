"""kill -9: the server runs as a process that is killed (SIGKILL) and restarted again and again
while clients play. Every acknowledged move must be in the database at its version, nothing
twice, and a request whose answer was lost is retried until answered (exactly once)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

from miai import Game, Rules
from miai.coords import point_to_gtp
from miai.game import GameSpec, Phase
from miai.server.play.events import EventKind, rebuild
from miai.testing.serve import ServeProcess

SRC = Path(__file__).resolve().parents[2] / "src"
RUN_SECONDS = 15
MIN_KILLS = 4


class ServerProcess:
    """``miai serve`` on one database, started again after each kill on the port its first start
    picked. A kill is a SIGKILL to the server's process alone: its workers must follow it by
    themselves."""

    def __init__(self, db: str, *options: str):
        env = {"PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        # cwd: its worker processes are found by this directory
        self.serve = ServeProcess(db, extra=options, env=env, cwd=Path(db).parent)
        self.lock = threading.Lock()
        self.kills = 0

    @property
    def port(self) -> int:
        return self.serve.port

    @property
    def generation(self) -> int:
        """How many times the server was started."""
        return self.serve.starts

    def start(self) -> None:
        self.serve.start()

    def kill(self) -> None:
        with self.lock:
            if self.serve.running:
                os.kill(self.serve.pid, signal.SIGKILL)
                # Reaped at once: a process killed but not yet dead would still look running to
                # ensure_running, and the final clean stop would then meet a SIGKILLed server.
                self.wait()
                self.kills += 1

    def ensure_running(self) -> None:
        with self.lock:
            if not self.serve.running:  # (``running`` polls, which reaps a dead server)
                self.serve.start()

    def wait(self) -> None:
        """Reap the server's process (after a kill)."""
        assert self.serve.proc is not None
        self.serve.proc.wait()

    def stop(self) -> int:
        code = self.serve.stop(timeout=30)
        assert code is not None
        return code


class Player:
    """One game played by a client that keeps its own model of the game and retries a request
    whose answer it did not get (the same v, move and action id) until it is answered."""

    def __init__(self, server: ServerProcess, http: httpx.Client, rng: random.Random):
        self.server, self.http, self.rng = server, http, rng
        self.retried = 0  # set first: the request that creates the game may itself be retried
        created = self.request("POST", "/api/games", json={"size": 9, "rules": "chinese"})
        self.id = created["id"]
        self.tokens = {"black": created["black_token"], "white": created["white_token"]}
        self.model = Game(9, Rules.preset("chinese"))
        self.acked: list[tuple[int, str, str]] = []  # (v, seat, move)

    def request(self, method: str, path: str, **kw) -> dict:
        while True:
            try:
                answer = self.http.request(method, path, **kw)
            except httpx.TransportError:
                self.retried += 1
                self.server.ensure_running()
                continue
            assert answer.status_code in (200, 201), answer.text
            return answer.json()

    def step(self) -> bool:
        """Play one move; False once the game is over."""
        if self.model.phase is not Phase.PLAY:
            return False
        legal = self.model.legal_moves()
        point = self.rng.choice(legal) if legal and self.rng.random() > 0.03 else None
        move = point_to_gtp(point)
        seat = "black" if self.model.to_move.name == "BLACK" else "white"
        v = len(self.acked)
        answer = self.request(
            "POST",
            f"/api/games/{self.id}/play",
            json={"move": move, "v": v, "a": f"{self.id}-{v}"},
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
        )
        assert answer == {"v": v + 1}
        self.model.play(point)
        self.acked.append((v + 1, seat, move))
        return True


def killer(server: ServerProcess, stop: threading.Event, timing: random.Random, low: float, high: float) -> None:
    """Kill each process of ``server`` at a random moment of its life (``low`` to ``high`` s after
    it is ready, drawn from ``timing``) until ``stop`` is set: run it in a thread."""
    seen = 0
    while not stop.is_set():
        if server.generation == seen:
            stop.wait(0.02)
            continue
        seen = server.generation
        if not stop.wait(timing.uniform(low, high)):
            server.kill()


@pytest.mark.timeout(90)
def test_kill_9_loses_no_acknowledged_move_and_applies_none_twice(tmp_path):
    db = str(tmp_path / "miai.db")
    server = ServerProcess(db)
    server.start()
    rng = random.Random(20261123)
    stop = threading.Event()

    http = httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=10)
    games = [Player(server, http, rng) for _ in range(3)]
    playing = list(games)
    thread = threading.Thread(target=killer, args=(server, stop, random.Random(7), 0.2, 1.5), daemon=True)
    thread.start()
    deadline = time.monotonic() + RUN_SECONDS
    try:
        while time.monotonic() < deadline or (server.kills < MIN_KILLS and time.monotonic() < deadline + 20):
            for i, player in enumerate(playing):
                if not player.step():  # over (two passes): a new game takes its place
                    playing[i] = Player(server, http, rng)
                    games.append(playing[i])
    finally:
        stop.set()
        thread.join()
    server.ensure_running()
    http.close()
    assert server.stop() == 0  # SIGTERM: a clean stop
    assert server.kills >= MIN_KILLS
    assert sum(p.retried for p in games) > 0  # some answers were lost and the requests retried
    print(f"{server.kills} kills, {len(games)} games, {sum(len(p.acked) for p in games)} moves acknowledged")

    with sqlite3.connect(db) as conn:
        for player in games:
            rows = conn.execute(
                "SELECT v, seat, kind, payload FROM game_events WHERE game_id = ? ORDER BY v", (player.id,)
            ).fetchall()
            assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
            assert len(rows) == len(player.acked)  # every request acknowledged, none applied twice
            for (v, seat, kind, payload), (acked_v, acked_seat, move) in zip(rows, player.acked):
                data = json.loads(payload)
                assert (v, seat) == (acked_v, acked_seat)
                assert (data.get("move") or "pass") == move and kind in ("move", "pass")
            replayed = rebuild(GameSpec(9, Rules.preset("chinese")), [(EventKind(r[2]), json.loads(r[3])) for r in rows])
            assert replayed.board == player.model.board


def processes_under(directory: Path) -> list[int]:
    """Processes whose command line names ``directory`` (a server's worker processes)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(directory).encode() in cmdline and b"multiprocessing" in cmdline:
                found.append(int(entry.name))
    return found


@pytest.mark.timeout(90)
def test_the_worker_processes_do_not_outlive_a_killed_server(tmp_path):
    server = ServerProcess(str(tmp_path / "miai.db"))
    server.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
            game = http.post("/api/games", json={"size": 9, "white": "computer:1"}).json()
            auth = {"Authorization": f"Bearer {game['black_token']}"}
            assert http.post(f"/api/games/{game['id']}/play", json={"move": "E5", "v": 0}, headers=auth).json() == {"v": 1}
            deadline = time.monotonic() + 60
            while len(http.get(f"/api/games/{game['id']}/events").json()["events"]) < 2:
                assert time.monotonic() < deadline, "the computer did not answer"
                time.sleep(0.1)
        workers = processes_under(tmp_path)
        assert workers  # the fork server and the worker that played White
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 20
    while processes_under(tmp_path):
        assert time.monotonic() < deadline, f"still running: {processes_under(tmp_path)}"
        time.sleep(0.2)
