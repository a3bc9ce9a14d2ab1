"""A game of this server as an SGF record (``GET /api/games/{id}/sgf``, docs/SERVER.md §3.2).

:func:`miai.sgf.game_to_sgf` writes the game: ``FF CA GM AP SZ KM RU``, ``HA`` and ``AB`` for
a handicap, the moves, ``RE`` (the game's :class:`~miai.result.Result` once it has ended) and,
for a counted game, the agreed dead stones and territory as ``TB``/``TW`` on the last node (as
KGS and OGS write them). This module adds what only the server knows: the date the game was
created (``DT``), where it was played (``PC[miai serve]``), the players' names when the caller
has them (``PB``/``PW``; none are made up), and the time control (``TM``/``OT``) with the
clocks after each move (``BL``/``WL`` and ``OB``/``OW``), which ``game_to_sgf`` writes from the
core's :class:`~miai.clock.TimeControl` and :class:`~miai.clock.TimeLeft` values.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from miai.clock import TimeControl, TimeLeft
from miai.coords import Color
from miai.game import Game
from miai.server.play.chat import ChatLine
from miai.server.play.seats import GameRecord, computer_level
from miai.sgf import game_to_sgf
from miai.sgf.grammar import SgfNode, scan, write_tree

__all__ = ["SERVER_NAME", "game_sgf", "seat_names"]

SERVER_NAME = "miai serve"
"""What ``PC`` says: where the game was played."""


def seat_names(record: GameRecord) -> dict[Color, str]:
    """The names a game's record gives its players: the display name of whoever took a human
    seat, ``miai level N`` for a computer seat, nothing for a seat nobody has taken yet."""
    names: dict[Color, str] = {}
    for color in (Color.BLACK, Color.WHITE):
        level = computer_level(record.kind(color))
        name = f"miai level {level}" if level is not None else record.name(color)
        if name:
            names[color] = name
    return names


def game_sgf(
    game: Game,
    *,
    created_ms: int,
    players: dict[Color, str] | None = None,
    time_control: TimeControl | None = None,
    times: Mapping[int, TimeLeft] | None = None,
    chat: Sequence[ChatLine] = (),
) -> str:
    """The record of ``game`` (see the module's docstring).

    ``created_ms`` is when the game was created (``DT``, its UTC date). ``players`` maps a
    colour to its player's name (``PB``/``PW``); a colour without one gets no name.
    ``time_control`` and ``times`` (a move number, 1 for the first move and passes counted,
    to the mover's time left after it) are written as ``game_to_sgf`` writes them. Each line of
    ``chat`` is a comment (``C``, ``name: text``) on the node of the move at which it was said."""
    names = players or {}
    date = time.strftime("%Y-%m-%d", time.gmtime(created_ms / 1000))
    text = game_to_sgf(
        game,
        black=names.get(Color.BLACK),
        white=names.get(Color.WHITE),
        date=date,
        time_control=time_control,
        times=times,
    )
    roots = scan(text, [])
    assert len(roots) == 1, "game_to_sgf writes one game tree"
    root = roots[0]
    _put_place(root)
    _put_chat(root, chat)
    return write_tree(root)


def _put_chat(root: SgfNode, chat: Sequence[ChatLine]) -> None:
    """Each chat line as a comment on the main line's node of its move (the root for a line said
    before the first move; the last node for one said after moves later taken back), one line each."""
    nodes = [root]
    while nodes[-1].children:
        nodes.append(nodes[-1].children[0])
    said: dict[int, list[str]] = {}
    for line in chat:
        said.setdefault(min(line.move, len(nodes) - 1), []).append(line.comment())
    for index, lines in said.items():
        node = nodes[index]
        node.properties["C"] = ["\n".join([*node.properties.get("C", []), *lines])]


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
