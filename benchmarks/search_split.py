"""Where one 19×19 search iteration's time goes, as JSON: the whole search, the heavy playout
alone, an expansion with and without the learned priors (the shapes and the move
predictor), and each playout heuristic's share (the playouts' time per turn with it off).

    python benchmarks/search_split.py [--moves 0 60] [--playouts 2000]

Times are CPU time of this process (``time.process_time``), the least of three runs: on a
loaded machine they are steadier than wall-clock time, not exact (callgrind's instruction
counts are, BENCHMARKS.md "19×19 search cost"). The positions are seeded random games of
``--moves`` moves (``miai.testing.positions.random_position``, seed 3), Chinese rules.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai.ai.mcts import MctsConfig, MctsPlayer, _pattern_arrays
from miai.game import Game
from miai.rules import Rules
from miai.testing.positions import random_position

HEURISTICS = ("P_CAPTURE", "P_TWOLIB", "P_NAKADE", "P_PATTERN", "P_SELFATARI_HEURISTIC", "P_SELFATARI_RANDOM",
              "P_KO", "P_RACE_REPLY")


def position(moves: int, seed: int = 3) -> Game:
    """A seeded random 19×19 game of ``moves`` moves (a few passes among them)."""
    return random_position(19, Rules.preset("chinese"), seed, moves)


def least(run, repeats: int = 3) -> float:
    """The least CPU time of ``repeats`` calls of ``run``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def split(game: Game, playouts: int) -> dict:
    cfg = MctsConfig(playouts=playouts, max_seconds=None, seed=1, early_stop=False)
    grid, meta = game.board.grid, game.board.meta
    policy = cfg.policy_params(19)
    learned = (H.PAT3, *_pattern_arrays(cfg, 19))
    unlearned = (H.PAT3, *(a[:0] for a in learned[1:]))
    params, forbidden = cfg.tree_params(7.5), np.zeros(grid.shape[1], np.bool_)
    player = MctsPlayer(cfg)
    search = least(lambda: MctsPlayer(cfg).search(game))
    player.search(game)
    ti = player._tree[0]
    expansions = (int(player._tree[2][T.TM_USED]) - 1) / int(ti[T.T_NCHILD, 0])

    def expand(knowledge) -> float:
        tree = T.new_tree(1_000)

        def twenty() -> None:
            for _ in range(20):
                tree[2][T.TM_USED] = 1
                T.expand(tree, 0, grid, meta, int(game.to_move), 0, 0, params, knowledge, forbidden)

        twenty()
        return least(twenty) / 20

    def turn_ns(pp: np.ndarray) -> float:
        turns = H.run_heavy_playouts(grid, meta, int(game.to_move), playouts, 7.5, 1, H.PAT3, pp)[0]
        return least(lambda: H.run_heavy_playouts(grid, meta, int(game.to_move), playouts, 7.5, 1, H.PAT3, pp)) / turns * 1e9

    heavy = least(lambda: H.run_heavy_playouts(grid, meta, int(game.to_move), playouts, 7.5, 1, H.PAT3, policy))
    each = {}
    for name in HEURISTICS:
        off = policy.copy()
        off[getattr(H, name)] = 0.0
        each[name] = round(turn_ns(off))
    return {
        "search_us_per_playout": round(search / playouts * 1e6, 1),
        "heavy_playout_us": round(heavy / playouts * 1e6, 1),
        "expansions_per_1000_playouts": round(expansions / playouts * 1000, 1),
        "expand_us": round(expand(learned) * 1e6, 1),
        "expand_us_without_shapes_and_predictor": round(expand(unlearned) * 1e6, 1),
        "playout_ns_per_turn": round(turn_ns(policy)),
        "playout_ns_per_turn_with_this_off": each,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[0, 60])
    parser.add_argument("--playouts", type=int, default=2000)
    args = parser.parse_args()
    MctsPlayer(MctsConfig(playouts=64, max_seconds=None, seed=2)).search(position(60))  # compile, load the tables
    print(json.dumps({f"19x19 move {m}": split(position(m), args.playouts) for m in args.moves}, indent=2))


if __name__ == "__main__":
    main()
