"""Counting: the seeds' worked examples, area and territory, dead stones, komi, ties, seki."""

from __future__ import annotations

import pytest

from miai import Color, Rules
from miai.board import Board
from miai.errors import IllegalMoveError, IllegalReason
from miai.scoring import count
from tests.diagrams import board_from

# seed 002 (Italian): "Black totals 20 territory + 9 dead stones + 3 captured = 32; White
# 15 territory + 6 dead stones + 2 captured = 23". The diagram did not survive; this one
# has exactly those counts. Left of the dame column E: Black's area with 9 dead white
# stones; right: White's with 6 dead black stones.
SEED_002 = """
    O . X X . O O . X
    . O X X . O O O .
    O . X X . O O . X
    . O . X . O O O .
    O . X X . O O . X
    . O . X . O O O .
    O . X X . O O . X
    . O X X . O O X .
    O . X X . O O . X
    """




def seed_002_dead(board: Board) -> list:
    left_white = [p for p in board.stones(Color.WHITE) if p[1] < 3]
    right_black = [p for p in board.stones(Color.BLACK) if p[1] > 5]
    return left_white + right_black


def test_seed_002_territory_counting_example():
    board = board_from(SEED_002)
    dead = seed_002_dead(board)
    assert len(dead) == 15
    score = count(board, Rules.preset("japanese").replace(komi=0), dead=dead, prisoners=(3, 2))
    assert (score.black.territory, score.black.dead, score.black.prisoners) == (20, 9, 3)
    assert (score.white.territory, score.white.dead, score.white.prisoners) == (15, 6, 2)
    assert score.black.total == 32 and score.white.total == 23
    assert str(score.result) == "B+9"
    assert score.neutral == 9  # the dame column, filled before counting and worth nothing
    text = score.breakdown()
    assert "dead stones" in text and "prisoners" in text and "B+9" in text


def test_seed_002_position_by_area_ignores_prisoners():
    board = board_from(SEED_002)
    score = count(board, Rules.preset("chinese"), dead=seed_002_dead(board), prisoners=(3, 2))
    assert (score.black.stones, score.black.territory) == (16, 20)
    assert (score.white.stones, score.white.territory) == (21, 15)
    assert score.black.total == 36 and score.white.total == 36 + 7.5
    assert str(score.result) == "W+7.5"
    # the two areas add up to the board minus neutral points (docs/RULES.md §6)
    assert score.black.stones + score.black.territory + score.white.stones + score.white.territory == 81 - score.neutral


# seed 003 (Portuguese): Black 20 stones + 20 territory = 40, White 19 + 17 = 36; with
# komi 5.5 White wins; a tie goes to White under its tie rule.
SEED_003 = """
    . . . . O . . . .
    . . . . . . . . .
    O O O O O O O O O
    O O O O O O O O O
    X X X X . . . . .
    X X X X X X X X X
    X . X X X . X X X
    . . . . . . . . .
    . . . . . . . . .
    """


def test_seed_003_area_counting_example():
    board = board_from(SEED_003)
    rules = Rules.preset("simple")
    score = count(board, rules.replace(komi=0))
    assert (score.black.stones, score.black.territory, score.black.total) == (20, 20, 40)
    assert (score.white.stones, score.white.territory, score.white.total) == (19, 17, 36)
    assert str(score.result) == "B+4" and score.neutral == 5
    assert str(count(board, rules.replace(komi=5.5)).result) == "W+1.5"


def test_tie_rule():
    board = board_from(SEED_003)
    rules = Rules.preset("simple").replace(komi=4)
    draw = count(board, rules)
    assert draw.winner is None and str(draw.result) == "0"
    white = count(board, rules.replace(white_wins_ties=True))
    assert white.winner is Color.WHITE and str(white.result) == "W+0"
    assert "White wins ties" in white.breakdown()


def test_handicap_bonus_area_only_by_field():
    board = Board(9)
    assert count(board, Rules.preset("chinese"), handicap=5).white.handicap_bonus == 5
    assert count(board, Rules.preset("aga"), handicap=5).white.handicap_bonus == 4
    assert count(board, Rules.preset("new-zealand"), handicap=5).white.handicap_bonus == 0
    assert count(board, Rules.preset("chinese"), handicap=0).white.handicap_bonus == 0




def test_seki_points_not_counted_under_territory_rules():
    board = board_from(
        """
        . . . . .
        X X X X X
        O O O O X
        X . O . O
        X X O . O
        """
    )
    # White's stones and Black's corner (A1, A2, B1) share the liberty B2; D2/D1 is an empty
    # region bordered by White alone. count() takes the seki stones as given (finding them is
    # the status estimator's job).
    seki = board.stones(Color.WHITE) + [(0, 0), (1, 0), (0, 1)]
    jp = count(board, Rules.preset("japanese").replace(komi=0), seki=seki)
    cn = count(board, Rules.preset("chinese").replace(komi=0), seki=seki)
    assert jp.white.territory == 0  # its eye D2/D1 is not territory in seki (Japanese)
    assert cn.white.territory == 2  # but counts under area scoring
    assert jp.neutral == cn.neutral + 2


def test_marking_an_empty_point_dead_is_an_error():
    with pytest.raises(IllegalMoveError, match="C3 is empty") as err:
        count(Board(5), Rules.preset("chinese"), dead=[(2, 2)])
    assert err.value.reason is IllegalReason.NOT_A_STONE  # the same mistake as in Game.propose
