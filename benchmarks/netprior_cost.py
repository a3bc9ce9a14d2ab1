"""What the network's prior below the root costs a search, as JSON: for each threshold of
``prior_net_visits``, the nodes that got the prior and the share of the search's time their
evaluations took, in seeded 19×19 searches of ``--playouts`` playouts from seeded random
positions.

    python benchmarks/netprior_cost.py [--playouts 30000] [--visits 250 500 1000] [--moves 20 60 120]

The evaluations are counted and timed by wrapping ``NetPrior.give_grown``, which the search
calls between its chunks (BENCHMARKS.md, "The network's prior below the root").
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from miai.ai import netprior
from miai.ai.config import MctsConfig
from miai.ai.mcts import MctsPlayer
from miai.ai.policynet import NET_SIZE
from miai.rules import Rules
from miai.testing.positions import random_position


class _Meter:
    """Counts the nodes given the prior and the seconds spent giving it."""

    def __init__(self) -> None:
        self.nodes = 0
        self.seconds = 0.0

    def wrap(self, give_grown: Callable[..., int]) -> Callable[..., int]:
        def measured(*args: Any, **kwargs: Any) -> int:
            start = time.perf_counter()
            given = give_grown(*args, **kwargs)
            self.seconds += time.perf_counter() - start
            self.nodes += given
            return given

        return measured


def cost(playouts: int, visits: int, moves: int) -> dict[str, float]:
    """The nodes given the prior and their share of one search's time, ``visits`` the threshold."""
    game = random_position(NET_SIZE, Rules.preset("chinese"), 5, moves)
    meter = _Meter()
    original = netprior.NetPrior.give_grown
    netprior.NetPrior.give_grown = meter.wrap(original)  # type: ignore[method-assign]
    try:
        config = MctsConfig(playouts=playouts, max_seconds=None, seed=1, early_stop=False, prior_net_visits=visits)
        start = time.perf_counter()
        MctsPlayer(config).search(game)
        total = time.perf_counter() - start
    finally:
        netprior.NetPrior.give_grown = original  # type: ignore[method-assign]
    return {"nodes": meter.nodes, "seconds": round(total, 2), "share": round(meter.seconds / total, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=30000)
    parser.add_argument("--visits", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--moves", type=int, nargs="+", default=[20, 60, 120])
    args = parser.parse_args()
    MctsPlayer(MctsConfig(playouts=200, max_seconds=None, seed=1)).search(
        random_position(NET_SIZE, Rules.preset("chinese"), 5, 0))  # compiles and loads before timing
    rows = {f"visits_{v}_after_{m}": cost(args.playouts, v, m) for v in args.visits for m in args.moves}
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
