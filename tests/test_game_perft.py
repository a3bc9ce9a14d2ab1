"""Golden games (python-chess's perft, in Go terms): seeded random games played through
``Game`` (legal moves, passes, now and then an undo) under every preset, with the outcome
pinned: the number of moves, the final hash, a digest of every position on the way, the
captures, the phase and the count.

The values were computed once, when the rules core was believed correct, and checked
against the code before the core's refactoring into ``Board``/``_State``/``Game.apply``.
They are not derived here on purpose: any change to what a move does, to legality, superko,
undo or counting shows up as a different line. A deliberate change of behaviour must
recompute them (run this file's ``_play`` over ``GOLDEN``) and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from miai.coords import Color
from miai.game import Game, Phase
from miai.rules import Rules

GOLDEN = [
    # (preset, size, seed, (moves, final hash, trail digest, black's captures, white's captures, phase, count))
    ("chinese", 5, 1, (75, -4573185727037695456, "3d02e649ea1dd242", 26, 21, "play", "W+11.5")),
    ("chinese", 9, 2, (243, 7039676013776120306, "0ab7ed2f3e8b9081", 77, 90, "play", "W+10.5")),
    ("japanese", 7, 3, (140, -7874567125282564468, "d58fd463e5bb3128", 55, 66, "marking", "W+17.5")),
    ("japanese", 9, 4, (24, -4317403445686886836, "787beebf49f70f0a", 0, 0, "marking", "W+6.5")),
    ("aga", 7, 5, (77, 5391721111242817842, "73d2633e9c72f23c", 23, 6, "marking", "B+17.5")),
    ("new-zealand", 6, 6, (108, 7738817609434957332, "05a765f76de96892", 40, 34, "play", "0")),
    ("tromp-taylor", 5, 7, (75, -9102881036435054855, "de515f1ac73e488b", 24, 27, "play", "W+7.5")),
    ("korean", 5, 8, (75, 2086979619572819788, "dcd10daf4e091dff", 34, 15, "play", "B+12.5")),
    ("simple", 4, 9, (48, -259843076120267542, "501f14a1d652fcd3", 15, 11, "play", "W+10")),
]


def _play(preset: str, size: int, seed: int) -> tuple[int, int, str, int, int, str, str]:
    """One seeded game: until play ends or 3×N² moves; 3% undo, 3% pass, else a random legal move."""
    rnd = random.Random(seed)
    game = Game(size, Rules.preset(preset))
    trail = hashlib.sha256()
    while game.phase is Phase.PLAY and game.move_number < 3 * size * size:
        r = rnd.random()
        if r < 0.03 and game.move_number:
            game.undo()
        else:
            legal = game.legal_moves()
            game.play(rnd.choice(legal) if legal and r > 0.06 else None)
        trail.update(game.board.hash.to_bytes(8, "little", signed=True))
    return (
        game.move_number,
        game.board.hash,
        trail.hexdigest()[:16],
        game.captures(Color.BLACK),
        game.captures(Color.WHITE),
        game.phase.value,
        str(game.score().result),
    )


@pytest.mark.parametrize("preset, size, seed, expected", GOLDEN, ids=[f"{p}-{n}x{n}-seed{s}" for p, n, s, _ in GOLDEN])
def test_seeded_random_game_ends_as_pinned(preset, size, seed, expected):
    assert _play(preset, size, seed) == expected
