"""Seeded random positions for tests and benchmarks: the same game from the same seed."""

from __future__ import annotations

import random

from miai.game import Game, Phase
from miai.rules import Rules

__all__ = ["random_position"]


def random_position(size: int, rules: Rules, seed: int, moves: int) -> Game:
    """A game of up to ``moves`` random legal moves from ``seed`` (a pass now and then), left in
    play: resumed if two passes ended it."""
    rng = random.Random(seed)
    game = Game(size, rules)
    for _ in range(moves):
        if game.phase is not Phase.PLAY:
            break
        legal = game.legal_moves()
        game.play(rng.choice(legal) if legal and rng.random() > 0.03 else None)
    if game.phase is Phase.MARKING:
        game.resume()
    return game
