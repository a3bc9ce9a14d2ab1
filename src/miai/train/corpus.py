"""Game records in bulk, for the learners (``miai train patterns``, ``miai train movemodel``):
SGF files, directories holding them at any depth (a ``miai match`` run: ``game-*.sgf``;
``.sgf`` in any case, as older programs wrote ``.SGF``), and files of moves one
game a line as Tygem's archive writes them (``ID<tab>;B[pd];W[dp]...``, 19×19 even games: the
9-dan games of ``yenw/computer-go-dataset``, ``TYGEM/Kifu``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from miai.errors import MiaiError
from miai.game import Game
from miai.sgf.game import game_from_record
from miai.sgf.record import SgfRecord, read_file, read_record

TYGEM_LINE = re.compile(r"^(\w+)\t(;[BW]\[[a-s]{0,2}\].*)$")
"""A game of Tygem's archive: its id, a tab, then its moves as SGF nodes."""


def records(sources: list[str]) -> Iterator[tuple[str, SgfRecord | MiaiError | OSError]]:
    """Each game of the sources, in order, named, as a record or the error reading it. A
    Tygem game is read as komi 6.5 under Korean rules (the archive does not say)."""
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for sgf in sorted(p for p in path.rglob("*") if _is_sgf(p) and p.is_file()):
                yield from _one(str(sgf), partial(read_file, sgf))
        elif _is_sgf(path):
            yield from _one(source, partial(read_file, path))
        else:
            with open(path, encoding="utf-8", errors="replace") as lines:
                for number, line in enumerate(lines, start=1):
                    found = TYGEM_LINE.match(line.strip())
                    text = f"(;GM[1]FF[4]SZ[19]KM[6.5]RU[Korean]{found.group(2)})" if found else ""
                    yield from _one(f"{source}:{number}", partial(read_record, text))


def _is_sgf(path: Path) -> bool:
    """Whether the file's name says SGF, in any case (older programs wrote ``.SGF``)."""
    return path.suffix.lower() == ".sgf"


def _one(name: str, read: Callable[[], SgfRecord]) -> Iterator[tuple[str, SgfRecord | MiaiError | OSError]]:
    try:
        yield name, read()
    except (MiaiError, OSError) as exc:
        yield name, exc


@dataclass
class Corpus:
    """The games read (``games``), those kept apart to test on (``held``), how many records
    were read in all and how many were left out (another size, a handicap, unreadable)."""

    games: list[Game] = field(default_factory=list)
    held: list[Game] = field(default_factory=list)
    read: int = 0
    skipped: int = 0


def read_games(
    sources: list[str], size: int = 19, limit: int = 0, holdout: int = 0,
    warn: Callable[[str], None] | None = None,
) -> Corpus:
    """The even games of ``size`` lines in the sources, at most ``limit`` records read (0: all),
    every ``holdout``-th one kept apart (0: none); ``warn`` (default: a line on standard error)
    names each record that does not read."""
    corpus = Corpus()
    for name, record in records(sources):
        if limit and corpus.read >= limit:
            break
        corpus.read += 1
        if isinstance(record, Exception):
            message = f"{name}: left out, {record}"
            if warn is None:
                print(message, file=sys.stderr)
            else:
                warn(message)
            corpus.skipped += 1
            continue
        if record.size != size or record.handicap:
            corpus.skipped += 1
            continue
        game = game_from_record(record, strict=False)
        (corpus.held if holdout and corpus.read % holdout == 0 else corpus.games).append(game)
    return corpus
