"""Where were the games decided? Both engines' own win rates, as the referee recorded them.

``miai match`` keeps each engine's figure for every move it played (``results.jsonl``,
``winrates``). For every game the engine named ``--player`` lost, this reads them, runs no
engine, and says:

- from which move the opponent was sure for good: its figure above ``--sure`` (0.65) at
  that move and at every later one;
- the player's own figure at its last move before then: below 0.5 it saw the loss coming;
  at 0.5 or more it misread the position (marked ``unseen``);
- the player's move after which the opponent's figure rose the most, and by how much;
- a ``collapse`` when the player's figure was above ``--sure`` after the opponent was sure.

The summary counts the games decided in each stretch of ten moves, and how many the player
saw, misread or collapsed in. The opponent's figure is only its own view, so a figure is a
lead to look at, not a verdict: ``where_lost.py`` asks a judge engine.

Usage::

    python tools/turning_points.py runs/p12-fast-a runs/p12-fast-b --player miai [--sure 0.65]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from miai.match.results import GameResult, load_results


@dataclass(frozen=True)
class Rise:
    """The largest step up of the opponent's figure between two of its moves: the player's
    move between them, the opponent's figure before and after, and the player's own figure
    for that move (None where it wrote none)."""

    move: int
    before: float
    after: float
    player: float | None


@dataclass(frozen=True)
class Turn:
    """How one lost game turned: the move from which the opponent was sure (None: never for
    good), the player's figure then, its largest rise, and the player's best figure after."""

    game: int
    result: str
    sure_from: int | None
    player_then: float | None
    rise: Rise | None
    player_best_after: float | None

    @property
    def unseen(self) -> bool:
        """The player still gave itself 0.5 or more when the opponent became sure."""
        then = self.player_then
        return self.sure_from is not None and then is not None and then >= 0.5

    def collapsed(self, sure: float) -> bool:
        """The player gave itself more than ``sure`` after the opponent became sure."""
        best = self.player_best_after
        return self.sure_from is not None and best is not None and best > sure


def figure(rate: float | None) -> str:
    """``0.47``, or `` ?`` for a figure not written."""
    return " ?" if rate is None else f"{rate:.2f}"


def sure_from(figures: list[list[float]], sure: float) -> int | None:
    """The first move number from which every figure is above ``sure`` (None if the last one
    is not)."""
    start = None
    for number, rate in figures:
        if rate > sure:
            start = int(number) if start is None else start
        else:
            start = None
    return start


def largest_rise(opponent: list[list[float]], player: dict[int, float]) -> Rise | None:
    """The step between two consecutive opponent figures that rises most, named by the
    player's move just before the later one (None with fewer than two figures)."""
    steps = [
        Rise(int(b[0]) - 1, a[1], b[1], player.get(int(b[0]) - 1))
        for a, b in zip(opponent, opponent[1:])
    ]
    return max(steps, key=lambda r: r.after - r.before, default=None)


def turn(result: GameResult, player: str, sure: float) -> Turn:
    """How the game ``result`` turned against ``player``."""
    opponent = result.white if result.black == player else result.black
    theirs = result.winrates.get(opponent, [])
    mine = {int(n): r for n, r in result.winrates.get(player, [])}
    start = sure_from(theirs, sure)
    before = [n for n in mine if start is not None and n < start]
    after = [mine[n] for n in mine if start is not None and n > start]
    return Turn(
        game=result.index + 1,
        result=str(result.result),
        sure_from=start,
        player_then=mine[max(before)] if before else None,
        rise=largest_rise(theirs, mine),
        player_best_after=max(after, default=None),
    )


def lost(result: GameResult, player: str) -> bool:
    """Whether ``player`` took part in the game and lost it (a void has no loser)."""
    return player in (result.black, result.white) and result.winner not in (None, player)


def line(t: Turn, sure: float) -> str:
    """One game's turn in words."""
    head = f"game {t.game:3d} {t.result:>8}: "
    if t.sure_from is None:
        head += "the opponent was never sure for good"
    else:
        head += f"sure from move {t.sure_from:3d}, the player's figure then {figure(t.player_then)}"
        head += ("  unseen" if t.unseen else "") + ("  collapse" if t.collapsed(sure) else "")
    if t.rise is not None:
        r = t.rise
        head += f"; largest rise after move {r.move}: {r.before:.2f} -> {r.after:.2f}"
        head += f" (player {figure(r.player)})"
    return head


def summary(turns: list[Turn], sure: float) -> list[str]:
    """The counts over all lost games: by stretch of ten moves, seen or not, collapses."""
    starts = [t.sure_from for t in turns if t.sure_from is not None]
    out = [f"{len(turns)} games lost; the opponent sure for good in {len(starts)}"]
    if starts:
        stretches = Counter(n // 10 * 10 for n in starts)
        unseen = sum(t.unseen for t in turns)
        out.append(f"from move {statistics.median(starts):g} (median); by stretch of moves: "
                   + ", ".join(f"{k}-{k + 9}: {v}" for k, v in sorted(stretches.items())))
        out.append(f"the player's figure then: below 0.5 in {len(starts) - unseen}, "
                   f"0.5 or more (unseen) in {unseen}")
        collapses = sum(t.collapsed(sure) for t in turns)
        out.append(f"collapses (the player above {sure:g} after that): {collapses}")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=Path, nargs="+", help="miai match output directories")
    parser.add_argument("--player", required=True,
                        help="the engine whose lost games are read (its label)")
    parser.add_argument("--sure", type=float, default=0.65,
                        help="the opponent's figure that counts as sure (default 0.65)")
    args = parser.parse_args(argv)
    turns = []
    for run in args.runs:
        print(f"{run}:")
        for result in load_results(run / "results.jsonl"):
            if lost(result, args.player):
                turns.append(turn(result, args.player, args.sure))
                print("  " + line(turns[-1], args.sure))
    for text in summary(turns, args.sure):
        print(text)


if __name__ == "__main__":
    main()
