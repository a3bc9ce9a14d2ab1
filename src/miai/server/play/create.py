"""A new game from ``POST /api/games``: the request checked, the game's row and its seat tokens.

All fields are optional (docs/SERVER.md §3): ``size`` (19), ``rules`` (a preset and overrides,
``japanese komi=6.5``; Chinese by default), ``komi`` (overrides the rules'), ``handicap`` (0),
``time`` (``none``), ``black`` and ``white`` (``human`` or ``computer:1`` to ``computer:10``; one
seat at least is human), ``open`` (false: with two human seats, true leaves White's seat free
for the first visitor who joins from the lobby, :mod:`miai.server.web.lobby`). ``time`` is any ``miai match --time`` form (``byoyomi:300:30:5``...),
stored in its canonical text (``300`` becomes ``absolute:300``); a bad one is a 400 naming
what is wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from miai.clock import TimeControl
from miai.coords import MAX_SIZE, MIN_SIZE, Color
from miai.errors import ClockError, HandicapError, RulesError
from miai.game import GameSpec
from miai.rules import Rules
from miai.server.errors import BadRequest, Unsupported
from miai.server.play.seats import GameRecord, computer_level
from miai.server.play.tokens import free_seat_marker, hash_token, new_game_id, new_token
from miai.server.wire.fields import check_fields, get_int, json_type

__all__ = ["NewGame", "OPEN_FOR_MS", "parse_new_game", "new_record"]

_FIELDS = {name: False for name in ("size", "rules", "komi", "handicap", "time", "black", "white", "open", "rated")}
HUMAN = "human"
OPEN_FOR_MS = 3_600_000
"""An open game waits an hour for someone to join: the lobby lists it that long."""


@dataclass(frozen=True, slots=True)
class NewGame:
    spec: GameSpec
    time_control: str
    black: str
    white: str
    creator: str | None = None
    """The creator's display name (their session's), put on the first human seat: Black's if
    Black is human, else White's."""
    open: bool = False
    """White's seat is free for whoever joins first (no token exists for it until then)."""
    rated: bool = False
    """Rated if two distinct signed-in players hold the seats (docs/SERVER.md §6)."""
    person: str | None = None
    """The creator's session id (``u:N`` or ``g:...``): the first human seat is theirs."""

    def kind(self, color: Color) -> str:
        return self.black if color is Color.BLACK else self.white


def _text(body: dict[str, Any], name: str, default: str, max_len: int = 200) -> str:
    value = body.get(name, default)
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be a string, not {json_type(value)}")
    if len(value) > max_len:
        raise BadRequest(f"{name!r} is longer than {max_len} characters")
    return value.strip()


def _seat(body: dict[str, Any], name: str) -> str:
    value = _text(body, name, HUMAN, 32).lower()
    if value == HUMAN or computer_level(value) is not None:
        return value
    raise BadRequest(f"{name!r} must be human or computer:LEVEL with a level from 1 to 10, not {value!r}")


def parse_new_game(body: Any) -> NewGame:
    """The game a creation request asks for; raises :class:`BadRequest` or :class:`Unsupported`."""
    body = check_fields({} if body is None else body, _FIELDS, "new game")
    size = get_int(body, "size", low=MIN_SIZE, high=MAX_SIZE)
    handicap = get_int(body, "handicap", low=0, high=9)
    try:
        rules = Rules.parse(_text(body, "rules", "chinese"))
    except RulesError as e:
        raise BadRequest(f"rules: {e}") from None
    if "komi" in body:
        komi = body["komi"]
        if isinstance(komi, bool) or not isinstance(komi, (int, float)) or not math.isfinite(komi):
            raise BadRequest(f"'komi' must be a number, not {json_type(komi)}")
        try:  # its range is the rules core's, whatever text or field the komi comes from
            rules = rules.replace(komi=float(komi))
        except RulesError as e:
            raise BadRequest(f"'komi': {e}") from None
    try:
        time_control = str(TimeControl.parse(_text(body, "time", "none", 64)))
    except ClockError as e:
        raise BadRequest(f"time: {e}") from None
    spec = GameSpec(size if size is not None else 19, rules, handicap or 0)
    try:
        spec.new_game()
    except (HandicapError, ValueError) as e:
        raise BadRequest(f"handicap: {e}") from None
    black, white = _seat(body, "black"), _seat(body, "white")
    if black != HUMAN and white != HUMAN:
        raise Unsupported("games between two computer seats are not supported: one seat at least must be human")
    is_open = body.get("open", False)
    if not isinstance(is_open, bool):
        raise BadRequest(f"'open' must be true or false, not {json_type(is_open)}")
    if is_open and (black != HUMAN or white != HUMAN):
        raise BadRequest("an open game needs two human seats: 'open' leaves White's seat free for whoever joins")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise BadRequest(f"'rated' must be true or false, not {json_type(rated)}")
    if rated and (black != HUMAN or white != HUMAN):
        raise BadRequest("a rated game is between two people: both seats must be human")
    if rated and spec.handicap:
        raise BadRequest("a rated game made here is even (handicap 0); automatch gives the handicap a rank gap calls for")
    if rated:
        preset = rules.nearest_preset()
        usual = Rules.preset(preset).komi
        if rules.komi != usual:
            raise BadRequest(
                f"a rated game made here is even, with its rules' komi ({usual:g} under {preset}), "
                f"not {rules.komi:g}: a rating counts both sides' chances as equal"
            )
    return NewGame(spec, time_control, black, white, open=is_open, rated=rated)


def new_record(new: NewGame, now_ms: int) -> tuple[GameRecord, dict[Color, str]]:
    """The game's row and the tokens of its human seats (shown once; only hashes are stored)."""
    tokens = {c: new_token() for c in (Color.BLACK, Color.WHITE) if new.kind(c) == HUMAN}
    hashes = {c: hash_token(t) for c, t in tokens.items()}
    if new.open:  # White's seat waits for a visitor: no token exists for it until one joins
        del tokens[Color.WHITE]
        hashes[Color.WHITE] = free_seat_marker()
    record = GameRecord(
        id=new_game_id(),
        size=new.spec.size,
        rules=str(new.spec.rules),
        handicap=new.spec.handicap,
        komi=new.spec.rules.komi,
        time_control=new.time_control,
        black_kind=new.black,
        white_kind=new.white,
        black_token_hash=hashes.get(Color.BLACK),
        white_token_hash=hashes.get(Color.WHITE),
        status="play",
        result=None,
        v=0,
        created_ms=now_ms,
        rated=new.rated,
        to_move=str(new.spec.new_game().to_act),
    )
    if new.creator is not None:
        first = Color.BLACK if new.black == HUMAN else Color.WHITE
        record = record.bound(first, new.creator, new.person)
    return record, tokens
