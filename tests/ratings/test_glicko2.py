"""Glicko-2 against Glickman's worked example and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.ratings import Glicko2, Outcome, Rating


def test_glickmans_worked_example():
    """The paper's three games: 1500/200 beats 1400/30, loses to 1550/100 and to 1700/300. The
    paper rounds μ' to -0.2069 before scaling it back (1464.06); exact arithmetic gives 1464.0507."""
    player = Rating(1500, 200, 0.06)
    games = [
        Outcome(Rating(1400, 30), 1.0),
        Outcome(Rating(1550, 100), 0.0),
        Outcome(Rating(1700, 300), 0.0),
    ]
    after = Glicko2(tau=0.5).update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # the paper truncates 0.059996


def test_a_new_player_is_1500_350_006():
    assert Glicko2().new == Rating(1500.0, 350.0, 0.06)


def test_a_period_without_games_only_widens_the_deviation():
    after = Glicko2().update(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06 and after.deviation > 100


ratings = st.builds(
    Rating,
    st.floats(600, 2800),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_raises_and_a_loss_lowers(a, b):
    system = Glicko2()
    win, loss = system.update(a, [Outcome(b, 1.0)]), system.update(a, [Outcome(b, 0.0)])
    assert win.rating > a.rating > loss.rating
