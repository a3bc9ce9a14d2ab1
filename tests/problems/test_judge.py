"""The judge of a move (miai.problems.judge and Attempt) on the shipped problems' trees: right,
solved, wrong with the computer's refutation, illegal with the rule's reason."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.coords import Color, Move, point_from_gtp
from miai.errors import IllegalReason
from miai.problems import Attempt, Outcome, Verdict, judge, load_problems, start_game

PROBLEMS = {p.id: p for p in load_problems()}


def at(vertex: str, size: int = 9):
    return point_from_gtp(vertex, size)


def test_the_vital_point_solves_the_straight_three():
    problem = PROBLEMS["ld-straight-three"]
    assert judge(problem, [], at("B1")).outcome is Outcome.SOLVED
    assert problem.right_first_moves == (at("B1"),)


def test_a_listed_wrong_move_gets_its_refutation():
    problem = PROBLEMS["ld-straight-three"]
    verdict = judge(problem, [], at("C1"))
    assert verdict.outcome is Outcome.WRONG
    assert verdict.reply == Move(Color.WHITE, at("B1"))


def test_an_unlisted_move_is_wrong_and_answered_at_the_vital_point():
    problem = PROBLEMS["ld-straight-three"]
    verdict = judge(problem, [], at("H8"))
    assert verdict.outcome is Outcome.WRONG
    assert verdict.reply == Move(Color.WHITE, at("B1"))


def test_an_occupied_point_is_illegal_and_nothing_is_judged():
    problem = PROBLEMS["ld-straight-three"]
    verdict = judge(problem, [], at("A2"))
    assert (verdict.outcome, verdict.reason, verdict.reply) == (Outcome.ILLEGAL, IllegalReason.OCCUPIED, None)


def test_a_ladder_is_followed_to_its_end_through_the_computers_answers():
    problem = PROBLEMS["cap-ladder"]
    attempt = Attempt(problem)
    node = problem.start
    while not attempt.over:
        right = node.right_replies[0]
        verdict = attempt.play(right.move.point)
        assert verdict.outcome in (Outcome.RIGHT, Outcome.SOLVED)
        if verdict.outcome is Outcome.RIGHT:
            assert verdict.reply == right.replies[0].move
            node = right.replies[0]
    assert attempt.outcome is Outcome.SOLVED
    assert len(attempt.played) >= 3
    with pytest.raises(ValueError):
        attempt.play(at("A9"))


def test_a_wrong_move_ends_the_attempt_with_the_refutation_on_the_board():
    problem = PROBLEMS["ld-bent-three"]
    attempt = Attempt(problem)
    verdict = attempt.play(at("B1"))
    assert verdict.outcome is Outcome.WRONG and attempt.over
    assert verdict.reply is not None
    assert attempt.game.board[verdict.reply.point] is Color.WHITE


def test_moves_off_the_right_path_are_refused():
    problem = PROBLEMS["ld-bent-three"]
    with pytest.raises(ValueError):
        judge(problem, [at("B1"), at("A1")], at("C1"))


@settings(max_examples=60)
@given(st.sampled_from(sorted(PROBLEMS)), st.data())
def test_every_point_gets_a_verdict_and_a_legal_answer(problem_id, data):
    """Whatever point is played at the start, the judge answers, and the computer's reply is a
    legal move after it (what the page and the terminal then play)."""
    problem = PROBLEMS[problem_id]
    point = data.draw(st.tuples(st.integers(0, problem.size - 1), st.integers(0, problem.size - 1)))
    verdict = judge(problem, [], point)
    game = start_game(problem)
    if verdict.outcome is Outcome.ILLEGAL:
        assert game.board[point] is not None or game.legality(Move(problem.to_play, point)) is verdict.reason
        return
    game.play(Move(problem.to_play, point))
    if verdict.reply is not None:
        assert game.is_legal(verdict.reply)
    right = {c.move.point for c in problem.start.replies if c.verdict is Verdict.RIGHT}
    assert (verdict.outcome in (Outcome.RIGHT, Outcome.SOLVED)) == (point in right)
