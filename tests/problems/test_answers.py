"""Every shipped problem's answers read again by GNU Go (docs/PROBLEMS.md): at each of the
player's turns in the solution tree, every point in view is judged by miai.problems.judge and
read by GNU Go, and the two agree: a move judged right reaches the goal, every other legal
move does not (no right move is missing), and the computer's answer to a wrong move (listed
or not) leaves the player unable to reach the goal."""

from __future__ import annotations

import pytest

from miai.coords import Move
from miai.problems import Outcome, Problem, judge, load_problems, start_game
from miai.problems.model import Node
from miai.testing.gnugo_reader import GNUGO, GnuGoReader

pytestmark = [
    pytest.mark.gnugo,
    pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo; CI installs it)"),
]

PROBLEMS = load_problems()


@pytest.fixture(scope="module")
def reader():
    with GnuGoReader() as r:
        yield r


def disagreements_at(reader: GnuGoReader, problem: Problem, played: list[Move]) -> list[str]:
    """What GNU Go and the judge disagree on at this turn of the player's."""
    found = []
    game = start_game(problem)
    for move in played:
        game.play(move)
    points = [move.point for move in played]
    line = " ".join(m.gtp() for m in played) or "start"
    for p in (q for q in game.legal_moves(problem.to_play) if problem.in_view(q)):
        verdict = judge(problem, points, p)  # type: ignore[arg-type]
        move = Move(problem.to_play, p)
        reaches = reader.reaches_goal(p)
        right = verdict.outcome in (Outcome.RIGHT, Outcome.SOLVED)
        if right != reaches:
            found.append(f"{line}: {move.gtp()} judged {verdict.outcome.value}, GNU Go: reaches the goal {reaches}")
            continue
        if verdict.outcome is Outcome.WRONG:
            if verdict.reply is None:
                found.append(f"{line}: {move.gtp()} is wrong but the computer has no answer")
                continue
            reader.play(move)
            reader.play(verdict.reply)
            if reader.player_wins():
                found.append(f"{line}: {move.gtp()} {verdict.reply.gtp()} does not refute it")
            reader.undo()
            reader.undo()
    return found


def right_paths(problem: Problem) -> list[list[Move]]:
    """The moves before each of the player's turns on the tree's right path (the start first)."""
    paths: list[list[Move]] = [[]]
    stack: list[tuple[Node, list[Move]]] = [(problem.start, [])]
    while stack:
        node, before = stack.pop()
        for right in node.right_replies:
            for answer in right.replies:
                path = [*before, right.move, answer.move]
                paths.append(path)
                stack.append((answer, path))
    return paths


@pytest.mark.parametrize("problem", PROBLEMS, ids=[p.id for p in PROBLEMS])
def test_gnugo_agrees_with_every_turn_of_the_solution(reader, problem):
    reader.set_problem(problem)
    found = []
    for path in right_paths(problem):
        for move in path:
            reader.play(move)
        found += disagreements_at(reader, problem, path)
        for _ in path:
            reader.undo()
    assert found == [], f"{problem.id}: " + "; ".join(found)
