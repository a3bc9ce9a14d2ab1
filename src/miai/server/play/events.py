"""A game's numbered events, and how a game is rebuilt from them.

Every action that takes effect is one event ``v`` (1, 2, ... per game). Its ``payload`` holds
what the action was (``color``, ``move``, ``dead``...) and what it did (``captured``,
``result``, ``score``): the first part is enough to replay it, the second spares a client any
rules. A game is rebuilt after a restart by :func:`rebuild`, which replays the events through
:class:`miai.Game`'s public API only (play, propose, accept, refuse, resign, lose_on_time,
undo, set_result): the server re-implements no rule. In a timed game each event also carries
``clock``, the clocks after it (:mod:`miai.server.play.timing`), from which a reloaded room restores them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from miai.coords import Color, Move, point_from_gtp
from miai.game import Game, GameSpec
from miai.result import EndReason, Result

__all__ = ["Event", "EventKind", "apply_event", "rebuild"]


class EventKind(str, Enum):
    MOVE = "move"
    PASS = "pass"
    PROPOSE = "propose"
    """A proposal (or counter-proposal) of dead stones in the marking phase."""
    ACCEPT = "accept"
    """The pending proposal accepted: the game is counted and over."""
    REFUSE = "refuse"
    """The first passer refused the counter-proposal: play resumes (docs/RULES.md §5.5)."""
    RESIGN = "resign"
    FLAG = "flag"
    """A player's time ran out (the server's flag timer, or an action that came too late):
    ``color`` loses on time (docs/SERVER.md §1.5)."""
    CLOCK = "clock"
    """A note on the clocks that changes nothing in the game: ``reason`` ``server-restart``
    with ``downtime_ms``, the time no owner was alive, which is charged to nobody."""
    UNDO_REQUEST = "undo-request"
    """A seat asks to take back its last move (``moves``: the move numbers that would go)."""
    UNDO = "undo"
    """Moves taken back (``moves``), through :meth:`Game.undo`: an accepted request, or a free undo
    against a computer seat."""
    UNDO_REFUSED = "undo-refused"
    """The other seat refused the pending undo request: nothing changes."""
    ABANDON = "abandon"
    """A seat claimed the game of an opponent who had gone: ``W+F``/``B+F``, or ``Void`` before
    the second move."""


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a game's log, as stored (``game_events``) and sent (:meth:`wire`)."""

    v: int
    kind: EventKind
    payload: dict[str, Any]
    seat: Color | None
    at_ms: int
    action_id: str | None = None
    """The client's id for the action, if it gave one (an idempotent retry quotes it)."""
    request: str | None = field(default=None, compare=False)
    """The request in canonical form (``play D4``): a retry of the same request is recognised by it."""

    def wire(self) -> dict[str, Any]:
        """The event as clients get it: ``{"v", "kind", **payload, "at_ms"}``."""
        return {"v": self.v, "kind": self.kind.value, **self.payload, "at_ms": self.at_ms}


def apply_event(game: Game, kind: EventKind, payload: dict[str, Any]) -> None:
    """Replay one event on ``game`` (raises what :class:`Game` raises if it does not fit)."""
    if kind is EventKind.CLOCK:
        return  # the clocks only: the game is as it was
    color = Color.parse(payload["color"])
    size = game.size
    if kind is EventKind.MOVE:
        game.play(Move(color, point_from_gtp(payload["move"], size)))
    elif kind is EventKind.PASS:
        game.play(Move(color, None))
    elif kind is EventKind.PROPOSE:
        dead = [point_from_gtp(t, size) for t in payload["dead"]]
        seki = [point_from_gtp(t, size) for t in payload.get("seki", [])]
        game.propose([p for p in dead if p is not None], seki=[p for p in seki if p is not None], color=color)
    elif kind is EventKind.ACCEPT:
        game.accept(color)
    elif kind is EventKind.REFUSE:
        game.refuse(color)
    elif kind is EventKind.RESIGN:
        game.resign(color)
    elif kind is EventKind.FLAG:
        game.lose_on_time(color)
    elif kind is EventKind.UNDO:
        for _ in payload["moves"]:
            game.undo()
    elif kind in (EventKind.UNDO_REQUEST, EventKind.UNDO_REFUSED):
        pass  # a request and its refusal change nothing on the board
    elif kind is EventKind.ABANDON:
        game.set_result(Result.parse(payload["result"]), EndReason.ABANDONED)
    else:  # pragma: no cover - EventKind is closed
        raise ValueError(f"unknown event kind {kind!r}")


def rebuild(spec: GameSpec, events: Iterable[Event | tuple[EventKind, dict[str, Any]]]) -> Game:
    """The game after ``events``, replayed from the start."""
    game = spec.new_game()
    for e in events:
        kind, payload = (e.kind, e.payload) if isinstance(e, Event) else e
        apply_event(game, kind, payload)
    return game
