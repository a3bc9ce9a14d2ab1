"""Several ``miai serve`` processes on one PostgreSQL database with Redis between them
(docs/SERVER.md §2.1): any process serves any client, a killed owner's games pass to another,
a Redis outage loses no event, and no version is ever accepted twice."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from miai.server.cluster.shards import LOCK_SPACE, shard_of
from miai.testing.serve import ServeProcess

SRC = Path(__file__).resolve().parents[3] / "src"
TAKEOVER_S = 15


class Serve:
    """One ``miai serve`` process on the shared database and Redis, its stderr in ``log``."""

    def __init__(self, pg_url: str, redis_url: str, cwd: Path, log: Path):
        env = {"PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        env["MIAI_SECRET"] = "a shared secret for the tests' processes"
        self.log = log
        self.process = ServeProcess(pg_url, redis=redis_url, env=env, log_path=log, cwd=cwd)
        self.url = self.process.start()  # port 0: the server picks its port, no other test can take it first
        self.port = self.process.port
        self.proc = self.process.proc
        self.http = httpx.Client(base_url=self.url, timeout=20)

    def kill(self) -> None:
        self.process.kill()

    def stop(self) -> None:
        self.http.close()
        self.process.stop()


class Watcher:
    """A WebSocket client of a game on one process, collecting the events it is sent."""

    def __init__(self, server: Serve, game_id: str, token: str | None = None):
        query = f"?v=0&token={token}" if token else "?v=0"
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/game/{game_id}{query}", open_timeout=20).__enter__()
        self.events: list[dict] = []
        self.frames: list[dict] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                message = json.loads(self.ws.recv())
                self.frames.append(message)
                if message["t"] == "event":
                    self.events.append(message["d"])
        except Exception:
            pass

    def send(self, t: str, d: dict) -> None:
        self.ws.send(json.dumps({"t": t, "d": d}))

    def wait_frame(self, t: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [f for f in self.frames if f["t"] == t]
            if found:
                return found[-1]["d"]
            time.sleep(0.05)
        raise AssertionError(f"no {t} frame in {timeout} s: {self.frames}")

    def wait_for(self, v: int, timeout: float) -> list[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (not self.events or self.events[-1]["v"] < v):
            time.sleep(0.05)
        return [e["v"] for e in self.events]

    def close(self) -> None:
        self.ws.close()


def act(server: Serve, game_id: str, token: str, body: dict, deadline_s: float = TAKEOVER_S) -> httpx.Response:
    """An action, retried (the same body and action id) while the answer is a 503 or the
    connection fails: what a client does while a process takes a dead one's games over."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            answer = server.http.post(
                f"/api/games/{game_id}/play", json=body, headers={"Authorization": f"Bearer {token}"}
            )
            if answer.status_code != 503:
                return answer
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"no answer but 503 for {deadline_s} s: {body}")
        time.sleep(0.1)


def stored_moves(pg_url: str, game_id: str) -> list[tuple[int, str]]:
    """The moves stored for the game, read from PostgreSQL directly (not through a server)."""

    async def read():
        conn = await asyncpg.connect(pg_url)
        try:
            rows = await conn.fetch("select v, payload from game_events where game_id = $1 order by v", game_id)
        finally:
            await conn.close()
        return [(r["v"], json.loads(r["payload"]).get("move", "")) for r in rows]

    return asyncio.run(read())


def owners(pg_url: str) -> dict[int, int]:
    """Each owned shard's owner: the process id its locks connection gives as its name."""

    async def read():
        conn = await asyncpg.connect(pg_url)
        try:
            return await conn.fetch(
                "select l.objid, a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid"
                " where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::bigint::oid",
                LOCK_SPACE,
            )
        finally:
            await conn.close()

    return {int(r["objid"]): int(r["application_name"].split()[-1]) for r in asyncio.run(read())}


def balanced(pg_url: str, servers: list[Serve], timeout: float = 15) -> dict[int, int]:
    """Wait until the 16 shards are shared out evenly between ``servers``; the owners."""
    deadline = time.monotonic() + timeout
    pids = sorted(s.proc.pid for s in servers)
    while True:
        found = owners(pg_url)
        counts = sorted(list(found.values()).count(pid) for pid in pids)
        if len(found) == 16 and counts[-1] - counts[0] <= 1 and set(found.values()) <= set(pids):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"the shards are not shared out after {timeout} s: {found}")
        time.sleep(0.1)


def owner_and_other(pg_url: str, servers: list[Serve], game_id: str) -> tuple[Serve, Serve]:
    pid = balanced(pg_url, servers)[shard_of(game_id, 16)]
    owner = next(s for s in servers if s.proc.pid == pid)
    return owner, next(s for s in servers if s is not owner)


@pytest.fixture
def cluster(pg_url, redis_server, tmp_path):
    started: list[Serve] = []

    def start() -> Serve:
        server = Serve(pg_url, redis_server.url, tmp_path, tmp_path / f"serve-{len(started)}.log")
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
    for server in started:  # shown with a failing test's report: what each process logged
        print(f"--- {server.log.name} (pid {server.proc.pid}), its last lines:")
        print(server.log.read_text(errors="replace")[-3000:] if server.log.exists() else "(nothing)")


@pytest.mark.timeout(110)
def test_two_processes_share_a_game_survive_the_owners_death_and_a_redis_outage(cluster, pg_url, redis_server):
    first, second = cluster(), cluster()
    created = first.http.post("/api/games", json={"size": 9, "rules": "chinese"}).json()
    gid, black, white = created["id"], created["black_token"], created["white_token"]
    owner, other = owner_and_other(pg_url, [first, second], gid)  # each owns 8 shards
    missing = next(f"nope{i}" for i in range(1000) if owners(pg_url)[shard_of(f"nope{i}", 16)] == owner.proc.pid)
    answer = other.http.get(f"/api/games/{missing}")  # forwarded: the owner's 404 comes back as it was
    assert answer.status_code == 404 and answer.json()["error"] == "not-found", answer.text
    with connect(f"ws://127.0.0.1:{other.port}/ws/game/{missing}", open_timeout=20) as ws:
        assert json.loads(ws.recv(timeout=10))["d"]["status"] == 404
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4404
    spectator = Watcher(other, gid)  # on the process that does not own the game
    white_ws = Watcher(other, gid, white)
    for relayed in (spectator, white_ws):  # a relayed hello comes once the owner has counted it
        relayed.wait_frame("hello", 10)
    local = Watcher(owner, gid)  # the owner counts the other process's connections as its own
    hello = local.wait_frame("hello", 10)
    assert (hello["presence"]["black"], hello["presence"]["white"], hello["presence"]["spectators"]) == (False, True, 2)
    local.close()

    # Black plays through the owner, White through the other process (forwarded): all acknowledged.
    moves = ["E5", "C3", "G7", "C7", "G3", "E3"]
    acked: list[tuple[int, str]] = []
    for i, vertex in enumerate(moves[:5]):
        server, token = (owner, black) if i % 2 == 0 else (other, white)
        answer = act(server, gid, token, {"move": vertex, "v": i, "a": f"m{i}"})
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"v": i + 1}
        acked.append((i + 1, vertex))
    white_ws.send("play", {"move": "E3", "v": 5, "a": "m5"})  # White's WebSocket frame, forwarded
    assert white_ws.wait_frame("ack", 10) == {"v": 6, "a": "m5"}
    acked.append((6, "E3"))
    assert white_ws.frames[0]["d"]["seat"] == "white"
    assert spectator.wait_for(6, 10) == [1, 2, 3, 4, 5, 6]
    assert [e["move"] for e in spectator.events] == moves
    state = other.http.get(f"/api/games/{gid}").json()  # read through the process that does not own it
    assert (state["v"], state["moves"]) == (6, moves)
    review = other.http.get(f"/api/games/{gid}/review").json()  # a replica rebuilt from the database
    assert (review["v"], [m["move"] for m in review["moves"]]) == (6, moves)
    assert other.http.get(f"/api/games/{gid}/sgf").text.count(";B[") == 3
    retry = act(other, gid, white, {"move": "C3", "v": 1, "a": "m1"})  # a retry through the other process
    assert retry.json() == {"v": 2}

    # The owner dies: the other takes its shards over and play goes on; nothing acknowledged is lost.
    owner.kill()
    started = time.monotonic()
    answer = act(other, gid, black, {"move": "D4", "v": 6, "a": "m6"})
    assert answer.status_code == 200 and answer.json() == {"v": 7}, answer.text
    assert time.monotonic() - started < TAKEOVER_S
    acked.append((7, "D4"))
    answer = act(other, gid, white, {"move": "F4", "v": 7, "a": "m7"})
    assert answer.json() == {"v": 8}
    acked.append((8, "F4"))
    assert spectator.wait_for(8, 10) == list(range(1, 9))
    assert set(balanced(pg_url, [other]).values()) == {other.proc.pid}  # it owns every shard now

    # A new process starts and takes half the shards; a client of the game's non-owner is relayed.
    third = cluster()
    owner, other = owner_and_other(pg_url, [other, third], gid)
    watcher = Watcher(other, gid)
    assert watcher.wait_for(8, 10) == list(range(1, 9))

    # Redis stops for a moment: the owner still commits; the other's client gets the events from the database.
    redis_server.stop()
    for i, vertex in ((8, "H5"), (9, "B5")):
        answer = act(owner, gid, black if i % 2 == 0 else white, {"move": vertex, "v": i, "a": f"m{i}"})
        assert answer.json() == {"v": i + 1}, answer.text
        acked.append((i + 1, vertex))
    redis_server.start()
    assert watcher.wait_for(10, 15) == list(range(1, 11))
    answer = act(other, gid, black, {"move": "J9", "v": 10, "a": "m10"})  # forwarding works again
    assert answer.json() == {"v": 11}, answer.text
    acked.append((11, "J9"))
    assert watcher.wait_for(11, 10) == list(range(1, 12))

    # Two different moves for one version through the two processes: one is accepted, the other is stale.
    answers: list[httpx.Response] = []
    threads = [
        threading.Thread(target=lambda s=s, m=m: answers.append(act(s, gid, white, {"move": m, "v": 11})))
        for s, m in ((owner, "A1"), (other, "A2"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
    assert next(r for r in answers if r.status_code == 200).json() == {"v": 12}

    stored = stored_moves(pg_url, gid)
    assert [v for v, _ in stored] == list(range(1, 13))  # nothing twice, no gap
    assert stored[:11] == acked  # every acknowledged move, at its version
    assert spectator.wait_for(12, 10) == list(range(1, 13))  # every event once, in order, through it all
    for client in (spectator, white_ws, watcher):
        client.close()


def game_row(pg_url: str, game_id: str) -> tuple[str, str | None, list[str]]:
    """The game's status and result, and its events' kinds, read from PostgreSQL directly."""

    async def read():
        conn = await asyncpg.connect(pg_url)
        try:
            row = await conn.fetchrow("select status, result from games where id = $1", game_id)
            kinds = await conn.fetch("select kind from game_events where game_id = $1 order by v", game_id)
        finally:
            await conn.close()
        return row["status"], row["result"], [k["kind"] for k in kinds]

    return asyncio.run(read())


@pytest.mark.timeout(90)
def test_a_timed_game_of_a_dead_owner_flags_on_the_process_that_takes_it_over(cluster, pg_url):
    """Nobody asks for the game after its owner dies: the process that takes the shard over
    loads it by itself (its unfinished timed games), and its clock flags there."""
    first, second = cluster(), cluster()
    created = first.http.post("/api/games", json={"size": 9, "time": "simple:2"}).json()
    gid = created["id"]
    owner, other = owner_and_other(pg_url, [first, second], gid)
    for i, (token, vertex) in enumerate(((created["black_token"], "E5"), (created["white_token"], "C3"))):
        assert act(owner, gid, token, {"move": vertex, "v": i}).json() == {"v": i + 1}
    owner.kill()  # Black's clock runs: 2 s and the lag bank; the new owner gives the downtime back
    deadline = time.monotonic() + 30
    while (row := game_row(pg_url, gid))[0] != "finished" and time.monotonic() < deadline:
        time.sleep(0.2)
    status, result, kinds = row
    assert (status, result) == ("finished", "W+T"), kinds
    assert kinds == ["move", "move", "clock", "flag"]  # the restart's note, then the flag
    assert other.http.get(f"/api/games/{gid}").json()["result"] == "W+T"


@pytest.mark.timeout(60)
def test_an_open_game_is_joined_through_the_process_that_does_not_own_it(cluster, pg_url):
    """The join runs on the game's owner (routed), so the owner's room knows the new token at
    once: the joiner plays through either process, and a second joiner finds the seat taken."""
    first, second = cluster(), cluster()
    created = first.http.post("/api/games", json={"size": 9, "open": True}).json()
    gid, black = created["id"], created["black_token"]
    assert "white_token" not in created
    owner, other = owner_and_other(pg_url, [first, second], gid)
    joined = other.http.post(f"/api/games/{gid}/join")
    assert joined.status_code == 200, joined.text
    white = joined.json()["white_token"]
    assert act(owner, gid, black, {"move": "E5", "v": 0}).json() == {"v": 1}
    assert act(owner, gid, white, {"move": "C3", "v": 1}).json() == {"v": 2}  # the owner knows the token
    again = owner.http.post(f"/api/games/{gid}/join")
    assert again.status_code == 409 and again.json()["error"] == "seat-taken", again.text
    assert stored_moves(pg_url, gid) == [(1, "E5"), (2, "C3")]
