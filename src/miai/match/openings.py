"""Openings: positions a match's games start from, each played twice with the colours swapped.

A match that starts every game from the empty board measures the engines over whole games.
To measure them where a change acts (a kind of position: a capturing race, a ko, an
endgame), a match can start its games from given positions instead, as ``gogui-twogtp
-openings`` and cutechess's opening books do. An :class:`Opening` is a named list of
moves, read from the main line of an SGF record (:func:`load_opening`). The referee plays
them into the game and sends them to both engines with ``play`` before the first
``genmove``; the clocks start after them.

Games ``2k`` and ``2k + 1`` (from 0) start from opening ``k`` (cycling through the list),
and engine A has Black in the first, B in the second (:func:`opening_for`): each engine
gets each position with each colour, so a position that favours one colour favours
neither engine. A match that does not alternate (``MatchConfig.alternate`` False: engine A
Black in every game) plays each opening once, for a question about one side of given
positions: how well an engine keeps the leads it had there, say.

An opening is moves only: a record with setup stones (``AB``/``AW``/``AE``; a handicap
written as stones) is refused, because GTP has no command to set up White's stones. Its
size must be the match's, and its moves must be legal under the match's rules (checked by
:class:`~miai.match.referee.MatchConfig`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miai.coords import Move
from miai.errors import SgfError
from miai.match.errors import MatchConfigError
from miai.sgf import read_file

__all__ = ["Opening", "load_opening", "load_openings", "opening_files", "opening_for"]


@dataclass(frozen=True, slots=True)
class Opening:
    """The moves a game starts with, and a name for the records (the file's name)."""

    name: str
    moves: tuple[Move, ...]

    @property
    def moves_text(self) -> str:
        """The moves as GTP colour and vertex: ``B D4 W Q16 ...``."""
        return " ".join(str(m) for m in self.moves)

    def __str__(self) -> str:
        return f"{self.name}: {self.moves_text}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "moves": self.moves_text}


def load_opening(path: str | os.PathLike[str], size: int, max_moves: int | None = None) -> Opening:
    """The opening in an SGF record's main line (its first ``max_moves`` moves, or all of
    them). Raises :class:`~miai.match.errors.MatchConfigError` saying what is wrong: a
    file that cannot be read, another board size, setup stones, no moves."""
    p = Path(path)
    try:
        record = read_file(p)
    except (OSError, SgfError) as exc:
        raise MatchConfigError(f"opening {p}: cannot be read: {exc}") from None
    if record.size != size:
        raise MatchConfigError(f"opening {p} is a {record.size}x{record.size} record; the match plays {size}x{size}")
    if any(not isinstance(e, Move) and (e.black or e.white or e.empty) for e in record.events):
        raise MatchConfigError(f"opening {p} sets up stones (AB/AW/AE): an opening must be moves only")
    moves = record.moves[:max_moves] if max_moves is not None else record.moves
    if not moves:
        raise MatchConfigError(f"opening {p} holds no moves")
    return Opening(p.stem, tuple(moves))


def load_openings(
    paths: Sequence[str | os.PathLike[str]], size: int, max_moves: int | None = None
) -> tuple[Opening, ...]:
    """The openings of several records, in the order given (see :func:`load_opening`); a
    name already taken (two files ``a.sgf`` in two directories) gets its place in the list
    after it (``a #2``), so that the results keep the openings apart."""
    if max_moves is not None and max_moves < 1:
        raise MatchConfigError(f"an opening's move count must be at least 1, not {max_moves}")
    openings: list[Opening] = []
    for number, path in enumerate(paths, 1):
        opening = load_opening(path, size, max_moves)
        if any(o.name == opening.name for o in openings):
            opening = Opening(f"{opening.name} #{number}", opening.moves)
        openings.append(opening)
    return tuple(openings)


def opening_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The records the paths name: a file itself, a directory its ``.sgf`` files (sorted by
    name). A directory without one is refused (a typo would otherwise start from nothing)."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.glob("*.sgf"))
            if not found:
                raise MatchConfigError(f"openings: the directory {path} holds no .sgf file")
            files += found
        else:
            files.append(path)
    return files


def opening_for(openings: Sequence[Opening], index: int, repeat: int = 2) -> Opening | None:
    """The opening game ``index`` (from 0) starts from: the same for ``repeat`` games in a
    row (games ``2k`` and ``2k + 1`` by default, the colours swapped), cycling through
    ``openings``; None without openings."""
    if not openings:
        return None
    return openings[(index // repeat) % len(openings)]
