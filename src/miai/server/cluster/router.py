"""Any process serves any client: a request about a game runs on the game's owner.

The HTTP API and the WebSocket ask for a game's operations by name with JSON arguments
(:data:`OPS`): ``state``, ``events``, ``sgf``, ``count``, ``estimate``, ``act``, ``name``, ``join``, ``auth``, ``chat``,
``visit``, ``reseat``. :meth:`Router.call` runs one in this process's room when this process owns the
game's shard, and otherwise forwards it over the bus to the owner, which runs it the same way
(:meth:`Router.answer`) and sends back the answer or the error (status and JSON, as its own
client would have got them). No owner: this process tries to take the shard at once; a shard
between owners (given up, or its old owner still closing it) is asked again until
``forward_timeout_s``; a lost or late answer is a 503 the client retries (an action with the
same ``a`` or ``v`` is never applied twice). With one process
(:class:`~miai.server.cluster.shards.Everything`) nothing is forwarded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from miai.coords import Color
from miai.server.cluster.bus import Bus, NoOwner
from miai.server.cluster.shards import Ownership
from miai.server.config import ServerConfig
from miai.server.errors import ApiError, Forbidden, NotFound, Unavailable, database_down
from miai.server.play.actions import Action, ActionKind
from miai.server.play.timing import move_times
from miai.server.play.tokens import GAME_ID
from miai.server.records.export import game_sgf, seat_names
from miai.server.rooms.counting import count_marked, estimate_score
from miai.server.rooms.registry import Registry
from miai.server.rooms.room import GameRoom
from miai.server.rooms.seating import join_free_seat, name_seat, reload_seats
from miai.server.rooms.views import game_state
from miai.server.storage.db import is_outage

__all__ = ["Router", "RemoteError", "OPS", "action_json", "action_of"]

log = logging.getLogger("miai.server")
Args = dict[str, Any]

HANDOVER_POLL_S = 0.1
"""How often a request for a game that has no owner for the moment (its shard being handed over,
or its owner just dead) looks again, until ``ServerConfig.forward_timeout_s`` has passed."""
MOVED = "moved"
"""Set in an owner's answer to a forwarded request for a game it has just given up: nothing ran,
and the forwarding process asks the shard's next owner instead of passing the 503 on (an older
process that does not set it still gets its 503 through, and the client retries)."""


class RemoteError(ApiError):
    """The owner's error answer, passed on as it was (status and JSON body)."""

    def __init__(self, status: int, body: dict[str, Any]):
        super().__init__(str(body.get("message", "error")))
        self.status = status
        self.body = body

    def to_json(self) -> dict[str, Any]:
        return dict(self.body)


def action_json(action: Action) -> Args:
    """An action as JSON, for forwarding (:func:`action_of` takes it back)."""
    data = dataclasses.asdict(action)
    data["kind"] = action.kind.value
    return data


def action_of(data: Args) -> Action:
    return Action(
        **{
            **data,
            "kind": ActionKind(data["kind"]),
            "dead": tuple(data.get("dead", ())),
            "seki": tuple(data.get("seki", ())),
            "accepting": tuple(data["accepting"]) if data.get("accepting") is not None else None,
        }
    )


def _seen(room: GameRoom, token: str | None) -> None:
    seat = room.seat_of(token) if token else None
    if seat is not None:
        room.seen(seat)


async def _state(room: GameRoom, args: Args) -> Any:
    _seen(room, args.get("token"))
    return game_state(room)


async def _events(room: GameRoom, args: Args) -> Any:
    _seen(room, args.get("token"))
    return {"events": room.events_after(int(args["after"]), int(args["limit"])), "v": room.v}


async def _sgf(room: GameRoom, args: Args) -> Any:
    return game_sgf(
        room.game,
        created_ms=room.record.created_ms,
        players=seat_names(room.record),
        time_control=room.control,
        times=move_times(room.control, room.events),
        chat=await room.store.load_chat(room.id),
    )


async def _count(room: GameRoom, args: Args) -> Any:
    return count_marked(room, list(args.get("dead") or ()), list(args.get("seki") or ()))


async def _estimate(room: GameRoom, args: Args) -> Any:
    return await estimate_score(room, room.thinking.workers)


async def _act(room: GameRoom, args: Args) -> Any:
    return await room.act(args.get("token"), action_of(args["action"]))


async def _name(room: GameRoom, args: Args) -> Any:
    person = args.get("person")
    await name_seat(room, args.get("token"), str(args["name"]), str(person) if person is not None else None)


def _visit(room: GameRoom, args: Args) -> Color | None:
    """A connection on another process (``key``) is here, or has left (``leave``): counted in
    the room's presence (visitors.py), its seat seen; everyone is told when that changes."""
    token, key = args.get("token"), str(args["key"])
    seat = room.seat_of(token) if token else None
    if token and seat is None:
        raise Forbidden("the token is not a seat's token for this game")
    now = room.now_ms()
    if args.get("leave"):
        changed = room.audience.visitors.leave(key)
        if seat is not None:
            room.attendance.left(seat, now)
    else:
        changed = room.audience.visitors.here(key, seat, now, int(room.config.visit_ttl_s * 1000))
        if seat is not None:
            room.seen(seat)
    if changed:
        room.announce_presence()
    return seat


async def _join(room: GameRoom, args: Args) -> Any:
    """What a client connecting through another process needs first: its seat, the version,
    who is connected, the events after ``after`` (or the whole state) and the recent chat. It
    is a visitor of the room from then on (:func:`_visit`)."""
    after = int(args["after"])
    seat = _visit(room, args)
    replay = 0 <= after <= room.v
    return {
        "v": room.v,
        "seat": str(seat) if seat is not None else None,
        "presence": room.presence(),
        "events": room.events_after(after, room.v) if replay else None,
        "state": None if replay else game_state(room),
        "chat": list(room.audience.chat),
    }


async def _take_seat(room: GameRoom, args: Args) -> Any:
    name, person = args.get("name"), args.get("person")
    return await join_free_seat(room, str(name) if name is not None else None, str(person) if person is not None else None)


async def _auth(room: GameRoom, args: Args) -> Any:
    seat = room.seat_of(args.get("token"))
    if seat is None:
        raise Forbidden("the token is not a seat's token for this game")
    room.seen(seat)
    return str(seat)


async def _reseat(room: GameRoom, args: Args) -> Any:
    await reload_seats(room)


async def _chat(room: GameRoom, args: Args) -> Any:
    seat = Color.parse(args["seat"]) if args.get("seat") else None
    name = room.record.name(seat) if seat is not None else None
    try:
        return await room.audience.say(seat, str(args["text"]), name=name, move=len(room.game.moves))
    except Exception as e:
        if is_outage(e):
            raise database_down() from e
        raise


async def _visit_op(room: GameRoom, args: Args) -> Any:
    seat = _visit(room, args)
    return str(seat) if seat is not None else None


OPS: dict[str, Callable[[GameRoom, Args], Awaitable[Any]]] = {
    "state": _state,
    "events": _events,
    "sgf": _sgf,
    "count": _count,
    "estimate": _estimate,
    "act": _act,
    "name": _name,
    "join": _join,
    "take-seat": _take_seat,
    "auth": _auth,
    "chat": _chat,
    "visit": _visit_op,
    "reseat": _reseat,
}


class Router:
    """Runs a game's operations where the game is owned (see the module's docstring)."""

    def __init__(self, registry: Registry, ownership: Ownership, bus: Bus, config: ServerConfig):
        self.registry = registry
        self.ownership = ownership
        self.bus = bus
        self.config = config

    def owns(self, game_id: str) -> bool:
        return self.ownership.owns(game_id)

    async def call(self, game_id: str, op: str, args: Args) -> Any:
        """The answer of ``op`` on the game, wherever its owner is."""
        if not GAME_ID.fullmatch(game_id):
            raise NotFound(f"no game {game_id!r}")
        shard = self.ownership.shard(game_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.forward_timeout_s
        while True:
            if shard in self.ownership.owned:
                return await self.local(game_id, op, args)
            answer: dict[str, Any] | None
            try:
                answer = await self.bus.request(
                    shard, {"game": game_id, "op": op, "args": args}, self.config.forward_timeout_s
                )
            except NoOwner:
                if await self.ownership.try_take(shard):
                    continue
                # A shard being handed over (its old owner closes its rooms, then unlocks it) or
                # whose owner just died has no owner for a moment: wait for the next one.
                answer = None
            # No owner, or the old one, mid-handover, ran nothing: ask again once the next owner is in.
            if answer is None or answer.get(MOVED):
                await self._wait_for_next_owner(deadline)
                continue
            if "error" in answer:
                raise RemoteError(int(answer["status"]), answer["error"])
            return answer.get("ok")

    @staticmethod
    async def _wait_for_next_owner(deadline: float) -> None:
        """Sleep before asking a shard between owners again; a 503 once ``deadline`` is near."""
        if asyncio.get_running_loop().time() + HANDOVER_POLL_S > deadline:
            raise Unavailable("no server owns this game right now: retry in a moment")
        await asyncio.sleep(HANDOVER_POLL_S)

    async def local(self, game_id: str, op: str, args: Args) -> Any:
        handler = OPS[op]
        return await self.registry.run(game_id, lambda room: handler(room, args))

    async def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """The owner's side of a forwarded request: its answer, or its error as status and JSON."""
        game_id, op = str(message.get("game", "")), str(message.get("op", ""))
        if op not in OPS:
            return {"status": 400, "error": {"error": "bad-request", "message": f"unknown operation {op!r}"}}
        if not self.ownership.owns(game_id):
            err: ApiError = Unavailable("this server no longer owns the game: retry")
            return {"status": err.status, "error": err.to_json(), MOVED: True}
        try:
            return {"ok": await self.local(game_id, op, dict(message.get("args") or {}))}
        except ApiError as e:
            return {"status": e.status, "error": e.to_json()}
        except Exception as e:
            if is_outage(e):
                log.warning("game %s: a forwarded %s met a database outage (%s)", game_id, op, e)
                err = database_down()
            else:
                log.exception("game %s: a forwarded %s failed", game_id, op)
                err = Unavailable("the game's server failed to answer: retry")
            return {"status": err.status, "error": err.to_json()}

