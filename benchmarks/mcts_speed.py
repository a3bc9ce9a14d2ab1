"""Search speed of the MCTS player, as JSON: playouts (tree iterations) per second on an
empty board and in a mid-game position, per board size.

    python benchmarks/mcts_speed.py --sizes 9 19 --seconds 5 [--set prior_mm=0 ...]

``--set KNOB=VALUE`` (repeatable) sets any knob of :class:`miai.ai.config.MctsConfig`.
The mid-game position is reached by the player itself at a low level (seeded), so it looks
like a game: 30 moves on 9×9, 100 on 19×19. The search then runs for ``--seconds`` with no
early stop. Each size is first warmed up on a short search, so that neither compiling the
kernel nor loading the learned tables (19×19) counts.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys

from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.game import Game

MIDGAME_MOVES = {9: 30, 13: 60, 19: 100}


def measure(game: Game, seconds: float, knobs: dict | None = None) -> dict:
    config = MctsConfig(playouts=10**9, max_seconds=seconds, early_stop=False, seed=1, **(knobs or {}))
    player = MctsPlayer(config)
    result = player.search(game)
    return {
        "playouts": result.playouts,
        "seconds": round(result.seconds, 2),
        "playouts_per_second": round(result.playouts / result.seconds),
    }


def midgame(size: int) -> Game:
    game = Game(size)
    player = MctsPlayer(MctsConfig(playouts=200, max_seconds=None, seed=7))
    for _ in range(MIDGAME_MOVES.get(size, 3 * size)):
        game.play(player.genmove(game).point)
    return game


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="a search knob, repeatable")
    args = ap.parse_args()
    knobs = MctsConfig.parse_settings(args.set)
    out = {"python": platform.python_version(), "machine": platform.machine(), "knobs": knobs, "results": []}
    for size in args.sizes:
        measure(Game(size), 0.5, knobs)  # compile or load the kernel, and the tables this size reads
        out["results"].append({"size": size, "position": "empty", **measure(Game(size), args.seconds, knobs)})
        game = midgame(size)
        out["results"].append(
            {"size": size, "position": f"mid-game (move {game.move_number})", **measure(game, args.seconds, knobs)}
        )
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
