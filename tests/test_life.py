"""Benson's unconditional life and pass-alive territory (miai.life) on diagrams."""

from __future__ import annotations

from miai.coords import Color, point_from_gtp
from miai.life import benson, unconditional_life
from tests.diagrams import game_from


def pts(text: str, size: int = 9) -> frozenset:
    return frozenset(point_from_gtp(v, size) for v in text.split())


FALSE_EYE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O . . . .
X X X O O . . . .
. X . X O . . . .
"""


def test_a_false_eye_is_not_an_eye():
    # C1 is bordered by the main chain and by D1, whose only region it is: D1 goes, then C1,
    # and the main chain is left with A1 alone.
    board = game_from(FALSE_EYE).board
    chains, regions = benson(board, Color.BLACK)
    assert chains == [] and regions == []
    assert unconditional_life(board).dead == frozenset()


BENSON_ALIVE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X . . . .
. X . . X . . . .
X X O X X . . . .
. X . X . . . . .
"""


def test_benson_and_pass_alive_territory():
    board = game_from(BENSON_ALIVE).board
    life = unconditional_life(board)
    black = pts("A4 B4 C4 D4 E4 B3 E3 A2 B2 D2 E2 B1 D1")
    assert life.alive[Color.BLACK] == black
    # A1 (eye), A3 C3 D3 C2 (White's C2 inside: every empty point touches Black), C1
    assert pts("A1 A3 C3 D3 C2 C1") <= life.territory[Color.BLACK]
    assert life.dead == pts("C2")
    assert life.alive[Color.WHITE] == frozenset()
    # the open board is nobody's proven territory
    assert point_from_gtp("J9", 9) not in life.territory[Color.BLACK]


def test_a_single_eye_is_not_enough():
    board = game_from("""
. . . . .
X X X . .
. . X . .
X X X . .
. . . . .
""").board
    life = unconditional_life(board)
    assert life.alive[Color.BLACK] == frozenset()
    assert life.territory[Color.BLACK] == frozenset()
