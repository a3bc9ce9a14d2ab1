"""The mistakes of a review's analysis (compute/gameanalysis.py), as a property of any win rates:
at most five per colour, each a fall of its player's win rate of at least the threshold, the
largest ones, in the order played, and the positions to search deeper are around them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from miai.server.compute.analysis import Position
from miai.server.compute.gameanalysis import (
    MISTAKE_THRESHOLD,
    MISTAKES_PER_COLOR,
    mistakes,
    suspects,
)

MOVES = ("C3", "D4", "E5", "F6", "G7")


@st.composite
def analysed_games(draw):
    """A position's moves (colours alternating, or not) and an analysis of each position."""
    n = draw(st.integers(0, 40))
    colors = draw(st.lists(st.sampled_from(("black", "white")), min_size=n, max_size=n))
    played = draw(st.lists(st.sampled_from(MOVES), min_size=n, max_size=n))
    entry = st.one_of(st.none(), st.builds(
        lambda w, best, deep: {"winrate": w, "best": best, "deep": deep},
        st.floats(0, 1), st.sampled_from(MOVES), st.booleans()))
    positions = draw(st.lists(entry, min_size=n + 1, max_size=n + 1))
    moves = tuple((c, m, ()) for c, m in zip(colors, played))
    return Position(9, "chinese", 0, moves=moves), positions


def fall(position, positions, n):
    color = position.moves[n - 1][0]
    before, after = positions[n - 1]["winrate"], positions[n]["winrate"]
    return before - after if color == "black" else after - before


@given(analysed_games())
def test_the_mistakes_are_the_largest_falls_of_each_colour_in_the_order_played(game):
    position, positions = game
    found = mistakes(position, positions)
    assert [m["move"] for m in found] == sorted({m["move"] for m in found})
    for color in ("black", "white"):
        mine = [m for m in found if m["color"] == color]
        assert len(mine) <= MISTAKES_PER_COLOR
        for m in mine:
            n = m["move"]
            assert m["drop"] == round(fall(position, positions, n), 4) >= MISTAKE_THRESHOLD - 1e-4
            assert m["played"] == position.moves[n - 1][1] != m["best"] == positions[n - 1]["best"]
        # none left out is a larger fall of that colour (ties aside)
        listed = {m["move"] for m in mine}
        others = [
            fall(position, positions, n) for n in range(1, len(position.moves) + 1)
            if n not in listed and position.moves[n - 1][0] == color and positions[n - 1] and positions[n]
            and positions[n - 1]["best"] != position.moves[n - 1][1]
        ]
        if len(mine) == MISTAKES_PER_COLOR and others:
            assert max(others) <= min(m["drop"] for m in mine) + 1e-4
        elif others:
            assert max(others) < MISTAKE_THRESHOLD + 1e-4


@given(analysed_games())
def test_the_positions_searched_deeper_are_around_the_mistakes_and_not_deep_yet(game):
    position, positions = game
    around = {n for m in mistakes(position, positions) for n in (m["move"] - 1, m["move"])}
    wanted = suspects(position, positions)
    assert wanted == sorted(n for n in around if not positions[n]["deep"])
