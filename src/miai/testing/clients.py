"""Simulated clients of ``miai serve``, for the load benchmark (``benchmarks/server_load.py``)
and the chaos soak test (``tests/soak``): players in pairs on 9×9 games and spectators, over
the server's public API (:mod:`miai.client`), each player keeping a replica of its game.

- **players** in pairs, each pair on 9×9 games (Chinese rules) created with ``POST
  /api/games`` and two human seats. Each player holds a WebSocket with its seat token and
  keeps a replica of the game (a :class:`miai.Game` fed by the events, so the moves it picks
  are legal by the rules core, not by a copy of them). When it is its turn it waits a think
  time and plays a random legal point that does not fill its own one-point eye, sending
  ``play`` over the WebSocket (or, for a share of the players, ``POST
  /api/games/{id}/play``). Past a move count drawn per game, it passes; after the two passes
  the first passer proposes no dead stones and the other accepts (docs/RULES.md §5), so games
  end. A player may also resign. The pair starts a new game at once.
- **spectators**, each on a WebSocket to a random live game (no ``v``: the full state, as a
  browser opens it), moving to another game when theirs ends.

What they see is counted in :class:`Stats`: every acknowledged action (for
:func:`miai.testing.verify.verify_database`) and its latency, frames and events, errors by kind.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from miai.client.links import api_url, authorization, games_url
from miai.client.websocket import Frame, connect_asyncio
from miai.coords import Color, point_to_gtp
from miai.game import Game, Phase
from miai.rules import Rules
from miai.server.play.events import EventKind, apply_event
from miai.testing.verify import Ack

__all__ = [
    "ACK_TIMEOUT", "RULES", "SIZE", "Bench", "ClientSettings", "Player", "Stats",
    "latency_summary", "pair", "percentile", "receive", "spectator",
]  # fmt: skip

RULES = "chinese"
SIZE = 9
ACK_TIMEOUT = 15.0
"""An action not answered within this many seconds counts as an error (``timeout``)."""



def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, interpolated linearly between the two
    nearest ranks (numpy's default); NaN for no values."""
    if not values:
        return math.nan
    data = sorted(values)
    rank = (len(data) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (rank - low)


def latency_summary(seconds: Sequence[float]) -> dict[str, Any]:
    """Count, p50/p90/p99 and max of latencies given in seconds, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "count": len(ms),
        "p50_ms": round(percentile(ms, 50), 2) if ms else None,
        "p90_ms": round(percentile(ms, 90), 2) if ms else None,
        "p99_ms": round(percentile(ms, 99), 2) if ms else None,
        "max_ms": round(max(ms), 2) if ms else None,
    }


# ---------------------------------------------------------------------------- the run's shared state
@dataclass(frozen=True)
class ClientSettings:
    """How the simulated clients play."""

    seed: int = 1
    ramp: float = 5.0
    """Seconds over which the clients arrive."""
    think: tuple[float, float] = (0.5, 3.0)
    """A player's think time before each action: uniform between these, in seconds."""
    moves: tuple[int, int] = (20, 60)
    """The moves before the players pass, drawn per game between these."""
    time: str = "none"
    """The games' time control (``absolute:3600``...)."""
    resign: float = 0.005
    """The chance to resign instead of a move."""
    http_share: float = 0.2
    """The share of players acting by HTTP POST rather than over their WebSocket."""


@dataclass
class Stats:
    """What the clients saw, counted as they see it."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {"ws": [], "http": []})
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    """The same latencies by the event kind the action made (move, pass, propose, accept, resign)."""
    acks: list[Ack] = field(default_factory=list)
    timed: list[tuple[float, float]] = field(default_factory=list)
    """(seconds into the run when sent, seconds to the answer) of every acknowledged action."""
    errors: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)
    """The error frames' messages, by code and message."""
    frames: int = 0
    events: int = 0
    games_created: int = 0
    games_finished: int = 0
    results: Counter[str] = field(default_factory=Counter)
    create_latencies: list[float] = field(default_factory=list)
    loop_lag: list[float] = field(default_factory=list)
    pings: list[tuple[float, float]] = field(default_factory=list)
    """(when, seconds): WebSocket ping -> pong round trips, ten a second, one connection."""
    slowest: list[tuple[float, float, str, str]] = field(default_factory=list)
    """(seconds, when, kind, transport) of every action slower than 200 ms."""
    live_games: list[int] = field(default_factory=list)
    """Samples, once a second after the ramp: how many games are being played."""
    cpu: dict[str, list[tuple[float, float, int]]] = field(default_factory=dict)
    """Samples by process tree (``server0``, ``postgres``…): (seconds into the run, cpu s of the tree, rss of the tree)."""


    def acked(self, via: str, kind: str, at: float, elapsed: float, ack: Ack) -> None:
        """An action answered ``elapsed`` s after it was sent, ``at`` s into the run."""
        self.latencies[via].append(elapsed)
        self.by_kind.setdefault(kind, []).append(elapsed)
        self.timed.append((at, elapsed))
        if elapsed > 0.2:
            self.slowest.append((elapsed, at, kind, via))
        self.acks.append(ack)

    def error_frame(self, d: dict[str, Any]) -> None:
        self.errors[f"error-frame-{d.get('error')}"] += 1
        self.messages[f"{d.get('error')}: {str(d.get('message'))[:100]}"] += 1


class Bench:
    """What every client shares: the server's address, the clock, the live games, the stats."""

    def __init__(self, settings: ClientSettings, bases: list[str], http: httpx.AsyncClient):
        self.settings = settings
        self.bases = bases
        """The servers' addresses: games are created on the first, Black plays on the first,
        White and the spectators on the last (the other process, when there are two)."""
        self.http = http
        self.stats = Stats()
        self.rng = random.Random(settings.seed)
        self.live: dict[str, asyncio.Event] = {}
        """Live games, each with an event set when it ends (spectators wait on it)."""
        self.stopping = asyncio.Event()
        self.counter = itertools.count()
        self.t0 = time.perf_counter()
        self.player_class: type[Player] = Player
        self.games: dict[str, list[Player]] = {}
        """Every game created, with its two players."""

    def action_id(self) -> str:
        return f"a{next(self.counter)}"

    def base_of(self, color: Color | None) -> str:
        """The server a seat (or, for None, a spectator) uses."""
        return self.bases[0] if color is Color.BLACK else self.bases[-1]


def eye_of(game: Game, point: tuple[int, int], color: Color) -> bool:
    """``point`` is a one-point eye of ``color``: every neighbour on the board is ``color``'s."""
    x, y = point
    size = game.size
    board = game.board
    for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= nx < size and 0 <= ny < size and board[(nx, ny)] is not color:
            return False
    return True


async def receive(
    ws: ClientConnection, stats: Stats, others: tuple[asyncio.Future[Any], ...], timeout: float | None = None
) -> Frame | None:
    """The next frame from ``ws`` (counted), or None if one of ``others`` is done first or
    ``timeout`` passes."""
    recv = asyncio.ensure_future(ws.recv())
    await asyncio.wait({recv, *others}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if not recv.done():
        recv.cancel()
        return None
    stats.frames += 1
    return Frame.read(recv.result())


class Player:
    """One seat of one game, connected by WebSocket; acts when it is its turn."""

    def __init__(self, bench: Bench, game_id: str, color: Color, token: str, *, via_http: bool, moves: int):
        self.bench = bench
        self.game_id = game_id
        self.color = color
        self.seat = "black" if color is Color.BLACK else "white"
        self.token = token
        self.base = bench.base_of(color)
        self.via_http = via_http
        self.moves = moves
        self.game = Game(SIZE, Rules.parse(RULES))
        self.v = 0
        self.ws: ClientConnection | None = None
        self.pending: dict[str, asyncio.Future[Frame]] = {}
        self.acting: asyncio.Task[None] | None = None
        self.acted_at = -1
        """The version this player last acted on (it acts once per version)."""
        self.done = False

    async def run(self) -> None:
        stats = self.bench.stats
        while not self.done and not self.bench.stopping.is_set():
            try:
                async with connect_asyncio(self.base, self.game_id, token=self.token, v=self.v) as ws:
                    self.ws = ws
                    await self._read(ws)
            except ConnectionClosed as e:
                stats.errors[f"ws-closed-{e.rcvd.code if e.rcvd else 'no-close-frame'}"] += 1
                if e.rcvd is not None and e.rcvd.code == 1013:  # try again later: as a page does
                    await asyncio.sleep(0.5)
            except (OSError, asyncio.TimeoutError) as e:
                stats.errors[f"ws-connect-{type(e).__name__}"] += 1
                self.connect_failed()
                await asyncio.sleep(1)
            finally:
                self.ws = None
        if self.acting is not None:
            try:
                await asyncio.wait_for(self.acting, ACK_TIMEOUT)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass

    def connect_failed(self) -> None:
        """A hook for a player that moves to another server when its own does not answer."""

    async def _read(self, ws: ClientConnection) -> None:
        stats = self.bench.stats
        stop = asyncio.ensure_future(self.bench.stopping.wait())
        try:
            while True:
                ending = self.done or stop.done()
                if ending and (self.acting is None or self.acting.done()):
                    return  # the game or the run is over and no action waits for its answer
                if ending:  # read on until the action under way has its answer
                    message = await receive(ws, stats, (), ACK_TIMEOUT)
                else:
                    message = await receive(ws, stats, (stop,))
                if message is None:
                    continue
                t, d = message.t, message.d
                if t == "event":
                    stats.events += 1
                    self._event(d)
                elif t == "hello":
                    self._maybe_act()
                elif t == "ack" or t == "reject":
                    future = self.pending.pop(str(d.get("a")), None)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif t == "error":
                    stats.error_frame(d)
                elif t == "full":  # not expected: players connect with v
                    stats.errors["unexpected-full-state"] += 1
                    self.done = True
        finally:
            stop.cancel()

    def _event(self, e: dict[str, Any]) -> None:
        stats = self.bench.stats
        if e["v"] <= self.v:
            stats.errors["event-repeated"] += 1
            return
        if e["v"] != self.v + 1:
            stats.errors["event-gap"] += 1
            self.done = True
            return
        apply_event(self.game, EventKind(e["kind"]), e)
        self.v = e["v"]
        if self.game.phase is Phase.FINISHED:
            self.done = True
            if self.color is Color.BLACK:
                stats.games_finished += 1
                stats.results[e["kind"]] += 1
                ended = self.bench.live.pop(self.game_id, None)
                if ended is not None:
                    ended.set()
            return
        self._maybe_act()

    def _maybe_act(self) -> None:
        """Start acting (after a think time) if it is this seat's turn and it has not acted yet."""
        if self.done or self.bench.stopping.is_set():
            return
        if self._my_turn() and self.acted_at < self.v and (self.acting is None or self.acting.done()):
            self.acted_at = self.v
            self.acting = asyncio.create_task(self._act(self.v))

    def _my_turn(self) -> bool:
        game = self.game
        if game.phase is Phase.PLAY:
            return game.to_move is self.color
        marking = game.marking
        return marking is not None and marking.to_act is self.color

    def _choose(self) -> tuple[str, dict[str, Any], str, str | None]:
        """The action to take now: (frame type, body, event kind expected, move)."""
        game, rng = self.game, self.bench.rng
        if game.phase is Phase.MARKING:
            marking = game.marking
            assert marking is not None
            if marking.proposal is None:
                return "dead", {"dead": []}, "propose", None
            return "accept", {}, "accept", None
        if rng.random() < self.bench.settings.resign:
            return "resign", {}, "resign", None
        if game.move_number < self.moves:
            points = [p for p in game.legal_moves() if not eye_of(game, p, self.color)]
            if points:
                move = point_to_gtp(rng.choice(points))
                return "play", {"move": move}, "move", move
        return "play", {"move": "pass"}, "pass", None

    async def _think(self, v: int) -> tuple[str, dict[str, Any], str, str | None] | None:
        """Think, then the action to send at version ``v`` (:meth:`_choose`, its body stamped
        with ``v`` and a new action id ``a``); None when the run stops or the game moved on."""
        bench = self.bench
        await asyncio.sleep(bench.rng.uniform(*bench.settings.think))
        if bench.stopping.is_set() or self.v != v:
            return None
        t, body, kind, move = self._choose()
        return t, {**body, "v": v, "a": bench.action_id()}, kind, move

    async def _act(self, v: int) -> None:
        bench, stats = self.bench, self.bench.stats
        chosen = await self._think(v)
        if chosen is None:
            return
        t, body, kind, move = chosen
        a = body["a"]
        start = time.perf_counter()
        try:
            if self.via_http:
                answer = await bench.http.post(
                    api_url(self.base, self.game_id, f"/{t}"), json=body, headers=authorization(self.token)
                )
                elapsed = time.perf_counter() - start
                if answer.status_code != 200:
                    stats.errors[f"http-{answer.status_code}-{answer.json().get('error')}"] += 1
                    return
                stats.acked("http", kind, start - bench.t0, elapsed, Ack(self.game_id, answer.json()["v"], a, self.seat, kind, move))
                return
            ws = self.ws
            if ws is None:
                stats.errors["not-connected"] += 1
                return
            future: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
            self.pending[a] = future
            await ws.send(Frame(t, body).text())
            reply = await asyncio.wait_for(future, ACK_TIMEOUT)
            elapsed = time.perf_counter() - start
            if reply.t == "reject":
                stats.errors[f"reject-{reply.d.get('error')}"] += 1
                return
            stats.acked("ws", kind, start - bench.t0, elapsed, Ack(self.game_id, reply.d["v"], a, self.seat, kind, move))
        except asyncio.TimeoutError:
            stats.errors["timeout"] += 1
        except (httpx.HTTPError, ConnectionClosed, OSError) as e:
            stats.errors[f"send-{type(e).__name__}"] += 1


async def pair(bench: Bench, index: int) -> None:
    """Two players on one game after another, until the run stops."""
    settings, stats = bench.settings, bench.stats
    rng = random.Random(settings.seed * 100_003 + index)
    await asyncio.sleep(rng.uniform(0, settings.ramp))
    while not bench.stopping.is_set():
        start = time.perf_counter()
        try:
            answer = await bench.http.post(games_url(bench.bases[0]), json={"size": SIZE, "rules": RULES, "time": settings.time})
        except httpx.HTTPError as e:
            stats.errors[f"create-{type(e).__name__}"] += 1
            await asyncio.sleep(1)
            continue
        if answer.status_code != 201:
            stats.errors[f"create-http-{answer.status_code}"] += 1
            await asyncio.sleep(1)
            continue
        stats.create_latencies.append(time.perf_counter() - start)
        stats.games_created += 1
        created = answer.json()
        game_id = created["id"]
        bench.live[game_id] = asyncio.Event()
        low, high = settings.moves
        moves = rng.randint(low, high)
        players = [
            bench.player_class(
                bench, game_id, color, created[f"{name}_token"], via_http=rng.random() < settings.http_share, moves=moves
            )
            for color, name in ((Color.BLACK, "black"), (Color.WHITE, "white"))
        ]
        bench.games[game_id] = players
        await asyncio.gather(*(p.run() for p in players))
        bench.live.pop(game_id, None)


async def spectator(bench: Bench, index: int) -> None:
    """Watches a random live game (the full state, then its events) until it ends, then another."""
    settings, stats = bench.settings, bench.stats
    rng = random.Random(settings.seed * 200_003 + index)
    await asyncio.sleep(rng.uniform(0, settings.ramp) + 1)
    while not bench.stopping.is_set():
        if not bench.live:
            await asyncio.sleep(0.5)
            continue
        game_id = rng.choice(list(bench.live))
        ended = bench.live.get(game_id)
        if ended is None:
            continue
        try:
            async with connect_asyncio(bench.base_of(None), game_id) as ws:
                v: int | None = None
                stop = asyncio.ensure_future(bench.stopping.wait())
                over = asyncio.ensure_future(ended.wait())
                try:
                    while True:
                        message = await receive(ws, stats, (stop, over))
                        if message is None:
                            break
                        t, d = message.t, message.d
                        if t == "full":
                            v = d["v"]
                        elif t == "event":
                            stats.events += 1
                            if v is not None and d["v"] != v + 1:
                                stats.errors["event-gap" if d["v"] > v + 1 else "event-repeated"] += 1
                            v = d["v"]
                            if d["kind"] in ("accept", "resign"):
                                break
                        elif t == "error":
                            stats.error_frame(d)
                finally:
                    stop.cancel()
                    over.cancel()
        except ConnectionClosed as e:
            stats.errors[f"ws-closed-{e.rcvd.code if e.rcvd else 'no-close-frame'}"] += 1
        except (OSError, asyncio.TimeoutError) as e:
            stats.errors[f"ws-connect-{type(e).__name__}"] += 1
            await asyncio.sleep(1)
