"""The relay of a game owned by another process: every event once, in order, whatever the bus drops."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from miai.server.cluster.relay import Relay, event_v
from miai.server.cluster.versions import GameVersions
from miai.server.config import ServerConfig
from miai.server.play.events import Event, EventKind
from miai.server.rooms.audience import Subscriber
from miai.server.wire.frames import frame


def move(v: int) -> Event:
    return Event(v, EventKind.MOVE, {"color": "black" if v % 2 else "white", "move": f"A{v}"}, None, 1000 + v)


class Bus:
    def __init__(self):
        self.listener = None

    def listen(self, game_id, listener):
        self.listener = listener
        return lambda: None


class Store:
    def __init__(self, events):
        self.events = events
        self.reads = 0

    async def load_events(self, game_id, after=0, limit=None):
        self.reads += 1
        return [e for e in self.events if e.v > after][:limit]

    async def versions(self, game_ids):
        return {"g": max((e.v for e in self.events), default=0)} if "g" in game_ids else {}


def relay_server(bus, store, router, config):
    """What a relay uses of the server: the bus, the store, the router, the settings, and the
    games' versions (read by one task for all the relays)."""
    versions = GameVersions(store.versions, config.relay_poll_s)
    return SimpleNamespace(bus=bus, store=store, router=router, config=config, versions=versions)


class Router:
    def __init__(self):
        self.calls = []

    async def call(self, game_id, op, args):
        self.calls.append((op, args))
        if op == "join":
            assert (args["token"], args["after"]) == (None, 1)
            return {"v": 1, "seat": None, "presence": {}, "events": [], "state": None, "chat": []}


def drain(sub: Subscriber) -> list[dict]:
    out = []
    while not sub.queue.empty():
        out.append(json.loads(sub.queue.get_nowait()))
    return out


def test_a_gap_is_filled_from_the_database_a_duplicate_dropped_and_a_lost_tail_found_by_polling():
    events = [move(v) for v in range(1, 6)]

    async def run():
        bus, store = Bus(), Store(events)
        server = relay_server(bus, store, Router(), ServerConfig(relay_poll_s=0.05))
        sub = Subscriber()
        conn = SimpleNamespace(server=server, game_id="g", token=None, sub=sub, send=lambda t, d: sub.send(frame(t, d)))
        relay = Relay(conn, server)
        await relay.join(1)
        bus.listener(frame("event", events[2].wire()))  # v=3: v=2 was dropped by the bus
        bus.listener(frame("chat", {"text": "hi"}))
        bus.listener(frame("event", events[2].wire()))  # v=3 again
        await asyncio.sleep(0.02)
        first = drain(sub)
        await asyncio.sleep(0.15)  # v=4 and v=5 never came over the bus: the poll finds them
        second = drain(sub)
        reads = store.reads
        await asyncio.sleep(0.2)  # idle, and the database holds nothing newer: no more reads
        idle_reads = store.reads - reads
        await relay.close()
        await server.versions.close()
        return first, second, idle_reads

    first, second, idle_reads = asyncio.run(run())
    assert [f["t"] for f in first] == ["hello", "event", "event", "chat"]
    assert [f["d"]["v"] for f in first if f["t"] == "event"] == [2, 3]
    assert [f["d"]["v"] for f in second] == [4, 5]
    assert idle_reads == 0


def test_event_v_reads_only_event_frames():
    assert event_v(frame("event", move(7).wire())) == 7
    assert event_v(frame("chat", {"v": 7})) is None


def test_a_connection_is_announced_to_the_owner_as_a_visitor_while_it_stays_and_when_it_leaves():
    calls: list[tuple[str, dict]] = []

    class SeatRouter:
        async def call(self, game_id, op, args):
            calls.append((op, args))
            if op == "join":
                return {"v": 0, "seat": "black", "presence": {}, "events": [], "state": None, "chat": []}

    async def run():
        bus = Bus()
        config = ServerConfig(relay_poll_s=10, visit_every_s=0.1)
        server = relay_server(bus, Store([]), SeatRouter(), config)
        sub = Subscriber()
        conn = SimpleNamespace(server=server, game_id="g", token="tok", sub=sub, send=lambda t, d: sub.send(frame(t, d)))
        relay = Relay(conn, server)
        await relay.join(None)
        for _ in range(12):  # a frame every 0.03 s: the poll never times out, the visits go on
            bus.listener(frame("chat", {"text": "."}))
            await asyncio.sleep(0.03)
        await relay.close()
        return conn.sub.seat, relay.key

    seat, key = asyncio.run(run())
    assert seat is not None and seat.name == "BLACK"
    assert calls[0][0] == "join" and calls[0][1]["key"] == key
    visits = [args for op, args in calls if op == "visit"]
    assert 2 <= len(visits) <= 5
    assert all(a["key"] == key and a["token"] == "tok" for a in visits)
    assert [a["leave"] for a in visits] == [False] * (len(visits) - 1) + [True]  # the last says it left


def test_the_versions_of_all_relayed_games_are_read_in_one_query_and_forgotten_when_unwatched():
    reads: list[list[str]] = []

    async def read(ids):
        reads.append(sorted(ids))
        return {game_id: 7 for game_id in ids}

    async def run():
        versions = GameVersions(read, interval=0.05)
        stops = [versions.watch("a"), versions.watch("b"), versions.watch("a")]
        await asyncio.sleep(0.08)
        newer = (versions.newer_than("a", 6), versions.newer_than("a", 7), versions.newer_than("zzz", 0))
        stops[0]()
        stops[1]()
        await asyncio.sleep(0.06)
        last = reads[-1]
        stops[2]()
        after_all = versions.newer_than("a", 0)
        await versions.close()
        return newer, last, after_all

    newer, last, after_all = asyncio.run(run())
    assert reads[0] == ["a", "b"]  # one read for both games
    assert newer == (True, False, False)
    assert last == ["a"]  # "a" is still watched once; "b" no more
    assert after_all is False
