"""How often does each move predictor name the move a strong player chose? miai's beside Pachi's.

miai's move predictor (:mod:`miai.ai.movemodel`, the tree's ``prior_mm``) and Pachi's pattern
predictor (its mm patterns, the tree's pattern prior) each rank the moves of a position; this
asks both for their first choice in every position of the same records and counts how often
it is the move played. Pachi is asked through GTP: the game's moves with ``play``, and before
each move on the board ``gogui-pattern_best``, whose ``VAR`` names its first choice and whose
``LABEL``\\ s its next eight. The records should be games neither predictor learnt from (for
miai's, not the month ``miai train movemodel`` fitted). Usage::

    python tools/predictor_vs_pachi.py 2015-05 --games 30 --every 10 \\
        --engine "PACHI12 threads=1,pondering=0"

A research tool: it reads records and runs Pachi, and changes nothing. Pachi is not part of
miai.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys

from move_quality import mean_interval

from miai.ai import movemodel, patterns
from miai.coords import Color, Move, point_to_gtp
from miai.game import Game
from miai.gtp.controller import GtpController
from miai.train.corpus import read_games

TOP = 5  # the "among its first five" figure
UNASKED = 0  # the rank of a move Pachi was not asked about


def pachi_ranks(engine: GtpController, game: Game) -> list[int | None]:
    """For each move on the board of ``game``, its rank among Pachi's pattern predictor's first
    nine choices (1: the first), None when not among them, :data:`UNASKED` when the colour that
    moved is not the one Pachi expects (a record with two moves of one colour in a row)."""
    engine.send(f"boardsize {game.size}")
    engine.send("clear_board")
    ranks: list[int | None] = []
    expected = Color.BLACK
    for entry in game.history:
        if not isinstance(entry, Move):
            raise ValueError("a record with set-up stones: only games from the empty board are compared")
        colour = "b" if entry.color is Color.BLACK else "w"
        if entry.point is not None:
            vertex = point_to_gtp(entry.point)
            ranks.append(_rank(engine.send("gogui-pattern_best"), vertex) if entry.color is expected else UNASKED)
        engine.send(f"play {colour} {point_to_gtp(entry.point) if entry.point is not None else 'pass'}")
        expected = entry.color.opponent
    return ranks


def _rank(answer: str, vertex: str) -> int | None:
    """The rank ``gogui-pattern_best``'s answer gives ``vertex``: 1 for the ``VAR`` move, the
    label for a ``LABEL`` line, None if it is not named."""
    for line in answer.splitlines():
        words = line.split()
        if words[:1] == ["VAR"] and words[-1].upper() == vertex:
            return 1
        if words[:1] == ["LABEL"] and words[1].upper() == vertex:
            return int(words[2])
    return None


def compare(games: list[Game], command: str) -> str:
    """Both predictors' first-choice rates over the games' positions that Pachi was asked
    about, their paired difference with its 95% interval, and each one's first-five rate."""
    model, table = movemodel.default_model(), patterns.default_table()
    if model is None:
        raise SystemExit("miai's move predictor is not installed (ai/data/movemodel19.npz)")
    asked: list[tuple[float, int | None]] = []
    with GtpController(shlex.split(command), timeout=600) as engine:
        for game in games:
            ours = movemodel.prediction_ranks(model, table, [game])
            theirs = pachi_ranks(engine, game)
            assert len(ours) == len(theirs), "both predictors see the same moves on the board"
            asked += [(m, p) for m, p in zip(ours, theirs) if p != UNASKED]
    ours_first = [float(m <= 1) for m, _ in asked]
    theirs_first = [float(p == 1) for _, p in asked]
    return "\n".join([
        f"{len(games)} games, {len(asked)} positions",
        f"  miai's predictor: first choice {statistics.fmean(ours_first):.1%}, "
        f"among its first {TOP} {statistics.fmean(float(m <= TOP) for m, _ in asked):.1%}",
        f"  Pachi's patterns: first choice {statistics.fmean(theirs_first):.1%}, "
        f"among its first {TOP} {statistics.fmean(float(p is not None and p <= TOP) for _, p in asked):.1%}",
        f"  first choice, miai's less Pachi's: {difference(ours_first, theirs_first)}",
    ])


def difference(ours: list[float], theirs: list[float]) -> str:
    """The mean paired difference of two hit rates in percentage points, with its normal 95% interval."""
    mean, low, high = mean_interval([100 * (a - b) for a, b in zip(ours, theirs)])
    return f"{mean:+.1f} points of a hundred ({low:+.1f} to {high:+.1f})"


def from_the_empty_board(game: Game) -> bool:
    """Whether the record is moves only, as :func:`pachi_ranks` can replay it."""
    return all(isinstance(entry, Move) for entry in game.history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+", help="SGF files, folders or collections")
    parser.add_argument("--engine", required=True, help="the command that starts Pachi")
    parser.add_argument("--games", type=int, default=30, help="how many games (30)")
    parser.add_argument("--every", type=int, default=1, help="take every K-th even 19×19 game read (1)")
    args = parser.parse_args()
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be at least 1")
    corpus = read_games(args.sources, 19, args.games * args.every)
    taken = corpus.games[:: args.every][: args.games]
    games = [game for game in taken if from_the_empty_board(game)]
    if len(games) < len(taken):
        print(f"{len(taken) - len(games)} records with set-up stones left out: Pachi is given moves only",
              file=sys.stderr)  # fmt: skip
    if not games:
        parser.error("no even 19×19 game from the empty board in the sources")
    print(compare(games, args.engine))


if __name__ == "__main__":
    sys.exit(main())
