"""An engine's own win rate for its move, read from what it writes on stderr.

GTP has no command for "how do you rate this position", but most engines say it on stderr
as they answer ``genmove``: miai's ``... winrate 0.534, 2000 playouts ...``, Pachi's final
``*** WINNER is D4 (4,4) with score 0.5800 ...`` or its progress lines ``[20000] best
0.58 ...`` (Pachi 12 writes percentages: ``with score 56.0%``). :func:`last_winrate` reads
the last such figure in the lines one ``genmove`` produced, leaving out a figure searched with
an extra komi (a dynamic komi: miai's ``, extra komi 4``, Pachi's ``xkomi 4.0`` or ``extra
komi 4.000000`` on the same line), which is not the game's; the referee keeps it per move
(``GameResult.winrates``, the records' comments), so a match tells afterwards how each
engine saw the game, with no engine run again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WINRATE = re.compile(r"(?:with score|\] best|winrate) (-?[0-9]*\.?[0-9]+)(%?)")
"""A win rate for the side to move in an engine's stderr: Pachi's final ``with score`` or its
progress lines' ``[20000] best`` (a fraction, or a percentage with its sign), or miai's
``winrate``."""

EXTRA_KOMI = re.compile(r"(?:xkomi|extra komi) (-?[0-9]*\.?[0-9]+)")
"""An extra komi the figures of the same line were counted with (miai's and Pachi's)."""


def last_winrate(lines: Iterable[str]) -> float | None:
    """The last win rate (between 0 and 1) the ``lines`` state, or None if none does.
    Figures outside 0–1 (a score, not a probability) are not win rates and are skipped, and
    so are those of a line with a nonzero extra komi."""
    found = None
    for line in lines:
        if any(float(m.group(1)) != 0.0 for m in EXTRA_KOMI.finditer(line)):
            continue
        for m in WINRATE.finditer(line):
            value = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
            if 0.0 <= value <= 1.0:
                found = value
    return found
