"""Which games of a match had a capturing race the playouts settled, and who won them?

The playouts settled a race (knob ``p_race``, since removed) only where the reader of
:mod:`miai._kernel.semeai` finds one between chains of at least ``race_min_chain`` stones
and knows its winner. In a game where no such race comes up, an engine with the knob on
plays as one without it (up to its random numbers), so a self-play match of the two is noise
there: the games in which such a race came up are where the knob can win or lose. This
splits a match's games that way (a race counts if it is in the position after any move
played) and counts the named engine's wins in each part.

With ``--openings DIR`` it also writes, for each game with such a race, the game's moves up
to the first position that holds one as ``DIR/RUN-game-NNN.sgf``: openings for ``miai match
--openings``, which measures the settling where it acts, each position played twice with
the colours swapped. ``--before N`` cuts each N moves earlier: a position where the race is
still to be played for.

Usage::

    python tools/race_games.py runs/big8-3k-1 runs/big8-3k-2 --engine big8 [--min-chain 8] [--openings DIR [--before N]]

A research tool: it reads records and writes nothing but the openings it is asked for.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from races import first_settled_race

from miai.coords import Color
from miai.sgf import game_to_sgf, load_game, read_file


def write_opening(path: Path, moves: int, out: Path) -> Path:
    """Write the game's first ``moves`` moves (handicap and set-up stones kept; no result, no
    comments) into ``out`` as ``RUN-game-NNN.sgf``, a record ``miai match --openings`` starts
    a game from."""
    played, _ = load_game(path)
    game = played.after(moves)
    target = out / f"{path.parent.name}-{path.name}"
    target.write_text(game_to_sgf(game), encoding="utf-8")
    return target


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
    parser.add_argument("--openings", type=Path, metavar="DIR", help="write the positions with such a race here")
    parser.add_argument("--before", type=int, default=0, metavar="N", help="cut the openings N moves before the race")
    args = parser.parse_args()
    if args.openings is not None:
        args.openings.mkdir(parents=True, exist_ok=True)
    tally = {True: [0, 0], False: [0, 0]}
    for run in args.runs:
        for path in sorted(run.glob("game-*.sgf")):
            at = first_settled_race(path, args.min_chain)
            if at is not None and args.openings is not None:
                write_opening(path, max(at - args.before, 1), args.openings)
            part = tally[at is not None]
            part[0] += winner_name(path) == args.engine
            part[1] += 1
    for raced, (won, games) in tally.items():
        label = "with such a race" if raced else "without"
        print(f"games {label:<17} {games:>4}   {args.engine} won {won} ({100 * won / max(games, 1):.0f}%)")


if __name__ == "__main__":
    main()
