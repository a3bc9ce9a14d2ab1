"""The connections other processes hold to a game, as its owner knows them (docs/SERVER.md §2.1).

A WebSocket client of a game owned by another process (:mod:`miai.server.cluster.relay`) is a
*visitor* of the owner's room: the relay announces it when it joins, again every
``ServerConfig.visit_every_s`` seconds while it stays, and says when it leaves. Each
announcement holds for ``visit_ttl_s``: a visitor whose process died without a word lapses
by itself. The room counts visitors in its presence (seats connected, spectators) like its own
subscribers, so a seat connected anywhere is present (§3.4). Kept in memory only: a new owner
learns its visitors from their next announcement.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.coords import Color

__all__ = ["Visitors"]


@dataclass(frozen=True, slots=True)
class _Visit:
    seat: Color | None
    until_ms: int


class Visitors:
    """The visitors of one room, by the key their relay chose."""

    def __init__(self) -> None:
        self._visits: dict[str, _Visit] = {}

    def here(self, key: str, seat: Color | None, now: int, ttl_ms: int) -> bool:
        """``key`` is connected (as ``seat``, or a spectator) until ``now + ttl_ms`` unless it
        says so again; True when this changes who is connected."""
        before = self._visits.get(key)
        live = before is not None and before.until_ms > now
        self._visits[key] = _Visit(seat, now + ttl_ms)
        return not live or before is None or before.seat is not seat

    def leave(self, key: str) -> bool:
        """``key`` disconnected; True when it was counted."""
        return self._visits.pop(key, None) is not None

    def _live(self, now: int) -> list[_Visit]:
        for key in [k for k, v in self._visits.items() if v.until_ms <= now]:
            del self._visits[key]
        return list(self._visits.values())

    def seats(self, now: int) -> set[Color]:
        """The seats a visitor holds now."""
        return {v.seat for v in self._live(now) if v.seat is not None}

    def spectators(self, now: int) -> int:
        return sum(1 for v in self._live(now) if v.seat is None)

    def any(self, now: int) -> bool:
        """Whether any visitor is connected now (the room stays loaded while one is)."""
        return bool(self._live(now))

    def seat_of(self, key: str) -> Color | None:
        visit = self._visits.get(key)
        return visit.seat if visit is not None else None
