"""The error hierarchy of miai.

Every error a user can cause is a subclass of :class:`MiaiError` and of ``ValueError``
(as in python-chess), and carries a stable reason code that travels unchanged to GTP,
the terminal and the web UI, which translate it for people.
"""

from __future__ import annotations

from enum import Enum


class MiaiError(Exception):
    """Base class of every error miai raises on purpose."""


class IllegalReason(str, Enum):
    """Why a well-formed move is not allowed in the current position."""

    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    KO = "ko"
    SUPERKO = "superko"
    WRONG_PHASE = "wrong phase"
    """The game is not in the phase, or the dead-stone agreement not at the step, this needs."""
    OUT_OF_TURN = "out of turn"
    """A step of the dead-stone agreement that is the other player's to take now."""
    NOT_A_STONE = "not a stone"
    """An empty point marked as a dead (or seki) stone."""


class IllegalMoveError(MiaiError, ValueError):
    """A well-formed move that the rules forbid here.

    ``reason`` says which rule; for superko, ``repeats_move`` is the number of the move
    after which the repeated position first stood (0 is the starting position, with
    handicap stones if any).
    """

    def __init__(self, reason: IllegalReason, message: str, *, repeats_move: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.repeats_move = repeats_move


class InvalidMoveError(MiaiError, ValueError):
    """Text or a value that does not denote a move on this board (syntax, off the board)."""


class BoardSizeError(MiaiError, ValueError):
    """A board size miai does not play on (not an integer from 2 to 25)."""


class ArgumentError(MiaiError, ValueError):
    """An argument of the wrong kind or out of its range (a number of playouts, a colour
    that is not a Color...); the message names the argument and what it accepts."""


class RulesError(MiaiError, ValueError):
    """A ruleset description that cannot be understood, or an invalid rule value."""


class HandicapError(MiaiError, ValueError):
    """A handicap that cannot be placed (count, board size, occupied or repeated points)."""


class SgfError(MiaiError, ValueError):
    """A game record that cannot be read. The message says where (line, column or node)."""


class ResultError(MiaiError, ValueError):
    """A game result that cannot be read or does not make sense (a margin for a resignation)."""


class ClockError(MiaiError, ValueError):
    """A time control or a clock value that cannot be read or makes no sense (nan, infinite,
    negative or huge times; a byo-yomi without periods); the message names the field."""


class ConfigError(MiaiError, ValueError):
    """A setting of the computer player (a knob of :class:`miai.ai.config.MctsConfig`, a level)
    of the wrong type or out of its range. The message names the knob and what it allows."""
