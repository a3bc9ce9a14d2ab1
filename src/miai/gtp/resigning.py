"""When the computer resigns over GTP: :class:`Resigning`, ``miai gtp --resign WHEN``.

As KGS bots do, it resigns hopeless games by default only in timed play (the controller sent
``time_settings`` or ``kgs-time_settings`` with a clock): an untimed game is often analysis or a
teaching game, where playing on is wanted.
"""

from __future__ import annotations

from enum import Enum

from miai.clock import TimeControl
from miai.errors import MiaiError

__all__ = ["Resigning"]


class Resigning(str, Enum):
    """``auto`` (timed games only, or when the player's configuration asks), ``always``, ``never``."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Resigning:
        """The policy named by ``text`` (the inverse of ``str()``)."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise MiaiError(
                f"resigning must be one of {', '.join(p.value for p in cls)}, not {text!r}"
            ) from None

    def resigns(self, time_control: TimeControl, configured: bool) -> bool:
        """Whether the player may resign under ``time_control``, its configuration saying ``configured``."""
        if self is Resigning.AUTO:
            return configured or not time_control.unlimited
        return self is Resigning.ALWAYS
