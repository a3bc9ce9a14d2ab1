"""A step's position as a live :class:`~miai.game.Game`: the diagram set up, the handicap
placed, then the history played through the game's own doors (moves, passes, proposals,
refusals), so that ko, superko and the marking phase stand as in a real game."""

from __future__ import annotations

from miai.coords import Color, Point, neighbors, point_from_gtp, point_to_gtp
from miai.errors import MiaiError
from miai.game import Game
from miai.lessons.model import LessonError, Step


def play_entry(game: Game, entry: str) -> None:
    """One history word: a vertex or ``pass``; ``propose V V...`` (the dead stones, by whoever
    marks now), ``accept`` or ``refuse``."""
    word, *rest = entry.split()
    if word == "propose":
        game.propose([p for p in (point_from_gtp(v, game.size) for v in rest) if p is not None])
    elif word == "accept":
        game.accept()
    elif word == "refuse":
        game.refuse()
    else:
        game.play(entry)


def start(step: Step) -> Game:
    """The step's position, ready for the answer (a :class:`LessonError` if the file's
    position or history breaks a rule)."""
    try:
        game = Game(step.size, step.rules, handicap=step.handicap)
        if step.black or step.white:
            game.setup(black=step.black, white=step.white, to_move=step.to_play)
        elif not step.handicap and step.to_play is not Color.BLACK:
            game.setup(to_move=step.to_play)
        for entry in step.history:
            play_entry(game, entry)
    except MiaiError as e:
        raise LessonError(f"{step.where}: {e}") from None
    return game


def stones(game: Game) -> dict[str, str]:
    """The stones on the board: ``{"D4": "black", ...}``."""
    return {point_to_gtp(p): str(game.board[p]).lower() for p in game.board if game.board[p] is not None}


def chain(game: Game, point: Point) -> frozenset[Point]:
    """The stones of the chain on ``point`` (empty if no stone stands there)."""
    for _color, members in game.board.chains():
        if point in members:
            return frozenset(members)
    return frozenset()


def liberties(game: Game, points: frozenset[Point]) -> frozenset[Point]:
    """The empty points next to any of ``points``."""
    return frozenset(q for p in points for q in neighbors(p, game.size) if game.board[q] is None)
