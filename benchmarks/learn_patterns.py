"""Learn the spatial patterns' table (:mod:`miai.ai.patterns`) from game records.

Usage::

    python benchmarks/learn_patterns.py RUN_OR_SGF... [--size 19] [--min-seen 5] [--holdout K] [-o FILE]

Each argument is an SGF file or a directory of them (a ``miai match`` run: ``game-*.sgf``).
Records of another board size, with a handicap, or that do not read are left out (counted;
those that do not read are named).
The table is written to ``FILE`` (default: the one the engine ships,
``src/miai/ai/data/patterns19.npz``); a summary goes to standard output: games, positions
and moves counted, patterns kept. With ``--holdout K``, every K-th game is kept out of the
learning and the table is tried on it: how often the move played was the table's first
choice, among its first five, and its median rank.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from miai._kernel.spatial import NSIZES
from miai.ai.patterns import DEFAULT_TABLE, learn, prediction_ranks
from miai.errors import MiaiError
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import read_file


def record_paths(sources: list[str]) -> list[Path]:
    """The SGF files named, and those in the directories named, in order."""
    out: list[Path] = []
    for source in sources:
        path = Path(source)
        out.extend(sorted(path.glob("*.sgf")) if path.is_dir() else [path])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", help="SGF files or directories of them")
    parser.add_argument("--size", type=int, default=19, help="the board size to learn (default 19)")
    parser.add_argument("--min-seen", type=int, default=5, help="keep patterns seen at least this often")
    parser.add_argument("--holdout", type=int, default=0, help="learn without every K-th game and test on those")
    parser.add_argument("-o", "--output", default=str(DEFAULT_TABLE), help="where to write the table")
    args = parser.parse_args(argv)

    learning: list[Game] = []
    held: list[Game] = []
    skipped = 0
    for k, path in enumerate(record_paths(args.sources), start=1):
        try:
            record = read_file(path)
            game = game_from_record(record, strict=False)
        except (MiaiError, OSError) as exc:
            print(f"{path}: left out, {exc}", file=sys.stderr)
            skipped += 1
            continue
        if record.size != args.size or record.handicap:
            skipped += 1
        elif args.holdout and k % args.holdout == 0:
            held.append(game)
        else:
            learning.append(game)
    table, counter = learn(learning, args.min_seen)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    table.save(args.output)
    played = int(counter.played.sum()) // NSIZES  # each move counts once per size
    print(f"{len(learning)} games ({skipped} left out), {counter.positions} positions, {played} moves")
    print(f"{len(table)} patterns seen at least {args.min_seen} times and played: {args.output}")
    if held:
        ranks = np.array(prediction_ranks(table, held))
        print(f"held out {len(held)} games, {ranks.size} moves: the move played was the table's first choice "
              f"{np.mean(ranks <= 1):.1%}, among its first five {np.mean(ranks <= 5):.1%}, median rank {np.median(ranks):g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
