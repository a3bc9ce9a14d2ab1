"""The record that the playout tools' tests read: a 9×9 game whose last move, White's C3,
puts itself in atari among Black's B3, D3 and C4 (its last liberty, C2, open)."""

from __future__ import annotations

from pathlib import Path

from miai.game import Game
from miai.sgf import game_to_sgf

ATARI_MOVES = ["B3", "G7", "D3", "G3", "C4", "C3"]


def write_atari_record(folder: Path) -> Path:
    """The game of :data:`ATARI_MOVES` as an SGF file in ``folder``."""
    game = Game(size=9)
    for vertex in ATARI_MOVES:
        game.play(vertex)
    path = folder / "atari.sgf"
    path.write_text(game_to_sgf(game))
    return path
