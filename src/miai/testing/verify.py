"""The check at the end of the load benchmark (``benchmarks/server_load.py``) and of the chaos soak
test (``tests/soak``): every acknowledged action is in the database exactly once, where it was
acknowledged, and every game's versions run 1..v.

Reads the database directly, not through the server's code: a SQLite file read-only with the
standard library, or PostgreSQL with asyncpg.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Ack", "read_database", "verify_database"]


@dataclass(frozen=True)
class Ack:
    """An action the server acknowledged: what the client sent and the version it got."""

    game_id: str
    v: int
    action_id: str
    seat: str
    kind: str
    """The event kind it must have produced: move, pass, propose, accept or resign."""
    move: str | None = None


def read_database(where: str | Path) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """Every event row (game_id, v, kind, payload, seat, action_id, at_ms) and every game's ``v``, from
    a SQLite file (opened read-only) or a ``postgresql://`` URL."""
    events = "SELECT game_id, v, kind, payload, seat, action_id, at_ms FROM game_events"
    if str(where).startswith("postgresql://"):
        return asyncio.run(_read_postgres(str(where), events))
    conn = sqlite3.connect(f"file:{Path(where).resolve()}?mode=ro", uri=True)
    try:
        return conn.execute(events).fetchall(), dict(conn.execute("SELECT id, v FROM games").fetchall())
    finally:
        conn.close()


async def _read_postgres(url: str, events: str) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        rows = [tuple(r) for r in await conn.fetch(events)]
        return rows, {r["id"]: r["v"] for r in await conn.fetch("SELECT id, v FROM games")}
    finally:
        await conn.close()


def verify_database(where: str | Path, acks: Iterable[Ack]) -> dict[str, Any]:
    """Check the acknowledged actions against the database (a SQLite file or a PostgreSQL URL).

    Every ack must be in ``game_events`` exactly once: one row with its action id in its game,
    at the acknowledged ``v``, with the same seat, kind and move. Every game's events must be
    numbered 1..n without gap or repeat, and ``games.v`` must be n. Returns the counts; ``ok``
    is true only when nothing is missing, doubled, misplaced or out of sequence.
    """
    rows, game_versions = read_database(where)
    by_action: dict[tuple[str, str], list[tuple[int, str, dict[str, Any], str | None]]] = {}
    versions: dict[str, list[int]] = {}
    for game_id, v, kind, payload, seat, action_id, _ in rows:
        versions.setdefault(game_id, []).append(v)
        if action_id is not None:
            by_action.setdefault((game_id, action_id), []).append((v, kind, json.loads(payload), seat))
    counts = Counter[str]()
    acked_keys = set()
    for ack in acks:
        counts["acknowledged"] += 1
        key = (ack.game_id, ack.action_id)
        acked_keys.add(key)
        found = by_action.get(key, [])
        if not found:
            counts["lost"] += 1
            continue
        if len(found) > 1:
            counts["doubled"] += 1
        v, kind, payload, seat = found[0]
        if v != ack.v or kind != ack.kind or seat != ack.seat or (ack.move is not None and payload.get("move") != ack.move):
            counts["mismatched"] += 1
        else:
            counts["found_exactly"] += 1
    gaps = 0
    for game_id, vs in versions.items():
        if sorted(vs) != list(range(1, len(vs) + 1)) or game_versions.get(game_id) != len(vs):
            gaps += 1
    for game_id, v in game_versions.items():
        if v and game_id not in versions:
            gaps += 1
    unacked = sum(1 for key in by_action if key not in acked_keys)
    return {
        "acknowledged": counts["acknowledged"],
        "found_exactly_once": counts["found_exactly"],
        "lost": counts["lost"],
        "doubled": counts["doubled"],
        "mismatched": counts["mismatched"],
        "games": len(game_versions),
        "events": len(rows),
        "games_with_version_gaps": gaps,
        "committed_but_not_acknowledged": unacked,
        "ok": counts["lost"] == counts["doubled"] == counts["mismatched"] == gaps == 0
        and counts["found_exactly"] == counts["acknowledged"],
    }
