"""Connected sets of points: the one flood fill of the core's Python side.

Chains of stones come from the kernel, which keeps them as it plays
(:meth:`miai.board.Board.chains`). Everything else that is "the connected parts of some
points" — Benson's regions (:mod:`miai.life`), the empty regions next to a seki
(:mod:`miai.scoring`), a compensable area (:mod:`miai.endgame`) — is :func:`regions`.
"""

from __future__ import annotations

from collections.abc import Iterable

from miai.coords import Point, neighbors

__all__ = ["regions"]


def regions(points: Iterable[Point], size: int) -> list[frozenset[Point]]:
    """The connected components of ``points`` on a ``size``×``size`` board (points joined
    through their neighbors), in the order of their lowest point, row by row from the bottom.

    >>> [sorted(region) for region in regions([(2, 2), (0, 1), (0, 0)], 3)]
    [[(0, 0), (0, 1)], [(2, 2)]]
    """
    todo = set(points)
    out = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        component, stack = [start], [start]
        while stack:
            for q in neighbors(stack.pop(), size):
                if q in todo:
                    todo.discard(q)
                    component.append(q)
                    stack.append(q)
        out.append(frozenset(component))
    return out
