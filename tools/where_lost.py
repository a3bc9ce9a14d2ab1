"""Where were the games lost? A judge engine's win rate along each lost game of a match.

For every game of a ``miai match`` run that the engine named ``--player`` lost, the judge
(any GTP engine that prints its win rate on stderr: Pachi's ``*** WINNER is … with score
0.58`` line, or miai's ``… winrate 0.534``) is asked for a move in every position, replayed
from the empty board, and its win rate for the side to move is read. The player's win rate
before each of its moves and after it (one minus the judge's figure for the opponent to move)
gives the drop that move caused; the moves with the largest drops are where the game was
lost, with the judge's preferred move beside each.

Usage::

    python tools/where_lost.py runs/base15k --player miai \\
        --judge "PACHI -r chinese -t =5000 threads=1,pondering=0" [--threshold 0.15] [--games 2 5] \\
        [--recheck "PACHI -r chinese -t =40000 threads=1,pondering=0"]

Prints, per lost game, each move whose drop passes the threshold: the move number, the move
played, the judge's move, the win rate before and after. A judge cheap enough to read every
move of a 19×19 game is a noisy one (Pachi at 5,000 playouts: its figure moves by up to 0.1
between one position and the next), so ``--recheck "COMMAND"`` asks a second, stronger judge
about the two positions around each drop found and shows its reading beside the first; a
drop the second judge does not confirm is marked ``not confirmed``. A research tool: it
reads records and runs engines, and changes nothing.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from miai.coords import Color, Move
from miai.gtp.controller import GtpController
from miai.match.results import load_results
from miai.match.winrates import last_winrate
from miai.sgf import load_game


@dataclass(frozen=True)
class Drop:
    """One move of the player that lowered its win rate in the judge's eyes."""

    number: int
    played: str
    judge_move: str
    before: float
    after: float


class Judge:
    """A GTP engine asked for its move and win rate in positions replayed from the start."""

    def __init__(self, command: str, size: int, komi: float):
        self.lines: list[str] = []
        self.engine = GtpController(shlex.split(command), timeout=600, log=self._log)
        self.engine.send(f"boardsize {size}")
        self.engine.send(f"komi {komi}")

    def _log(self, kind: str, text: str) -> None:
        if kind == "stderr":
            self.lines.append(text)

    def evaluate(self, moves: list[Move], to_move: Color) -> tuple[str, float | None]:
        """The judge's move and win rate for ``to_move`` after ``moves``; no win rate when the
        judge passes (Pachi then prints a figure of the finished game, 1.0, not a search's) or
        prints none (Pachi with few playouts, sometimes)."""
        self.engine.send("clear_board")
        for move in moves:
            self.engine.send(f"play {move.color.name[0]} {move.gtp()}")
        self.lines.clear()
        answer = self.engine.send(f"genmove {to_move.name[0]}").strip()
        if answer.lower() == "pass":
            return answer, None
        return answer, last_winrate(self.lines)  # None: the judge printed no win rate

    def close(self) -> None:
        self.engine.close()


def reading(judge: Judge, moves: list[Move], i: int) -> tuple[str, float | None, float | None]:
    """The judge's move before the ``i``-th move (0-based) of ``moves``, and the win rate of
    that move's player before it and after it (None where the judge gave no figure)."""
    player = moves[i].color
    judge_move, before = judge.evaluate(moves[:i], player)
    _, theirs = judge.evaluate(moves[: i + 1], Color(3 - int(player)))
    return judge_move, before, None if theirs is None else 1.0 - theirs


def shown(before: float | None, after: float | None) -> str:
    """``0.47 -> 0.25``, with `` ? `` for a figure the judge did not give."""
    return " -> ".join(" ?  " if r is None else f"{r:.2f}" for r in (before, after))


def drops(judge: Judge, moves: list[Move], player: Color, threshold: float) -> list[Drop]:
    """The player's moves whose drop in win rate is at least ``threshold``."""
    found = []
    for i, move in enumerate(moves):
        if move.color != player:
            continue
        judge_move, before, after = reading(judge, moves, i)
        print(f"  {i + 1:3d} {move.gtp():>4} judge {judge_move:>4} {shown(before, after)}", file=sys.stderr)
        if before is not None and after is not None and before - after >= threshold:
            found.append(Drop(i + 1, move.gtp(), judge_move, before, after))
    return found


def recheck(judge: Judge, moves: list[Move], drop: Drop, threshold: float) -> str:
    """A second judge's reading of ``drop``: its move, win rates before and after, and
    whether it confirms a drop of at least ``threshold``."""
    judge_move, before, after = reading(judge, moves, drop.number - 1)
    confirmed = before is not None and after is not None and before - after >= threshold
    return f"recheck (judge: {judge_move:>4})  {shown(before, after)}{'' if confirmed else '  not confirmed'}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a miai match output directory")
    parser.add_argument("--player", required=True, help="the engine whose lost games are read (its label)")
    parser.add_argument("--judge", required=True, help="the judge engine's command line")
    parser.add_argument("--threshold", type=float, default=0.15, help="smallest drop shown (default 0.15)")
    parser.add_argument("--games", type=int, nargs="*", help="only these game numbers (1-based)")
    parser.add_argument("--recheck", help="a stronger judge's command line, asked about each drop found")
    args = parser.parse_args(argv)
    for result in load_results(args.run / "results.jsonl"):
        number = result.index + 1
        if args.games and number not in args.games:
            continue
        colour = Color.BLACK if result.black == args.player else Color.WHITE
        if result.result.winner in (None, colour):
            continue
        game, _ = load_game(str(args.run / f"game-{number:03d}.sgf"))
        moves = list(game.moves)
        judge = Judge(args.judge, game.size, game.komi)
        try:
            print(f"game {number}: {args.player} {colour.name.lower()}, {result.result}")
            found = drops(judge, moves, colour, args.threshold)
        finally:
            judge.close()
        second = Judge(args.recheck, game.size, game.komi) if args.recheck and found else None
        try:
            for d in found:
                line = f"  move {d.number:3d}: {d.played:>4} (judge: {d.judge_move:>4})  {d.before:.2f} -> {d.after:.2f}"
                if second is not None:
                    line += "; " + recheck(second, moves, d, args.threshold)
                print(line, flush=True)
        finally:
            if second is not None:
                second.close()


if __name__ == "__main__":
    main()
