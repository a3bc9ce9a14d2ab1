"""Judging a player's move in a problem, by the solution tree and the rules core.

:func:`judge` is a pure function of the problem, the moves played so far on the right path and
the new move (what a server with no state per attempt needs); :class:`Attempt` keeps the
:class:`~miai.game.Game` of one attempt and plays the computer's answers on it (what the
terminal needs). Legality is always the game's: an illegal move is refused with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from miai.coords import Move, Point
from miai.errors import IllegalReason
from miai.game import Game
from miai.problems.model import Node, Problem, Verdict
from miai.rules import Rules

__all__ = ["Attempt", "Judgement", "Outcome", "judge", "problem_rules", "start_game"]


class Outcome(str, Enum):
    """What a move does to the attempt."""

    RIGHT = "right"
    """Right so far: the computer answers with ``reply`` and the player moves again."""
    SOLVED = "solved"
    """Right, and the problem is solved."""
    WRONG = "wrong"
    """Wrong: ``reply``, when there is one, is the computer's refutation. The attempt is over."""
    ILLEGAL = "illegal"
    """Not a legal move (``reason`` says why); nothing was played."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one move, and the computer's answer to play after it."""

    outcome: Outcome
    reply: Move | None = None
    reason: IllegalReason | None = None


def problem_rules() -> Rules:
    """The rules problems are played under: Japanese (suicide forbidden, simple ko), as GNU Go
    reads them by default."""
    return Rules.preset("japanese")


def start_game(problem: Problem) -> Game:
    """A game at the problem's position, with the player to move."""
    game = Game(problem.size, problem_rules())
    game.setup(black=sorted(problem.black), white=sorted(problem.white), to_move=problem.to_play)
    return game


def judge(problem: Problem, played: Sequence[Point], point: Point) -> Judgement:
    """The verdict on the player's move at ``point`` after ``played``: the moves of the attempt so
    far, the player's and the computer's alternately, all on the right path of the tree.
    Raises ``ValueError`` when ``played`` leaves that path (the attempt was already over)."""
    game = start_game(problem)
    node = problem.start
    for p in played:
        child = node.reply_at(p)
        if child is None or child.verdict is Verdict.WRONG:
            raise ValueError(f"{problem.id}: the moves played leave the solution's right path at {p}")
        game.play(Move(game.to_move, p))
        node = child
    return _judge_at(problem, game, node, point)


def _judge_at(problem: Problem, game: Game, node: Node, point: Point) -> Judgement:
    """The verdict on ``point`` played in ``game``, which stands at ``node`` of the tree."""
    if node.verdict is not None:
        raise ValueError(f"{problem.id}: it is the computer's turn")
    move = Move(problem.to_play, point)
    reason = game.legality(move)
    if reason is not None:
        return Judgement(Outcome.ILLEGAL, reason=reason)
    child = node.reply_at(point)
    if child is not None and child.verdict is Verdict.RIGHT:
        if not child.replies:
            return Judgement(Outcome.SOLVED)
        return Judgement(Outcome.RIGHT, child.replies[0].move)
    if child is not None and child.replies:
        return Judgement(Outcome.WRONG, child.replies[0].move)
    return Judgement(Outcome.WRONG, default_refutation(game, node, move))


def default_refutation(game: Game, node: Node, wrong: Move) -> Move | None:
    """The computer's answer to a wrong move the tree does not list: the first right move's
    point, taken by the computer, when that is legal after ``wrong`` (the vital point is miai);
    else no answer. The tests check it refutes every such move of the shipped problems."""
    rights = node.right_replies
    if not rights:
        return None
    after = game.copy()
    after.play(wrong)
    answer = Move(wrong.color.opponent, rights[0].move.point)
    return answer if after.legality(answer) is None else None


class Attempt:
    """One try at a problem: the game, and where it stands in the solution tree."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.game = start_game(problem)
        self.played: list[Point] = []
        self.outcome: Outcome | None = None

    @property
    def over(self) -> bool:
        """Solved, or a wrong move was played."""
        return self.outcome in (Outcome.SOLVED, Outcome.WRONG)

    def play(self, point: Point) -> Judgement:
        """Judge the player's move at ``point``; a legal one is played, and the computer's answer
        after it. Raises ``ValueError`` once the attempt is over."""
        if self.over:
            raise ValueError(f"{self.problem.id}: the attempt is over")
        verdict = judge(self.problem, self.played, point)
        if verdict.outcome is Outcome.ILLEGAL:
            return verdict
        self.game.play(Move(self.problem.to_play, point))
        self.played.append(point)
        if verdict.reply is not None:
            self.game.play(verdict.reply)
            assert verdict.reply.point is not None
            self.played.append(verdict.reply.point)
        self.outcome = verdict.outcome
        return verdict
