"""The seats of a game: the game's row as stored, who sits where (a person or the computer at a level)."""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass, replace

from miai.coords import Color
from miai.server.errors import Forbidden
from miai.server.play.tokens import seat_credential, token_matches

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
    black_user_id: int | None = None
    """The account of the seat's player: the first signed-in session that used its token."""
    white_user_id: int | None = None
    black_guest: str | None = None
    """The guest session (``g:...``) that holds the seat: its games follow it when it signs up."""
    white_guest: str | None = None
    rated: bool = False
    """A rated game asked for and still possible; once finished, whether it was rated."""
    to_move: str | None = None
    """``black`` or ``white``: whom the game waits for (to move, or to act in the marking)."""
    deadline_ms: int | None = None
    """Wall-clock ms at which the player to move runs out of time (None: no clock running)."""

    def name(self, color: Color) -> str | None:
        return self.black_name if color is Color.BLACK else self.white_name

    def with_name(self, color: Color, name: str) -> GameRecord:
        """This row with ``name`` on the seat ``color``."""
        if color is Color.BLACK:
            return replace(self, black_name=name)
        return replace(self, white_name=name)

    def bound(self, color: Color, name: str | None, person: str | None) -> GameRecord:
        """This row with the seat ``color`` held by ``person`` (a session's id: ``u:N`` for a
        signed-in user, ``g:...`` for a guest, None for a program) named ``name``; a rated game
        stays rated only while two distinct signed-in players can hold its seats."""
        user = int(person[2:]) if person is not None and person.startswith("u:") else None
        guest = person if person is not None and person.startswith("g:") else None
        if color is Color.BLACK:
            row = replace(self, black_name=name, black_user_id=user, black_guest=guest)
        else:
            row = replace(self, white_name=name, white_user_id=user, white_guest=guest)
        return replace(row, rated=row.rated and row.rating_possible())

    def rating_possible(self) -> bool:
        """No seat held by a guest, and not both by one player: the game can still be rated."""
        if self.black_guest is not None or self.white_guest is not None:
            return False
        return self.black_user_id is None or self.black_user_id != self.white_user_id

    def user_id(self, color: Color) -> int | None:
        return self.black_user_id if color is Color.BLACK else self.white_user_id

    def guest(self, color: Color) -> str | None:
        return self.black_guest if color is Color.BLACK else self.white_guest

    def seat_of_user(self, user_id: int) -> Color | None:
        """The seat ``user_id`` plays (Black's first when they play both)."""
        for color in (Color.BLACK, Color.WHITE):
            if self.user_id(color) == user_id:
                return color
        return None

    def token_hash(self, color: Color) -> str | None:
        return self.black_token_hash if color is Color.BLACK else self.white_token_hash

    def kind(self, color: Color) -> str:
        return self.black_kind if color is Color.BLACK else self.white_kind

    def seat_of(self, token: str | None, key: str | None = None) -> Color | None:
        """The seat whose token this is, or None (a spectator, or no token). With the server's
        ``key``, a seat's player's own credential (:func:`seat_credential`) is its token too."""
        for color in (Color.BLACK, Color.WHITE):
            if token_matches(token, self.token_hash(color)):
                return color
        if key is not None and token:
            for color in (Color.BLACK, Color.WHITE):
                user = self.user_id(color)
                if user is not None and hmac.compare_digest(token, seat_credential(key, self.id, str(color), user)):
                    return color
        return None

    def seat_for(self, token: str | None, key: str | None = None) -> Color:
        """The seat of ``token``, or :class:`Forbidden` saying why it is none."""
        if not token:
            raise Forbidden("this action needs a seat's token: send it as Authorization: Bearer TOKEN")
        seat = self.seat_of(token, key)
        if seat is None:
            raise Forbidden("the token is not a seat's token for this game: spectators cannot act")
        return seat


def human_seats(record: GameRecord) -> set[Color]:
    """The seats played by people (not ``computer:N``)."""
    return {c for c in (Color.BLACK, Color.WHITE) if computer_level(record.kind(c)) is None}
