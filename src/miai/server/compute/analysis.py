"""The computer's analysis of one position of a review (docs/SERVER.md §3.6).

A request names the position as a review gives it (:mod:`miai.server.records.review`): size, rules,
handicap, the starting stones (``start``) and the moves up to that position, each a GTP vertex
played by the side to move or a review step ``{"color", "move", "edits"?}`` (a record may
give one colour two moves in a row, or edit the position after a move). So the page sends
the same request for an uploaded record and for a game of this server, and nothing is looked
up on the server.

:func:`parse_position` checks the request's shape in the server process (a 400 names the
field). :func:`analyse_position` runs in a worker process: it replays the moves on a
:class:`~miai.game.Game` (the rules core decides what is legal: an illegal move is answered
``("illegal", ...)`` with the rule, a 422) and searches the position with the MCTS player.
Every win rate it answers is Black's, so a graph over the game needs no turning around.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from miai.coords import Color, Move, point_from_gtp, point_to_gtp
from miai.errors import HandicapError, IllegalMoveError, InvalidMoveError, MiaiError
from miai.game import Game, GameSpec, Phase
from miai.rules import Rules
from miai.server.errors import BadRequest, WireReason
from miai.server.wire.fields import check_fields
from miai.server.wire.forms import vertices

__all__ = [
    "Position", "Step", "parse_position", "review_position", "analyse_position", "start_game", "play_step", "playable", "search",
    "TOP_CANDIDATES",
]

TOP_CANDIDATES = 5
"""How many candidate moves an answer lists at most."""

Edit = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""A setup edit after a move: its black, white and emptied vertices."""
Step = tuple[str | None, str, tuple[Edit, ...]]
"""A move: its colour (None: the side to move), its vertex or ``pass``, the edits after it."""

_FIELDS = dict.fromkeys(("size", "rules", "handicap", "start", "moves", "seconds"), False)
"""The request's fields, none required (a missing size is refused as a bad one)."""
_COLORS = ("black", "white")


@dataclass(frozen=True, slots=True)
class Position:
    """A checked request: what to replay (plain values, sent to a worker as they are)."""

    size: int
    rules: str
    handicap: int
    start_black: tuple[str, ...] = ()
    start_white: tuple[str, ...] = ()
    moves: tuple[Step, ...] = ()
    seconds: float | None = None
    """The seconds the request asks for (the server caps them), or None for its default."""


def _vertex_list(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v) <= 4 for v in value):
        raise _bad(f"{where} must be a list of vertices such as \"D4\"")
    return tuple(value)


def _bad(message: str) -> BadRequest:
    return BadRequest(message)


def _move(item: Any, n: int) -> Step:
    where = f"moves[{n}]"
    if isinstance(item, str):
        if not 0 < len(item) <= 4:
            raise _bad(f"{where} must be a vertex such as \"D4\" or \"pass\"")
        return None, item, ()
    if not isinstance(item, dict):
        raise _bad(f"{where} must be a vertex (\"D4\", \"pass\") or a review step {{\"color\", \"move\"}}")
    color = item.get("color")
    if color not in _COLORS:
        raise _bad(f"{where}.color must be \"black\" or \"white\"")
    move = item.get("move")
    if not isinstance(move, str) or not 0 < len(move) <= 4:
        raise _bad(f"{where}.move must be a vertex such as \"D4\" or \"pass\"")
    edits = item.get("edits", [])
    if not isinstance(edits, list):
        raise _bad(f"{where}.edits must be a list of {{\"black\", \"white\", \"empty\"}}")
    out: list[Edit] = []
    for k, e in enumerate(edits):
        if not isinstance(e, dict):
            raise _bad(f"{where}.edits[{k}] must be an object {{\"black\", \"white\", \"empty\"}}")
        b, w, x = (_vertex_list(e.get(c, []), f"{where}.edits[{k}].{c}") for c in ("black", "white", "empty"))
        out.append((b, w, x))
    return color, move, tuple(out)


def parse_position(body: Any, *, max_moves: int) -> Position:
    """The checked request; :class:`~miai.server.errors.BadRequest` names what is wrong.
    Whether the vertices are on the board and the moves legal is the worker's to find."""
    body = check_fields(body, _FIELDS, "analysis")
    size = body.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 25:
        raise _bad("size must be a whole number from 2 to 25")
    rules = body.get("rules", "chinese")
    if not isinstance(rules, str) or len(rules) > 200:
        raise _bad("rules must be the rules' text, as a review gives it (\"japanese komi=6.5\")")
    try:
        Rules.parse(rules)
    except ValueError as e:
        raise _bad(f"rules {rules[:40]!r} cannot be read: {e}") from None
    handicap = body.get("handicap", 0)
    if isinstance(handicap, bool) or not isinstance(handicap, int) or not 0 <= handicap <= size * size:
        raise _bad("handicap must be a whole number from 0")
    start = body.get("start", {"black": [], "white": []})
    if not isinstance(start, dict) or set(start) - {"black", "white"}:
        raise _bad("start must be an object {\"black\": [...], \"white\": [...]} (the review's start)")
    moves = body.get("moves", [])
    if not isinstance(moves, list):
        raise _bad("moves must be a list of vertices (\"D4\", \"pass\") or review steps")
    if len(moves) > max_moves:
        raise _bad(f"moves has {len(moves)} entries; at most {max_moves}")
    seconds = body.get("seconds")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds)
        or not 0 < seconds <= 60
    ):
        raise _bad("seconds must be a number above 0 and at most 60")
    return Position(
        size,
        rules,
        handicap,
        _vertex_list(start.get("black", []), "start.black"),
        _vertex_list(start.get("white", []), "start.white"),
        tuple(_move(m, n) for n, m in enumerate(moves)),
        None if seconds is None else float(seconds),
    )


def review_position(review: dict[str, Any]) -> Position:
    """The position at the end of a review (:mod:`miai.server.records.review`): its facts and
    every step, as a request names it (the moves of a position ``n`` are the first ``n``)."""
    steps = [{k: m[k] for k in ("color", "move", "edits") if k in m} for m in review["moves"]]
    body = {k: review[k] for k in ("size", "rules", "handicap", "start")}
    return parse_position({**body, "moves": steps}, max_moves=len(steps))


def _points(vertices: tuple[str, ...], size: int) -> list[tuple[int, int]]:
    out = []
    for v in vertices:
        p = point_from_gtp(v, size)
        if p is None:
            raise InvalidMoveError(f"a stone cannot stand on {v!r}")
        out.append(p)
    return out


def start_game(position: Position) -> Game:
    """The :class:`~miai.game.Game` at ``position``'s start, built as the SGF reader builds a
    record's game: from :meth:`GameSpec.start <miai.game.GameSpec.start>` (black stones alone at
    the start are the handicap; set up as stones when they cannot be one)."""
    size = position.size
    spec = GameSpec(size, Rules.parse(position.rules), position.handicap)
    black, white = _points(position.start_black, size), _points(position.start_white, size)
    try:
        return spec.start(black, white)
    except HandicapError:
        if not black:
            raise
        return replace(spec, handicap=0).start(black, white)  # set up as stones instead


def play_step(game: Game, step: Step) -> None:
    """Move ``step`` on ``game``, by its own colour, play resumed after two passes as records
    go on, and the record's edits after it. Raises what the game raises."""
    color, vertex, edits = step
    c = game.to_move if color is None else Color.parse(color)
    game.apply(Move(c, point_from_gtp(vertex, game.size)), resume=True)
    for b, w, e in edits:
        game.setup(_points(b, game.size), _points(w, game.size), _points(e, game.size))


def replay(position: Position) -> Game:
    """The :class:`~miai.game.Game` at ``position``: its start (:func:`start_game`), then each
    move (:func:`play_step`). Raises what the game raises; a move that fails as :class:`_AtMove`."""
    game = start_game(position)
    for n, step in enumerate(position.moves, 1):
        try:
            play_step(game, step)
        except MiaiError as e:
            raise _AtMove(n, e) from e
    return game


class _AtMove(Exception):
    """Move ``n`` (from 1) of a request could not be replayed: ``error`` says why."""

    def __init__(self, n: int, error: Exception):
        super().__init__(n, error)
        self.n = n
        self.error = error


def analyse_position(position: Position, seconds: float, playouts: int) -> tuple[str, Any]:
    """In a worker: ``("analysis", answer)``, or ``("illegal", (n, message, reason))`` for
    move ``n`` (from 1) that the rules forbid, or ``("invalid", message)`` for a vertex off
    the board or a position with nothing to analyse. The answer carries the stones of the
    position analysed, so that a page can draw a variation without a rule of Go."""
    try:
        game = replay(position)
    except _AtMove as e:
        if isinstance(e.error, IllegalMoveError):
            return "illegal", (e.n, f"move {e.n} ({position.moves[e.n - 1][1]}): {e.error}", WireReason.of(e.error.reason))
        return "invalid", f"move {e.n}: {e.error}"
    except MiaiError as e:  # the starting stones: off the board, or a handicap that cannot be placed
        return "invalid", f"the starting position: {e}"
    if not playable(game):
        return "invalid", f"the game is over after these moves ({game.result}): there is no move to analyse"
    answer = search(game, seconds, playouts)
    answer["move_number"] = len(position.moves)
    answer["stones"] = {"black": vertices(game.board.stones(Color.BLACK)), "white": vertices(game.board.stones(Color.WHITE))}
    return "analysis", answer


def playable(game: Game) -> bool:
    """Whether ``game`` has a move to search: in play, or play resumed after two passes."""
    if game.phase is not Phase.PLAY and game.can_resume:
        game.resume()
    return game.phase is Phase.PLAY


def search(game: Game, seconds: float, playouts: int, *, top: int = TOP_CANDIDATES) -> dict[str, Any]:
    """The MCTS player's view of ``game`` (in play), searched for at most ``seconds`` and
    ``playouts``: who is to move, Black's win rate and the ``top`` most visited moves."""
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import MctsPlayer

    player = MctsPlayer(MctsConfig(
        playouts=playouts, max_seconds=seconds, early_stop=False, seed=1, reuse_tree=False, resign=False
    ))
    result = player.search(game)
    to_move = game.to_move

    def black(winrate: float) -> float:
        return round(winrate if to_move is Color.BLACK else 1.0 - winrate, 4)

    visited = [c for c in result.candidates if c.visits > 0]
    best = visited[0] if visited else None
    return {
        "to_move": str(to_move),
        "winrate": black(best.winrate) if best is not None else 0.5,
        "candidates": [
            {"move": point_to_gtp(c.point), "winrate": black(c.winrate), "visits": c.visits}
            for c in visited[:top]
        ],
        "playouts": result.playouts,
        "seconds": round(result.seconds, 3),
    }
