"""What the policy network's root prior costs a move, as JSON: the wall-clock time of one
``policynet.root_chances`` (the predictor's chances, the input planes and the forward pass)
on seeded random 19×19 positions, the median of ``--repeats`` calls each.

    python benchmarks/policynet_cost.py [--moves 0 60 120] [--repeats 9]

To set two versions side by side, run it with ``PYTHONPATH=<other checkout>/src`` and
without, alternately, on the same machine under the same load (BENCHMARKS.md, "A policy
network over the move predictor").
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from miai.ai import movemodel, policynet
from miai.rules import Rules
from miai.testing.positions import random_position


def cost(moves: int, repeats: int) -> float:
    """The median milliseconds of one root evaluation after ``moves`` seeded random moves."""
    game = random_position(policynet.NET_SIZE, Rules.preset("chinese"), 3, moves)
    net, model = policynet.default_net(), movemodel.default_model()
    assert net is not None and model is not None, "the shipped network and predictor are needed"
    color = int(game.to_move)
    policynet.root_chances(game, color, 0, 0, net, model)  # loads the tables
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        policynet.root_chances(game, color, 0, 0, net, model)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[0, 60, 120])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(json.dumps({f"ms_after_{m}_moves": round(cost(m, args.repeats), 2) for m in args.moves}))


if __name__ == "__main__":
    main()
