"""The capturing races of a game record as the playouts settle them (:mod:`miai._kernel.semeai`),
shared by the tools that split or filter games by them (``race_games.py``, ``same_moves.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from miai._kernel import semeai
from miai.game import Game
from miai.sgf import load_game


def first_settled_race(path: Path, min_chain: int) -> int | None:
    """The number of moves after which the game's position first holds a race between
    chains of ``min_chain`` stones or more whose winner the reader knows (decided, or
    urgent), as the playouts settle them; None if no position does. Every position is read:
    ``race_judge.races_in`` reads each pair of chains only where it is first found, and a
    race undecided there may be decided later."""
    played, _ = load_game(path)
    game = Game(size=played.size, rules=played.rules)
    found = np.zeros((semeai.MAX_RACES, 2), np.int32)
    libs = np.empty(semeai.LIB_ROOM, np.int32)
    for number, move in enumerate(played.moves, 1):
        game.play(move)
        grid, meta = game.board.grid.copy(), game.board.meta.copy()
        k = semeai.find_races(grid, meta, found, libs, min_chain)
        if k == 0:
            continue
        scratch = semeai.new_race_scratch(grid, meta)
        for i in range(k):
            winners = [semeai.race_winner(grid, meta, found[i, 0], found[i, 1], c, *scratch)[0] for c in (1, 2)]
            if 0 not in winners:
                return number
    return None
