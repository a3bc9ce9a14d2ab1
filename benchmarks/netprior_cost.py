"""What the network's prior below the root costs a search, as JSON: for each threshold of
``prior_net_visits`` (with ``--share``, ``prior_net_share`` too), the nodes that got the prior
and the share of the search's time their evaluations took, in seeded 19×19 searches of
``--playouts`` playouts (or ``--seconds``, with the early stop) from seeded random positions.

    python benchmarks/netprior_cost.py [--playouts 30000 | --seconds 10] [--visits 250 500 1000]
                                       [--share 0.015] [--moves 20 60 120]

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


def cost(budget: dict[str, Any], visits: int, share: float, moves: int) -> dict[str, float]:
    """The nodes given the prior and their share of one search's time (``budget``: its playouts
    or seconds), ``visits`` and ``share`` the threshold's."""
    game = random_position(NET_SIZE, Rules.preset("chinese"), 5, moves)
    meter = _Meter()
    original = netprior.NetPrior.give_grown
    netprior.NetPrior.give_grown = meter.wrap(original)  # type: ignore[method-assign]
    try:
        config = MctsConfig(seed=1, prior_net_visits=visits, prior_net_share=share, **budget)
        start = time.perf_counter()
        playouts = MctsPlayer(config).search(game).playouts
        total = time.perf_counter() - start
    finally:
        netprior.NetPrior.give_grown = original  # type: ignore[method-assign]
    return {"nodes": meter.nodes, "playouts": playouts, "seconds": round(total, 2),
            "share": round(meter.seconds / total, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    either = parser.add_mutually_exclusive_group()
    either.add_argument("--playouts", type=int, default=30000)
    either.add_argument("--seconds", type=float, help="a time budget instead, the early stop on")
    parser.add_argument("--visits", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--share", type=float, default=0.0)
    parser.add_argument("--moves", type=int, nargs="+", default=[20, 60, 120])
    args = parser.parse_args()
    MctsPlayer(MctsConfig(playouts=200, max_seconds=None, seed=1)).search(
        random_position(NET_SIZE, Rules.preset("chinese"), 5, 0))  # compiles and loads before timing
    budget: dict[str, Any] = {"max_seconds": args.seconds}
    if args.seconds is None:
        budget = {"playouts": args.playouts, "max_seconds": None, "early_stop": False}
    rows = {f"visits_{v}_after_{m}": cost(budget, v, args.share, m) for v in args.visits for m in args.moves}
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
