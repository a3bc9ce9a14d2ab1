"""tools/where_lost.py: the drops a judge's win rates show, and a second judge's
recheck of them (judges scripted here: the tool's logic, not an engine's strength)."""

from __future__ import annotations

import where_lost
from miai.coords import Color, Move

MOVES = [Move.from_gtp(c, v, 9) for c, v in [("b", "E5"), ("w", "C3"), ("b", "A1"), ("w", "G7")]]


class ScriptedJudge:
    """A judge whose win rate for the side to move after ``n`` moves is ``rates[n]``."""

    def __init__(self, rates: dict[int, float | None]):
        self.rates = rates
        self.asked: list[int] = []

    def evaluate(self, moves: list[Move], to_move: Color) -> tuple[str, float | None]:
        self.asked.append(len(moves))
        return "D4", self.rates[len(moves)]


def test_a_drop_past_the_threshold_is_found_and_a_small_one_is_not():
    # Black: 0.50 before E5, 1 - 0.52 = 0.48 after; 0.47 before A1, 1 - 0.75 = 0.25 after
    judge = ScriptedJudge({0: 0.50, 1: 0.52, 2: 0.47, 3: 0.75})
    found = where_lost.drops(judge, MOVES, Color.BLACK, threshold=0.15)
    assert [(d.number, d.played, d.judge_move) for d in found] == [(3, "A1", "D4")]
    assert (found[0].before, found[0].after) == (0.47, 0.25)
    assert judge.asked == [0, 1, 2, 3]  # White's moves are not read


def test_a_judge_without_a_figure_finds_no_drop():
    judge = ScriptedJudge({0: 0.50, 1: None, 2: None, 3: 0.95})
    assert where_lost.drops(judge, MOVES, Color.BLACK, threshold=0.15) == []


def test_the_recheck_confirms_a_drop_or_says_it_does_not():
    drop = where_lost.Drop(3, "A1", "D4", 0.58, 0.09)
    confirmed = where_lost.recheck(ScriptedJudge({2: 0.40, 3: 0.80}), MOVES, drop, 0.15)
    assert confirmed == "recheck (judge:   D4)  0.40 -> 0.20"
    refuted = where_lost.recheck(ScriptedJudge({2: 0.14, 3: 0.88}), MOVES, drop, 0.15)
    assert refuted == "recheck (judge:   D4)  0.14 -> 0.12  not confirmed"
    unknown = where_lost.recheck(ScriptedJudge({2: None, 3: 0.88}), MOVES, drop, 0.15)
    assert unknown.endswith(" ?   -> 0.12  not confirmed")
