"""The head start a search leaves the next one, with and without ``settled_search``.

Each position of a record (every ``--every``-th from ``--first`` to ``--last``) is searched
with a playout budget, once returning when the move is settled and once spending the rest
below it (``settled_search``, as GTP's ``genmove`` does without a clock). For each it gives the
playouts made, the visits below the chosen move and what the next search can expect to keep:
the replies' visits, each weighted by the search's own odds for that reply. Usage::

    python tools/head_start.py benchmarks/records/pachi12-19x19-10s/pd-a2/game-002.sgf \\
        benchmarks/records/pachi12-19x19-10s/pd-b2/game-001.sgf --playouts 20000

A research tool: it reads the records and changes nothing.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from miai.ai.config import MctsConfig
from miai.ai.mcts import MctsPlayer
from miai.game import Game
from miai.sgf import load_game


@dataclass(frozen=True)
class HeadStart:
    """One search's playouts, the visits below its move and the replies' expected visits."""

    playouts: int
    below: int
    kept: float


def search_once(game: Game, playouts: int, settled: bool, seed: int) -> HeadStart:
    """Search ``game`` with ``playouts`` as a fixed budget, spending its rest below the move
    or not, and measure what the subtree of the chosen move holds."""
    player = MctsPlayer(MctsConfig(max_seconds=None, playouts=playouts, seed=seed, settled_search=settled))
    result = player.search(game, spend_rest=True)
    assert result.best is not None
    replies = player.candidates(game, below=[result.best.point], pv_length=0)
    below = sum(r.visits for r in replies)
    kept = sum(r.visits**2 for r in replies) / below if below else 0.0
    return HeadStart(result.playouts, below, kept)


def positions(path: str, first: int, last: int, every: int) -> list[Game]:
    """The record's positions after ``first``, ``first + every``, ... moves (to ``last``),
    taken back from the whole game so that handicap and set-up stones stay."""
    whole, _ = load_game(path)
    return [whole.after(n) for n in range(first, min(whole.move_number, last) + 1, every)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", help="SGF records")
    parser.add_argument("--playouts", type=int, default=20_000, help="each search's budget (20000)")
    parser.add_argument("--first", type=int, default=20, help="the first position, in moves played (20)")
    parser.add_argument("--last", type=int, default=200, help="the last position (200)")
    parser.add_argument("--every", type=int, default=12, help="the step between positions (12)")
    args = parser.parse_args()
    games = [g for path in args.records for g in positions(path, args.first, args.last, args.every)]
    for settled in (False, True):
        rows = [search_once(g, args.playouts, settled, seed=g.move_number) for g in games]
        early = sum(r.playouts < args.playouts for r in rows)
        print(f"settled_search={str(settled).lower()}: {len(rows)} positions, {early} returned early; means: "
              f"{statistics.mean(r.playouts for r in rows):.0f} playouts, "
              f"{statistics.mean(r.below for r in rows):.0f} visits below the move, "
              f"{statistics.mean(r.kept for r in rows):.0f} expected kept")


if __name__ == "__main__":
    main()
