"""Invariants of Game over random games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from miai import Game, Phase, Rules
from miai.rules import PRESETS


@settings(max_examples=40, deadline=None)
@given(size=st.integers(3, 9), seed=st.integers(0, 2**32), preset=st.sampled_from(sorted(PRESETS)))
def test_undo_restores_the_hash_and_replays_identically(size, seed, preset):
    rnd = random.Random(seed)
    game = Game(size, Rules.preset(preset))
    hashes = [game.board.hash]
    for _ in range(3 * size * size):
        if game.phase is not Phase.PLAY:
            break
        legal = game.legal_moves()
        move = rnd.choice(legal) if legal and rnd.random() > 0.03 else None
        game.play(move)
        game.board.check_consistency()
        hashes.append(game.board.hash)
    # undo everything, one move at a time: each step gives back the earlier position
    while game.move_number:
        game.undo()
        assert game.board.hash == hashes[game.move_number]
    assert game.board.hash == hashes[0] and game.board.as_array().sum() == 0


@settings(max_examples=25, deadline=None)
@given(size=st.integers(3, 7), seed=st.integers(0, 2**32))
def test_legal_moves_are_exactly_the_points_play_accepts(size, seed):
    rnd = random.Random(seed)
    game = Game(size, Rules.preset("chinese"))
    for _ in range(2 * size * size):
        legal = set(game.legal_moves())
        for p in game.board:
            assert (game.legality(p) is None) == (p in legal)
        if not legal:
            break
        game.play(rnd.choice(sorted(legal)))
