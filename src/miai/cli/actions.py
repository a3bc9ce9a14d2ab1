"""What a player of ``miai play`` can decide to do, as values.

A player (:mod:`miai.cli.players`) answers "your turn" with an :data:`Action` and "your
step in the marking phase" with a :data:`MarkingAction`; the session
(:class:`miai.cli.play.PlaySession`) applies it to the game and says what happened. The
values carry no behaviour, so a person at the keyboard, the computer and a test script
are told apart by nobody.

They live in their own module because both the players and the marking dialogue
(:mod:`miai.cli.marking`) build them.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.coords import Point

__all__ = ["Accept", "Action", "MarkingAction", "Play", "Propose", "Quit", "Refuse", "Resign", "Undo"]


@dataclass(frozen=True, slots=True)
class Play:
    """Place a stone on ``point``, or pass when ``point`` is None."""

    point: Point | None


@dataclass(frozen=True, slots=True)
class Resign:
    """The player to move gives up."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last move (in the marking phase: the last proposal, or the last pass)."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave the game unfinished (also what end of input means)."""


@dataclass(frozen=True, slots=True)
class Propose:
    """Propose these stones as dead (and these as in seki): the first passer's proposal or
    the other player's counter-proposal (docs/RULES.md §5)."""

    dead: frozenset[Point]
    seki: frozenset[Point] = frozenset()


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the other player's pending proposal: the game is counted."""


@dataclass(frozen=True, slots=True)
class Refuse:
    """Refuse the other player's counter-proposal: play resumes (a dispute)."""


Action = Play | Resign | Undo | Quit
"""What a player may do on their turn to move."""

MarkingAction = Propose | Accept | Refuse | Undo | Quit
"""What a player may do on their step of the marking phase."""
