"""Status estimation on diagrams: seki (with and without eyes), dead groups inside territory,
false eyes, dame, bent shapes in the corner; and the score counted with the estimate."""

from __future__ import annotations

import pytest

from miai.ai.status import estimate_status
from miai.coords import Color, point_from_gtp
from miai.rules import Rules
from tests.diagrams import game_from


def pts(text: str, size: int = 9) -> frozenset:
    return frozenset(point_from_gtp(v, size) for v in text.split())


# Each side has one eye (A2 White's, D1 Black's) and they share E2: seki with eyes (seed 002).
SEKI_WITH_EYES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O O
X X X X X X X X X
O O O O O O O X .
. O X X . X O X X
O O X . X X O X .
"""
SEKI_WHITE = pts("A3 B3 C3 D3 E3 F3 G3 B2 G2 A1 B1 G1")
SEKI_BLACK = pts("C2 D2 C1 E1 F1 F2")


@pytest.mark.parametrize(
    "rules, result, neutral",
    [
        # White: 36 territory + 6.5; Black: J1 J3. The seki's points A2 D1 E2 count for nobody.
        ("japanese", "W+40.5", 3),
        # Area: Black 19 stones + J1 J3 D1 = 22; White 21 stones + 36 + A2 = 58, + 7.5. E2 is dame.
        ("chinese", "W+43.5", 1),
    ],
)
def test_seki_with_eyes(rules, result, neutral):
    est = estimate_status(game_from(SEKI_WITH_EYES, Rules.preset(rules)))
    assert est.seki == SEKI_WHITE | SEKI_BLACK
    assert est.dead == frozenset()
    assert est.status(point_from_gtp("E1", 9)) == "seki"
    assert est.status(point_from_gtp("H1", 9)) == "alive" and est.confidence(point_from_gtp("H1", 9)) == 1.0
    assert est.score.result == result
    assert est.score.neutral == neutral
    assert est.territory[point_from_gtp("E2", 9)] is None


# No eyes: the inner white chain and the inner black chain share B2 and F2 and nothing else.
SEKI_NO_EYES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O O
X X X X X X X X X
O O O O O O O X .
O . X X X . O X X
X X X X X X O X .
"""


@pytest.mark.parametrize("rules, result, neutral", [("japanese", "W+40.5", 2), ("chinese", "W+38.5", 2)])
def test_seki_without_eyes(rules, result, neutral):
    est = estimate_status(game_from(SEKI_NO_EYES, Rules.preset(rules)))
    assert est.seki == pts("A3 B3 C3 D3 E3 F3 G3 A2 G2 G1 C2 D2 E2 A1 B1 C1 D1 E1 F1")
    assert est.dead == frozenset()
    assert est.score.result == result
    assert est.score.neutral == neutral


DEAD_INSIDE = """
. . . . . . . . .
. . . . . . X . .
. . . . . . . . .
O O O O O O O O O
X X X X X X X X X
. . . . . . . . .
. . . . . . . . .
. . O . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize(
    "rules, result",
    [
        # Japanese: Black 35 territory + 1 dead = 36; White 26 + 1 dead + 6.5 = 33.5.
        ("japanese", "B+2.5"),
        # Chinese: Black 9 + 36 = 45; White 9 + 27 + 7.5 = 43.5.
        ("chinese", "B+1.5"),
    ],
)
def test_dead_stones_inside_territory(rules, result):
    est = estimate_status(game_from(DEAD_INSIDE, Rules.preset(rules)))
    assert est.dead == pts("C2 G8")
    assert est.confidence(point_from_gtp("C2", 9)) > 0.5
    assert est.score.result == result
    assert est.territory[point_from_gtp("C2", 9)] is Color.BLACK
    assert est.territory[point_from_gtp("G8", 9)] is Color.WHITE
    assert est.territory[point_from_gtp("E5", 9)] is None  # a living stone


# Black's corner group has A1 as a real eye, but C1 is false (D2 is White's): it is dead.
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


def test_false_eye_group_is_dead():
    est = estimate_status(game_from(FALSE_EYE, Rules.preset("japanese")))
    assert est.dead == pts("A2 B2 C2 B1 D1")
    # White: 73 points of territory (A1 and C1 included) + 5 dead + 6.5.
    assert est.score.result == "W+84.5"


# Bent three in the corner with White's stone on its vital point A1: Black cannot make two eyes.
BENT_THREE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O . . . . .
X X O O . . . . .
. X X O . . . . .
O . X O . . . . .
"""


def test_bent_three_in_the_corner_is_dead():
    est = estimate_status(game_from(BENT_THREE, Rules.preset("japanese")))
    assert est.dead == pts("A3 B3 B2 C2 C1")
    assert est.status(point_from_gtp("A1", 9)) == "alive"


# A row of dame between two living walls: neutral, worth nothing.
DAME = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O O O O O O O O O
. . . . . . . . .
X X X X X X X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("rules, result", [("japanese", "W+6.5"), ("chinese", "W+7.5")])
def test_dame_is_neutral(rules, result):
    est = estimate_status(game_from(DAME, Rules.preset(rules)))
    assert est.dead == frozenset() and est.seki == frozenset()
    assert est.score.neutral == 9
    assert est.score.result == result
    assert est.territory[point_from_gtp("E5", 9)] is None
    assert est.territory[point_from_gtp("E2", 9)] is Color.BLACK


def test_estimate_is_reproducible_and_accepts_a_board():
    game = game_from(DEAD_INSIDE)
    a = estimate_status(game.board, playouts=50, seed=7)
    b = estimate_status(game.board, playouts=50, seed=7)
    assert (a.ownership == b.ownership).all()
    assert a.playouts == 50
    with pytest.raises(ValueError):
        estimate_status(game.board, playouts=0)


def test_empty_point_has_no_status():
    est = estimate_status(game_from(DAME), playouts=20)
    assert est.status((0, 0)) is None and est.confidence((0, 0)) == 0.0
