"""``miai serve`` under load: one server process on a fresh SQLite file, many simulated clients.

Starts ``python -m miai serve --host 127.0.0.1 --port 0`` (a free port, localhost only) on a
new SQLite file in a temporary directory, then runs the clients in this one asyncio process:

- **players** in pairs, each pair on 9×9 games (Chinese rules, no clock) created with
  ``POST /api/games`` and two human seats. Each player holds a WebSocket with its seat token
  and keeps a replica of the game (a :class:`miai.Game` fed by the events, so the moves it
  picks are legal by the rules core, not by a copy of them). When it is its turn it waits a
  think time (uniform ``--think LOW HIGH`` seconds, 0.5-3 s by default: a brisk live game) and
  plays a random legal point that does not fill its own one-point eye, sending ``play`` over
  the WebSocket (or, for the ``--http-share`` of players, ``POST /api/games/{id}/play``).
  Past a move count drawn per game (``--moves``), it passes; after the two passes the first
  passer proposes no dead stones and the other accepts (docs/RULES.md §5), so games end.
  A player may also resign (``--resign`` per move). The pair starts a new game at once.
- **spectators**, each on a WebSocket to a random live game (no ``v``: the full state, as a
  browser opens it), moving to another game when theirs ends.

The clients are :mod:`miai.testing.clients` (the chaos soak test's too), the servers
:mod:`miai.testing.deployment`. Measured: the acknowledgement latency of every action (WebSocket ``play`` -> ``ack``; HTTP
POST -> 200) p50/p90/p99/max; frames and events delivered per second to all clients; errors
by kind (rejects by their code, error frames, closed sockets, HTTP statuses, timeouts, gaps or
repeats in a client's event stream); the server's CPU and RSS (from /proc, the server process
and its children: the worker pool); this client process's CPU and its event-loop lag (when the
clients saturate their own core the latencies include their own delay); second by second
(``timeline``), the actions' p99 and each process tree's CPU, to see where in the run the tail
is; and the machine's speed before and after (a fixed piece of Python, timed), since only runs
at about the same speed compare. This process uses the server's collector settings
(:func:`miai.server.gcpause.settle`), so that its own pauses count as little as can be.

At the end the server is stopped and its database opened read-only to **verify** (:mod:`miai.testing.verify`) that every
acknowledged action is in ``game_events`` exactly once, at the version it was acknowledged
with, with the same seat and move, and that every game's versions run 1..v without a gap.

    python benchmarks/server_load.py --quick                  # smoke test: 10 s, 20 clients
    python benchmarks/server_load.py --clients 300 --duration 60
    python benchmarks/server_load.py --players 300 --spectators 100 --duration 60

Prints a JSON summary, then one Markdown table row. Run it with the sources you mean to test
(``PYTHONPATH=src``); the server subprocess inherits the environment.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from miai.client.websocket import Frame, connect_asyncio
from miai.game import Game
from miai.server import gcpause
from miai.testing.clients import (
    ACK_TIMEOUT, RULES, SIZE, Bench, ClientSettings, Stats, latency_summary, pair, percentile, spectator,
)  # fmt: skip
from miai.testing.deployment import MODES, Deployment
from miai.testing.verify import verify_database


# ---------------------------------------------------------------------------- the machine
def proc_times(pid: int) -> tuple[float, int] | None:
    """CPU seconds (user + system) and RSS bytes of process ``pid`` from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields_ = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields_[11]) + int(fields_[12])) / ticks  # utime, stime: fields 14 and 15
    rss = int(fields_[21]) * os.sysconf("SC_PAGE_SIZE")  # field 24
    return cpu, rss


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc's parent ids)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        ppid = int(text[text.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


async def pinger(bench: Bench) -> None:
    """One WebSocket that sends ``ping`` ten times a second: the server's event-loop
    responsiveness apart from any game's work (a ping is answered without touching a room)."""
    stats = bench.stats
    while not bench.live and not bench.stopping.is_set():
        await asyncio.sleep(0.1)
    if bench.stopping.is_set():
        return
    game_id = next(iter(bench.live))
    async with connect_asyncio(bench.bases[0], game_id) as ws:
        while not bench.stopping.is_set():
            start = time.perf_counter()
            await ws.send(Frame("ping").text())
            while Frame.read(await ws.recv()).t != "pong":
                pass
            stats.pings.append((start - bench.t0, time.perf_counter() - start))
            await asyncio.sleep(0.1)


async def monitor(bench: Bench, roots: dict[str, int]) -> None:
    """Every second: the CPU time and RSS of each measured process tree (a server with its
    workers, PostgreSQL, Redis), and ten times a second this loop's lag."""
    stats = bench.stats
    loop = asyncio.get_running_loop()
    trees = {name: process_tree(pid) for name, pid in roots.items()}
    tick = 0
    while True:
        before = loop.time()
        await asyncio.sleep(0.1)
        stats.loop_lag.append(max(0.0, loop.time() - before - 0.1))
        tick += 1
        if tick % 10:
            continue
        if tick % 50 == 0:
            trees = {name: process_tree(pid) for name, pid in roots.items()}
        now = time.perf_counter() - bench.t0
        for name, tree in trees.items():
            parts = [t for t in (proc_times(p) for p in tree) if t is not None]
            if parts:
                stats.cpu.setdefault(name, []).append((now, sum(c for c, _ in parts), sum(r for _, r in parts)))
        if now > bench.settings.ramp:
            stats.live_games.append(len(bench.live))


# ---------------------------------------------------------------------------- the run
def cpu_rates(series: list[tuple[float, float, int]]) -> list[tuple[float, float]]:
    """(start, CPU in % of one core) over each interval between two samples of a process tree.
    A process that leaves the tree (a PostgreSQL backend that exits) takes its CPU time out of
    the sum, so an interval where one left can read low, even below zero."""
    return [(t0, 100 * (c1 - c0) / (t1 - t0)) for (t0, c0, _), (t1, c1, _) in zip(series, series[1:])]


def cpu_summary(samples: dict[str, list[tuple[float, float, int]]]) -> dict[str, Any]:
    """By process tree: mean and peak CPU (% of one core) over the samples, and peak RSS (MiB);
    ``servers`` sums the server processes, ``all`` everything measured (the cost of the service)."""
    out: dict[str, Any] = {}
    for name, series in samples.items():
        if len(series) < 2:
            continue
        span = series[-1][0] - series[0][0]
        peaks = [pct for _, pct in cpu_rates(series)]
        out[name] = {
            "cpu_mean_pct": round(100 * (series[-1][1] - series[0][1]) / span, 1),
            "cpu_peak_pct": round(max(peaks), 1),
            "cpu_s": round(series[-1][1] - series[0][1], 2),
            "span_s": round(span, 1),
            "rss_peak_mib": round(max(r for _, _, r in series) / 2**20, 1),
        }
    for total, names in (("servers", [n for n in out if n.startswith("server")]), ("all", list(out))):
        if names:
            out[total] = {
                "cpu_mean_pct": round(sum(out[n]["cpu_mean_pct"] for n in names), 1),
                "cpu_s": round(sum(out[n]["cpu_s"] for n in names), 2),
                "rss_peak_mib": round(sum(out[n]["rss_peak_mib"] for n in names), 1),
            }
    return out


async def drive(args: argparse.Namespace, deployment: Deployment) -> tuple[Stats, dict[str, Any]]:
    limits = httpx.Limits(max_connections=args.http_connections, max_keepalive_connections=args.http_connections)
    async with httpx.AsyncClient(limits=limits, timeout=ACK_TIMEOUT) as http:
        bench = Bench(client_settings(args), [server.base for server in deployment.servers], http)
        watcher = asyncio.create_task(monitor(bench, deployment.roots()))
        pings = asyncio.create_task(pinger(bench))
        cpu0 = os.times()
        start = time.perf_counter()
        clients = [asyncio.create_task(pair(bench, i)) for i in range(args.players // 2)]
        clients += [asyncio.create_task(spectator(bench, i)) for i in range(args.spectators)]
        await asyncio.sleep(args.ramp + args.duration)
        bench.stopping.set()
        measured = time.perf_counter() - start
        _, stuck = await asyncio.wait(clients, timeout=ACK_TIMEOUT + 10)
        for task in stuck:
            task.cancel()
        bench.stats.errors["client-stuck-at-end"] += len(stuck)
        if not bench.stats.errors["client-stuck-at-end"]:
            del bench.stats.errors["client-stuck-at-end"]
        await asyncio.gather(*stuck, return_exceptions=True)
        watcher.cancel()
        pings.cancel()
        await asyncio.gather(pings, return_exceptions=True)
        cpu1 = os.times()
        for task in clients:
            if task.done() and not task.cancelled() and task.exception() is not None:
                bench.stats.errors[f"client-crash-{type(task.exception()).__name__}"] += 1
        client = {
            "seconds": round(measured, 1),
            "client_cpu_mean_pct": round(
                100 * (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / (time.perf_counter() - start), 1
            ),
            "client_loop_lag_p99_ms": round(percentile(bench.stats.loop_lag, 99) * 1000, 1),
            "client_loop_lag_max_ms": round(max(bench.stats.loop_lag, default=0) * 1000, 1),
            "live_games_mean": round(sum(bench.stats.live_games) / max(1, len(bench.stats.live_games)), 1),
        }
        return bench.stats, client


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def timeline(stats: Stats) -> list[dict[str, Any]]:
    """Second by second (by when the actions were sent): how many, their p99 and max, and the
    CPU of each process tree over that second — where in the run the tail is, and what the
    machine was doing then."""
    by_second: dict[int, list[float]] = {}
    for at, elapsed in stats.timed:
        by_second.setdefault(int(at), []).append(1000 * elapsed)
    cpu: dict[int, dict[str, float]] = {}
    for name, series in stats.cpu.items():
        for at, pct in cpu_rates(series):
            cpu.setdefault(int(at), {})[name] = round(pct)
    return [
        {"s": s, "actions": len(ms), "p99_ms": round(percentile(ms, 99), 1), "max_ms": round(max(ms), 1), "cpu_pct": cpu.get(s, {})}
        for s, ms in sorted(by_second.items())
    ]


def summarize(args: argparse.Namespace, stats: Stats, client: dict[str, Any], verify: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    seconds = client["seconds"]
    every = stats.latencies["ws"] + stats.latencies["http"]
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "machine": {"nproc": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version()},
        "setup": {
            "mode": args.mode,
            "processes": args.processes if args.mode == "cluster" else 1,
            "players": args.players,
            "spectators": args.spectators,
            "duration_s": args.duration,
            "ramp_s": args.ramp,
            "think_s": args.think,
            "moves_per_game": args.moves,
            "resign_per_move": args.resign,
            "http_share": args.http_share,
            "board": SIZE,
            "rules": RULES,
        },
        "ack_latency": latency_summary(every),
        "ack_latency_after_ramp": latency_summary([e for at, e in stats.timed if at >= args.ramp]),
        "ack_latency_ws": latency_summary(stats.latencies["ws"]),
        "ack_latency_http": latency_summary(stats.latencies["http"]),
        "ack_latency_by_kind": {kind: latency_summary(v) for kind, v in sorted(stats.by_kind.items())},
        "create_latency": latency_summary(stats.create_latencies),
        "ping_rtt": latency_summary([rtt for _, rtt in stats.pings]),
        "ping_over_200ms_at_s": [round(at, 1) for at, rtt in stats.pings if rtt > 0.2][:20],
        "actions_over_200ms": [
            {"ms": round(1000 * ms, 1), "at_s": round(at, 1), "kind": kind, "via": via}
            for ms, at, kind, via in sorted(stats.slowest, reverse=True)[:20]
        ],
        "timeline": timeline(stats),
        "actions_per_s": round(len(every) / seconds, 1),
        "events_delivered_per_s": round(stats.events / seconds, 1),
        "frames_delivered_per_s": round(stats.frames / seconds, 1),
        "games_created": stats.games_created,
        "games_finished": stats.games_finished,
        "game_endings": dict(stats.results),
        "errors": dict(sorted(stats.errors.items())),
        "error_messages": dict(stats.messages.most_common(10)),
        "verify": verify,
        **client,
        **extra,
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def table(summary: dict[str, Any]) -> str:
    lat, setup, verify = summary["ack_latency"], summary["setup"], summary["verify"]
    errors = sum(summary["errors"].values())
    cpu = summary["cpu"]
    servers, database = cpu.get("servers", {}), cpu.get("postgres", {})
    head = (
        "| mode | players | spectators | actions/s | ack p50 | p90 | p99 | p99 after the ramp | max | events/s | servers' CPU | "
        "PostgreSQL CPU | servers' RSS | errors | lost/doubled | load |"
    )
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    row = (
        f"| {setup['mode']} ({setup['processes']}) | {setup['players']} | {setup['spectators']} | "
        f"{summary['actions_per_s']} | {lat['p50_ms']} ms | "
        f"{lat['p90_ms']} ms | {lat['p99_ms']} ms | {summary['ack_latency_after_ramp']['p99_ms']} ms | {lat['max_ms']} ms | {summary['events_delivered_per_s']} | "
        f"{servers.get('cpu_mean_pct', '?')}% | {database.get('cpu_mean_pct', '-')}{'%' if database else ''} | "
        f"{servers.get('rss_peak_mib', '?')} MiB | {errors} | "
        f"{verify['lost']}/{verify['doubled']} of {verify['acknowledged']}"
        f"{'' if verify['ok'] else ' FAILED'} | {' '.join(map(str, summary['load_before']))} |"
    )
    return "\n".join([head, rule, row])


def client_settings(args: argparse.Namespace) -> ClientSettings:
    """How the clients play, from the command line."""
    return ClientSettings(
        seed=args.seed, ramp=args.ramp, think=(args.think[0], args.think[1]), moves=(args.moves[0], args.moves[1]),
        time=args.time, resign=args.resign, http_share=args.http_share,
    )  # fmt: skip


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=100, help="players + spectators: two thirds players (default 100)")
    p.add_argument("--players", type=int, help="players (even; overrides the split of --clients)")
    p.add_argument("--spectators", type=int, help="spectators (overrides the split of --clients)")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of play after the ramp (default 60)")
    p.add_argument("--ramp", type=float, default=5.0, help="seconds over which clients arrive (default 5)")
    p.add_argument("--think", type=float, nargs=2, default=[0.5, 3.0], metavar=("LOW", "HIGH"))
    p.add_argument("--moves", type=int, nargs=2, default=[20, 60], metavar=("LOW", "HIGH"),
                   help="moves before the players pass, drawn per game (default 20 60)")  # fmt: skip
    p.add_argument("--time", default="none", help="the games' time control, e.g. absolute:3600 (default none)")
    p.add_argument("--resign", type=float, default=0.005, help="chance to resign instead of a move (default 0.005)")
    p.add_argument("--http-share", type=float, default=0.2, help="players acting by HTTP POST (default 0.2)")
    p.add_argument("--http-connections", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mode", choices=MODES, default="sqlite",
                   help="one process on SQLite (default), one on PostgreSQL, or several on PostgreSQL + Redis")
    p.add_argument("--processes", type=int, default=2, help="server processes in --mode cluster (default 2)")
    p.add_argument("--log-level", default="warning", help="the servers' --log-level (default warning)")
    p.add_argument("--timeout", type=float, help="hard limit of the whole run in seconds (default: duration + 180)")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory (database, server log)")
    p.add_argument("--json", type=Path, help="also write the JSON summary to this file")
    p.add_argument("--quick", action="store_true", help="smoke test: 20 clients for 10 s")
    args = p.parse_args(argv)
    if args.quick:  # short games and quick moves, so that games end and new ones start
        args.clients, args.duration, args.ramp = 20, 10.0, 2.0
        args.think, args.moves = [0.2, 1.0], [2, 8]
    if args.players is None:
        args.players = 2 * round(args.clients / 3)
        if args.spectators is None:
            args.spectators = args.clients - args.players
    args.spectators = args.spectators or 0
    if args.players < 2 or args.players % 2:
        p.error("--players must be an even number of at least 2")
    if args.timeout is None:
        args.timeout = args.ramp + args.duration + 180
    return args


def machine_speed() -> float:
    """Milliseconds this machine takes for a fixed piece of pure Python (the median of five): a
    shared VM's speed changes from one minute to the next, and runs are comparable only at
    about the same speed."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        sum(i * i for i in range(300_000))
        times.append(1000 * (time.perf_counter() - start))
    return round(statistics.median(times), 1)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    directory = Path(tempfile.mkdtemp(prefix="miai-load-"))
    deployment = Deployment(args.mode, directory, args.processes, args.log_level)
    load_before = load_average()
    speed_before = machine_speed()
    Game(SIZE).legal_moves()  # load the compiled kernel now, not in the first client's turn
    gcpause.settle()  # the clients' own collector pauses would count in the latencies as the server's do
    stats: Stats | None = None
    try:
        deployment.start()
        for server in deployment.servers:
            print(f"server {server.base} pid {server.pid}, database {server.database}", file=sys.stderr, flush=True)
        stats, client = asyncio.run(asyncio.wait_for(drive(args, deployment), args.timeout))
        verify = verify_database(deployment.database.removeprefix("sqlite:///"), stats.acks)
    except asyncio.TimeoutError:
        print(f"the run went over its hard limit of {args.timeout:.0f} s; the servers are stopped", file=sys.stderr)
    finally:
        codes = deployment.stop()
    if stats is None:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)
        return 2
    log_lines = [
        line for server in deployment.servers if server.log_path is not None
        for line in server.log_path.read_text(errors="replace").splitlines()
    ]  # fmt: skip
    extra = {
        "load_before": load_before,
        "load_after": load_average(),
        "machine_speed_ms": {"before": speed_before, "after": machine_speed()},
        "server_exit_codes": codes,
        "server_log_errors": sum(1 for line in log_lines if "Traceback" in line or "ERROR" in line),
        "cpu": cpu_summary(stats.cpu),
    }
    summary = summarize(args, stats, client, verify, extra)
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    print(table(summary))
    if args.keep:
        print(f"kept {directory}", file=sys.stderr)
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return 0 if verify["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
