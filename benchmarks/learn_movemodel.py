"""Fit the move predictor (:mod:`miai.ai.movemodel`) to game records.

Usage::

    python benchmarks/learn_movemodel.py SOURCE... [--games N] [--holdout K] [--iterations 30]
        [--jobs J] [--table FILE] [-o FILE]

The sources are read as by ``benchmarks/learn_patterns.py`` (:mod:`miai.sgf.corpus`: SGF
files, ``miai match`` runs, Tygem's move files); 19×19 even games only. The spatial group's
levels come from the table of learned patterns (``--table``, default the one the engine
ships): fit the predictor on games that table was *not* learned from, or the chance of
every pattern played is too high. The features of every possible move are read by ``--jobs``
processes; the fit runs ``--iterations`` sweeps of minorization-maximization and prints the
mean log-likelihood of the moves played after each. The predictor is written to ``FILE``
(default: the one the engine ships, ``src/miai/ai/data/movemodel19.npz``). With
``--holdout K``, every K-th game is kept out and both the predictor and the spatial table
alone are tried on it: how often the move played was the first choice, among the first
five, and its median rank.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

from miai._kernel import movefeatures as F
from miai.ai import patterns
from miai.ai.movemodel import DEFAULT_MODEL, TrainingSet, fit, prediction_ranks, training_set
from miai.game import Game
from miai.sgf.corpus import read_games

_GAMES: list[Game] = []
"""The games the reading processes share (set before they fork)."""
_TABLE: list[patterns.PatternTable] = []


def _read(bounds: tuple[int, int]) -> TrainingSet:
    return training_set(_GAMES[bounds[0] : bounds[1]], _TABLE[0])


def _summary(ranks: list[float]) -> str:
    r = np.array(ranks)
    return f"first choice {np.mean(r <= 1):.1%}, among the first five {np.mean(r <= 5):.1%}, median rank {np.median(r):g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", help="SGF files, directories of them, or Tygem move files")
    parser.add_argument("--games", type=int, default=0, help="read at most this many games (0: all)")
    parser.add_argument("--holdout", type=int, default=0, help="fit without every K-th game and test on those")
    parser.add_argument("--iterations", type=int, default=30, help="sweeps of the fit")
    parser.add_argument("--jobs", type=int, default=1, help="processes reading the games")
    parser.add_argument("--table", default=str(patterns.DEFAULT_TABLE), help="the learned spatial patterns")
    parser.add_argument("-o", "--output", default=str(DEFAULT_MODEL), help="where to write the predictor")
    args = parser.parse_args(argv)

    clock = time.perf_counter()
    corpus = read_games(args.sources, 19, args.games, args.holdout)
    _GAMES[:] = corpus.games
    _TABLE[:] = [patterns.PatternTable.load(args.table)]
    jobs = max(1, min(args.jobs, len(_GAMES)))
    edges = np.linspace(0, len(_GAMES), jobs + 1).astype(int)
    chunks = [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]
    if jobs == 1:
        ts = _read(chunks[0])
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            ts = TrainingSet.concatenate(pool.map(_read, chunks))
    print(f"{len(_GAMES)} games ({corpus.skipped} left out), {ts.positions} positions, "
          f"{ts.levels.shape[0]} possible moves ({time.perf_counter() - clock:.0f} s)")

    def progress(iteration: int, likelihood: float) -> None:
        print(f"sweep {iteration}: mean log-likelihood {likelihood:.4f} ({time.perf_counter() - clock:.0f} s)",
              file=sys.stderr)

    model = fit(ts, args.iterations, progress)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.output)
    print(f"fitted in {args.iterations} sweeps: {args.output}")
    for g, name in enumerate(("spatial", "3x3", "capture", "extend", "atari", "self-atari",
                              "distance to the last move", "distance to the move before", "line")):
        if g != F.F_PAT3:
            print(f"  {name}: " + " ".join(f"{x:.2f}" for x in np.exp(model.group(g))))
    if corpus.held:
        print(f"held out {len(corpus.held)} games: the predictor's {_summary(prediction_ranks(model, _TABLE[0], corpus.held))}")
        print(f"  the spatial table's alone: {_summary(patterns.prediction_ranks(_TABLE[0], corpus.held))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
