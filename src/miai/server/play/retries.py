"""A retried action is recognised, not applied twice: by its action id, or by the same seat
sending the same request for the version it already changed (docs/SERVER.md §3.2)."""

from __future__ import annotations

from collections.abc import Sequence

from miai.coords import Color
from miai.server.errors import Conflict
from miai.server.play.actions import Action
from miai.server.play.events import Event

__all__ = ["Retries"]


class Retries:
    """The events of a game by the seat and action id that asked for them."""

    def __init__(self, events: Sequence[Event]):
        self._by_action_id: dict[tuple[Color | None, str], Event] = {}
        self.note(events)

    def note(self, events: Sequence[Event]) -> None:
        """Remember the action ids of newly committed ``events``."""
        for e in events:
            if e.action_id is not None:
                self._by_action_id[(e.seat, e.action_id)] = e

    def earlier(self, events: Sequence[Event], seat: Color, action: Action, request: str) -> Event | None:
        """The event an identical earlier request of ``seat`` produced, if this is a retry of it
        (raises :class:`Conflict` for an action id reused for another request)."""
        v = len(events)
        if action.action_id is not None:
            done = self._by_action_id.get((seat, action.action_id))
            if done is not None:
                if done.request != request:
                    raise Conflict(
                        f"the action id {action.action_id!r} was already used for another action (v={done.v})",
                        v=v,
                    )
                return done
        if action.v is not None and action.v < v:
            e = events[action.v]  # the event that followed the version the client saw
            if e.seat is seat and e.request == request:
                return e
        if action.v is None and events:
            last = events[-1]
            if last.seat is seat and last.request == request:
                return last
        return None
