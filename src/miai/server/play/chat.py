"""A chat line of a game's player, as kept with the game (the ``game_chat`` table), sent to its
clients (the ``chat`` frame) and written into its record (an SGF comment on the move at which
it was said). No I/O: the room's audience says it, the store keeps it, the export writes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from miai.coords import Color

__all__ = ["ChatLine"]


@dataclass(frozen=True, slots=True)
class ChatLine:
    """``text`` said by the player of ``seat`` (``name``, the seat's display name, if it has one)
    at ``at_ms`` (wall clock), when ``move`` moves had been played (0: before the first)."""

    seat: Color
    name: str | None
    text: str
    at_ms: int
    move: int

    def to_json(self) -> dict[str, Any]:
        """The ``chat`` frame's data (docs/SERVER.md §5)."""
        return {"from": str(self.seat), "name": self.name, "text": self.text, "at_ms": self.at_ms, "move": self.move}

    def speaker(self) -> str:
        """Who said it, as the record names them: the seat's name, else its colour."""
        return self.name or self.seat.name.capitalize()

    def comment(self) -> str:
        """The line as an SGF comment: ``name: text``."""
        return f"{self.speaker()}: {self.text}"
