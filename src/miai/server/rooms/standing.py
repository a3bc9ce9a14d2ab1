"""What a commit says of a game besides its events: whom it waits for, until when, whether it
is rated, and, when it ends a rated game, the ratings that change with it (same transaction)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncConnection

from miai.clock import Clock
from miai.game import Game, Phase
from miai.server.people.ratings import rated_end, settle
from miai.server.play.seats import GameRecord
from miai.server.play.timing import ticking
from miai.server.storage.store import Turn

__all__ = ["turn_after"]


def turn_after(
    record: GameRecord, game: Game, clock: Clock, now_ms: int
) -> tuple[Turn, Callable[[AsyncConnection], Awaitable[None]] | None]:
    """The row's turn after ``game`` (with ``clock``) at wall-clock ``now_ms``, and the ratings'
    settlement to commit with it when this ends a rated game (None otherwise)."""
    to_act = game.to_act
    running = ticking(clock)
    remaining = clock.remaining_ms(running) if running is not None else None
    deadline = now_ms + remaining if remaining is not None else None
    if game.phase is not Phase.FINISHED:
        return Turn(str(to_act) if to_act is not None else None, deadline, record.rated), None
    if record.status == Phase.FINISHED.value:  # already over (a note after the end): nothing to settle
        return Turn(None, None, record.rated), None
    end = rated_end(record, game, now_ms)
    return Turn(None, None, end is not None), functools.partial(settle, end=end) if end is not None else None
