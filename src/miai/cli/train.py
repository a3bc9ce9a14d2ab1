"""``miai train``: the engine's data files learnt from game records.

``miai train patterns`` learns the spatial patterns' table (:mod:`miai.ai.patterns`),
``miai train movemodel`` fits the move predictor (:mod:`miai.ai.movemodel`); by default each
writes the file the engine ships (``ai/data/patterns19.npz``, ``ai/data/movemodel19.npz``).
The sources of both are read by :mod:`miai.train.corpus`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

PATTERNS = """Learn the spatial patterns' table (miai.ai.patterns) from game records.

Each SOURCE is an SGF file, a directory of them (a `miai match` run: game-*.sgf), or a file of
moves one game a line as Tygem's archive writes them (ID<tab>;B[pd];W[dp]..., 19×19 even games:
the 9-dan games of yenw/computer-go-dataset, TYGEM/Kifu); see miai.train.corpus. Records of
another board size, with a handicap, or that do not read are left out (counted; those that do
not read are named). --games N stops after N games read.

The table is written to FILE (default: the one the engine ships, ai/data/patterns19.npz); a
summary goes to standard output: games, positions and moves counted, patterns kept. A pattern is
kept when it was played at least --min-played times and seen at least --min-seen times. The
second reading (the seen) is split between --jobs processes. With --holdout K, every K-th game
is kept out of the learning and the table is tried on it: how often the move played was the
table's first choice, among its first five, and its median rank.
"""

MOVEMODEL = """Fit the move predictor (miai.ai.movemodel) to game records.

The sources are read as by `miai train patterns` (miai.train.corpus: SGF files, `miai match`
runs, Tygem's move files); 19×19 even games only. The spatial group's levels come from the table
of learned patterns (--table, default the one the engine ships): fit the predictor on games that
table was *not* learned from, or the chance of every pattern played is too high. The features of
every possible move are read by --jobs processes; the fit runs --iterations sweeps of
minorization-maximization and prints the mean log-likelihood of the moves played after each. The
predictor is written to FILE (default: the one the engine ships, ai/data/movemodel19.npz). With
--holdout K, every K-th game is kept out and both the predictor and the spatial table alone are
tried on it: how often the move played was the first choice, among the first five, and its
median rank.
"""

GROUPS = ("spatial", "3x3", "capture", "extend", "atari", "self-atari",
          "distance to the last move", "distance to the move before", "line")  # fmt: skip
"""The move predictor's feature groups, in the order of :mod:`miai._kernel.movefeatures`."""


def add_parser(subparsers: Any) -> None:
    """Register ``miai train patterns`` and ``miai train movemodel`` on the ``miai`` command (the
    AI is imported only when one runs: the default files are named then)."""
    p = subparsers.add_parser("train", help="learn the engine's patterns or move predictor from game records")
    sub = p.add_subparsers(dest="train", metavar="WHAT", required=True)

    pa = _learner(sub, "patterns", "the spatial patterns' table", PATTERNS, "table", run_patterns)
    pa.add_argument("--size", type=int, default=19, help="the board size to learn (default 19)")
    pa.add_argument("--min-seen", type=int, default=5, help="keep patterns seen at least this often")
    pa.add_argument("--min-played", type=int, default=1, help="keep patterns played at least this often")
    pa.add_argument("--jobs", type=int, default=1, help="processes for the second reading")

    mm = _learner(sub, "movemodel", "the move predictor", MOVEMODEL, "predictor", run_movemodel)
    mm.add_argument("--iterations", type=int, default=30, help="sweeps of the fit")
    mm.add_argument("--jobs", type=int, default=1, help="processes reading the games")
    mm.add_argument("--table", help="the learned spatial patterns (default: the table the engine ships)")


def _learner(
    sub: Any, name: str, what: str, description: str, noun: str, run: Callable[[argparse.Namespace], int],
) -> argparse.ArgumentParser:
    """The subcommand ``name`` with the arguments every learner takes: its sources, the games
    read, those held out and the file written (a ``noun``)."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=what, description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "sources", nargs="+", metavar="SOURCE",
        help="SGF files, directories holding them (read through their folders), or Tygem move files")
    parser.add_argument("--games", type=int, default=0, help="read at most this many games (0: all)")
    parser.add_argument("--holdout", type=int, default=0, help="learn without every K-th game and test on those")
    parser.add_argument("-o", "--output", help=f"where to write the {noun} (default: the one the engine ships)")
    parser.set_defaults(func=run)
    return parser


def _ranks(ranks: list[float]) -> str:
    r = np.array(ranks)
    return f"first choice {np.mean(r <= 1):.1%}, among the first five {np.mean(r <= 5):.1%}, median rank {np.median(r):g}"


def run_patterns(args: argparse.Namespace) -> int:
    """Learn the table from the sources, write it, and print what was counted and kept."""
    from miai.ai.patterns import DEFAULT_TABLE, count_played, count_seen, prediction_ranks, table_of
    from miai.train.corpus import read_games
    from miai.train.slices import read_in_slices

    output = args.output or str(DEFAULT_TABLE)
    clock = time.perf_counter()
    corpus = read_games(args.sources, args.size, args.games, args.holdout)
    games, held = corpus.games, corpus.held
    print(f"read {corpus.read} games in {time.perf_counter() - clock:.0f} s", file=sys.stderr)

    played = count_played(games, args.min_played)
    print(f"{played.keys.size} patterns played at least {args.min_played} times "
          f"({time.perf_counter() - clock:.0f} s)", file=sys.stderr)  # fmt: skip
    counts = read_in_slices(partial(count_seen, keys=played.keys), games, args.jobs)
    seen = counts[0] if len(counts) == 1 else np.sum(counts, axis=0)
    table, tally = table_of(played, seen, args.min_seen)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    table.save(output)
    moves = played.states.shape[0]  # the positions but those where a player filled its own eye
    print(f"{len(games)} games ({corpus.skipped} left out), {tally.positions} positions, {moves} moves "
          f"({time.perf_counter() - clock:.0f} s)")  # fmt: skip
    print(f"{len(table)} patterns played at least {args.min_played} times and seen at least "
          f"{args.min_seen} times: {output}")  # fmt: skip
    if held:
        ranks = np.array(prediction_ranks(table, held))
        print(f"held out {len(held)} games, {ranks.size} moves: the move played was the table's first choice "
              f"{np.mean(ranks <= 1):.1%}, among its first five {np.mean(ranks <= 5):.1%}, median rank {np.median(ranks):g}")  # fmt: skip
    return 0


def run_movemodel(args: argparse.Namespace) -> int:
    """Fit the predictor to the sources, write it, and print its strengths and the fit's course."""
    from miai._kernel import movefeatures as F
    from miai.ai import movemodel, patterns
    from miai.train.corpus import read_games
    from miai.train.slices import read_in_slices

    output = args.output or str(movemodel.DEFAULT_MODEL)
    clock = time.perf_counter()
    corpus = read_games(args.sources, 19, args.games, args.holdout)
    table = patterns.PatternTable.load(args.table or patterns.DEFAULT_TABLE)
    parts = read_in_slices(partial(movemodel.training_set, table=table), corpus.games, args.jobs)
    ts = parts[0] if len(parts) == 1 else movemodel.TrainingSet.concatenate(parts)
    print(f"{len(corpus.games)} games ({corpus.skipped} left out), {ts.positions} positions, "
          f"{ts.levels.shape[0]} possible moves ({time.perf_counter() - clock:.0f} s)")  # fmt: skip

    def progress(iteration: int, likelihood: float) -> None:
        print(f"sweep {iteration}: mean log-likelihood {likelihood:.4f} ({time.perf_counter() - clock:.0f} s)",
              file=sys.stderr)  # fmt: skip

    model = movemodel.fit(ts, args.iterations, progress)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    model.save(output)
    print(f"fitted in {args.iterations} sweeps: {output}")
    for g, name in enumerate(GROUPS):
        if g != F.F_PAT3:
            print(f"  {name}: " + " ".join(f"{x:.2f}" for x in np.exp(model.group(g))))
    if corpus.held:
        print(f"held out {len(corpus.held)} games: the predictor's {_ranks(movemodel.prediction_ranks(model, table, corpus.held))}")
        print(f"  the spatial table's alone: {_ranks(patterns.prediction_ranks(table, corpus.held))}")
    return 0
