"""Learn the spatial patterns' table (:mod:`miai.ai.patterns`) from game records.

Usage::

    python benchmarks/learn_patterns.py SOURCE... [--size 19] [--min-seen 5] [--min-played 1]
        [--games N] [--holdout K] [--jobs J] [-o FILE]

Each SOURCE is an SGF file, a directory of them (a ``miai match`` run: ``game-*.sgf``), or a
file of moves one game a line as Tygem's archive writes them (``ID<tab>;B[pd];W[dp]...``,
19×19 even games: the 9-dan games of ``yenw/computer-go-dataset``, ``TYGEM/Kifu``); see
:mod:`miai.sgf.corpus`.
Records of another board size, with a handicap, or that do not read are left out (counted;
those that do not read are named). ``--games N`` stops after N games read.

The table is written to ``FILE`` (default: the one the engine ships,
``src/miai/ai/data/patterns19.npz``); a summary goes to standard output: games, positions
and moves counted, patterns kept. A pattern is kept when it was played at least
``--min-played`` times and seen at least ``--min-seen`` times. The second reading (the
seen) is split between ``--jobs`` processes. With ``--holdout K``, every K-th game is kept
out of the learning and the table is tried on it: how often the move played was the
table's first choice, among its first five, and its median rank.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

from miai.ai.patterns import DEFAULT_TABLE, count_played, count_seen, prediction_ranks, table_of
from miai.game import Game
from miai.sgf.corpus import read_games

_GAMES: list[Game] = []
"""The games the second reading's processes share (set before they fork)."""


def _seen_of(args: tuple[int, int, np.ndarray]) -> np.ndarray:
    start, stop, keys = args
    return count_seen(_GAMES[start:stop], keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", help="SGF files, directories of them, or Tygem move files")
    parser.add_argument("--size", type=int, default=19, help="the board size to learn (default 19)")
    parser.add_argument("--min-seen", type=int, default=5, help="keep patterns seen at least this often")
    parser.add_argument("--min-played", type=int, default=1, help="keep patterns played at least this often")
    parser.add_argument("--games", type=int, default=0, help="read at most this many games (0: all)")
    parser.add_argument("--holdout", type=int, default=0, help="learn without every K-th game and test on those")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the second reading")
    parser.add_argument("-o", "--output", default=str(DEFAULT_TABLE), help="where to write the table")
    args = parser.parse_args(argv)

    clock = time.perf_counter()
    corpus = read_games(args.sources, args.size, args.games, args.holdout)
    _GAMES[:] = corpus.games
    held, skipped = corpus.held, corpus.skipped
    print(f"read {corpus.read} games in {time.perf_counter() - clock:.0f} s", file=sys.stderr)

    played = count_played(_GAMES, args.min_played)
    print(f"{played.keys.size} patterns played at least {args.min_played} times "
          f"({time.perf_counter() - clock:.0f} s)", file=sys.stderr)
    jobs = max(1, min(args.jobs, len(_GAMES)))
    bounds = np.linspace(0, len(_GAMES), jobs + 1).astype(int)
    chunks = [(int(a), int(b), played.keys) for a, b in zip(bounds[:-1], bounds[1:])]
    if jobs == 1:
        seen = _seen_of(chunks[0])
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            seen = np.sum(pool.map(_seen_of, chunks), axis=0)
    table, counts = table_of(played, seen, args.min_seen)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    table.save(args.output)
    moves = played.states.shape[0]  # the positions but those where a player filled its own eye
    print(f"{len(_GAMES)} games ({skipped} left out), {counts.positions} positions, {moves} moves "
          f"({time.perf_counter() - clock:.0f} s)")
    print(f"{len(table)} patterns played at least {args.min_played} times and seen at least "
          f"{args.min_seen} times: {args.output}")
    if held:
        ranks = np.array(prediction_ranks(table, held))
        print(f"held out {len(held)} games, {ranks.size} moves: the move played was the table's first choice "
              f"{np.mean(ranks <= 1):.1%}, among its first five {np.mean(ranks <= 5):.1%}, median rank {np.median(ranks):g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
