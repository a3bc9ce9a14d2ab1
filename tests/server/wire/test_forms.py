"""The wire's form of a count's territory: for any position and any stones marked dead, each
colour's points are exactly what its count takes besides its living stones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from miai import Game, Rules
from miai.coords import Color
from miai.endgame import whole_chains
from miai.server.wire.forms import territory_json, vertices

SIZE = 5


@settings(max_examples=60, deadline=None)
@given(
    rules=st.sampled_from(["japanese", "chinese"]),
    picks=st.lists(st.integers(0, SIZE * SIZE - 1), max_size=30),
    dead_picks=st.lists(st.integers(0, 10**6), max_size=3),
)
def test_the_territory_drawn_is_the_territory_counted(rules, picks, dead_picks):
    game = Game(SIZE, Rules.parse(rules))
    for n in picks:
        point = divmod(n, SIZE)
        if game.is_legal(point):
            game.play(point)
    stones = sorted([*game.board.stones(Color.BLACK), *game.board.stones(Color.WHITE)])
    dead = whole_chains(game.board, [stones[k % len(stones)] for k in dead_picks]) if stones else frozenset()
    score = game.score(dead)
    drawn = territory_json(score, game.board)
    for color in (Color.BLACK, Color.WHITE):
        assert len(drawn[str(color)]) == score.of(color).territory
    assert not set(drawn["black"]) & set(drawn["white"])
    living = set(vertices(set(stones) - dead))
    assert not living & (set(drawn["black"]) | set(drawn["white"]))
