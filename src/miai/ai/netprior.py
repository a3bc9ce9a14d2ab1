"""The policy network's prior at the root of the search tree.

Each of the root's moves gets ``prior_net × sqrt(chance)`` won visits on top of its other
priors, as Pachi gives its DCNN's prior. The root gets it once (the tree's ``T_NET`` flag, so a
search that goes on from the same root adds none twice). Giving it to the nodes below the root as
well won 64 of 100 at equal playouts, but 49 of 100 at equal time, and was removed (BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np

from miai._kernel import tree as T
from miai.ai import movemodel, policynet
from miai.coords import Color, Move
from miai.errors import ConfigError
from miai.game import Game


def last_points(game: Game) -> tuple[int, int]:
    """The kernel points of the last two moves (0 for passes, setups and none)."""
    out: list[int] = []
    for entry in reversed(game.history):
        if len(out) == 2:
            break
        if isinstance(entry, Move):
            out.append(0 if entry.point is None else game.board.index(entry.point))
        else:
            break
    while len(out) < 2:
        out.append(0)
    return out[0], out[1]


class NetPrior:
    """Gives a tree's root the network's prior of ``weight`` won visits times the square root
    of each move's chance; only on the board the network was learnt on."""

    def __init__(self, weight: float) -> None:
        self.weight = weight

    def applies(self, game: Game) -> bool:
        """Whether the prior is given in searches of this game at all."""
        return self.weight > 0 and game.size == policynet.NET_SIZE

    def give_root(self, game: Game, tree: T.Tree, color: Color) -> None:
        """Give the root (``color`` to move in ``game``) its children's prior, unless it has it."""
        if self.applies(game) and not tree[0][T.T_NET, 0]:
            self._add(tree, 0, game, self._chances(game, color))

    def _chances(self, game: Game, color: Color) -> np.ndarray:
        """The network's chance of each point (N×N) for ``color`` to move in ``game``."""
        net, model = policynet.default_net(), movemodel.default_model()
        if net is None or model is None:
            raise ConfigError(f"prior_net={self.weight:g} needs the policy network, {policynet.DEFAULT_NET}, and "
                              f"the move predictor, {movemodel.DEFAULT_MODEL} (`tools/train_policynet.py` writes "
                              f"the net)")
        last, last2 = last_points(game)
        return policynet.root_chances(game, int(color), last, last2, net, model)

    def _add(self, tree: T.Tree, node: int, game: Game, chances: np.ndarray) -> None:
        """Add ``weight × sqrt(chance)`` won visits to each of ``node``'s children (``chances``
        of the position ``game`` at the node), and mark the node as having its prior."""
        ti, tf, _ = tree
        first, count = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
        moves = ti[T.T_MOVE, first : first + count]
        on_board = moves > 0  # not the pass
        bonus = np.zeros(count)
        bonus[on_board] = self.weight * np.sqrt(chances[game.board.rows_and_columns(moves[on_board])])
        tf[T.T_PV, first : first + count] += bonus
        tf[T.T_PW, first : first + count] += bonus
        ti[T.T_NET, node] = 1
