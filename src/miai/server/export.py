"""A game of this server as an SGF record (``GET /api/games/{id}/sgf``, docs/SERVER.md §3.1).

:func:`miai.sgf.game_to_sgf` writes the game: ``FF CA GM AP SZ KM RU``, ``HA`` and ``AB`` for
a handicap, the moves, ``RE`` (the game's :class:`~miai.result.Result` once it has ended) and,
for a counted game, the agreed dead stones and territory as ``TB``/``TW`` on the last node (as
KGS and OGS write them). This module adds what only the server knows: the date the game was
created (``DT``), where it was played (``PC[miai serve]``), the players' names when the caller
has them (``PB``/``PW``; none are made up), and the clocks after each move (``BL``/``WL`` and
``OB``/``OW``) when the caller has them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from miai.coords import Color
from miai.game import Game
from miai.sgf import game_to_sgf
from miai.sgf.grammar import SgfNode, scan, write_tree

__all__ = ["SERVER_NAME", "MoveClock", "game_sgf"]

SERVER_NAME = "miai serve"
"""What ``PC`` says: where the game was played."""


@dataclass(frozen=True, slots=True)
class MoveClock:
    """The mover's clock just after a move: ``ms_left`` in the current period (``BL``/``WL``,
    written in seconds) and, under byo-yomi or Canadian time, the periods or stones left
    (``OB``/``OW``)."""

    ms_left: int
    periods_left: int | None = None


def _seconds(ms: int) -> str:
    text = f"{ms / 1000:.3f}".rstrip("0").rstrip(".")
    return text or "0"


def game_sgf(
    game: Game,
    *,
    created_ms: int,
    players: dict[Color, str] | None = None,
    clocks: Mapping[int, MoveClock] | None = None,
) -> str:
    """The record of ``game`` (see the module's docstring).

    ``created_ms`` is when the game was created (``DT``, its UTC date). ``players`` maps a
    colour to its player's name (``PB``/``PW``); a colour without one gets no name.
    ``clocks`` maps a move number (1 for the first move, passes counted) to the mover's
    clock after it: the hook for the clocks (a move without an entry gets none)."""
    names = players or {}
    date = time.strftime("%Y-%m-%d", time.gmtime(created_ms / 1000))
    text = game_to_sgf(game, black=names.get(Color.BLACK), white=names.get(Color.WHITE), date=date)
    roots = scan(text, [])
    assert len(roots) == 1, "game_to_sgf writes one game tree"
    root = roots[0]
    _put_place(root)
    if clocks:
        _put_clocks(root, clocks)
    return write_tree(root)


def _put_place(root: SgfNode) -> None:
    """``PC`` right after ``DT`` (readers show the root's properties in order)."""
    props: dict[str, list[str]] = {}
    for pid, values in root.properties.items():
        if pid != "PC":
            props[pid] = values
        if pid == "DT":
            props["PC"] = [SERVER_NAME]
    props.setdefault("PC", [SERVER_NAME])
    root.properties = props


def _put_clocks(root: SgfNode, clocks: Mapping[int, MoveClock]) -> None:
    number = 0
    for node in root.main_line():
        move = node.move
        if move is None:
            continue
        number += 1
        clock = clocks.get(number)
        if clock is None:
            continue
        letter = move[0]
        node.properties[f"{letter}L"] = [_seconds(clock.ms_left)]
        if clock.periods_left is not None:
            node.properties[f"O{letter}"] = [str(clock.periods_left)]
