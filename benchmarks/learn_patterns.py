"""Learn the spatial patterns' table (:mod:`miai.ai.patterns`) from game records.

Usage::

    python benchmarks/learn_patterns.py SOURCE... [--size 19] [--min-seen 5] [--min-played 1]
        [--games N] [--holdout K] [--jobs J] [-o FILE]

Each SOURCE is an SGF file, a directory of them (a ``miai match`` run: ``game-*.sgf``), or a
file of moves one game a line as Tygem's archive writes them (``ID<tab>;B[pd];W[dp]...``,
19×19 even games: the 9-dan games of ``yenw/computer-go-dataset``, ``TYGEM/Kifu``).
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
import re
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np

from miai.ai.patterns import DEFAULT_TABLE, count_played, count_seen, prediction_ranks, table_of
from miai.errors import MiaiError
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import SgfRecord, read_file, read_record

TYGEM_LINE = re.compile(r"^(\w+)\t(;[BW]\[[a-s]{0,2}\].*)$")
"""A game of Tygem's archive: its id, a tab, then its moves as SGF nodes."""


def records(sources: list[str]) -> Iterator[tuple[str, SgfRecord | MiaiError | OSError]]:
    """Each game of the sources, in order, named, as a record or the error reading it."""
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for sgf in sorted(path.glob("*.sgf")):
                yield from _one(str(sgf), partial(read_file, sgf))
        elif path.suffix.lower() == ".sgf":
            yield from _one(source, partial(read_file, path))
        else:
            with open(path, encoding="utf-8", errors="replace") as lines:
                for number, line in enumerate(lines, start=1):
                    found = TYGEM_LINE.match(line.strip())
                    text = f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]{found.group(2)})" if found else ""
                    yield from _one(f"{source}:{number}", partial(read_record, text))


def _one(name: str, read: Callable[[], SgfRecord]) -> Iterator[tuple[str, SgfRecord | MiaiError | OSError]]:
    try:
        yield name, read()
    except (MiaiError, OSError) as exc:
        yield name, exc


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
    _GAMES.clear()
    held: list[Game] = []
    skipped = k = 0
    for name, record in records(args.sources):
        if args.games and k >= args.games:
            break
        k += 1
        if isinstance(record, Exception):
            print(f"{name}: left out, {record}", file=sys.stderr)
            skipped += 1
            continue
        if record.size != args.size or record.handicap:
            skipped += 1
            continue
        game = game_from_record(record, strict=False)
        (held if args.holdout and k % args.holdout == 0 else _GAMES).append(game)
    print(f"read {k} games in {time.perf_counter() - clock:.0f} s", file=sys.stderr)

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
