"""The errors the server answers with: each carries its HTTP status and a stable code.

Every error a client can cause is an :class:`ApiError` (a :class:`~miai.errors.MiaiError` and a
``ValueError``), turned into a JSON answer ``{"error": code, "message": ..., ...}`` by the HTTP
layer and into an error frame by the WebSocket; the message says what was wrong.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from miai.errors import IllegalMoveError, IllegalReason, MiaiError

__all__ = [
    "ApiError",
    "BadRequest",
    "Busy",
    "Conflict",
    "Forbidden",
    "IllegalAction",
    "NotFound",
    "PayloadTooLarge",
    "RecordUnreadable",
    "StaleVersion",
    "TooManyRequests",
    "Unauthorized",
    "Unavailable",
    "database_down",
    "Unsupported",
    "WireReason",
]


class ApiError(MiaiError, ValueError):
    """An answer other than success: ``status`` (HTTP), ``code`` and extra JSON fields."""

    status = 400
    code = "bad-request"

    def __init_subclass__(cls, *, status: int | None = None, code: str | None = None, **kwargs: Any):
        """``class NotFound(ApiError, status=404, code="not-found")``: a subclass names its
        status and code in its header; one it leaves out is inherited."""
        super().__init_subclass__(**kwargs)
        if status is not None:
            cls.status = status
        if code is not None:
            cls.code = code

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}

    def headers(self) -> dict[str, str]:
        """HTTP headers the answer carries (``Retry-After`` for a 429)."""
        return {}


class BadRequest(ApiError):
    """Malformed input: not JSON, an unknown field, a wrong type, a bad value."""


class Forbidden(ApiError, status=403, code="forbidden"):
    """A missing or wrong seat token, or a spectator trying to act."""


class Unauthorized(ApiError, status=401, code="unauthorized"):
    """A login that failed: the same answer for an unknown user and a wrong password."""


class NotFound(ApiError, status=404, code="not-found"):
    """Nothing by that id or name: no such game, action or page."""


class Conflict(ApiError, status=409, code="conflict"):
    """The request cannot apply to the game as it now stands (an action id reused)."""


class StaleVersion(Conflict, code="stale-version"):
    """The client's ``v`` is not the game's current version; ``v`` in the answer is."""

    def __init__(self, message: str, *, v: int):
        super().__init__(message, v=v)


class PayloadTooLarge(ApiError, status=413, code="too-large"):
    """A request body or WebSocket frame over its limit (:class:`~miai.server.config.ServerConfig`)."""


class WireReason(str, Enum):
    """Why an action is refused (the ``reason`` of a 422 answer, docs/SERVER.md §3): the rules'
    reasons (:class:`~miai.errors.IllegalReason`, by the same names, :meth:`of`) and the
    server's own. The value is the wire's word."""

    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    KO = "ko"
    SUPERKO = "superko"
    WRONG_PHASE = "wrong-phase"
    OUT_OF_TURN = "out-of-turn"
    NOT_A_STONE = "not-a-stone"
    OUT_OF_TIME = "out-of-time"
    """The action came after the player's time ran out: the game is over on time."""
    NOTHING_TO_UNDO = "nothing-to-undo"
    UNDO_PENDING = "undo-pending"
    NO_UNDO_REQUEST = "no-undo-request"
    OWN_REQUEST = "own-request"
    """A seat answered its own undo request."""
    COMPUTER = "computer"
    """A claim against a computer seat, which never leaves."""
    NOT_THEIR_TURN = "not-their-turn"
    OPPONENT_PRESENT = "opponent-present"
    NOT_GONE_YET = "not-gone-yet"
    CORRESPONDENCE = "correspondence"
    """A claim in a correspondence game, where the clock, not presence, decides."""
    UNDO_LIMIT = "undo-limit"
    """A seat asked too often to take back the same move."""
    PROPOSAL_DIFFERS = "proposal-differs"
    """An accept named dead stones other than the pending proposal's."""
    CANNOT_APPLY = "cannot-apply"
    """The rules core refused the action for a reason of its own (a bad value it was given)."""

    @classmethod
    def of(cls, reason: IllegalReason) -> WireReason:
        """The wire's word for a rule's reason."""
        return cls[reason.name]


class IllegalAction(ApiError, status=422, code="illegal"):
    """A well-formed action the rules forbid now: ``reason`` says which rule."""

    def __init__(self, message: str, *, reason: WireReason, **extra: Any):
        super().__init__(message, reason=WireReason(reason).value, **extra)


class RecordUnreadable(ApiError, status=422, code="unreadable"):
    """An uploaded game record that cannot be reviewed: the reader's message says where and why."""


class Unsupported(ApiError, status=422, code="unsupported"):
    """A well-formed request for something this server does not do yet (clocks, computer seats)."""


class TooManyRequests(ApiError, status=429, code="rate-limited"):
    """Over a rate limit: ``limit`` names it, ``retry_after`` is in whole seconds."""

    def __init__(self, message: str, *, limit: str, retry_after: int):
        super().__init__(message, limit=limit, retry_after=retry_after)
        self.retry_after = retry_after

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class Unavailable(ApiError, status=503, code="unavailable"):
    """The server could not do it now (the database failed): the client retries the same request."""


class Busy(Unavailable, code="busy"):
    """Every worker that could do it is taken: an extra (the score estimate) is refused at
    once rather than queued, so that it never delays a game."""


def database_down() -> Unavailable:
    """The 503 for a request that met a database outage (:func:`miai.server.storage.db.is_outage`)."""
    return Unavailable("the database cannot be reached right now: retry in a moment")


def illegal(err: IllegalMoveError) -> IllegalAction:
    """The 422 answer for a move or marking step the rules forbid."""
    extra: dict[str, Any] = {}
    if err.repeats_move is not None:
        extra["repeats_move"] = err.repeats_move
    return IllegalAction(str(err), reason=WireReason.of(err.reason), **extra)
