"""What is proven about a position: Benson's unconditional life and pass-alive territory.

Benson's algorithm (1976), for one colour ``c``:

- the *regions* of ``c`` are the maximal connected sets of points that are not ``c`` stones
  (empty points and opponent stones), each bordered only by ``c`` stones and the edge;
- a region is *vital* to a chain of ``c`` when every empty point of the region is a liberty
  of that chain;
- repeatedly drop the chains with fewer than two vital regions among the remaining
  regions, and the regions that border a dropped chain. The chains left are
  **unconditionally alive**: the opponent cannot capture them even if ``c`` always passes.

**Pass-alive territory**: a region of ``c`` bordered only by unconditionally alive chains,
every empty point of which touches a ``c`` stone. The opponent can never make an eye there
(every empty point stays next to an uncapturable ``c`` stone), so its stones inside are dead
and the region is ``c``'s, whatever either side plays.

Pure functions over a :class:`~miai.board.Board`; nothing here changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.board import Board
from miai.coords import Color, Point, neighbors
from miai.regions import regions


@dataclass(frozen=True, slots=True)
class Life:
    """The proven part of a position's status."""

    alive: dict[Color, frozenset[Point]]
    """Per colour, the stones of its unconditionally alive chains."""
    territory: dict[Color, frozenset[Point]]
    """Per colour, the points of its pass-alive territory: empty points, and opponent stones
    that are therefore dead."""

    dead: frozenset[Point]
    """Stones proven dead: opponent stones inside pass-alive territory."""


def benson(board: Board, color: Color) -> tuple[list[frozenset[Point]], list[frozenset[Point]]]:
    """``(alive chains, healthy regions)`` of ``color`` by Benson's algorithm: the chains
    (as sets of stones) that are unconditionally alive, and the regions left at the end."""
    size = board.size
    chains = [stones for colour, stones in board.chains() if colour is color]
    chain_of = {p: i for i, ch in enumerate(chains) for p in ch}
    colours = {p: board[p] for p in board}
    areas = regions((p for p in board if p not in chain_of), size)
    # per region: the chains bordering it, and the chains it is vital to
    borders: list[set[int]] = []
    vital_to: list[set[int]] = []
    for region in areas:
        border: set[int] = set()
        for p in region:
            for q in neighbors(p, size):
                if q in chain_of:
                    border.add(chain_of[q])
        empties = [p for p in region if colours[p] is None]
        vital = set()
        for i in border:
            if all(any(chain_of.get(q) == i for q in neighbors(p, size)) for p in empties):
                vital.add(i)
        borders.append(border)
        vital_to.append(vital)
    alive_chains = set(range(len(chains)))
    healthy = set(range(len(areas)))
    while True:
        counts = dict.fromkeys(alive_chains, 0)
        for r in healthy:
            for i in vital_to[r]:
                if i in counts:
                    counts[i] += 1
        drop = {i for i, k in counts.items() if k < 2}
        if not drop:
            break
        alive_chains -= drop
        healthy = {r for r in healthy if not (borders[r] & drop)}
    return [chains[i] for i in sorted(alive_chains)], [areas[r] for r in sorted(healthy)]


def unconditional_life(board: Board) -> Life:
    """Benson's unconditionally alive chains and the pass-alive territory of both colours."""
    size = board.size
    alive: dict[Color, frozenset[Point]] = {}
    territory: dict[Color, frozenset[Point]] = {}
    stones = {c: frozenset(board.stones(c)) for c in (Color.BLACK, Color.WHITE)}
    for color in (Color.BLACK, Color.WHITE):
        chains, _ = benson(board, color)
        alive_stones = frozenset(p for ch in chains for p in ch)
        alive[color] = alive_stones
        own = stones[color]
        others = {p for p in board if p not in own}
        owned: set[Point] = set()
        for region in regions(others, size):
            bordering = {q for p in region for q in neighbors(p, size) if q in own}
            if not bordering or not bordering <= alive_stones:
                continue
            empties = [p for p in region if board[p] is None]
            if all(any(q in own for q in neighbors(p, size)) for p in empties):
                owned |= region
        territory[color] = frozenset(owned)
    dead = frozenset(p for c in (Color.BLACK, Color.WHITE) for p in territory[c] if p in stones[c.opponent])
    return Life(alive, territory, dead)
