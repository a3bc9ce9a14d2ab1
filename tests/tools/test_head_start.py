"""tools/head_start.py: the rest of a settled search's budget goes below its move."""

from __future__ import annotations

import head_start


def test_the_settled_search_spends_its_budget_below_the_move(atari_record):
    (game,) = head_start.positions(str(atari_record), 6, 6, 1)
    assert game.move_number == 6
    plain = head_start.search_once(game, 3000, settled=False, seed=6)
    ahead = head_start.search_once(game, 3000, settled=True, seed=6)
    assert plain.playouts < 3000  # Black's capture at C2 settles the search early
    assert ahead.playouts == 3000
    assert ahead.below - plain.below == 3000 - plain.playouts  # every playout more went below the move
    assert ahead.kept > plain.kept > 0
