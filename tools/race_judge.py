"""How often does miai's reader of capturing races agree with GNU Go's semeai reading?

:mod:`miai._kernel.semeai` reads a race by playing it out by a player's count. This puts its
readings beside GNU Go's ``analyze_semeai`` on every race it finds in game records: for
each race (the first position where the reader finds that pair of chains) it asks who wins
with Black moving first and with White moving first, and asks GNU Go the same about the
two dragons. The answers are tallied by the reader's kind of race (``decided``: the same
winner whoever starts; ``urgent``: the side that moves first wins; ``undecided``) and by
the size of the smaller chain.

The two do not ask quite the same question: the reader asks which chain captures the other,
GNU Go whether each dragon (a chain with the stones it is connected to by shape) lives. A
disagreement is a position to read on the board, not a verdict on either; GNU Go is also
wrong at times (its ko and seki readings most of all).

Usage::

    python tools/race_judge.py "runs/racep-3k-1/*.sgf" [--min-chain 8] [--show]

``--show`` prints each disagreement on a race the reader calls decided or urgent. A
research tool: it reads records and runs GNU Go, and changes nothing.
"""

from __future__ import annotations

import argparse
import glob
from collections import Counter
from dataclasses import dataclass

import numpy as np

from miai._kernel import semeai
from miai._kernel.board import SIZE
from miai.coords import Color, point_to_gtp
from miai.game import Game
from miai.gtp.controller import GtpController
from miai.sgf import load_game

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"]
KO = -1
"""A winner that GNU Go says depends on a ko."""


@dataclass(frozen=True)
class Race:
    """One race the reader found: where, the two chains, and its two readings."""

    record: str
    moves: int
    """The race is in the position after this many moves."""
    black: str
    white: str
    black_stones: int
    white_stones: int
    reader: tuple[int, int]
    """The reader's winner (1 Black, 2 White, 0 undecided) with Black first, with White first."""

    @property
    def kind(self) -> str:
        if 0 in self.reader:
            return "undecided"
        return "decided" if self.reader[0] == self.reader[1] else "urgent"

    @property
    def size_class(self) -> str:
        smaller = min(self.black_stones, self.white_stones)
        return "2-3" if smaller <= 3 else "4-7" if smaller <= 7 else "8+"


def races_in(path: str, min_chain: int) -> list[Race]:
    """The races the reader finds in a record, each pair of chains once (where first seen)."""
    record, _ = load_game(path)
    game = Game(size=record.size, rules=record.rules)
    found = np.zeros((semeai.MAX_RACES, 2), np.int32)
    libs = np.empty(semeai.LIB_ROOM, np.int32)
    seen: set[tuple[int, int]] = set()
    races = []
    for n, move in enumerate(record.moves, start=1):
        game.play(move)
        board = game.board
        grid, meta = board.grid.copy(), board.meta.copy()
        k = semeai.find_races(grid, meta, found, libs, min_chain)
        scratch = semeai.new_race_scratch(grid, meta) if k else ()
        for i in range(k):
            a, b = (int(x) for x in found[i])
            if (a, b) in seen:
                continue
            seen.add((a, b))
            black_first, white_first = (
                int(semeai.race_winner(grid, meta, a, b, first, *scratch)[0])
                for first in (int(Color.BLACK), int(Color.WHITE))
            )
            races.append(Race(
                path, n, point_to_gtp(board.point(a)), point_to_gtp(board.point(b)),
                int(grid[SIZE, a]), int(grid[SIZE, b]), (black_first, white_first),
            ))
    return races


def gnugo_winner(answer: str, first: int) -> int:
    """The winner in GNU Go's ``analyze_semeai`` answer (the first mover's dragon's survival,
    then its killing the other; 1 succeeds, 0 fails, 2 and 3 by ko) when ``first`` moves first."""
    survives, kills = answer.split()[:2]
    if kills == "1":
        return first
    if survives == "0":
        return 3 - first
    if {survives, kills} & {"2", "3"}:
        return KO
    return 0


def judge(races: list[Race], gnugo: GtpController) -> list[tuple[tuple[int, int], tuple[str, str]]]:
    """GNU Go's winners for each race, Black first and White first, and its first move for
    each (the third word of its answer; "" when it names none)."""
    readings = []
    for race in races:
        gnugo.send(f"loadsgf {race.record} {race.moves + 1}")
        answers = [gnugo.send(f"analyze_semeai {a} {b}") for a, b in ((race.black, race.white), (race.white, race.black))]
        winners = gnugo_winner(answers[0], int(Color.BLACK)), gnugo_winner(answers[1], int(Color.WHITE))
        moves = tuple((a.split()[2:3] or [""])[0] for a in answers)
        readings.append((winners, (moves[0], moves[1])))
    return readings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help="SGF files or glob patterns")
    parser.add_argument("--min-chain", type=int, default=semeai.MIN_CHAIN, help="smaller chain's stones at least")
    parser.add_argument("--show", action="store_true", help="print the disagreements on decided and urgent races")
    args = parser.parse_args()
    tally: Counter[tuple[str, str, str]] = Counter()
    with GtpController(GNUGO, timeout=600) as gnugo:
        for pattern in args.records:
            for path in sorted(glob.glob(pattern)) or [pattern]:
                races = races_in(path, args.min_chain)
                for race, (theirs, moves) in zip(races, judge(races, gnugo)):
                    verdict = "agree" if race.reader == theirs else "gnugo ko" if KO in theirs else "differ"
                    tally[(race.kind, race.size_class, verdict)] += 1
                    if args.show and verdict == "differ" and race.kind != "undecided":
                        print(f"{race.record} after {race.moves}: {race.black} ({race.black_stones}) against "
                              f"{race.white} ({race.white_stones}), {race.kind}: miai {race.reader}, GNU Go {theirs} "
                              f"(Black first {moves[0] or '-'}, White first {moves[1] or '-'})")
    print(f"{'kind':<10} {'smaller':<8} {'agree':>6} {'differ':>7} {'gnugo ko':>9}")
    for kind in ("decided", "urgent", "undecided"):
        for size in ("2-3", "4-7", "8+"):
            counts = [tally[(kind, size, v)] for v in ("agree", "differ", "gnugo ko")]
            if any(counts):
                print(f"{kind:<10} {size:<8} {counts[0]:>6} {counts[1]:>7} {counts[2]:>9}")


if __name__ == "__main__":
    main()
