"""What the GTP command groups share: :class:`GtpState`, the seam between the engine and the
groups it registers (:mod:`miai.gtp.position`, :mod:`miai.gtp.counting`,
:mod:`miai.gtp.genmove`).

The groups type against this Protocol, not against :class:`~miai.gtp.engine.GtpEngine`,
so that the engine can import them without their importing it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import MctsPlayer
    from miai.clock import TimeControl, TimeLeft
    from miai.coords import Color
    from miai.game import Game
    from miai.gtp.resigning import Resigning
    from miai.rules import Rules

__all__ = ["GtpState", "Stream"]

Stream = Callable[[Callable[[str], None], Callable[[], bool]], None]
"""A streaming job (``lz-analyze``): called with ``write(line)`` and ``stopped()``, returns
once stopped. A handler leaves it in :attr:`GtpState.stream`; the session runs it."""


class GtpState(Protocol):
    """The state of a GTP engine that its command groups read (the settings, the game, the
    clocks, the log) and change (the computer player, its configuration, the streaming job)."""

    @property
    def size(self) -> int:
        """The board size of the game, or of the next one."""

    @property
    def rules(self) -> Rules:
        """The rules in effect (komi included)."""

    @property
    def game(self) -> Game:
        """The current game, created (and the kernel loaded) on first use."""

    @property
    def time_control(self) -> TimeControl:
        """The time control the controller announced."""

    @property
    def time_left(self) -> dict[Color, TimeLeft]:
        """The last ``time_left`` of each colour."""

    @property
    def log(self) -> Callable[[str], None]:
        """Where warnings for people go (never stdout, which belongs to the protocol)."""

    @property
    def resigning(self) -> Resigning:
        """When the computer may resign (``auto``: in timed games)."""

    ai_config: MctsConfig | None
    """The configuration of the computer player (None: the defaults); ``level`` sets it."""

    player: MctsPlayer | None
    """The computer player, built on first use and kept while :attr:`ai_config` stays the same."""

    stream: Stream | None
    """A streaming job a handler left for the session to run after its ``=`` line."""
