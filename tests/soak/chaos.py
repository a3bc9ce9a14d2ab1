"""Chaos: clients play on ``miai serve`` while its processes are killed, PostgreSQL restarts and
Redis stops; afterwards nothing acknowledged is lost or doubled, every client has the server's
game, and no clock was charged for the time no server owned its game.

The deployment is the load benchmark's (:class:`miai.testing.deployment.Deployment`): ``sqlite``
(one process), ``postgres`` (one process on PostgreSQL) or ``cluster`` (two processes on PostgreSQL
with Redis). Players and spectators are the load benchmark's too (:mod:`miai.testing.clients`),
with two changes: a player sends its actions by HTTP and, while no answer comes (the connection
breaks, a 503, a time-out), sends the same action again, with the same version and action id,
until the server answers it; and in ``cluster`` mode a player whose server is down moves to the
other one. The games have a clock
(``absolute:3600`` by default), so the clocks' rule for restarts is exercised.

Faults, one at a time, every ``every`` seconds (drawn between two bounds), drawn among those the
mode has:

- ``kill``: SIGKILL to a random server process (and its workers); it is started again on the same
  port after ``down`` seconds;
- ``postgres``: PostgreSQL is stopped (fast: sessions are cut) and started again after ``down``;
- ``redis``: Redis is stopped for ``redis_down`` seconds, then started again (empty).

After ``duration`` seconds the faults stop (every process running), the clients finish the
actions under way, and each player catches up on its game's events. Then:

1. the database check of the load benchmark (:mod:`miai.testing.verify`): every acknowledged
   action exactly once, where it was acknowledged; versions without gaps;
2. convergence: for every game, the state ``GET /api/games/{id}`` answers on every process has the
   version and the moves of both players' replicas;
3. clocks (docs/SERVER.md §3.1, *Restarts*), from the events' stored clocks and times: no move is
   charged more than the time since the event before it, and after a fault that took its game's
   owner away (the kill of the process that held the game's shard; with several processes, a
   PostgreSQL restart, which cuts the shards' locks) the game was loaded again, with the
   restart's ``clock`` note, before its next move: the time before that note is charged to nobody.

:func:`run` makes the run and returns its summary (the checks' figures, and ``ok``);
:func:`table_row` is its line of BENCHMARKS.md's table. The tests are ``test_chaos.py``.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from miai.client.links import api_url, authorization
from miai.client.websocket import Frame, connect_asyncio
from miai.coords import point_to_gtp
from miai.server.cluster.shards import LOCK_SPACE, shard_of
from miai.testing.clients import ACK_TIMEOUT, Bench, ClientSettings, Player, latency_summary, pair, spectator
from miai.testing.deployment import Deployment
from miai.testing.verify import Ack, read_database, verify_database

EXPECTED = (
    "ws-closed-", "ws-connect-", "not-connected", "send-", "error-frame-unavailable", "create-ConnectError",
    "create-http-503",
)  # fmt: skip
"""Client error counts that faults cause by design: sockets cut by a kill, refused while a
process is down (a game's creation on it too: the pair tries again), refused with
``unavailable`` (reconnect; for a game's creation a 503, and the pair tries again) while the
database is. They are reported apart from the errors that fail the run."""

CLOCK_TOLERANCE_MS = 150
"""Slack on the clock checks: an event's time is taken a little before or after the step of the
clock it stores (the time to commit)."""


@dataclass(frozen=True)
class ChaosSettings:
    """A chaos run: the deployment, the clients, the faults, and the limits."""

    mode: str = "cluster"
    """sqlite, postgres or cluster (:data:`miai.testing.deployment.MODES`)."""
    processes: int = 2
    """Server processes in cluster mode."""
    games: int = 20
    """Games played at once (two players each)."""
    spectators: int = 10
    duration: float = 60.0
    """Seconds of faults."""
    ramp: float = 3.0
    every: tuple[float, float] = (3.0, 8.0)
    """Seconds between faults, drawn between these."""
    down: tuple[float, float] = (0.5, 3.0)
    """Seconds a killed process or a stopped PostgreSQL stays down, drawn between these."""
    redis_down: float = 5.0
    """Seconds Redis stays stopped."""
    think: tuple[float, float] = (0.2, 1.5)
    moves: tuple[int, int] = (20, 60)
    time: str = "absolute:3600"
    """The games' time control."""
    resign: float = 0.005
    give_up: float = 120.0
    """Seconds a player sends one action again before it gives up."""
    http_connections: int = 100
    seed: int = 1
    timeout: float | None = None
    """Hard limit of the whole run in seconds (default: ``duration`` + 300)."""

    def clients(self) -> ClientSettings:
        """How the clients play: every player acts by HTTP."""
        return ClientSettings(
            seed=self.seed, ramp=self.ramp, think=self.think, moves=self.moves, time=self.time,
            resign=self.resign, http_share=1.0,
        )  # fmt: skip


@dataclass
class Fault:
    kind: str
    """kill, postgres or redis."""
    at_ms: int
    """Wall-clock time (the servers' clock: the same machine) when it began."""
    down_ms: int = 0
    """When it had certainly taken effect: the killed process reaped, PostgreSQL stopped (its
    sessions cut), Redis stopped."""
    back_ms: int = 0
    """When everything was running again."""
    server: int | None = None
    """For a kill: which process."""
    shards: frozenset[int] | None = None
    """For a kill in cluster mode: the shards the process held just before (None: all)."""


@dataclass
class ChaosStats:
    faults: list[Fault] = field(default_factory=list)
    retries: dict[str, int] = field(default_factory=dict)
    gave_up: int = 0


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class ChaosBench(Bench):
    """The load benchmark's shared state, with the faults and the players' retries."""

    def __init__(self, settings: ChaosSettings, bases: list[str], http: httpx.AsyncClient):
        super().__init__(settings.clients(), bases, http)
        self.chaos = ChaosStats()
        self.give_up = settings.give_up
        self.player_class = ChaosPlayer


class ChaosPlayer(Player):
    """A player that keeps sending an unanswered action (same ``v`` and ``a``) until it is
    answered, by HTTP, and moves to another server when its own does not answer."""

    def connect_failed(self) -> None:
        bases = self.bench.bases
        self.base = bases[(bases.index(self.base) + 1) % len(bases)]

    async def _act(self, v: int) -> None:
        bench, stats = self.bench, self.bench.stats
        assert isinstance(bench, ChaosBench)
        chaos = bench.chaos
        chosen = await self._think(v)
        if chosen is None:
            return
        t, body, kind, move = chosen
        a = body["a"]
        start = time.perf_counter()
        deadline = start + bench.give_up
        while time.perf_counter() < deadline:
            try:
                answer = await bench.http.post(
                    api_url(self.base, self.game_id, f"/{t}"), json=body, headers=authorization(self.token), timeout=10
                )
            except httpx.HTTPError as e:
                chaos.retries[type(e).__name__] = chaos.retries.get(type(e).__name__, 0) + 1
                self.connect_failed()
                await asyncio.sleep(0.3)
                continue
            if answer.status_code == 503:
                chaos.retries["503"] = chaos.retries.get("503", 0) + 1
                await asyncio.sleep(0.3)
                continue
            if answer.status_code == 409 and answer.json().get("error") == "stale-version":
                # An event came first (the clock's note after a restart, a marking timer): the
                # player sees it and acts again at the new version.
                chaos.retries["409-stale-version"] = chaos.retries.get("409-stale-version", 0) + 1
                return
            if answer.status_code != 200:
                stats.errors[f"http-{answer.status_code}-{answer.json().get('error')}"] += 1
                return
            ack = Ack(self.game_id, answer.json()["v"], a, self.seat, kind, move)
            stats.acked("http", kind, start - bench.t0, time.perf_counter() - start, ack)
            return
        chaos.gave_up += 1


# ---------------------------------------------------------------------------- faults
async def shards_held(database: str, pid: int) -> frozenset[int]:
    """The shards whose advisory lock the server process ``pid`` holds (docs/SERVER.md §2.1)."""
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(database, timeout=5)
    try:
        rows = await conn.fetch(
            "select l.objid from pg_locks l join pg_stat_activity a on a.pid = l.pid "
            "where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::bigint::oid "
            "and a.application_name = $2",
            LOCK_SPACE,
            f"miai shards {pid}",
        )
        return frozenset(int(r["objid"]) for r in rows)
    finally:
        await conn.close()


async def inflict(bench: Bench, deployment: Deployment, chaos: ChaosStats, settings: ChaosSettings) -> None:
    """One fault after another until the run stops; every process is running when it returns."""
    rng = random.Random(settings.seed + 7)
    kinds = ["kill"] + ["postgres"] * (deployment.postgres is not None) + ["redis"] * (deployment.redis is not None)
    await asyncio.sleep(settings.ramp + 2)
    while not bench.stopping.is_set():
        try:
            await asyncio.wait_for(bench.stopping.wait(), rng.uniform(*settings.every))
            return
        except asyncio.TimeoutError:
            pass
        kind = rng.choice(kinds)
        fault = Fault(kind, now_ms())
        if kind == "kill":
            fault.server = rng.randrange(len(deployment.servers))
            server = deployment.servers[fault.server]
            if deployment.mode == "cluster":
                try:
                    fault.shards = await shards_held(deployment.database, server.pid)
                except Exception as e:  # noqa: BLE001 - the check is then made for every game
                    print(f"chaos: the shards of {server.pid} could not be read: {e}", file=sys.stderr)
            fault.at_ms = now_ms()
            server.kill()
            fault.down_ms = now_ms()
            await asyncio.sleep(rng.uniform(*settings.down))
            await asyncio.to_thread(server.start)
        elif kind == "postgres":
            assert deployment.postgres is not None
            await asyncio.to_thread(deployment.postgres.stop)
            fault.down_ms = now_ms()
            await asyncio.sleep(rng.uniform(*settings.down))
            await asyncio.to_thread(deployment.postgres.start)
        else:
            assert deployment.redis is not None
            deployment.redis.stop()
            fault.down_ms = now_ms()
            await asyncio.sleep(settings.redis_down)
            await asyncio.to_thread(deployment.redis.start)
        fault.back_ms = now_ms()
        chaos.faults.append(fault)
        print(f"chaos: {kind} at {fault.at_ms}, back after {fault.back_ms - fault.at_ms} ms", file=sys.stderr)


# ---------------------------------------------------------------------------- the checks
async def catch_up(player: Player, server_v: int) -> None:
    """Read the game's events from ``player.v`` on until the replica has ``server_v``."""
    async with connect_asyncio(player.base, player.game_id, token=player.token, v=player.v, open_timeout=10) as ws:
        while player.v < server_v:
            message = Frame.read(await asyncio.wait_for(ws.recv(), 10))
            if message.t == "event":
                player._event(message.d)


async def converge(bench: Bench) -> dict[str, Any]:
    """Every game's state on every process against both players' replicas."""
    out: dict[str, Any] = {"games": 0, "converged": 0, "differ": [], "caught_up_events": 0}
    for game_id, players in bench.games.items():
        out["games"] += 1
        states = []
        for base in bench.bases:
            answer = await bench.http.get(api_url(base, game_id), timeout=20)
            states.append(answer.json() if answer.status_code == 200 else {"status": answer.status_code})
        server = states[0]
        before = sum(p.v for p in players)
        for player in players:
            if player.v < server.get("v", 0):
                try:
                    await catch_up(player, server["v"])
                except (OSError, ConnectionClosed, asyncio.TimeoutError) as e:
                    out["differ"].append({"game": game_id, "catch_up": type(e).__name__})
        out["caught_up_events"] += sum(p.v for p in players) - before
        replicas = [(p.v, [point_to_gtp(m.point) for m in p.game.moves]) for p in players]
        seen = [(s.get("v"), s.get("moves")) for s in states]
        if all(x == seen[0] for x in seen + replicas):
            out["converged"] += 1
        else:
            out["differ"].append({"game": game_id, "servers": [v for v, _ in seen], "replicas": [v for v, _ in replicas]})
    out["differ"] = out["differ"][:10]
    return out


def check_clocks(where: str, faults: list[Fault], cluster: bool, shards: int = 16) -> dict[str, Any]:
    """The clocks' rule for restarts, from the stored events (module docstring, check 3).

    - No timed move is charged more than the time since the event before it. When the game was
      loaded again (after its owner died, or after PostgreSQL restarted under several processes,
      which cuts the shards' locks), that event is the ``clock`` note of the restart: the time
      before it is charged to nobody.
    - A timed move committed after a fault that took its game's owner away, with the event
      before it committed before the fault, must not exist: the game was loaded again in
      between, so the restart's note stands between them. Owners are taken away by a kill (of
      the process holding the game's shard; the only process in one-process modes) and, with
      several processes, by a PostgreSQL restart. With one process a PostgreSQL restart is not
      an owner change (docs/SERVER.md §3.1): the time passes on the running clock, unless an
      action failed meanwhile and the game was loaded again.
    """
    rows, _ = read_database(where)
    by_game: dict[str, list[tuple[int, str, dict[str, Any], int]]] = {}
    for game_id, v, kind, payload, _seat, _a, at_ms in rows:
        data = json.loads(payload) if isinstance(payload, str) else payload
        by_game.setdefault(game_id, []).append((v, kind, data, at_ms))
    owners_lost = [f for f in faults if f.kind == "kill" or (f.kind == "postgres" and cluster)]
    out: dict[str, Any] = {"moves_timed": 0, "over_interval": [], "not_reloaded": [], "restarts_logged": 0, "downtime_excused_ms": 0}
    for game_id, events in by_game.items():
        events.sort()
        last_clock: dict[str, Any] | None = None
        for (_, _, _, prev_at), (v, kind, data, at) in zip(events, events[1:]):
            if kind == "clock":
                out["restarts_logged"] += 1
                out["downtime_excused_ms"] += int(data.get("downtime_ms", 0))
            clock = data.get("clock")
            if not isinstance(clock, dict):
                continue
            if kind in ("move", "pass") and last_clock is not None and last_clock.get("running") == data["color"]:
                color = data["color"]
                charged = last_clock[color]["main_ms"] - clock[color]["main_ms"]
                out["moves_timed"] += 1
                if charged > at - prev_at + CLOCK_TOLERANCE_MS:
                    out["over_interval"].append({"game": game_id, "v": v, "charged_ms": charged, "interval_ms": at - prev_at})
                for f in owners_lost:
                    owned = f.shards is None or shard_of(game_id, shards) in f.shards
                    if owned and prev_at < f.at_ms and f.down_ms < at:
                        out["not_reloaded"].append({"game": game_id, "v": v, "charged_ms": charged, "fault": f.kind})
            last_clock = clock
    out["ok"] = not out["over_interval"] and not out["not_reloaded"]
    out["over_interval"] = out["over_interval"][:10]
    out["not_reloaded"] = out["not_reloaded"][:10]
    return out


# ---------------------------------------------------------------------------- the run

async def drive(settings: ChaosSettings, deployment: Deployment) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=settings.http_connections, max_keepalive_connections=settings.http_connections)
    async with httpx.AsyncClient(limits=limits, timeout=ACK_TIMEOUT) as http:
        bench = ChaosBench(settings, [server.base for server in deployment.servers], http)
        chaos = bench.chaos
        faults = asyncio.create_task(inflict(bench, deployment, chaos, settings))
        clients = [asyncio.create_task(pair(bench, i)) for i in range(settings.games)]
        clients += [asyncio.create_task(spectator(bench, i)) for i in range(settings.spectators)]
        await asyncio.sleep(settings.ramp + settings.duration)
        bench.stopping.set()
        await faults  # ends with every process running
        _, stuck = await asyncio.wait(clients, timeout=settings.give_up + 30)
        for task in stuck:
            task.cancel()
        await asyncio.gather(*stuck, return_exceptions=True)
        crashed = [t for t in clients if t.done() and not t.cancelled() and t.exception() is not None]
        convergence = await converge(bench)
    stats = bench.stats
    return {
        "stats": stats,
        "chaos": chaos,
        "stuck_clients": len(stuck),
        "crashed_clients": [repr(t.exception()) for t in crashed][:5],
        "convergence": convergence,
    }


def run(settings: ChaosSettings, keep: bool = False) -> dict[str, Any] | None:
    """Make a chaos run in a new temporary directory (kept if ``keep``) and check it: its
    summary, ``ok`` when every check holds; None when it went over its hard limit."""
    directory = Path(tempfile.mkdtemp(prefix="miai-chaos-"))
    deployment = Deployment(settings.mode, directory, settings.processes)
    timeout = settings.duration + 300 if settings.timeout is None else settings.timeout
    result: dict[str, Any] | None = None
    try:
        deployment.start()
        result = asyncio.run(asyncio.wait_for(drive(settings, deployment), timeout))
    except asyncio.TimeoutError:
        print(f"the run went over its hard limit of {timeout:.0f} s", file=sys.stderr)
    finally:
        if result is not None:  # the checks read the database while it still runs
            where = deployment.database.removeprefix("sqlite:///")
            verify = verify_database(where, result["stats"].acks)
            clocks = check_clocks(where, result["chaos"].faults, cluster=settings.mode == "cluster")
        deployment.stop()
    if result is None:
        return None
    log_errors = sum(  # a request the server could not answer, or an error it did not expect
        line.count("Traceback")
        for server in deployment.servers if server.log_path is not None
        for line in server.log_path.read_text(errors="replace").splitlines()
    )  # fmt: skip
    summary = summarize(settings, result, verify, clocks)
    summary["server_tracebacks"] = log_errors
    if keep:
        print(f"kept {directory}", file=sys.stderr)
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return summary


def summarize(settings: ChaosSettings, result: dict[str, Any], verify: dict[str, Any], clocks: dict[str, Any]) -> dict[str, Any]:
    """The run's figures and checks, as JSON; ``ok`` when every check holds."""
    stats, chaos = result["stats"], result["chaos"]
    kinds = [f.kind for f in chaos.faults]
    summary = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "setup": {k: getattr(settings, k) for k in ("mode", "games", "spectators", "duration", "every", "down", "redis_down", "time", "seed")},
        "faults": {k: kinds.count(k) for k in ("kill", "postgres", "redis")},
        "fault_log": [f"{f.kind}@{f.at_ms} back {f.back_ms - f.at_ms} ms" for f in chaos.faults],
        "retries": chaos.retries,
        "gave_up": chaos.gave_up,
        "ack_latency": latency_summary(stats.latencies["http"]),
        "games_created": stats.games_created,
        "games_finished": stats.games_finished,
        "disconnections": {k: n for k, n in sorted(stats.errors.items()) if k.startswith(EXPECTED)},
        "client_errors": {k: n for k, n in sorted(stats.errors.items()) if not k.startswith(EXPECTED)},
        "stuck_clients": result["stuck_clients"],
        "crashed_clients": result["crashed_clients"],
        "verify": verify,
        "convergence": result["convergence"],
        "clocks": clocks,
    }
    summary["ok"] = (
        verify["ok"] and clocks["ok"] and not result["crashed_clients"] and chaos.gave_up == 0
        and not summary["client_errors"] and not result["stuck_clients"]
        and result["convergence"]["converged"] == result["convergence"]["games"]
    )  # fmt: skip
    return summary


def table_row(summary: dict[str, Any]) -> str:
    """The run's row of BENCHMARKS.md's chaos table, under its head."""
    verify, conv, clocks, faults = summary["verify"], summary["convergence"], summary["clocks"], summary["faults"]
    return "\n".join([
        "| mode | faults (kill/pg/redis) | acknowledged | lost | doubled | converged | moves timed | clock faults | max ack | ok |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {summary['setup']['mode']} | {faults['kill']}/{faults['postgres']}/{faults['redis']} | "
        f"{verify['acknowledged']} | {verify['lost']} | {verify['doubled']} | {conv['converged']}/{conv['games']} | "
        f"{clocks['moves_timed']} | {len(clocks['over_interval']) + len(clocks['not_reloaded'])} | "
        f"{summary['ack_latency'].get('max_ms', '-')} ms | {'yes' if summary['ok'] else 'NO'} |",
    ])  # fmt: skip
