"""Dynamic komi: the rule move by move, the memory across undo and new games, the knobs, and
the player that searches with it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.ai.config import MctsConfig
from miai.ai.dynkomi import MIN_PLAYOUTS, DynamicKomi, KomiMemory, KomiState, searched_komi
from miai.ai.mcts import MctsPlayer
from miai.coords import Color, Point
from miai.errors import ConfigError
from miai.game import Game
from miai.gtp.engine import GtpEngine
from tests.diagrams import game_from

RULE = DynamicKomi(start=60, low=0.6, high=0.7, step=2, drop=4)
MANY = 10_000


def test_nothing_changes_before_the_start_or_on_a_small_search():
    assert RULE.next(KomiState(), 59, 0.95, MANY) == KomiState()
    assert RULE.next(KomiState(), 60, 0.95, MIN_PLAYOUTS - 1) == KomiState()
    assert RULE.next(KomiState(6), 59, 0.1, MANY) == KomiState(6)


def test_a_lead_raises_the_komi_a_step_a_move_and_the_zone_holds_it():
    state = KomiState()
    for expected in (2, 4, 6):
        state = RULE.next(state, 80, 0.75, MANY)
        assert state == KomiState(expected)
    assert RULE.next(state, 81, 0.65, MANY) == state  # inside the zone: unchanged
    assert RULE.next(state, 81, 0.7, MANY) == state  # the zone's edges belong to it
    assert RULE.next(state, 81, 0.6, MANY) == state


def test_a_fall_lowers_it_and_it_never_climbs_above_that_again():
    state = RULE.next(KomiState(10), 100, 0.55, MANY)
    assert state == KomiState(6, ceiling=6)
    state = RULE.next(RULE.next(state, 101, 0.9, MANY), 102, 0.9, MANY)
    assert state == KomiState(6, ceiling=6)
    lower = RULE.next(KomiState(3), 100, 0.55, MANY)
    assert lower == KomiState(0, ceiling=0)  # never below nothing: and it stays nothing
    assert RULE.next(lower, 101, 0.95, MANY) == lower


def test_losing_after_a_fall_gives_it_up_for_the_game_as_pachi_does():
    first_fall = RULE.next(KomiState(10), 100, 0.45, MANY)
    assert first_fall == KomiState(6, ceiling=6)  # the first fall is only a drop
    given_up = RULE.next(first_fall, 101, 0.45, MANY)
    assert given_up == KomiState(0, ceiling=0)
    assert RULE.next(given_up, 150, 0.99, MANY) == given_up


@given(
    st.lists(st.tuples(st.integers(0, 400), st.floats(0, 1), st.integers(0, 20_000)), max_size=60),
    st.integers(1, 5), st.integers(1, 8),
)
def test_the_extra_komi_is_never_negative_and_never_above_its_ceiling(steps, step, drop):
    rule = DynamicKomi(start=50, low=0.6, high=0.7, step=step, drop=drop)
    state = KomiState()
    for move, winrate, playouts in steps:
        before = state
        state = rule.next(state, move, winrate, playouts)
        assert state.extra >= 0
        assert state.ceiling is None or 0 <= state.extra <= state.ceiling
        assert state.extra - before.extra <= step
        if before.ceiling is not None:
            assert state.ceiling is not None and state.ceiling <= before.ceiling


def test_the_extra_points_count_against_the_colour_searched():
    assert searched_komi(7.5, Color.BLACK, 4) == 11.5
    assert searched_komi(7.5, Color.WHITE, 4) == 3.5
    assert searched_komi(7.5, Color.WHITE, 0) == 7.5


def test_the_memory_finds_each_colours_state_in_the_positions_after_its_search():
    memory = KomiMemory()
    game = Game(9)
    game.play("E5")
    memory.record(game, Color.WHITE, KomiState(2))
    assert memory.state(game, Color.WHITE) == KomiState()  # asked again there: as that search began
    game.play("C3")
    game.play("G7")
    assert memory.state(game, Color.WHITE) == KomiState(2)
    memory.record(game, Color.WHITE, KomiState(4))
    game.play("D4")
    assert memory.state(game, Color.WHITE) == KomiState(4)
    assert memory.state(game, Color.BLACK) == KomiState()
    game.undo()
    game.undo()
    game.undo()
    assert memory.state(game, Color.WHITE) == KomiState()  # back where it was first searched
    game.play("F6")
    game.play("B2")
    assert memory.state(game, Color.WHITE) == KomiState(2)  # the line through G7 is forgotten
    assert memory.state(Game(9), Color.WHITE) == KomiState()


def test_the_memory_does_not_carry_a_state_into_another_kind_of_game():
    def after_two_moves(game: Game) -> Game:
        game.play("D4")
        game.play("F6")
        return game

    for other, found in ((Game(9), KomiState(6)), (Game(13), KomiState()), (Game(9, handicap=2), KomiState())):
        memory = KomiMemory()
        memory.record(Game(9), Color.BLACK, KomiState(6))
        assert memory.state(after_two_moves(other), Color.BLACK) == found, other


def test_the_knobs_are_off_by_default_and_checked_at_the_door():
    assert DynamicKomi.of(MctsConfig()) is None
    config = MctsConfig(**MctsConfig.parse_settings(["dynkomi=true", "dynkomi_zone=0.5,0.8", "dynkomi_step=1"]))
    assert DynamicKomi.of(config) == DynamicKomi(start=60, low=0.5, high=0.8, step=1, drop=4)
    with pytest.raises(ConfigError, match="dynkomi_zone must be two win rates, the lower first, not 0.8,0.5"):
        MctsConfig(dynkomi_zone=(0.8, 0.5))
    with pytest.raises(ConfigError, match="dynkomi_step must be a whole number from 1 to 100"):
        MctsConfig.parse_settings(["dynkomi_step=0"])


WON_FOR_BLACK = """
    .......
    OOOOOOO
    XXXXXXX
    .......
    .......
    .......
    .......
    """
"""Black's 35 points against White's 14 and 7.5 komi."""

WON_FOR_WHITE = """
    .......
    XXXXXXX
    OOOOOOO
    .......
    .......
    .......
    .......
    """
"""White's 35 points and 7.5 komi against Black's 14."""


def dynkomi_player(**changes: Any) -> MctsPlayer:
    knobs = dict(playouts=800, max_seconds=None, seed=1, dynkomi=True, dynkomi_start=0, **changes)
    return MctsPlayer(MctsConfig(**knobs))


def leading(color: Color) -> Game:
    """A game won for ``color``, ``color`` to move (Black, if White, has played in its own
    area first)."""
    if color is Color.BLACK:
        return game_from(WON_FOR_BLACK)
    game = game_from(WON_FOR_WHITE)
    game.play("A7")
    return game


def play_on(game: Game, point: Point | str) -> None:
    """The side to move plays ``point``, then its opponent a move in its own area, an empty
    point of the top line (on either board), so the count stays as it was and nobody passed."""
    game.play(point)
    game.play(next(p for p in game.board if p[0] == 0 and game.board[p] is None))


@pytest.mark.parametrize("color", [Color.BLACK, Color.WHITE])
def test_a_leading_player_searches_its_next_move_with_more_komi_against_it(color):
    game = leading(color)
    ai = dynkomi_player()
    first = ai.genmove(game)
    assert first.extra_komi == 0 and first.winrate > 0.7 and first.point is not None
    again = ai.genmove(game)  # asked again in the same position: the komi it began with
    assert again.extra_komi == 0
    play_on(game, first.point)
    second = ai.genmove(game)
    assert second.extra_komi == 2


@pytest.mark.parametrize("color", [Color.BLACK, Color.WHITE])
def test_the_extra_komi_counts_against_the_player_and_it_does_not_resign_on_it(color):
    game = leading(color)
    ai = dynkomi_player(resign=True, resign_min_playouts=100)
    ai.komi_memory.record(game, color, KomiState(100))
    play_on(game, "D1")
    decision = ai.genmove(game)
    # a won game made lost by the extra komi; every condition to resign holds but that komi
    assert decision.winrate < ai.config.resign_threshold and decision.playouts >= 100
    assert not decision.resign and decision.point is not None and decision.extra_komi == 100


def test_a_tree_is_kept_only_for_a_search_with_the_komi_it_was_searched_with():
    game = game_from(WON_FOR_BLACK)
    for extra_now, kept in ((10, True), (0, False), (12, False)):
        ai = dynkomi_player()
        ai.search(game, extra_komi=10)
        visits = sum(c.visits for c in ai.search(game, playouts=1, extra_komi=extra_now).candidates)
        assert (visits > 1) is kept, extra_now


def test_gtp_logs_the_extra_komi_and_keeps_it_when_the_clock_rebuilds_the_player():
    engine = GtpEngine(size=7)
    logged: list[str] = []
    engine.log = logged.append
    engine.ai_config = MctsConfig(playouts=800, max_seconds=None, seed=1, dynkomi=True, dynkomi_start=0)
    for line in ("komi 0.5", "play b A1", "play w G7"):
        assert engine.handle(line).startswith("=")
    engine.handle("genmove b")
    player = engine.player
    assert player is not None
    player.komi_memory.record(engine.game, Color.BLACK, KomiState(6))
    assert engine.handle("play w pass").startswith("=")
    assert engine.handle("time_settings 600 30 1").startswith("=")  # timed: resigning on, a new player
    engine.handle("genmove b")
    assert engine.player is not player
    assert logged[-1].endswith(", extra komi 6"), logged[-1]
