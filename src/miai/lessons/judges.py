"""The judges: an answer to a step, judged by the rules core.

Every answer is a list of words (vertices, ``pass``, ``accept``, ``black``, numbers...). A move
is played on the step's :class:`~miai.game.Game`, so a refusal is the game's own, with its
reason (occupied, suicide, ko, superko and the move a superko repeats); dead stones are those
:mod:`miai.life` proves dead; counts are :mod:`miai.scoring`'s; handicap points are
:mod:`miai.handicap`'s. A :class:`Verdict` is a value: the page and the terminal say it in
their language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from miai.coords import Color, Point, point_from_gtp, point_to_gtp
from miai.errors import IllegalMoveError, IllegalReason, MiaiError
from miai.game import Game, Phase
from miai.handicap import fixed_handicap_points
from miai.lessons.model import Step, Task
from miai.lessons.positions import chain, liberties, play_entry, start
from miai.life import unconditional_life
from miai.scoring import Score


class Outcome(str, Enum):
    RIGHT = "right"
    WRONG = "wrong"
    MORE = "more"
    """Right so far: the answer goes on (a handicap stone or a replayed move more)."""


class Why(str, Enum):
    """Why an answer is wrong, as a value the page and the terminal put in words."""

    ILLEGAL = "illegal"
    """The rules refuse the move: ``reason``, ``vertex`` and for superko ``repeats_move``."""
    LEGAL = "legal"
    """A forbidden move was asked for and this one is allowed."""
    STILL_THERE = "still-there"
    """The stones to capture still stand, with ``liberties`` left."""
    NOT_A_LIBERTY = "not-a-liberty"
    NOT_ATARI = "not-atari"
    """The stones have ``liberties`` liberties, not one."""
    PLAY_GOES_ON = "play-goes-on"
    DEAD_WRONG = "dead-wrong"
    """``missed``: dead stones not marked; ``alive``: living stones marked dead."""
    PROPOSAL_RIGHT = "proposal-right"
    """The proposal refused named exactly the dead stones."""
    PROPOSAL_WRONG = "proposal-wrong"
    """The proposal accepted was wrong: ``missed`` and ``alive`` as for DEAD_WRONG."""
    COUNT_WRONG = "count-wrong"
    """``colors``: whose count is wrong."""
    WINNER_WRONG = "winner-wrong"
    NOT_FIRST = "not-first"
    NOT_HANDICAP = "not-handicap"
    """``points``: the stones not on the handicap points."""
    NOT_THE_MOVE = "not-the-move"
    """``number``: the move of the record that stands elsewhere."""
    UNREADABLE = "unreadable"


@dataclass
class Verdict:
    outcome: Outcome
    game: Game
    """The position after the answer (the step's own position when nothing was played)."""
    why: Why | None = None
    reason: IllegalReason | None = None
    vertex: str | None = None
    repeats_move: int | None = None
    liberties: int | None = None
    number: int | None = None
    points: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    alive: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    score: Score | None = None
    winner: str | None = None


def names(points: Sequence[Point] | frozenset[Point]) -> list[str]:
    return [point_to_gtp(p) for p in sorted(points)]


def _point(game: Game, word: str) -> Point | None:
    try:
        return point_from_gtp(word, game.size)
    except MiaiError:
        return None


def _play(game: Game, word: str) -> Verdict | None:
    """Play one move word on ``game``; a WRONG verdict if the rules refuse it."""
    try:
        play_entry(game, word)
    except IllegalMoveError as e:
        return Verdict(Outcome.WRONG, game, Why.ILLEGAL, e.reason, word.upper(), e.repeats_move)
    except MiaiError:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    return None


def _one_move(step: Step, game: Game, answer: Sequence[str]) -> Verdict | None:
    """The answer's move played (the only word), or why not."""
    if len(answer) != 1:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    return _play(game, answer[0])


def _targets(step: Step, game: Game) -> frozenset[Point]:
    return frozenset(p for t in step.target for p in chain(game, t))


def judge_play(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    return _one_move(step, game, answer) or Verdict(Outcome.RIGHT, game)


def judge_capture(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    targets = _targets(step, game)
    refused = _one_move(step, game, answer)
    if refused:
        return refused
    standing = [p for p in targets if game.board[p] is not None]
    if standing:
        return Verdict(Outcome.WRONG, game, Why.STILL_THERE, liberties=len(liberties(game, chain(game, standing[0]))))
    return Verdict(Outcome.RIGHT, game, points=names(targets))


def judge_atari(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    refused = _one_move(step, game, answer)
    if refused:
        return refused
    libs = len(liberties(game, chain(game, step.target[0])))
    return Verdict(Outcome.RIGHT, game) if libs == 1 else Verdict(Outcome.WRONG, game, Why.NOT_ATARI, liberties=libs)


def judge_liberty(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    point = _point(game, answer[0]) if len(answer) == 1 else None
    if point is None:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    libs = liberties(game, _targets(step, game))
    if point in libs:
        return Verdict(Outcome.RIGHT, game, liberties=len(libs), points=names(libs))
    return Verdict(Outcome.WRONG, game, Why.NOT_A_LIBERTY, vertex=point_to_gtp(point))


def judge_forbidden(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    if len(answer) != 1:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    try:
        reason = game.legality(answer[0])
    except MiaiError:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    if reason is None:
        return Verdict(Outcome.WRONG, game, Why.LEGAL, vertex=answer[0].upper())
    refused = _play(game.copy(), answer[0])
    assert refused is not None
    refused.outcome = Outcome.RIGHT if reason.value == step.reason else Outcome.WRONG
    refused.game = game
    return refused


def judge_end(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    refused = _one_move(step, game, answer)
    if refused:
        return refused
    if game.phase is Phase.PLAY:
        return Verdict(Outcome.WRONG, game, Why.PLAY_GOES_ON)
    return Verdict(Outcome.RIGHT, game, score=game.final_score)


def dead_stones(game: Game) -> frozenset[Point]:
    """The stones the rules core proves dead (inside the opponent's pass-alive territory)."""
    return unconditional_life(game.board).dead


def _marked(game: Game, answer: Sequence[str]) -> frozenset[Point] | None:
    points = [_point(game, w) for w in answer]
    if any(p is None for p in points):
        return None
    return frozenset(p for w in points if w is not None for p in chain(game, w))


def judge_dead(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    marked = _marked(game, answer)
    if marked is None:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    dead = dead_stones(game)
    if marked == dead:
        return Verdict(Outcome.RIGHT, game, points=names(dead), score=game.score(dead, seki=step.seki))
    return Verdict(Outcome.WRONG, game, Why.DEAD_WRONG, missed=names(dead - marked), alive=names(marked - dead))


def judge_agree(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    marking = game.marking
    if len(answer) != 1 or answer[0] not in ("accept", "refuse") or marking is None or marking.pending is None:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    proposed = frozenset(marking.pending.dead)
    dead = dead_stones(game)
    refused = _play(game, answer[0])
    if refused:
        return refused
    if answer[0] == "accept":
        if proposed == dead:
            return Verdict(Outcome.RIGHT, game, score=game.final_score)
        return Verdict(Outcome.WRONG, game, Why.PROPOSAL_WRONG, missed=names(dead - proposed), alive=names(proposed - dead))
    if proposed == dead:
        return Verdict(Outcome.WRONG, game, Why.PROPOSAL_RIGHT)
    return Verdict(Outcome.RIGHT, game, missed=names(dead - proposed), alive=names(proposed - dead))


def counted(step: Step, game: Game) -> Score:
    """The position counted under the step's rules, the proven dead stones removed."""
    return game.score(dead_stones(game), seki=step.seki)


def judge_count(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    try:
        black, white = (float(w.replace(",", ".")) for w in answer)
    except ValueError:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    score = counted(step, game)
    wrong = [c for c, given in (("black", black), ("white", white)) if given != score.of(Color[c.upper()]).total]
    if wrong:
        return Verdict(Outcome.WRONG, game, Why.COUNT_WRONG, colors=wrong)
    return Verdict(Outcome.RIGHT, game, score=score)


def _winner(score: Score) -> str:
    return "draw" if score.winner is None else str(score.winner).lower()


def judge_winner(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    score = counted(step, game)
    right = _winner(score)
    if list(answer) == [right]:
        return Verdict(Outcome.RIGHT, game, score=score, winner=right)
    return Verdict(Outcome.WRONG, game, Why.WINNER_WRONG, score=score)


def judge_first(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    right = str(game.to_move).lower()
    if list(answer) == [right]:
        return Verdict(Outcome.RIGHT, game, winner=right)
    return Verdict(Outcome.WRONG, game, Why.NOT_FIRST)


def judge_handicap(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    stones = step.stones
    points = [_point(game, w) for w in answer]
    if any(p is None for p in points) or len(set(points)) != len(points) or len(points) > stones:
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    placed = [p for p in points if p is not None]
    right = set(fixed_handicap_points(game.size, stones))
    off = [p for p in placed if p not in right]
    shown = Game(game.size, game.rules)
    if placed:
        shown.setup(black=placed)
    if off:
        return Verdict(Outcome.WRONG, shown, Why.NOT_HANDICAP, points=names(off))
    if len(placed) < stones:
        return Verdict(Outcome.MORE, shown)
    handicapped = Game(game.size, game.rules, handicap=stones)
    return Verdict(Outcome.RIGHT, handicapped, winner=str(handicapped.to_move).lower())


def judge_replay(step: Step, game: Game, answer: Sequence[str]) -> Verdict:
    for number, (given, recorded) in enumerate(zip(answer, step.record), start=1):
        if given.upper() != recorded.upper():
            return Verdict(Outcome.WRONG, game, Why.NOT_THE_MOVE, number=number, vertex=given.upper())
        refused = _play(game, recorded)
        if refused:
            return refused
    if len(answer) > len(step.record):
        return Verdict(Outcome.WRONG, game, Why.UNREADABLE)
    return Verdict(Outcome.RIGHT if len(answer) == len(step.record) else Outcome.MORE, game, number=len(answer))


JUDGES: dict[Task, Callable[[Step, Game, Sequence[str]], Verdict]] = {
    Task.PLAY: judge_play,
    Task.LIBERTY: judge_liberty,
    Task.ATARI: judge_atari,
    Task.CAPTURE: judge_capture,
    Task.FORBIDDEN: judge_forbidden,
    Task.END: judge_end,
    Task.DEAD: judge_dead,
    Task.AGREE: judge_agree,
    Task.COUNT: judge_count,
    Task.WINNER: judge_winner,
    Task.FIRST: judge_first,
    Task.HANDICAP: judge_handicap,
    Task.REPLAY: judge_replay,
}


def judge(step: Step, answer: Sequence[str]) -> Verdict:
    """The verdict on ``answer`` (words) to ``step``, from a fresh copy of its position."""
    return JUDGES[step.task](step, start(step), [w.strip() for w in answer if w.strip()])
