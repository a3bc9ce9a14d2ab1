"""miai: the game of Go, exactly — rules, records, a GTP engine and a place to play.

>>> from miai import Game, Rules
>>> game = Game(9, Rules.preset("japanese"))
>>> game.play("E5")
Move(Color.BLACK, (4, 4))

The names below are imported on first use, so that ``import miai.gtp`` (whose engine must
answer at once) does not load the compiled kernel before a command needs it.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Board": "miai.board",
    "Color": "miai.coords",
    "Move": "miai.coords",
    "Point": "miai.coords",
    "HandicapError": "miai.errors",
    "IllegalMoveError": "miai.errors",
    "IllegalReason": "miai.errors",
    "InvalidMoveError": "miai.errors",
    "MiaiError": "miai.errors",
    "ResultError": "miai.errors",
    "RulesError": "miai.errors",
    "SgfError": "miai.errors",
    "Game": "miai.game",
    "Phase": "miai.game",
    "Setup": "miai.game",
    "Result": "miai.result",
    "Termination": "miai.result",
    "PRESETS": "miai.rules",
    "HandicapBonus": "miai.rules",
    "KoRule": "miai.rules",
    "Rules": "miai.rules",
    "Scoring": "miai.rules",
    "ColorScore": "miai.scoring",
    "Score": "miai.scoring",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'miai' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
