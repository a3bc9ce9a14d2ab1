"""Who is present at a game, and the claim of a game whose player has gone (docs/SERVER.md §3.4).

A seat is present while a WebSocket connection holds its token; an authenticated HTTP request
of the seat (an action, or ``GET /api/games/{id}`` with its token) counts as being seen at that
moment, so a program that plays over HTTP is not "gone" while it acts. A seat neither connected
nor seen for ``ServerConfig.abandon_ms`` has gone.

Only the seat whose turn it is (to move, or to act in the marking phase) can be claimed
against: a player who is waiting for the opponent holds nobody up, and a program that only
acts on its turn need not poll. The present opponent then claims the game (``claim``): it ends
with the gone seat forfeiting (``B+F``/``W+F``, end reason "abandoned"), or void when fewer than
two moves were played (nobody really started). A computer seat never goes, and nobody is
claimed against in a correspondence game (days per move): being away for hours is how it is
played, and its clock says when a player has lost.

Presence lives in memory only: after a restart (or when a room is loaded again) every seat
counts as seen at the moment of loading, so the countdown starts again.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from miai.coords import Color
from miai.game import Game, Phase
from miai.result import EndReason, Result
from miai.server.errors import IllegalAction, WireReason
from miai.server.play.events import EventKind

__all__ = ["Attendance", "claim", "SEEN_NOTICE_MS"]

SEEN_NOTICE_MS = 1000
"""A seat seen over HTTP after at least this long unseen is announced to the watchers again."""


def _name(color: Color) -> str:
    return str(color).capitalize()


class Attendance:
    """When each seat was last seen (milliseconds), kept by the game's room.

    Connected seats are the room's business (its subscribers); this keeps the moments between
    connections: when a seat's last connection closed, or its last HTTP request came."""

    def __init__(self, now: int):
        self.last_seen: dict[Color, int] = {Color.BLACK: now, Color.WHITE: now}

    def seen(self, seat: Color, now: int) -> bool:
        """``seat`` made an authenticated request now; True when it had been unseen for at
        least :data:`SEEN_NOTICE_MS` (worth telling the watchers)."""
        before = self.last_seen[seat]
        self.last_seen[seat] = max(before, now)
        return now - before >= SEEN_NOTICE_MS

    def left(self, seat: Color, now: int) -> None:
        """A connection holding ``seat`` closed now."""
        self.last_seen[seat] = max(self.last_seen[seat], now)

    def gone_ms(self, seat: Color, connected: Collection[Color], now: int) -> int | None:
        """How long ``seat`` has been away (None while it is connected)."""
        if seat in connected:
            return None
        return max(0, now - self.last_seen[seat])

    def to_json(
        self, connected: Collection[Color], humans: Collection[Color], now: int, abandon_ms: int
    ) -> dict[str, Any]:
        """For each absent human seat: ``{"gone_ms", "claim_at_ms"}``, the time it has been away
        and the moment (server time) from which its opponent may claim the game while it is
        that seat's turn."""
        out: dict[str, Any] = {}
        for seat in (Color.BLACK, Color.WHITE):
            gone = self.gone_ms(seat, connected, now) if seat in humans else None
            if gone is not None:
                out[str(seat)] = {"gone_ms": gone, "claim_at_ms": self.last_seen[seat] + abandon_ms}
        return out


def claim(
    game: Game,
    seat: Color,
    *,
    attendance: Attendance,
    connected: Collection[Color],
    humans: Collection[Color],
    now: int,
    abandon_ms: int,
    correspondence: bool = False,
) -> tuple[EventKind, dict[str, Any]]:
    """``seat`` claims ``game`` (a copy: it is ended) from its opponent, who has gone. Raises
    :class:`IllegalAction` saying why not (and, before the countdown is over, how long is left)."""
    if game.phase is Phase.FINISHED:
        raise IllegalAction(f"the game is already over ({game.result})", reason=WireReason.WRONG_PHASE)
    if correspondence:
        raise IllegalAction(
            "a correspondence game cannot be claimed: a player who does not move in time loses on time",
            reason=WireReason.CORRESPONDENCE,
        )
    other = seat.opponent
    if other not in humans:
        raise IllegalAction(f"{_name(other)} is a computer: it never leaves a game", reason=WireReason.COMPUTER)
    if game.to_act is not other:
        raise IllegalAction(
            f"it is {_name(seat)}'s turn: a game can be claimed only from a player who is holding it up "
            f"on their own turn",
            reason=WireReason.NOT_THEIR_TURN,
        )
    gone = attendance.gone_ms(other, connected, now)
    if gone is None:
        raise IllegalAction(f"{_name(other)} is connected", reason=WireReason.OPPONENT_PRESENT)
    if gone < abandon_ms:
        left = abandon_ms - gone
        raise IllegalAction(
            f"{_name(other)} has been away for {gone / 1000:.1f} s; the game can be claimed after "
            f"{abandon_ms / 1000:g} s, in {left / 1000:.1f} s",
            reason=WireReason.NOT_GONE_YET,
            claim_in_ms=left,
        )
    result = Result.void() if game.move_number < 2 else Result.forfeit(other)
    game.set_result(result, EndReason.ABANDONED)
    return EventKind.ABANDON, {"color": str(seat), "gone": str(other), "gone_ms": gone, "result": str(result)}
