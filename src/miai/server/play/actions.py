"""Requests to act in a game: their strict parsing, and their effect on a :class:`Game`.

The HTTP API and the WebSocket share this module, so the same request means the same thing
on both. :func:`parse_action` checks the JSON body (fields, types; unknown fields refused)
and :func:`apply_action` plays it on a copy of the game as the seat that sent it, returning
the event's kind and payload; the rules' errors (:class:`~miai.errors.IllegalMoveError`)
pass through for the caller to answer 422.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.endgame import whole_chains
from miai.errors import IllegalMoveError, IllegalReason, InvalidMoveError
from miai.game import Game, Phase
from miai.server.errors import BadRequest, IllegalAction, WireReason
from miai.server.play.events import EventKind
from miai.server.wire.fields import (
    check_fields,
    get_bool,
    get_int,
    get_str,
    get_vertices,
)
from miai.server.wire.forms import score_json, vertices

__all__ = ["Action", "ActionKind", "apply_action", "board_points", "parse_action"]

MAX_ACTION_ID = 64
MAX_CLIENT_LAG_MS = 10_000
"""The largest lag ``l`` a client may report with a move; the lag bank caps what is excused."""


class ActionKind(str, Enum):
    PLAY = "play"
    RESIGN = "resign"
    DEAD = "dead"
    ACCEPT = "accept"
    REFUSE = "refuse"
    UNDO = "undo"
    """Ask to take back one's last move (see :mod:`miai.server.play.undo`)."""
    UNDO_ANSWER = "undo-answer"
    """Accept or refuse the other seat's pending undo request."""
    CLAIM = "claim"
    """Claim the game of an opponent who has gone (see :mod:`miai.server.play.claims`)."""


# per action: its fields and whether each is required
_FIELDS: dict[ActionKind, dict[str, bool]] = {
    ActionKind.PLAY: {"move": True, "v": True, "a": False, "l": False},
    ActionKind.RESIGN: {"v": False, "a": False},
    ActionKind.DEAD: {"dead": True, "seki": False, "v": True, "a": False},
    ActionKind.ACCEPT: {"dead": False, "v": True, "a": False},
    ActionKind.REFUSE: {"v": True, "a": False},
    ActionKind.UNDO: {"v": True, "a": False},
    ActionKind.UNDO_ANSWER: {"accept": True, "v": True, "a": False},
    ActionKind.CLAIM: {"v": True, "a": False},
}


@dataclass(frozen=True, slots=True)
class Action:
    """One request to act: its kind, the version the client saw (``v``), its arguments as
    sent, and the client's optional action id ``a`` (a retry quoting it is recognised)."""

    kind: ActionKind
    v: int | None = None
    move: str | None = None
    dead: tuple[str, ...] = ()
    seki: tuple[str, ...] = ()
    action_id: str | None = None
    lag_ms: int = 0
    accept: bool | None = None
    """The answer to an undo request (``undo-answer``)."""
    accepting: tuple[str, ...] | None = None
    """An ``accept``'s ``dead``: the stones the player saw marked, which must be the pending
    proposal's (None: a client that names none accepts the proposal of its version ``v``)."""

    def canonical(self, size: int) -> str:
        """The request in one canonical text (vertices checked, upper case, sorted): two
        requests mean the same action exactly when their canonical forms are equal.
        Raises :class:`BadRequest` on a vertex that is not on the board."""
        if self.kind is ActionKind.PLAY:
            assert self.move is not None
            return f"play {point_to_gtp(_point(self.move, size))}"
        if self.kind is ActionKind.DEAD:
            dead = " ".join(vertices(board_points(self.dead, size)))
            seki = " ".join(vertices(board_points(self.seki, size)))
            return f"dead {dead} | seki {seki}"
        if self.kind is ActionKind.UNDO_ANSWER:
            return f"undo-answer {'accept' if self.accept else 'refuse'}"
        return self.kind.value


def parse_action(kind: ActionKind, body: Any) -> Action:
    """The action a request's JSON body asks for. Raises :class:`BadRequest` saying what is wrong."""
    body = check_fields({} if body is None else body, _FIELDS[kind], kind.value)
    move = get_str(body, "move", 8)
    accepting = kind is ActionKind.ACCEPT
    return Action(
        kind=kind,
        v=get_int(body, "v", low=0, high=2**31 - 1),
        move=move,
        dead=() if accepting else get_vertices(body, "dead"),
        accepting=get_vertices(body, "dead") if accepting and "dead" in body else None,
        seki=get_vertices(body, "seki"),
        action_id=get_str(body, "a", MAX_ACTION_ID),
        lag_ms=get_int(body, "l", low=0, high=MAX_CLIENT_LAG_MS) or 0,
        accept=get_bool(body, "accept"),
    )


def _point(text: str, size: int) -> Point | None:
    try:
        return point_from_gtp(text, size)
    except InvalidMoveError as e:
        raise BadRequest(str(e)) from None


def board_points(texts: tuple[str, ...], size: int) -> list[Point]:
    """The points of ``texts`` (vertices) on a board of ``size``; :class:`BadRequest` for a
    vertex off the board or a pass."""
    points = []
    for t in texts:
        p = _point(t, size)
        if p is None:
            raise BadRequest("a pass is not a point: mark stones by their vertices")
        points.append(p)
    return points


def _name(color: Color) -> str:
    return str(color).capitalize()


def _check_shown(game: Game, shown: tuple[str, ...]) -> None:
    """An accept that names the stones its player saw marked accepts only a pending proposal
    of exactly those (whole chains): never a list the player did not see."""
    marking = game.marking
    pending = marking.pending if marking is not None else None
    if pending is None:
        return  # the rules core says why there is nothing to accept
    if whole_chains(game.board, board_points(shown, game.size)) != pending.dead:
        raise IllegalAction(
            "the stones you accept are not the ones proposed: propose yours instead, or accept the proposal as it is",
            reason=WireReason.PROPOSAL_DIFFERS,
            dead=vertices(pending.dead),
        )


def apply_action(game: Game, seat: Color, action: Action) -> tuple[EventKind, dict[str, Any]]:
    """Carry out ``action`` for ``seat`` on ``game`` (a copy: it is changed); returns the
    event's kind and payload. Raises :class:`IllegalMoveError` when the rules forbid it."""
    color = str(seat)
    if action.kind is ActionKind.PLAY:
        assert action.move is not None
        point = _point(action.move, game.size)
        if game.phase is Phase.PLAY and seat is not game.to_move:
            raise IllegalMoveError(
                IllegalReason.OUT_OF_TURN, f"it is {_name(game.to_move)}'s turn to move, not {_name(seat)}'s"
            )
        if point is None:
            game.play(Move(seat, None))
            return EventKind.PASS, {"color": color, "phase": game.phase.value}
        before = set(game.board.stones(seat.opponent))
        game.play(Move(seat, point))
        captured = before - set(game.board.stones(seat.opponent))
        ko = game.ko_point
        return EventKind.MOVE, {
            "color": color,
            "move": point_to_gtp(point),
            "captured": vertices(captured),
            "ko": point_to_gtp(ko) if ko is not None else None,
        }
    if action.kind is ActionKind.RESIGN:
        result = game.resign(seat)
        return EventKind.RESIGN, {"color": color, "result": str(result)}
    if action.kind is ActionKind.DEAD:
        proposal = game.propose(board_points(action.dead, game.size), seki=board_points(action.seki, game.size), color=seat)
        return EventKind.PROPOSE, {"color": color, "dead": vertices(proposal.dead), "seki": vertices(proposal.seki)}
    if action.kind is ActionKind.ACCEPT:
        if action.accepting is not None:
            _check_shown(game, action.accepting)
        score = game.accept(seat)
        return EventKind.ACCEPT, {"color": color, "result": str(score.result), "score": score_json(score)}
    if action.kind is ActionKind.REFUSE:
        game.refuse(seat)
        return EventKind.REFUSE, {"color": color, "phase": game.phase.value}
    raise AssertionError(f"unknown action {action.kind!r}")  # pragma: no cover
