"""The computer's step in the dead-stone agreement (docs/RULES.md §5), written once for
``miai play``, the server's computer seats and ``miai bot``.

A computer holds a view of the dead stones (the status estimate, :mod:`miai.ai.status`, or an
engine's ``final_status_list dead``) and answers the agreement by it: it accepts a pending
proposal that marks the same stones dead, proposes its own (or counter-proposes it) when it
may, and refuses a counter-proposal it does not share (play resumes). The rule reads only the
stones, so the caller says how to carry the reply out (a terminal's action, a request body).

This module imports only the rules core: no kernel, so a thin client can use it.
"""

from __future__ import annotations

from collections.abc import Hashable
from collections.abc import Set as AbstractSet
from enum import Enum
from typing import TypeVar

from miai.coords import Point
from miai.endgame import Marking

__all__ = ["MarkingReply", "marking_reply", "reply_by_view"]

T = TypeVar("T", bound=Hashable)


class MarkingReply(str, Enum):
    """What a player following its own view of the dead stones does at its step."""

    ACCEPT = "accept"
    """Accept the pending proposal: it marks the same stones dead."""
    PROPOSE = "propose"
    """Propose (or counter-propose) its own view."""
    REFUSE = "refuse"
    """Refuse the counter-proposal it does not share: play resumes."""


def reply_by_view(ours: AbstractSet[T], pending: AbstractSet[T] | None, *, countered: bool) -> MarkingReply:
    """The reply of a player who holds ``ours`` to be the dead stones, at its step: ``pending``
    is the dead stones of the proposal it answers (None when it proposes first), ``countered``
    whether that proposal is a counter-proposal (its own was countered). The stones may be
    points or the wire's vertices, as long as both sets are the same kind."""
    if pending is not None and pending == ours:
        return MarkingReply.ACCEPT
    if not countered:
        return MarkingReply.PROPOSE
    return MarkingReply.REFUSE


def marking_reply(marking: Marking, dead: AbstractSet[Point]) -> MarkingReply:
    """:func:`reply_by_view` for :attr:`Marking.to_act <miai.endgame.Marking.to_act>`, whose
    view of the dead stones is ``dead``."""
    pending = marking.pending
    return reply_by_view(dead, None if pending is None else pending.dead, countered=marking.counter is not None)
