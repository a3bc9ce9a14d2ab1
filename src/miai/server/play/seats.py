"""The seats of a game: the game's row as stored, who sits where (a person or the computer at a level)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from miai.coords import Color
from miai.server.errors import Forbidden
from miai.server.play.tokens import token_matches

__all__ = ["GameRecord", "computer_level", "human_seats"]

_COMPUTER = re.compile(r"computer:(\d{1,2})")


def computer_level(kind: str) -> int | None:
    """The level of a ``computer:N`` seat, or None for a human seat."""
    m = _COMPUTER.fullmatch(kind)
    return int(m.group(1)) if m and 1 <= int(m.group(1)) <= 10 else None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A row of ``games``."""

    id: str
    size: int
    rules: str
    handicap: int
    komi: float
    time_control: str
    black_kind: str
    white_kind: str
    black_token_hash: str | None
    white_token_hash: str | None
    status: str
    result: str | None
    v: int
    created_ms: int
    ended_ms: int | None = None
    black_name: str | None = None
    """The display name of whoever holds the seat (the creator's, or the first session to use its token)."""
    white_name: str | None = None

    def name(self, color: Color) -> str | None:
        return self.black_name if color is Color.BLACK else self.white_name

    def with_name(self, color: Color, name: str) -> GameRecord:
        """This row with ``name`` on the seat ``color``."""
        if color is Color.BLACK:
            return replace(self, black_name=name)
        return replace(self, white_name=name)

    def token_hash(self, color: Color) -> str | None:
        return self.black_token_hash if color is Color.BLACK else self.white_token_hash

    def kind(self, color: Color) -> str:
        return self.black_kind if color is Color.BLACK else self.white_kind

    def seat_of(self, token: str | None) -> Color | None:
        """The seat whose token this is, or None (a spectator, or no token)."""
        for color in (Color.BLACK, Color.WHITE):
            if token_matches(token, self.token_hash(color)):
                return color
        return None

    def seat_for(self, token: str | None) -> Color:
        """The seat of ``token``, or :class:`Forbidden` saying why it is none."""
        if not token:
            raise Forbidden("this action needs a seat's token: send it as Authorization: Bearer TOKEN")
        seat = self.seat_of(token)
        if seat is None:
            raise Forbidden("the token is not a seat's token for this game: spectators cannot act")
        return seat


def human_seats(record: GameRecord) -> set[Color]:
    """The seats played by people (not ``computer:N``)."""
    return {c for c in (Color.BLACK, Color.WHITE) if computer_level(record.kind(c)) is None}
