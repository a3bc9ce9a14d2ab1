"""OGS's rating-to-rank conversion and the handicap a rank gap calls for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.ratings import Rank, even_or_handicap, rank_of, rating_of


@pytest.mark.parametrize(
    ("rating", "rank"),
    [(1500, "6k"), (1919, "1d"), (1918, "1k"), (1246, "10k"), (1005, "15k"), (654, "25k"), (100, "25k"), (5000, "9d")],
)
def test_ogs_ranks(rating, rank):
    """OGS's own table (goratings' comments: 1919 = 1d, 1246 = 10k, 1005 = 15k, 654 = 25k)."""
    assert str(rank_of(rating)) == rank


@given(st.integers(5, 38))
def test_a_rank_text_round_trips_and_its_lowest_rating_is_that_rank(number):
    rank = Rank(number)
    assert Rank.parse(str(rank)) == rank
    assert rank_of(rating_of(rank) + 1e-6) == rank


def test_a_rank_out_of_range_or_unreadable_is_refused():
    with pytest.raises(ValueError):
        Rank.parse("31k")
    with pytest.raises(ValueError):
        Rank(39)


def test_one_rank_apart_is_no_stones_the_weaker_black_half_a_point_komi():
    weak, strong = rating_of(Rank.parse("3k")), rating_of(Rank.parse("2k"))
    game = even_or_handicap(strong, weak, 19, 7.5)
    assert (game.stones, game.komi, game.first_black, game.even) == (0, 0.5, False, False)


def test_a_stone_per_rank_capped_at_nine_and_at_the_board():
    weak, strong = rating_of(Rank.parse("20k")), rating_of(Rank.parse("2d"))
    assert even_or_handicap(weak, strong, 19, 7.5).stones == 9
    assert even_or_handicap(weak, strong, 10, 7.5).stones == 4
    three = even_or_handicap(rating_of(Rank.parse("5k")), rating_of(Rank.parse("2k")), 19, 6.5)
    assert (three.stones, three.komi, three.first_black) == (3, 0.5, True)


def test_the_same_rank_plays_even_with_the_rules_komi():
    game = even_or_handicap(1500, 1510, 19, 6.5)
    assert (game.stones, game.komi, game.even) == (0, 6.5, True)
