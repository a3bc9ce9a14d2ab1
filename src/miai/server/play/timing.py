"""A game's clocks on the server: ONE step from one event to the next, and their views.

The arithmetic is :mod:`miai.clock`'s (:class:`~miai.clock.Clock` is an immutable value with
an injected monotonic ``now``); this module only decides, from the game after an event,
which clock should run (docs/SERVER.md §1.5):

* **play**: the clock of the player to move runs. When the player whose clock ran is no
  longer the one to move (a move, a pass, an undo), their clock is stopped, with the lag
  measured for the event if they made it, and the new player's starts;
* **marking**: the clocks are paused (the turn that was running is charged first, as for a
  pass, and nobody's clock runs until play resumes);
* **finished**: the clocks are paused where they stand (nobody is charged any more).

:func:`step` knows nothing of what the event was, only the game it left, so every kind of
event (an undo as well as a move) gets correct clocks by calling it.

**When the clocks start** (Lichess's rule): once each side has made its first move (or
pass). Neither first move is timed, so a game created from an invitation link costs nobody
time while the other player has not yet arrived; from the second side's first move on, the
player to move is always timed. An undo back before that point stops the clocks again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from miai.clock import Clock, LagAllowance, TimeControl, TimeLeft
from miai.coords import Color
from miai.game import Game, Phase
from miai.server.play.events import Event, EventKind
from miai.timesource import StillTime, TimeSource

__all__ = [
    "clock_from_events",
    "clock_view",
    "clocks_started",
    "move_times",
    "step",
    "thinking_seconds",
    "ticking",
]

def clocks_started(game: Game) -> bool:
    """Whether both sides have made a move (or pass): from then on the player to move is timed."""
    colors = {m.color for m in game.moves}
    return Color.BLACK in colors and Color.WHITE in colors


def step(clock: Clock, game: Game, *, actor: Color | None = None, lag_ms: int = 0) -> Clock:
    """The clock after an event, given the clock before it and the ``game`` after it.

    ``actor`` is the seat that acted (None: the server) and ``lag_ms`` the lag measured for
    the event; it is excused (from the lag bank) only when the actor is the player whose
    clock was running. The result may be :attr:`~miai.clock.Clock.flagged`: the running
    player's time had run out (the caller then ends the game on time instead).
    """
    if clock.control.unlimited or clock.flagged is not None:
        return clock
    if game.phase is Phase.FINISHED:
        return clock.pause()
    target = game.to_move if game.phase is Phase.PLAY and clocks_started(game) else None
    if clock.running is not None and clock.running is not target:
        clock = clock.stop(lag_ms=lag_ms if actor is clock.running else 0)
        if clock.flagged is not None:
            return clock
    if game.phase is Phase.MARKING:
        return clock.pause()
    clock = clock.resume()
    if target is not None and clock.running is None:
        clock = clock.start(target)
    return clock


def ticking(clock: Clock) -> Color | None:
    """The player whose clock is counting down now (None when paused, stopped or untimed)."""
    if clock.control.unlimited or clock.paused or clock.flagged is not None:
        return None
    return clock.running


def _left(clock: Clock, color: Color) -> dict[str, int] | None:
    left = clock.time_left(color)
    return {"ms": left.ms, "stones": left.stones} if left is not None else None


def clock_view(clock: Clock) -> dict[str, Any]:
    """The clocks as they stand now, for an event's payload and ``GET /api/games/{id}``.

    :meth:`Clock.to_json <miai.clock.Clock.to_json>` (exact, so :meth:`Clock.from_json`
    restores it), plus what a client shows: ``describe`` (the control for people),
    ``ticking`` (the side counting down now, or null), and per side ``remaining_ms`` (until
    its flag falls, without the lag bank) and ``time_left`` (``ms`` of the main time or of
    the current overtime period, with ``stones``: byo-yomi periods or Canadian stones left).
    """
    view = clock.to_json()
    view["describe"] = clock.control.describe()
    t = ticking(clock)
    view["ticking"] = str(t) if t is not None else None
    view["remaining_ms"] = {str(c): clock.remaining_ms(c) for c in (Color.BLACK, Color.WHITE)}
    view["time_left"] = {str(c): _left(clock, c) for c in (Color.BLACK, Color.WHITE)}
    return view


def clock_from_events(
    control: TimeControl, events: Iterable[Event], *, time: TimeSource, lag: LagAllowance
) -> Clock:
    """The clock after a game's ``events``, on ``time``: the last one stored with an event,
    restarted now (the time since that event is charged to nobody: docs/SERVER.md §1.5), or
    fresh clocks when no event carries one. A correspondence game's clock is the calendar's:
    the days since that event are charged to the player to move (§6)."""
    last: Mapping[str, Any] | None = None
    at_ms = 0
    for e in events:
        if isinstance(e.payload.get("clock"), dict):
            last, at_ms = e.payload["clock"], e.at_ms
    if last is None or control.unlimited:
        return Clock.new(control, time=time, lag=lag)
    clock = Clock.from_json(last, time=time)
    if control.correspondence and clock.running is not None and not clock.paused:
        clock = replace(clock, used_ms=clock.used_ms + max(0, time.wall_ms() - at_ms))
    return clock


def move_times(control: TimeControl, events: Iterable[Event]) -> dict[int, TimeLeft]:
    """The mover's time left after each move or pass, by move number (1, 2, ...), from the
    clocks the events carry: what an SGF record writes as ``BL``/``WL`` and ``OB``/``OW``.
    Moves made before the clocks started carry the full time; moves taken back by an undo
    lose theirs (the move played again in their place gets its own)."""
    out: dict[int, TimeLeft] = {}
    if control.unlimited:
        return out
    number = 0
    for e in events:
        if e.kind is EventKind.UNDO:  # the moves taken back lose their times
            for gone in e.payload["moves"]:
                out.pop(gone, None)
            number -= len(e.payload["moves"])
            continue
        if e.kind not in (EventKind.MOVE, EventKind.PASS):
            continue
        number += 1
        data = e.payload.get("clock")
        if not isinstance(data, dict):
            continue
        left = Clock.from_json(data, time=StillTime()).time_left(Color.parse(e.payload["color"]))
        if left is not None:
            out[number] = left
    return out


def thinking_seconds(clock: Clock, color: Color, game: Game, level: int, cap: float) -> float:
    """How long a computer seat may think about its move: the search's own budget for the
    time it has left (:func:`miai.ai.mcts.move_budget`), never more than ``cap``."""
    if clock.control.unlimited:
        return cap
    from miai.ai.config import MctsConfig
    from miai.ai.mcts import move_budget

    config = MctsConfig.for_level(level, max_seconds=cap)
    budget = move_budget(clock.control, clock.time_left(color), game, config, now_ms=clock.time.monotonic_ms())
    return cap if budget is None else min(cap, budget)
