"""Which games of a match had a capturing race the playouts settle, and who won them?

The playouts settle a race (knob ``p_race``) only where the reader of
:mod:`miai._kernel.semeai` finds one between chains of at least ``race_min_chain`` stones
and knows its winner. In a game where no such race comes up, an engine with the knob on
plays as one without it (up to its random numbers), so a self-play match of the two is noise
there: the games in which such a race came up are where the knob can win or lose. This
splits a match's games that way (a race counts if it is in the position after any move
played) and counts the named engine's wins in each part.

Usage::

    python benchmarks/race_games.py runs/big8-3k-1 runs/big8-3k-2 --engine big8 [--min-chain 8]

A benchmark tool: it reads records and changes nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from miai._kernel import semeai
from miai.coords import Color
from miai.game import Game
from miai.sgf import load_game, read_file


def has_settled_race(path: Path, min_chain: int) -> bool:
    """Whether a position of the game holds a race between chains of ``min_chain`` stones or
    more whose winner the reader knows (decided, or urgent), as the playouts settle them.
    Every position is read: ``race_judge.races_in`` reads each pair of chains only where it
    is first found, and a race undecided there may be decided later."""
    record, _ = load_game(path)
    game = Game(size=record.size, rules=record.rules)
    found = np.zeros((semeai.MAX_RACES, 2), np.int32)
    libs = np.empty(semeai.LIB_ROOM, np.int32)
    for move in record.moves:
        game.play(move)
        grid, meta = game.board.grid.copy(), game.board.meta.copy()
        k = semeai.find_races(grid, meta, found, libs, min_chain)
        if k == 0:
            continue
        scratch = semeai.new_race_scratch(grid, meta)
        for i in range(k):
            winners = [semeai.race_winner(grid, meta, found[i, 0], found[i, 1], c, *scratch)[0] for c in (1, 2)]
            if 0 not in winners:
                return True
    return False


def winner_name(path: Path) -> str:
    """The engine name (as ``miai match`` writes it, before the version) of the game's
    winner; empty for a game without one."""
    record = read_file(path)
    if record.result is None or record.result.winner is None:
        return ""
    player = record.black if record.result.winner == Color.BLACK else record.white
    return (player or "").split(" ", 1)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="directories of a miai match")
    parser.add_argument("--engine", required=True, help="the engine whose wins are counted")
    parser.add_argument("--min-chain", type=int, default=8)
    args = parser.parse_args()
    tally = {True: [0, 0], False: [0, 0]}
    for run in args.runs:
        for path in sorted(run.glob("game-*.sgf")):
            part = tally[has_settled_race(path, args.min_chain)]
            part[0] += winner_name(path) == args.engine
            part[1] += 1
    for raced, (won, games) in tally.items():
        label = "with such a race" if raced else "without"
        print(f"games {label:<17} {games:>4}   {args.engine} won {won} ({100 * won / max(games, 1):.0f}%)")


if __name__ == "__main__":
    main()
