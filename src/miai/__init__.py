"""miai: the game of Go, exactly — rules, records, a GTP engine and a place to play.

>>> from miai import Game, Rules
>>> game = Game(9, Rules.preset("japanese"))
>>> game.play("E5")
Move(Color.BLACK, (4, 4))
>>> str(game.resign())
'B+R'

Importing the core is cheap: the compiled kernel (numba) is loaded by :mod:`miai.board` on
the first ``Board()``, so ``miai gtp`` answers ``name`` before numba is imported.
"""

from __future__ import annotations

from miai.board import Board
from miai.clock import Clock, TimeControl
from miai.coords import Color, Move, Point
from miai.errors import (
    ArgumentError,
    BoardSizeError,
    ClockError,
    ConfigError,
    HandicapError,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    MiaiError,
    ResultError,
    RulesError,
    SgfError,
)
from miai.game import Game, GameSpec, Phase, Setup
from miai.result import EndReason, Result, Termination
from miai.rules import PRESETS, HandicapBonus, KoRule, Rules, Scoring
from miai.scoring import ColorScore, Score

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "ArgumentError",
    "Board",
    "BoardSizeError",
    "Clock",
    "ClockError",
    "Color",
    "ColorScore",
    "ConfigError",
    "EndReason",
    "Game",
    "GameSpec",
    "HandicapBonus",
    "HandicapError",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidMoveError",
    "KoRule",
    "MiaiError",
    "Move",
    "Phase",
    "Point",
    "Result",
    "ResultError",
    "Rules",
    "RulesError",
    "Scoring",
    "Score",
    "Setup",
    "SgfError",
    "Termination",
    "TimeControl",
]
