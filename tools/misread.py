"""Which groups does miai misjudge? Its search's ownership beside a judge's dead stones.

A lost game's win rates say *when* miai's view of the game went wrong (``where_lost.py``);
this says *what* it got wrong. At chosen moves of a recorded game, miai's search (the default
configuration unless ``--set`` says otherwise, a fixed number of playouts, so the machine's
load does not matter) gives each
point's mean owner over its playouts, and the judge (any GTP engine with
``final_status_list dead``: Pachi, GNU Go) names the dead stones. A chain of at least
``--min-stones`` on which the two disagree is printed: the judge calls it dead and miai's
playouts give its points to its owner, or the judge leaves it alive and miai's give them to
the opponent. miai's figure is the chain's mean ownership from its owner's side: +1 where
every playout kept it, -1 where every playout lost it, near 0 a coin flip. The judge's dead
stones are its own estimate (Pachi's, asked without a search, comes from its own quick
playouts and can be wrong): one disagreement is a position to read on the board, not a
verdict.

Usage::

    python tools/misread.py runs/p19mm-1/game-007.sgf --at 219 258 260 \\
        --judge "PACHI -r chinese -t =20000 threads=1,pondering=0" [--playouts 40000]
    python tools/misread.py GAME.sgf --every 20 --judge "gnugo --mode gtp --chinese-rules"

``--at N`` reads the position after N moves; ``--set KNOB=VALUE`` (as ``miai gtp``'s) reads
it with another search configuration, to see whether a knob changes a misreading. A
research tool: it reads a record and runs engines, and changes nothing.
"""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from miai.ai.config import MctsConfig
from miai.ai.mcts import MctsPlayer
from miai.board import Board, Chain
from miai.coords import Color, Move, Point, point_from_gtp, point_to_gtp
from miai.game import Setup
from miai.gtp.controller import GtpController
from miai.sgf import load_game


@dataclass(frozen=True)
class Misread:
    """One chain whose fate miai's playouts and the judge see differently."""

    chain: Chain
    judge_dead: bool
    ownership: float
    """miai's mean ownership of the chain's points, from its owner's side (-1 to +1)."""

    def line(self) -> str:
        first = min(self.chain.stones, key=lambda p: (-p[0], p[1]))
        judge = "dead" if self.judge_dead else "alive"
        return (
            f"{self.chain.color.name.lower()} {point_to_gtp(first):>4} ({len(self.chain.stones)} stones):"
            f" judge {judge}, miai {self.ownership:+.2f}"
        )


def chain_ownership(chain: Chain, ownership: np.ndarray) -> float:
    """The chain's mean ownership (``ownership`` is Black's: +1 Black, -1 White) from its
    owner's side."""
    mean = float(np.mean([ownership[p] for p in chain.stones]))
    return mean if chain.color == Color.BLACK else -mean


def misreads(
    board: Board, ownership: np.ndarray, judge_dead: set[Point], min_stones: int, margin: float
) -> list[Misread]:
    """The chains of at least ``min_stones`` on which the judge and the ownership disagree by
    more than ``margin``: dead for the judge but kept (above ``margin``) in the playouts, or
    alive for the judge but lost (below ``-margin``); the largest first."""
    found = []
    for chain in board.chains():
        if len(chain.stones) < min_stones:
            continue
        dead = bool(chain.stones & judge_dead)
        own = chain_ownership(chain, ownership)
        if (dead and own > margin) or (not dead and own < -margin):
            found.append(Misread(chain, dead, own))
    return sorted(found, key=lambda m: -len(m.chain.stones))


def parse_dead(answer: str, size: int) -> set[Point]:
    """The points of a ``final_status_list dead`` answer (vertices, one chain a line)."""
    points = (point_from_gtp(v, size) for v in answer.split())
    return {p for p in points if p is not None}


class Judge:
    """A GTP engine asked for the dead stones of positions replayed from the empty board."""

    def __init__(self, command: str, size: int, komi: float):
        self.size = size
        self.engine = GtpController(shlex.split(command), timeout=600)
        self.engine.send(f"boardsize {size}")
        self.engine.send(f"komi {komi}")

    def dead(self, moves: Iterable[Move]) -> set[Point]:
        self.engine.send("clear_board")
        for move in moves:
            self.engine.send(f"play {move.color.name[0]} {move.gtp()}")
        return parse_dead(self.engine.send("final_status_list dead"), self.size)

    def close(self) -> None:
        self.engine.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sgf", type=Path, help="a game record")
    parser.add_argument("--judge", required=True, help="the judge engine's command line")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--at", type=int, nargs="+", help="read the positions after these many moves")
    where.add_argument("--every", type=int, help="read every this many moves")
    parser.add_argument("--playouts", type=int, default=20_000, help="miai's playouts a position (default 20,000)")
    parser.add_argument("--min-stones", type=int, default=5, help="smallest chain shown (default 5)")
    parser.add_argument("--margin", type=float, default=0.0, help="how far past a coin flip miai must be (default 0)")
    parser.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, as miai gtp's")
    args = parser.parse_args(argv)
    try:
        config = MctsConfig(**MctsConfig.parse_settings(args.set))
    except ValueError as exc:
        parser.error(f"--set {exc}")
    record, _ = load_game(str(args.sgf))
    if record.handicap or any(isinstance(entry, Setup) for entry in record.history):
        parser.error(f"{args.sgf}: only even games without set-up stones are read (the judge replays the moves from the empty board)")
    moves = list(record.moves)
    if args.every is not None and args.every < 1:
        parser.error(f"--every {args.every}: must be at least 1")
    numbers = args.at or list(range(args.every, len(moves) + 1, args.every))
    outside = [n for n in numbers if not 0 <= n <= len(moves)]
    if outside:
        parser.error(f"--at {outside[0]}: the game has {len(moves)} moves (0 to {len(moves)})")
    judge = Judge(args.judge, record.size, record.komi)
    try:
        for n in numbers:
            game = record.after(n)
            result = MctsPlayer(config).search(game, playouts=args.playouts, seconds=1e9)
            best = result.best
            rate = f"{best.winrate:.2f}" if best is not None else "?"
            print(f"after move {n} ({game.to_move.name.lower()} to move; miai's best {point_to_gtp(best.point if best else None)}, {rate}):")
            found = misreads(game.board, result.ownership, judge.dead(moves[:n]), args.min_stones, args.margin)
            for m in found:
                print("  " + m.line())
            if not found:
                print("  no disagreement")
    finally:
        judge.close()


if __name__ == "__main__":
    main()
