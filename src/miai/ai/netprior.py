"""The policy network's prior in the search tree: the root's children, and the children of
every node the search has visited often enough.

At the root (as Pachi gives its DCNN's prior) each move gets ``prior_net × sqrt(chance)`` won
visits on top of its other priors. With ``prior_net_visits``, a node below the root gets the
same once its own visits reach that many, or ``prior_net_share`` of the search's playouts if
that is more: then the search has shown the node matters, and one evaluation (some
milliseconds) is small beside the playouts it will still receive. The share lets one setting
suit every search's size: 125 visits won at 2 s a move and about 600 against Pachi at 10 s,
where 50 visits, a gain at equal playouts, cost it back in evaluations at 0.6 s. Each node
gets the prior once (the tree's ``T_NET`` flag, which a kept tree keeps).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

import numpy as np

from miai._kernel import tree as T
from miai.ai import movemodel, policynet
from miai.coords import Color, Move
from miai.errors import ConfigError, IllegalMoveError
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
    """Gives a tree's nodes the network's prior of ``weight`` won visits times the square root
    of each move's chance: the root always, the nodes below it from ``visits`` visits on, or
    ``share`` of the search's playouts if that is more (``visits`` 0: the root only). Only on
    the board the network was learnt on."""

    def __init__(self, weight: float, visits: int, share: float = 0.0) -> None:
        self.weight = weight
        self.visits = visits
        self.share = share
        self._nodes = np.empty(4096, np.int32)  # well_visited's scratch, grown when it does not fit
        self._parents = np.empty_like(self._nodes)

    def threshold(self, playouts: float) -> float:
        """The visits from which a node below the root gets the prior in a search of
        ``playouts`` playouts."""
        return max(float(self.visits), self.share * playouts)

    def applies(self, game: Game) -> bool:
        """Whether the prior is given in searches of this game at all."""
        return self.weight > 0 and game.size == policynet.NET_SIZE

    def give_root(self, game: Game, tree: T.Tree, color: Color) -> None:
        """Give the root (``color`` to move in ``game``) its children's prior, unless it has it."""
        if self.applies(game) and not tree[0][T.T_NET, 0]:
            self._give(tree, 0, game, color)

    def give_grown(
        self, game: Game, tree: T.Tree, color: Color, lock: AbstractContextManager[object] = nullcontext(),
        playouts: float = 0.0,
    ) -> int:
        """Give the prior to every node below the root (``color`` to move in ``game``) that has
        the :meth:`threshold`'s visits or more in a search of ``playouts`` playouts, children,
        and no prior yet; returns how many got it. The tree is read and written under ``lock``
        (other threads searching it), the network evaluated without it."""
        if self.visits <= 0 or not self.applies(game):
            return 0
        with lock:
            grown = self._grown(tree, self.threshold(playouts))
        given = 0
        for node, path in grown:
            at_node = _position_after(game, color, path)
            if at_node is None:
                with lock:
                    tree[0][T.T_NET, node] = 1  # a move the game's rules forbid (superko): never asked again
                continue
            chances = self._chances(at_node, at_node.to_move)
            with lock:
                self._add(tree, node, at_node, chances)
            given += 1
        return given

    def _grown(self, tree: T.Tree, visits: float) -> list[tuple[int, list[int]]]:
        """The nodes below the root with ``visits`` visits or more, children and no prior, each
        with the kernel points of the moves from the root to it (the walk stops at passes)."""
        ti, tf, _ = tree
        while (count := T.well_visited(ti, tf, visits, self._nodes, self._parents)) < 0:
            self._nodes = np.empty(2 * self._nodes.shape[0], np.int32)
            self._parents = np.empty_like(self._nodes)
        found: list[tuple[int, list[int]]] = []
        for i in range(1, count):
            node = int(self._nodes[i])
            if ti[T.T_NCHILD, node] == 0 or ti[T.T_NET, node]:
                continue
            path: list[int] = []
            j = i
            while j > 0:
                path.append(int(ti[T.T_MOVE, self._nodes[j]]))
                j = int(self._parents[j])
            found.append((node, path[::-1]))
        return found

    def _give(self, tree: T.Tree, node: int, game: Game, color: Color) -> None:
        """Add the network's prior to ``node``'s children, ``color`` to move in ``game``, and
        mark the node as having it."""
        self._add(tree, node, game, self._chances(game, color))

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


def _position_after(game: Game, color: Color, path: list[int]) -> Game | None:
    """The game after ``color`` and then each side in turn play the kernel points ``path``
    (None if the game's rules forbid one of them: the tree knows only simple ko)."""
    after = game.copy()
    mover = color
    try:
        for point in path:
            after.play(Move(mover, after.board.point(point)))
            mover = mover.opponent
    except IllegalMoveError:
        return None
    return after
